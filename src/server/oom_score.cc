// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "server/oom_score.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "base/logging.h"
#include "base/numbers.h"
#include "base/split.h"
#include "server/server.h"

namespace rankd {
namespace {

constexpr char kPath[] = "/proc/self/oom_score_adj";
bool g_adjusted = false;  // rankd wrote the score since it was last off
int g_base = 0;           // the score before rankd first wrote it

std::string CompatString(const Config& cfg, std::string_view name) {
  auto it = cfg.compat_strings.find(name);
  return it == cfg.compat_strings.end() ? "" : it->second;
}

}  // namespace

std::string RefuseOomScoreValues(std::string_view value) {
  auto words = SplitSpaces(value);
  if (words.size() != 3) return "Invalid oom-score-adj-values, expected 3 values";
  for (std::string_view w : words) {
    int64_t v;
    if (!ParseInt64(w, &v)) return "Invalid oom-score-adj-values, not an integer";
    if (v < -2000 || v > 2000) {
      return "Invalid oom-score-adj-values, elements must be between -2000 and 2000.";
    }
  }
  return "";
}

std::string ApplyOomScoreAdj(const Config& cfg, OomClass cls) {
  const std::string mode = CompatString(cfg, "oom-score-adj");
  int value;
  if (!mode.empty() && mode != "no") {
    if (!g_adjusted) {
      char buf[32] = {};
      int fd = open(kPath, O_RDONLY | O_CLOEXEC);
      if (fd < 0 || read(fd, buf, sizeof(buf) - 1) < 0) {
        std::string e = strerror(errno);
        if (fd >= 0) close(fd);
        LOG_WARNING("Unable to read oom_score_adj: %s", e.c_str());
        return e;
      }
      close(fd);
      g_base = atoi(buf);
      g_adjusted = true;
    }
    auto words = SplitSpaces(CompatString(cfg, "oom-score-adj-values"));
    int64_t v = 0;
    const size_t i = static_cast<size_t>(cls);
    if (i < words.size()) (void)ParseInt64(words[i], &v);
    if (mode != "absolute") v += g_base;  // yes, relative
    value = static_cast<int>(std::clamp<int64_t>(v, -1000, 1000));
  } else if (g_adjusted) {
    g_adjusted = false;
    value = g_base;
  } else {
    return "";
  }
  const std::string text = std::to_string(value) + "\n";
  int fd = open(kPath, O_WRONLY | O_CLOEXEC);
  if (fd < 0 || write(fd, text.data(), text.size()) < 0) {
    std::string e = strerror(errno);
    if (fd >= 0) close(fd);
    LOG_WARNING("Unable to write oom_score_adj: %s", e.c_str());
    return e;
  }
  close(fd);
  return "";
}

void Server::ApplyOomScore() {
  (void)ApplyOomScoreAdj(config_, repl_->is_replica() ? OomClass::kReplica : OomClass::kPrimary);
}

}  // namespace rankd
