// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "server/command_keys.h"

#include "base/numbers.h"

namespace rankd {
namespace {

// Commands with "numkeys key [key ...]": where the count is.
struct NumKeys {
  std::string_view name;
  size_t count_at;
};
constexpr NumKeys kNumKeys[] = {
    {"zunionstore", 2}, {"zinterstore", 2}, {"zdiffstore", 2}, {"zunion", 1},
    {"zinter", 1},      {"zdiff", 1},       {"zintercard", 1}, {"sintercard", 1},
    {"zmpop", 1},       {"bzmpop", 2},      {"eval", 2},       {"evalsha", 2},
    {"eval_ro", 2},     {"evalsha_ro", 2},  {"fcall", 2},      {"fcall_ro", 2},
    {"lmpop", 1},       {"blmpop", 2},
};

}  // namespace

KeyPositionList KeyPositions(const CommandSpec& spec, std::span<const std::string_view> args) {
  KeyPositionList out;
  const int argc = static_cast<int>(args.size());
  if (spec.first_key > 0) {
    const int last = spec.last_key < 0 ? argc + spec.last_key : spec.last_key;
    const int step = spec.key_step > 0 ? spec.key_step : 1;
    for (int i = spec.first_key; i <= last && i < argc; i += step) out.push_back(i);
  }
  // MIGRATE ... KEYS k1 k2: the keys follow KEYS (and "" at 3 is none);
  // option values are skipped as Redis migrateGetKeys does.
  if (spec.name == "migrate") {
    for (size_t j = 6; j < args.size(); j++) {
      if (EqualsIgnoreCase(args[j], "auth")) {
        j += 1;
        continue;
      }
      if (EqualsIgnoreCase(args[j], "auth2")) {
        j += 2;
        continue;
      }
      if (!EqualsIgnoreCase(args[j], "keys")) continue;
      out.clear();
      for (size_t i = j + 1; i < args.size(); i++) out.push_back(i);
      break;
    }
  }
  for (const NumKeys& n : kNumKeys) {
    if (n.name != spec.name || n.count_at >= args.size()) continue;
    int64_t count;
    if (!ParseInt64(args[n.count_at], &count) || count <= 0) break;
    for (size_t i = n.count_at + 1; i < args.size() && count > 0; i++, count--) out.push_back(i);
  }
  return out;
}

KeyPositionList CommandKeyPositions(const FindKeysFn& find, const CommandSpec& spec,
                                    std::string_view full_name,
                                    std::span<const std::string_view> args) {
  std::vector<AclKeyRef> refs;
  if (!find || !find(spec, full_name, args, &refs)) return KeyPositions(spec, args);
  KeyPositionList out;
  for (const AclKeyRef& r : refs) out.push_back(r.pos);
  return out;
}

}  // namespace rankd
