// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "persist/redis_aof.h"

#include <strings.h>

#include <cstdlib>
#include <cstring>
#include <vector>

#include "persist/format.h"

namespace rankd {
namespace {

bool EndsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

bool IEquals(std::string_view a, const char* b) {
  return a.size() == strlen(b) && strncasecmp(a.data(), b, a.size()) == 0;
}

// One line ending in "\n" from data[*pos]; false when the file ends first.
bool ReadLine(std::string_view data, size_t* pos, std::string_view* line) {
  size_t nl = data.find('\n', *pos);
  if (nl == std::string_view::npos) return false;
  *line = data.substr(*pos, nl - *pos);
  if (!line->empty() && line->back() == '\r') line->remove_suffix(1);
  *pos = nl + 1;
  return true;
}

int64_t LineNumber(std::string_view line) {
  std::string digits(line.substr(1));
  return strtoll(digits.c_str(), nullptr, 10);
}

}  // namespace

bool IsRedisAofFileName(std::string_view name) {
  return !EndsWith(name, format::kBaseSuffix) && !EndsWith(name, format::kIncrSuffix);
}

Status ReadRedisAofCommands(std::string_view data, size_t start,
                            const RedisAofCommandFn& on_command, RedisAofEnd* end) {
  using Kind = RedisAofEnd::Kind;
  *end = RedisAofEnd{};
  end->valid_size = start;
  std::vector<std::string_view> args;
  // A MULTI block: its commands' arguments and offsets, applied at EXEC.
  std::vector<std::vector<std::string_view>> queued;
  std::vector<uint64_t> queued_at;
  bool in_multi = false;
  size_t pos = start;
  while (pos < data.size()) {
    const size_t at = pos;
    std::string_view line;
    if (!ReadLine(data, &pos, &line)) {
      if (data[at] == '#') break;  // an annotation cut short carries nothing
      end->kind = Kind::kTruncated;
      return Status::OK();
    }
    if (!line.empty() && line[0] == '#') {
      if (!in_multi) end->valid_size = pos;
      continue;
    }
    if (line.empty() || line[0] != '*' || LineNumber(line) < 1) {
      end->kind = Kind::kBadFormat;
      return Status::OK();
    }
    const int64_t argc = LineNumber(line);
    args.clear();
    for (int64_t i = 0; i < argc; i++) {
      if (!ReadLine(data, &pos, &line)) {
        end->kind = Kind::kTruncated;
        return Status::OK();
      }
      if (line.empty() || line[0] != '$' || LineNumber(line) < 0) {
        end->kind = Kind::kBadFormat;
        return Status::OK();
      }
      const uint64_t len = static_cast<uint64_t>(LineNumber(line));
      if (len + 2 > data.size() - pos) {
        end->kind = Kind::kTruncated;
        return Status::OK();
      }
      args.push_back(data.substr(pos, len));
      pos += len + 2;
    }
    end->commands++;
    if (IEquals(args[0], "multi")) {
      in_multi = true;
      queued.clear();
      queued_at.clear();
      continue;
    }
    if (in_multi && IEquals(args[0], "exec")) {
      in_multi = false;
      for (size_t i = 0; i < queued.size(); i++) {
        Status s = on_command(queued[i], queued_at[i]);
        if (!s.ok()) return s;
      }
      end->valid_size = pos;
      continue;
    }
    if (in_multi) {
      queued.push_back(args);
      queued_at.push_back(at);
      continue;
    }
    Status s = on_command(args, at);
    if (!s.ok()) return s;
    end->valid_size = pos;
  }
  // A MULTI never closed: the block was cut short, as Redis's loader sees it.
  if (in_multi) end->kind = Kind::kTruncated;
  return Status::OK();
}

}  // namespace rankd
