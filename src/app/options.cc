// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "app/options.h"

#include <glob.h>
#include <strings.h>

#include <fstream>
#include <sstream>

namespace rankd {

std::string ParseCommandLine(int argc, char** argv, StartupOptions* out) {
  int i = 1;
  if (i < argc) {
    std::string first = argv[i];
    if (first == "-v" || first == "--version") {
      out->show_version = true;
      return "";
    }
    if (first == "-h" || first == "--help") {
      out->show_help = true;
      return "";
    }
    if (first.rfind("--", 0) != 0) {
      out->config_file = first;
      i++;
    }
  }
  const int first_option = i;
  for (; i < argc; i++) {
    std::string word = argv[i];
    std::string name;
    std::vector<std::string> words;
    if (word.rfind("--", 0) == 0 && word.size() > 2) {
      name = word.substr(2);
    } else if (i == first_option) {
      name = word;  // as Redis: "loglevel verbose" after the config file is a setting too
    } else {
      return "Invalid argument '" + word + "': options are written --name value";
    }
    // As Redis: "--port 6380" in one argument (its words split and unquoted
    // as a config line); a setting's first value may start with "--"
    // (--logfile --my-file), later ones may not; a bare --save before
    // another option means save "".
    if (size_t sp = name.find(' '); sp != std::string::npos) {
      std::vector<std::pair<std::string, std::vector<std::string>>> line;
      if (!ParseConfigText(name, &line).empty() || line.size() != 1) {
        return "Invalid argument '" + word + "'";
      }
      name = line[0].first;
      words = line[0].second;
    }
    while (i + 1 < argc && (words.empty() || std::string(argv[i + 1]).rfind("--", 0) != 0)) {
      if (words.empty() && name == "save" && std::string(argv[i + 1]).rfind("--", 0) == 0) break;
      words.push_back(argv[++i]);
    }
    std::string value;
    for (size_t j = 0; j < words.size(); j++) value += (j ? " " : "") + words[j];
    out->settings.emplace_back(std::move(name), std::move(value));
    out->setting_words.push_back(std::move(words));
  }
  return "";
}

namespace {

using ConfigLines = std::vector<std::pair<std::string, std::vector<std::string>>>;

bool IsDirective(std::string_view name, std::string_view directive) {
  return name.size() == directive.size() &&
         strncasecmp(name.data(), directive.data(), name.size()) == 0;
}

// Reads `path` into lines, replacing each `include <glob>` by the lines of
// the files it names, in order (Redis 7.0 semantics; an include that
// matches nothing is an error). Refuses the directives rankd cannot honour.
std::string ReadConfigFile(const std::string& path, int depth, ConfigLines* out) {
  if (depth > 16) return "Bad config file '" + path + "': includes nested too deeply";
  std::ifstream in(path);
  if (!in) return "Fatal error, can't open config file '" + path + "'";
  std::stringstream ss;
  ss << in.rdbuf();
  ConfigLines lines;
  std::string error = ParseConfigText(ss.str(), &lines);
  if (!error.empty()) return "Bad config file '" + path + "': " + error;
  for (auto& line : lines) {
    const std::string& name = line.first;
    if (IsDirective(name, "include")) {
      if (line.second.size() != 1) return "Bad directive in config file '" + path + "': 'include'";
      glob_t g;
      if (glob(line.second[0].c_str(), 0, nullptr, &g) != 0) {
        return "Fatal error, can't open config file '" + line.second[0] + "'";
      }
      for (size_t i = 0; i < g.gl_pathc && error.empty(); i++) {
        error = ReadConfigFile(g.gl_pathv[i], depth + 1, out);
      }
      globfree(&g);
      if (!error.empty()) return error;
      continue;
    }
    if (IsDirective(name, "loadmodule")) {
      return "Bad directive in config file '" + path + "': 'loadmodule': rankd does not load "
             "Redis modules; remove the line";
    }
    out->push_back(std::move(line));
  }
  return "";
}

bool IsRenameCommand(std::string_view name) { return IsDirective(name, "rename-command"); }

// One rename-command directive's arguments; false when there are not two.
bool AddRename(const std::vector<std::string>& args,
               std::vector<std::pair<std::string, std::string>>* renames) {
  if (args.size() != 2) return false;
  renames->emplace_back(args[0], args[1]);
  return true;
}

}  // namespace

std::string ApplyStartupOptions(const StartupOptions& opts, ConfigTable* table,
                                StartupDirectives* directives) {
  auto* renames = &directives->renames;
  // As Redis: the first "save" (file, then command line) replaces the
  // default save points, each later one adds its points, `save ""` clears.
  bool saw_save = false;
  auto set = [&](const std::string& name, const std::string& value) {
    if (IsDirective(name, "save")) {
      const bool append = saw_save && !value.empty();
      saw_save = true;
      if (append) {
        const auto current = table->Get({"save"});
        if (!current.empty() && !current[0].second.empty()) {
          return table->Set(name, current[0].second + " " + value, /*at_startup=*/true);
        }
      }
    }
    return table->Set(name, value, /*at_startup=*/true);
  };
  if (!opts.config_file.empty()) {
    ConfigLines lines;
    std::string error = ReadConfigFile(opts.config_file, 0, &lines);
    if (!error.empty()) return error;
    for (auto& [name, args] : lines) {
      if (IsDirective(name, "user") && !args.empty()) {
        directives->users.push_back(args);
        continue;
      }
      if (IsRenameCommand(name)) {
        if (AddRename(args, renames)) continue;
        return "Bad directive in config file '" + opts.config_file + "': 'rename-command': " +
               "wrong number of arguments";
      }
      std::string value;
      for (size_t j = 0; j < args.size(); j++) value += (j ? " " : "") + args[j];
      error = set(name, value);
      if (!error.empty()) {
        return "Bad directive in config file '" + opts.config_file + "': '" + name + " " + value +
               "': " + error;
      }
    }
  }
  for (size_t k = 0; k < opts.settings.size(); k++) {
    const auto& [name, value] = opts.settings[k];
    if (IsRenameCommand(name)) {
      // The command line joins words with spaces: `--rename-command CONFIG ""`
      // arrives as "CONFIG " (the empty name last).
      std::vector<std::pair<std::string, std::vector<std::string>>> parsed;
      if (ParseConfigText("rename-command " + value + (value.ends_with(' ') ? "\"\"" : ""),
                          &parsed)
              .empty() &&
          parsed.size() == 1 && AddRename(parsed[0].second, renames)) {
        continue;
      }
      return "Bad option --rename-command '" + value + "': wrong number of arguments";
    }
    if (IsDirective(name, "user")) {  // --user "name rules...", as a config line
      std::vector<std::pair<std::string, std::vector<std::string>>> parsed;
      if (ParseConfigText("user " + value, &parsed).empty() && parsed.size() == 1 &&
          !parsed[0].second.empty()) {
        directives->users.push_back(parsed[0].second);
        continue;
      }
      return "Bad option --user '" + value + "': wrong number of arguments";
    }
    // As Redis, the error shows the setting as a config line of quoted words.
    const std::vector<std::string>& words = opts.setting_words[k];
    std::string line = name;
    for (const std::string& w : words) line += " \"" + w + "\"";
    std::string error;
    if ((words.empty() && !IsDirective(name, "save") && table->TakesOneWord(name)) ||
        (words.size() > 1 && table->TakesOneWord(name))) {
      error = "wrong number of arguments";
    } else {
      error = set(name, value);
    }
    if (!error.empty()) return "Bad option '" + line + "': " + error;
  }
  return "";
}

}  // namespace rankd
