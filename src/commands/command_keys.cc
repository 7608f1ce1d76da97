// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "commands/command_keys.h"

#include <algorithm>
#include <cstdlib>
#include <optional>

#include "base/numbers.h"
#include "commands/zset_args.h"
#include "server/command.h"

namespace rankd {
namespace {

bool HasFlag(const KeySpec& k, std::string_view flag) {
  for (const std::string& f : k.flags) {
    if (f == flag) return true;
  }
  return false;
}

// Redis getKeysUsingKeySpecs: -1 when a spec does not apply (the caller then
// tries the fallback), else the number of keys.
int KeysBySpecs(const ParsedDoc& doc, int arity, std::span<const std::string_view> args,
                std::vector<FoundKey>* keys) {
  const int argc = static_cast<int>(args.size());
  for (const KeySpec& spec : doc.key_specs) {
    if (HasFlag(spec, "not_key")) continue;
    // An incomplete spec (MIGRATE's KEYS) defers to the command's own rule.
    if (HasFlag(spec, "incomplete") && !doc.doc->getkeys.empty()) return -1;
    int first = 0, last = 0, step = 1;
    if (spec.begin == KeySpec::Begin::kIndex) {
      first = spec.index;
    } else if (spec.begin == KeySpec::Begin::kKeyword) {
      int start = spec.index > 0 ? spec.index : argc + spec.index;
      int end = spec.index > 0 ? argc - 1 : 1;
      for (int i = start; i != end; i = start <= end ? i + 1 : i - 1) {
        if (i >= argc || i < 1) break;
        if (EqualsIgnoreCase(args[i], spec.keyword)) {
          first = i + 1;
          break;
        }
      }
      if (!first) continue;
    } else {
      return -1;
    }
    if (spec.find == KeySpec::Find::kRange) {
      step = spec.b;
      if (spec.a >= 0) {
        last = first + spec.a;
      } else if (!spec.c) {
        last = argc + spec.a;
      } else {
        last = first + ((argc - first) / spec.c + spec.a);
      }
    } else if (spec.find == KeySpec::Find::kKeynum) {
      step = spec.c;
      if (spec.a >= argc - first) {
        if (arity < 0) continue;
        return -1;
      }
      int64_t numkeys;
      if (!ParseInt64(args[first + spec.a], &numkeys) || numkeys < 0) return -1;
      first += spec.b;
      // Redis's `first + (int)numkeys - 1`, summed in 64 bits (a count near
      // INT_MAX overflowed int) and clamped to a range the check below
      // rejects when it is out of bounds.
      last = static_cast<int>(
          std::clamp<int64_t>(int64_t{first} + static_cast<int>(numkeys) - 1, -1, argc));
    } else {
      return -1;
    }
    if (last >= argc || last < first || first >= argc) return -1;
    for (int i = first; i <= last; i += step) {
      FoundKey k{static_cast<size_t>(i), {}};
      for (const std::string& f : spec.flags) k.flags.push_back(f);
      keys->push_back(std::move(k));
    }
    if (HasFlag(spec, "incomplete")) return -1;
  }
  return static_cast<int>(keys->size());
}

// Redis sortGetKeys: the sorted key, and the last STORE's destination
// (LIMIT skips 2 words, GET and BY 1).
void SortKeys(std::span<const std::string_view> args, std::vector<FoundKey>* keys) {
  keys->push_back({1, {"RO", "access"}});
  std::optional<size_t> store;
  for (size_t i = 2; i < args.size(); i++) {
    if (EqualsIgnoreCase(args[i], "limit")) {
      i += 2;
    } else if (EqualsIgnoreCase(args[i], "get") || EqualsIgnoreCase(args[i], "by")) {
      i += 1;
    } else if (EqualsIgnoreCase(args[i], "store") && i + 1 < args.size()) {
      store = i + 1;
    }
  }
  if (store) keys->push_back({*store, {"OW", "update"}});
}

// Redis bitfieldGetKeys: read-only while every operation is GET (or
// OVERFLOW); anything else, a syntax error included, counts as a write.
void BitfieldKeys(std::span<const std::string_view> args, std::vector<FoundKey>* keys) {
  bool readonly = true;
  for (size_t i = 2; i < args.size() && readonly; i++) {
    const size_t rest = args.size() - i - 1;
    if (EqualsIgnoreCase(args[i], "get") && rest >= 2) {
      i += 2;
    } else if (EqualsIgnoreCase(args[i], "overflow") && rest >= 1) {
      i += 1;
    } else {
      readonly = false;
    }
  }
  keys->push_back({1, readonly ? std::vector<std::string_view>{"RO", "access"}
                               : std::vector<std::string_view>{"RW", "access", "update"}});
}

// Redis's getkeys_proc fallbacks: genericGetKeys, setGetKeys, sortGetKeys,
// sortROGetKeys and bitfieldGetKeys.
void KeysByFallback(std::string_view how, std::span<const std::string_view> args,
                    std::vector<FoundKey>* keys) {
  const int argc = static_cast<int>(args.size());
  if (how == "sort") return SortKeys(args, keys);
  if (how == "sort_ro") return keys->push_back({1, {"RO", "access"}});
  if (how == "bitfield") return BitfieldKeys(args, keys);
  if (how == "set") {
    FoundKey k{1, {"OW", "update"}};
    for (int i = 3; i < argc; i++) {
      if (EqualsIgnoreCase(args[i], "get")) k.flags = {"RW", "access", "update"};
    }
    keys->push_back(std::move(k));
    return;
  }
  if (how == "migrate") {  // Redis migrateGetKeys: "key", or what follows KEYS
    size_t first = 3, num = 1;
    for (size_t i = 6; i < args.size(); i++) {
      if (EqualsIgnoreCase(args[i], "keys")) {
        if (!args[3].empty()) return;
        first = i + 1, num = args.size() - first;
        break;
      }
      if (EqualsIgnoreCase(args[i], "auth")) i += 1;
      else if (EqualsIgnoreCase(args[i], "auth2")) i += 2;
    }
    for (size_t i = 0; i < num; i++) keys->push_back({first + i, {"RW", "access", "delete"}});
    return;
  }
  if (how == "bzpopdue") {  // key [key ...] timeout [UNIT MS|S] (zset_due_family.cc)
    const bool unit = DueTrailingUnit(args);
    for (int i = 1; i < argc - (unit ? 3 : 1); i++) {
      keys->push_back({static_cast<size_t>(i), {"RW", "access", "delete"}});
    }
    return;
  }
  int store, count, first, step;
  if (sscanf(std::string(how).c_str(), "%d %d %d %d", &store, &count, &first, &step) != 4) return;
  if (count >= argc) return;
  // atoi, as Redis: "2abc" reads as 2.
  int num = atoi(std::string(args[count]).c_str());
  if (num < 1 || num > (argc - first) / step) return;
  for (int i = 0; i < num; i++) keys->push_back({static_cast<size_t>(first + i * step), {}});
  if (store) keys->push_back({static_cast<size_t>(store), {}});
}

}  // namespace

bool FindAclKeys(const CommandSpec& spec, std::string_view full_name,
                 std::span<const std::string_view> args, std::vector<AclKeyRef>* keys) {
  const ParsedDoc* doc = FindCommandDoc(full_name);
  if (!doc) return false;
  keys->clear();
  if (!HasKeys(*doc)) return true;
  std::vector<FoundKey> found;
  FindKeys(*doc, spec.arity, args, &found);
  for (const FoundKey& k : found) {
    AclKeyRef ref{k.pos};
    for (std::string_view f : k.flags) {
      if (f == "access") ref.read = true;
      if (f == "insert" || f == "delete" || f == "update") ref.write = true;
    }
    keys->push_back(ref);
  }
  return true;
}

bool HasKeys(const ParsedDoc& doc) {
  if (!doc.doc->getkeys.empty()) return true;
  for (const KeySpec& k : doc.key_specs) {
    if (!HasFlag(k, "not_key")) return true;
  }
  return false;
}

bool FindKeys(const ParsedDoc& doc, int arity, std::span<const std::string_view> args,
              std::vector<FoundKey>* keys) {
  keys->clear();
  bool variable_flags = false, has_keyspec = false;
  for (const KeySpec& k : doc.key_specs) {
    variable_flags |= HasFlag(k, "variable_flags");
    has_keyspec |= !HasFlag(k, "not_key");
  }
  if (has_keyspec && !variable_flags) {
    int n = KeysBySpecs(doc, arity, args, keys);
    if (n > 0) return true;
    if (n == 0) return false;
    keys->clear();
  }
  std::string_view how = doc.doc->getkeys;
  // Commands whose Redis getkeys_proc the docs do not name (it would show
  // them as movablekeys, which Redis 7.0 does not for BITFIELD).
  if (how.empty() && (doc.doc->name == "sort" || doc.doc->name == "sort_ro" ||
                      doc.doc->name == "bitfield")) {
    how = doc.doc->name;
  }
  if (!how.empty()) KeysByFallback(how, args, keys);
  return !keys->empty();
}

}  // namespace rankd
