// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// Parses the CommandDoc grammars (command_docs.h) once, on first use.

#include "commands/command_docs.h"

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <optional>

#include "absl/container/flat_hash_map.h"
#include "base/split.h"
#include "commands/families.h"
#include "server/acl_categories.h"
#include "server/command_ids.h"

namespace rankd {
namespace {

std::string Unescape(std::string_view s) {
  std::string out;
  for (size_t i = 0; i < s.size(); i++) {
    if (s[i] == '%' && i + 2 < s.size()) {
      std::string hex(s.substr(i + 1, 2));
      out.push_back(static_cast<char>(strtol(hex.c_str(), nullptr, 16)));
      i += 2;
    } else {
      out.push_back(s[i]);
    }
  }
  return out;
}

std::vector<std::string_view> Words(std::string_view s) { return SplitSpaces(s); }

// Parses arguments from `s` at `*pos` until the end or a ')'.
std::vector<ArgDoc> ParseArgs(std::string_view s, size_t* pos) {
  std::vector<ArgDoc> out;
  while (*pos < s.size()) {
    if (s[*pos] == ' ') {
      ++*pos;
      continue;
    }
    if (s[*pos] == ')') {
      ++*pos;
      break;
    }
    size_t end = s.find_first_of(" ()", *pos);
    if (end == std::string_view::npos) end = s.size();
    std::string_view word = s.substr(*pos, end - *pos);
    *pos = end;
    ArgDoc a;
    size_t colon = word.find(':');
    a.name = Unescape(word.substr(0, colon));
    std::string_view rest = word.substr(colon + 1);
    size_t i = rest.find_first_of("@=^!?*+");
    a.type = std::string(rest.substr(0, i));
    while (i < rest.size()) {
      char mark = rest[i];
      size_t next = rest.find_first_of("@=^!?*+", i + 1);
      if (next == std::string_view::npos) next = rest.size();
      std::string_view value = rest.substr(i + 1, next - i - 1);
      switch (mark) {
        case '@': a.key_spec_index = atoi(std::string(value).c_str()); break;
        case '=': a.token = Unescape(value), a.has_token = true; break;
        case '^': a.since = std::string(value); break;
        case '!': a.deprecated_since = std::string(value); break;
        case '?': a.optional = true; break;
        case '*': a.multiple = true; break;
        case '+': a.multiple_token = true; break;
      }
      i = next;
    }
    if (*pos < s.size() && s[*pos] == '(') {
      ++*pos;
      a.args = ParseArgs(s, pos);
    }
    out.push_back(std::move(a));
  }
  return out;
}

KeySpec ParseKeySpec(std::string_view line) {
  KeySpec k;
  std::vector<std::string_view> parts;
  size_t start = 0;
  for (size_t i = 0; i <= line.size(); i++) {
    if (i == line.size() || line[i] == '|') {
      parts.push_back(line.substr(start, i - start));
      start = i + 1;
    }
  }
  parts.resize(4);
  for (std::string_view f : Words(parts[0])) k.flags.emplace_back(f);
  std::vector<std::string_view> bs = Words(parts[1]), fk = Words(parts[2]);
  auto num = [](std::string_view v) { return atoi(std::string(v).c_str()); };
  if (bs.size() == 2 && bs[0] == "index") {
    k.begin = KeySpec::Begin::kIndex;
    k.index = num(bs[1]);
  } else if (bs.size() == 3 && bs[0] == "keyword") {
    k.begin = KeySpec::Begin::kKeyword;
    k.keyword = Unescape(bs[1]);
    k.index = num(bs[2]);
  }
  if (fk.size() == 4) {
    k.find = fk[0] == "range" ? KeySpec::Find::kRange : KeySpec::Find::kKeynum;
    k.a = num(fk[1]);
    k.b = num(fk[2]);
    k.c = num(fk[3]);
  }
  k.notes = Unescape(parts[3]);
  return k;
}

ParsedDoc Parse(const CommandDoc& doc) {
  ParsedDoc p;
  p.doc = &doc;
  size_t pos = 0;
  p.arguments = ParseArgs(doc.arguments, &pos);
  std::string_view specs = doc.key_specs;
  while (!specs.empty()) {
    size_t eol = specs.find('\n');
    p.key_specs.push_back(ParseKeySpec(specs.substr(0, eol)));
    specs = eol == std::string_view::npos ? "" : specs.substr(eol + 1);
  }
  std::string_view history = doc.history;
  while (!history.empty()) {
    size_t eol = history.find('\n');
    std::string_view line = history.substr(0, eol);
    size_t sp = line.find(' ');
    p.history.emplace_back(std::string(line.substr(0, sp)), std::string(line.substr(sp + 1)));
    history = eol == std::string_view::npos ? "" : history.substr(eol + 1);
  }
  p.extra_flags = Words(doc.extra_flags);
  p.acl_categories = Words(doc.acl_categories);
  p.tips = Words(doc.tips);
  p.doc_flags = Words(doc.doc_flags);
  // Redis's populateCommandMovableKeys (SET's flag-only fallback aside).
  p.movable_keys = !doc.getkeys.empty() && doc.getkeys != "set";
  for (const KeySpec& k : p.key_specs) {
    if (k.begin != KeySpec::Begin::kIndex || k.find != KeySpec::Find::kRange) {
      p.movable_keys = true;
    }
  }
  return p;
}

struct DocIndex {
  absl::flat_hash_map<std::string_view, std::unique_ptr<ParsedDoc>> by_name;
};

const DocIndex& Index() {
  static const DocIndex* index = [] {
    auto* idx = new DocIndex;
    for (auto table : {KeyCommandDocs, StringCommandDocs, ZSetCommandDocs, ZSetRangeCommandDocs,
                       SetCommandDocs, ServerCommandDocs, ServerAdminCommandDocs,
                       ConnectionCommandDocs, ScriptingCommandDocs, LeaderboardCommandDocs,
                       MemberExpiryCommandDocs, HashExpiryCommandDocs,
                       BitmapCommandDocs, GeoCommandDocs, HashCommandDocs, ListCommandDocs,
                       PubSubCommandDocs, ClusterCommandDocs, HyperLogLogCommandDocs,
                       StreamCommandDocs}) {
      for (const CommandDoc& doc : table()) {
        idx->by_name[doc.name] = std::make_unique<ParsedDoc>(Parse(doc));
      }
    }
    return idx;
  }();
  return *index;
}

}  // namespace

const ParsedDoc* FindCommandDoc(std::string_view full_name) {
  auto it = Index().by_name.find(full_name);
  return it == Index().by_name.end() ? nullptr : it->second.get();
}

std::vector<std::string_view> DocumentedSubcommands(std::string_view container) {
  std::vector<std::string_view> out;
  for (const auto& [name, doc] : Index().by_name) {
    if (name.size() > container.size() && name.substr(0, container.size()) == container &&
        name[container.size()] == '|') {
      out.push_back(name);
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

void ApplyDocumentedCategories(CommandIds& ids) {
  for (int id = 0; id < ids.size(); id++) {
    const ParsedDoc* doc = FindCommandDoc(ids.NameOf(id));
    if (!doc || doc->acl_categories.empty()) continue;
    uint64_t cats = 0;
    for (std::string_view word : doc->acl_categories) {
      std::optional<uint64_t> bit = AclCategoryByName(word.substr(word.starts_with('@') ? 1 : 0));
      if (bit) cats |= *bit;
    }
    ids.SetCategories(id, cats);
  }
}

}  // namespace rankd
