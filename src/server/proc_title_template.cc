// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "server/proc_title_template.h"

#include "base/proc_title.h"

namespace rankd {
namespace {

std::string CompatString(const Config& config, const std::string& name, std::string fallback) {
  auto it = config.compat_strings.find(name);
  return it == config.compat_strings.end() ? fallback : it->second;
}

bool CompatBool(const Config& config, const std::string& name, bool fallback) {
  auto it = config.compat_bools.find(name);
  return it == config.compat_bools.end() ? fallback : it->second;
}

std::optional<std::string> Variable(std::string_view name, const Config& config,
                                    std::string_view title) {
  if (name == "title") return std::string(title);
  if (name == "listen-addr") {
    if (config.port == 0 && config.tls_port == 0) return "unixsocket:" + config.unixsocket;
    return (config.bind.empty() ? std::string("*") : config.bind[0]) + ":" +
           std::to_string(config.port != 0 ? config.port : config.tls_port);
  }
  if (name == "server-mode") {
    return CompatBool(config, "cluster-enabled", false) ? "[cluster]" : "";
  }
  if (name == "port") return std::to_string(config.port);
  if (name == "tls-port") return std::to_string(config.tls_port);
  if (name == "unixsocket") return config.unixsocket;
  if (name == "config-file") return config.config_file;
  return std::nullopt;
}

}  // namespace

std::optional<std::string> ExpandProcTitle(std::string_view tmpl, const Config& config,
                                           std::string_view title) {
  std::string out;
  size_t pos = 0;
  while (pos < tmpl.size()) {
    const size_t open = tmpl.find('{', pos);
    if (open == std::string_view::npos) {
      out.append(tmpl.substr(pos));
      break;
    }
    out.append(tmpl.substr(pos, open - pos));
    if (open + 1 == tmpl.size()) return std::nullopt;
    if (tmpl[open + 1] == '{') {  // "{{": a literal brace
      out.push_back('{');
      pos = open + 2;
      continue;
    }
    const size_t close = tmpl.find('}', open + 1);
    if (close == std::string_view::npos) return std::nullopt;
    std::optional<std::string> value = Variable(tmpl.substr(open + 1, close - open - 1), config, title);
    if (!value) return std::nullopt;
    out.append(*value);
    pos = close + 1;
  }
  const size_t first = out.find_first_not_of(' ');
  if (first == std::string::npos) return std::string();
  return out.substr(first, out.find_last_not_of(' ') - first + 1);
}

std::string RefuseProcTitleTemplate(std::string_view tmpl) {
  // As Redis: checked with an empty {title}, so a template must give more.
  std::optional<std::string> title = ExpandProcTitle(tmpl, Config(), "");
  if (!title || title->empty()) return "template format is invalid or contains unknown variables";
  return "";
}

void ApplyProcTitle(const Config& config) {
  if (!CompatBool(config, "set-proc-title", true)) return;
  const std::string tmpl = CompatString(config, "proc-title-template", "{title} {listen-addr} {server-mode}");
  std::optional<std::string> title = ExpandProcTitle(tmpl, config, ProcTitleExecName());
  if (title && !title->empty()) SetProcTitle(*title);
}

}  // namespace rankd
