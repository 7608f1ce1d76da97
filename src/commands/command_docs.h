// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// CommandDoc: how Redis 7.0 describes a command to COMMAND INFO / DOCS /
// LIST / GETKEYS, for every command rankd has. The family tables
// (CommandSpec) say how rankd runs a command; a CommandDoc says what the
// command is (summary, arguments, ACL categories, key specs). Most tables are
// generated from redis-server 7.0 by scripts/gen_command_docs.py
// (command_docs_<group>.cc); rankd's own commands are described by hand
// (command_docs_leaderboard.cc).
//
// Strings hold small grammars, parsed once on first use:
//   arguments   space-separated arguments, each
//                 name:type[@key_spec_index][=TOKEN][^since][!deprecated_since]
//                 [?][*][+][(nested)]
//               ? optional, * multiple, + multiple_token; "%XX" escapes a
//               byte of " ()@=^!?*+%:|" in names, tokens and notes.
//   key_specs   one spec a line: "flags|begin_search|find_keys|notes", with
//               begin_search "index N" or "keyword KW STARTFROM" and
//               find_keys "range LASTKEY STEP LIMIT" or "keynum IDX FIRST STEP".
//   history     one "version text" entry a line.
//   getkeys     Redis's key-finding fallback when the key specs fail:
//               "store count first step" (genericGetKeys) or "set".

#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace rankd {

struct CommandDoc {
  std::string_view name;  // "zadd", "client|list"
  std::string_view summary;
  std::string_view since;
  std::string_view group;
  std::string_view complexity;
  std::string_view doc_flags;  // "deprecated syscmd"
  std::string_view deprecated_since;
  std::string_view replaced_by;
  std::string_view history;
  std::string_view arguments;
  // Redis's arity, first key, last key, step: reported for subcommands that
  // rankd's tables do not list (their container parses them itself).
  struct Legacy {
    int arity, first, last, step;
  } legacy = {0, 0, 0, 0};
  std::string_view extra_flags;  // COMMAND INFO flags CommandFlags lacks
  std::string_view acl_categories;  // "@write @sortedset @fast"
  std::string_view tips;
  std::string_view key_specs;
  std::string_view getkeys;
};

// One key spec, parsed.
struct KeySpec {
  std::vector<std::string> flags;  // "RW", "access", ... in Redis's order
  std::string notes;
  enum class Begin { kIndex, kKeyword, kUnknown } begin = Begin::kUnknown;
  int index = 0;  // kIndex: position; kKeyword: startfrom
  std::string keyword;
  enum class Find { kRange, kKeynum, kUnknown } find = Find::kUnknown;
  int a = 0, b = 0, c = 0;  // range: lastkey, keystep, limit; keynum: idx, first, step
};

// One documented argument, parsed.
struct ArgDoc {
  std::string name, type, token, since, deprecated_since;
  int key_spec_index = -1;
  bool optional = false, multiple = false, multiple_token = false;
  bool has_token = false;  // a token, possibly "" (MIGRATE's empty_string)
  std::vector<ArgDoc> args;  // oneof / block
};

// A CommandDoc with its grammars parsed.
struct ParsedDoc {
  const CommandDoc* doc = nullptr;
  std::vector<KeySpec> key_specs;
  std::vector<ArgDoc> arguments;
  std::vector<std::pair<std::string, std::string>> history;
  std::vector<std::string_view> extra_flags, acl_categories, tips, doc_flags;
  bool movable_keys = false;  // a getkeys fallback or a spec that is not index+range
};

// The doc of `full_name` (lower case, "client|list"), or nullptr.
const ParsedDoc* FindCommandDoc(std::string_view full_name);
// Names of documented subcommands of `container` ("client"), sorted.
std::vector<std::string_view> DocumentedSubcommands(std::string_view container);

// The tables (command_docs_<group>.cc).
std::span<const CommandDoc> KeyCommandDocs();
std::span<const CommandDoc> StringCommandDocs();
std::span<const CommandDoc> ZSetCommandDocs();
std::span<const CommandDoc> ZSetRangeCommandDocs();
std::span<const CommandDoc> SetCommandDocs();
std::span<const CommandDoc> ServerCommandDocs();
std::span<const CommandDoc> ServerAdminCommandDocs();
std::span<const CommandDoc> ConnectionCommandDocs();
std::span<const CommandDoc> ScriptingCommandDocs();
std::span<const CommandDoc> LeaderboardCommandDocs();
std::span<const CommandDoc> BitmapCommandDocs();
std::span<const CommandDoc> GeoCommandDocs();
std::span<const CommandDoc> HashCommandDocs();
std::span<const CommandDoc> ListCommandDocs();
std::span<const CommandDoc> PubSubCommandDocs();

}  // namespace rankd
