// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// COMMAND, COMMAND COUNT / INFO / DOCS / LIST / GETKEYS / GETKEYSANDFLAGS:
// what client libraries, redis-cli and cluster proxies ask to learn the
// command set. Replies have Redis 7.0's shape; the facts come from the
// command tables (arity, flags) and the docs tables (command_docs.h).

#include <string>
#include <vector>

#include "base/glob.h"
#include "commands/command_docs.h"
#include "commands/command_keys.h"
#include "commands/server_handlers.h"
#include "server/errors.h"
#include "server/server.h"

namespace rankd {
namespace {

// A command or subcommand as introspection sees it. `spec` is null for a
// documented subcommand its container parses itself (SCRIPT LOAD).
struct Entry {
  const CommandSpec* spec = nullptr;
  std::string name;  // "get", "client|list"
  const ParsedDoc* doc = nullptr;
  std::vector<Entry> subcommands;
};

Entry MakeEntry(const CommandSpec& spec) {
  Entry e{&spec, std::string(spec.name), FindCommandDoc(spec.name), {}};
  for (const CommandSpec& sub : spec.subcommands) {
    std::string full = e.name + "|" + std::string(sub.name);
    e.subcommands.push_back({&sub, full, FindCommandDoc(full), {}});
  }
  if (spec.subcommands.empty()) {
    for (std::string_view full : DocumentedSubcommands(spec.name)) {
      e.subcommands.push_back({nullptr, std::string(full), FindCommandDoc(full), {}});
    }
  }
  return e;
}

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& ch : out) ch = static_cast<char>(tolower(static_cast<unsigned char>(ch)));
  return out;
}

// "get" or "client|list" (COMMAND INFO / DOCS names), or nullopt.
std::optional<Entry> FindEntry(Server& server, std::string_view name) {
  std::string lower = Lower(name);
  size_t bar = lower.find('|');
  const CommandSpec* spec = server.FindCommand(lower.substr(0, bar));
  if (!spec) return std::nullopt;
  Entry top = MakeEntry(*spec);
  if (bar == std::string::npos) return top;
  for (Entry& sub : top.subcommands) {
    if (sub.name == lower) return std::move(sub);
  }
  return std::nullopt;
}

// Redis's addReplyCommandFlags order.
void ReportedFlags(const Entry& e, std::vector<std::string_view>* out) {
  static constexpr std::pair<uint32_t, std::string_view> kOrder[] = {
      {kWrite, "write"},       {kReadOnly, "readonly"}, {kDenyOom, "denyoom"},
      {0, "module"},           {kAdmin, "admin"},       {0, "pubsub"},
      {kNoScript, "noscript"}, {kBlocking, "blocking"}, {kLoading, "loading"},
      {kStale, "stale"},       {0, "skip_monitor"},     {0, "skip_slowlog"},
      {0, "asking"},           {kFast, "fast"},         {kNoAuth, "no_auth"},
      {0, "no_mandatory_keys"}, {0, "no_async_loading"}, {0, "no_multi"},
      {0, "movablekeys"},      {0, "allow_busy"}};
  // A container's flags are all in its doc (its table entry's flags only
  // serve the arity error of a bare "CLIENT").
  const bool container = !e.subcommands.empty();
  for (auto [bit, name] : kOrder) {
    bool on = bit && e.spec && !container && (e.spec->flags & bit);
    if (e.doc) {
      for (std::string_view f : e.doc->extra_flags) on |= f == name;
      on |= name == "movablekeys" && e.doc->movable_keys;
    }
    if (on) out->push_back(name);
  }
}

void KeySpecReply(ReplyBuilder& r, const KeySpec& k) {
  r.MapHeader(k.notes.empty() ? 3 : 4);
  if (!k.notes.empty()) {
    r.Bulk("notes");
    r.Bulk(k.notes);
  }
  r.Bulk("flags");
  r.SetHeader(k.flags.size());
  for (const std::string& f : k.flags) r.SimpleString(f);
  r.Bulk("begin_search");
  r.MapHeader(2);
  r.Bulk("type");
  if (k.begin == KeySpec::Begin::kIndex) {
    r.Bulk("index");
    r.Bulk("spec");
    r.MapHeader(1);
    r.Bulk("index");
    r.Integer(k.index);
  } else if (k.begin == KeySpec::Begin::kKeyword) {
    r.Bulk("keyword");
    r.Bulk("spec");
    r.MapHeader(2);
    r.Bulk("keyword");
    r.Bulk(k.keyword);
    r.Bulk("startfrom");
    r.Integer(k.index);
  } else {
    r.Bulk("unknown");
    r.Bulk("spec");
    r.MapHeader(0);
  }
  r.Bulk("find_keys");
  r.MapHeader(2);
  r.Bulk("type");
  static constexpr std::string_view kRange[] = {"lastkey", "keystep", "limit"};
  static constexpr std::string_view kKeynum[] = {"keynumidx", "firstkey", "keystep"};
  const std::string_view* names = k.find == KeySpec::Find::kRange ? kRange : kKeynum;
  if (k.find == KeySpec::Find::kUnknown) {
    r.Bulk("unknown");
    r.Bulk("spec");
    r.MapHeader(0);
    return;
  }
  r.Bulk(k.find == KeySpec::Find::kRange ? "range" : "keynum");
  r.Bulk("spec");
  r.MapHeader(3);
  const int values[] = {k.a, k.b, k.c};
  for (int i = 0; i < 3; i++) {
    r.Bulk(names[i]);
    r.Integer(values[i]);
  }
}

// One COMMAND INFO entry, Redis 7.0 shape: name, arity, flags, first key,
// last key, step, ACL categories, tips, key specs, subcommands.
void InfoReply(ReplyBuilder& r, const Entry& e) {
  const ParsedDoc* d = e.doc;
  r.ArrayHeader(10);
  r.Bulk(e.name);
  r.Integer(e.spec ? e.spec->arity : d->doc->legacy.arity);
  std::vector<std::string_view> flags;
  ReportedFlags(e, &flags);
  r.SetHeader(flags.size());
  for (auto f : flags) r.SimpleString(f);
  // Hand-written docs (LB.*) may leave `legacy` unset: the table knows.
  if (d && (d->doc->legacy.arity != 0 || !e.spec)) {
    r.Integer(d->doc->legacy.first);
    r.Integer(d->doc->legacy.last);
    r.Integer(d->doc->legacy.step);
  } else {
    r.Integer(e.spec->first_key);
    r.Integer(e.spec->last_key);
    r.Integer(e.spec->key_step);
  }
  r.SetHeader(d ? d->acl_categories.size() : 0);
  if (d) {
    for (auto c : d->acl_categories) r.SimpleString(c);
  }
  r.SetHeader(d ? d->tips.size() : 0);
  if (d) {
    for (auto t : d->tips) r.Bulk(t);
  }
  r.SetHeader(d ? d->key_specs.size() : 0);
  if (d) {
    for (const KeySpec& k : d->key_specs) KeySpecReply(r, k);
  }
  if (e.subcommands.empty()) return r.SetHeader(0);
  r.ArrayHeader(e.subcommands.size());
  for (const Entry& sub : e.subcommands) InfoReply(r, sub);
}

void ArgsReply(ReplyBuilder& r, const std::vector<ArgDoc>& args) {
  r.ArrayHeader(args.size());
  for (const ArgDoc& a : args) {
    bool nested = a.type == "oneof" || a.type == "block";
    bool has_flags = a.optional || a.multiple || a.multiple_token;
    r.MapHeader(2 + (a.key_spec_index >= 0) + a.has_token + !a.since.empty() +
                !a.deprecated_since.empty() + has_flags + nested);
    r.Bulk("name");
    r.Bulk(a.name);
    r.Bulk("type");
    r.Bulk(a.type);
    if (a.key_spec_index >= 0) {
      r.Bulk("key_spec_index");
      r.Integer(a.key_spec_index);
    }
    auto text = [&](std::string_view k, const std::string& v) {
      if (v.empty()) return;
      r.Bulk(k);
      r.Bulk(v);
    };
    if (a.has_token) {
      r.Bulk("token");
      r.Bulk(a.token);
    }
    text("since", a.since);
    text("deprecated_since", a.deprecated_since);
    if (has_flags) {
      r.Bulk("flags");
      r.SetHeader(a.optional + a.multiple + a.multiple_token);
      if (a.optional) r.SimpleString("optional");
      if (a.multiple) r.SimpleString("multiple");
      if (a.multiple_token) r.SimpleString("multiple_token");
    }
    if (nested) {
      r.Bulk("arguments");
      ArgsReply(r, a.args);
    }
  }
}

// One COMMAND DOCS value (Redis addReplyCommandDocs).
void DocsReply(ReplyBuilder& r, const Entry& e) {
  const CommandDoc empty{};
  const CommandDoc& d = e.doc ? *e.doc->doc : empty;
  const bool subs = !e.subcommands.empty();
  r.MapHeader(1 + !d.summary.empty() + !d.since.empty() + !d.complexity.empty() +
              !d.doc_flags.empty() + !d.deprecated_since.empty() + !d.replaced_by.empty() +
              !d.history.empty() + !d.arguments.empty() + subs);
  auto text = [&](std::string_view k, std::string_view v) {
    if (v.empty()) return;
    r.Bulk(k);
    r.Bulk(v);
  };
  text("summary", d.summary);
  text("since", d.since);
  r.Bulk("group");
  r.Bulk(d.group.empty() ? "server" : d.group);
  text("complexity", d.complexity);
  if (!d.doc_flags.empty()) {
    r.Bulk("doc_flags");
    r.SetHeader(e.doc->doc_flags.size());
    for (auto f : e.doc->doc_flags) r.SimpleString(f);
  }
  text("deprecated_since", d.deprecated_since);
  text("replaced_by", d.replaced_by);
  if (!d.history.empty()) {
    r.Bulk("history");
    r.SetHeader(e.doc->history.size());
    for (const auto& [version, what] : e.doc->history) {
      r.ArrayHeader(2);
      r.Bulk(version);
      r.Bulk(what);
    }
  }
  if (!d.arguments.empty()) {
    r.Bulk("arguments");
    ArgsReply(r, e.doc->arguments);
  }
  if (subs) {
    r.Bulk("subcommands");
    r.MapHeader(e.subcommands.size());
    for (const Entry& sub : e.subcommands) {
      r.Bulk(sub.name);
      DocsReply(r, sub);
    }
  }
}

std::vector<Entry> AllEntries(Server& server) {
  std::vector<Entry> out;
  for (const CommandSpec* spec : server.commands()) out.push_back(MakeEntry(*spec));
  return out;
}

// COMMAND LIST [FILTERBY MODULE m | ACLCAT c | PATTERN p]
void ListCmd(CommandContext& ctx) {
  std::string_view type, arg;
  for (size_t i = 2; i < ctx.argc(); i++) {
    if (EqualsIgnoreCase(ctx.arg(i), "FILTERBY") && ctx.argc() - 1 - i == 2 &&
        (EqualsIgnoreCase(ctx.arg(i + 1), "MODULE") || EqualsIgnoreCase(ctx.arg(i + 1), "ACLCAT") ||
         EqualsIgnoreCase(ctx.arg(i + 1), "PATTERN"))) {
      type = ctx.arg(i + 1);
      arg = ctx.arg(i + 2);
      i += 2;
    } else {
      return ctx.reply.Error(err::kSyntax);
    }
  }
  auto matches = [&](const Entry& e) {
    if (type.empty()) return true;
    if (EqualsIgnoreCase(type, "MODULE")) return false;  // rankd loads no modules
    if (EqualsIgnoreCase(type, "PATTERN")) return GlobMatch(arg, e.name, true);
    if (!e.doc) return false;
    for (std::string_view c : e.doc->acl_categories) {
      if (EqualsIgnoreCase(c.substr(1), arg)) return true;
    }
    return false;
  };
  std::vector<std::string> names;
  for (const Entry& e : AllEntries(ctx.server)) {
    if (matches(e)) names.push_back(e.name);
    for (const Entry& sub : e.subcommands) {
      if (matches(sub)) names.push_back(sub.name);
    }
  }
  ctx.reply.ArrayHeader(names.size());
  for (const std::string& n : names) ctx.reply.Bulk(n);
}

// COMMAND GETKEYS / GETKEYSANDFLAGS <full command line>
void GetKeysCmd(CommandContext& ctx, bool with_flags) {
  std::span<const std::string_view> line = ctx.args.subspan(2);
  std::optional<Entry> e = FindEntry(ctx.server, line[0]);
  if (e && !e->subcommands.empty() && line.size() >= 2) {
    std::optional<Entry> sub =
        FindEntry(ctx.server, std::string(line[0]) + "|" + std::string(line[1]));
    e = std::move(sub);
  } else if (e && e->name.find('|') != std::string::npos) {
    e.reset();  // "client|list" is not a command line
  }
  if (!e) return ctx.reply.Error("ERR Invalid command specified");
  if (!e->doc || !HasKeys(*e->doc)) return ctx.reply.Error("ERR The command has no key arguments");
  int arity = e->spec ? e->spec->arity : e->doc->doc->legacy.arity;
  if (!ArityAccepts(arity, line.size())) {
    return ctx.reply.Error("ERR Invalid number of arguments specified for command");
  }
  std::vector<FoundKey> keys;
  if (!FindKeys(*e->doc, arity, line, &keys)) {
    for (std::string_view f : e->doc->extra_flags) {
      if (f == "no_mandatory_keys") return ctx.reply.ArrayHeader(0);
    }
    return ctx.reply.Error("ERR Invalid arguments specified for command");
  }
  ctx.reply.ArrayHeader(keys.size());
  for (const FoundKey& k : keys) {
    if (!with_flags) {
      ctx.reply.Bulk(line[k.pos]);
      continue;
    }
    ctx.reply.ArrayHeader(2);
    ctx.reply.Bulk(line[k.pos]);
    ctx.reply.SetHeader(k.flags.size());
    for (std::string_view f : k.flags) ctx.reply.SimpleString(f);
  }
}

void InfoOrAll(CommandContext& ctx) {
  if (ctx.argc() <= 2) {
    std::vector<Entry> all = AllEntries(ctx.server);
    ctx.reply.ArrayHeader(all.size());
    for (const Entry& e : all) InfoReply(ctx.reply, e);
    return;
  }
  ctx.reply.ArrayHeader(ctx.argc() - 2);
  for (size_t i = 2; i < ctx.argc(); i++) {
    std::optional<Entry> e = FindEntry(ctx.server, ctx.arg(i));
    e ? InfoReply(ctx.reply, *e) : ctx.reply.Null();
  }
}

void DocsCmd(CommandContext& ctx) {
  std::vector<Entry> entries;
  if (ctx.argc() == 2) {
    entries = AllEntries(ctx.server);
  } else {
    for (size_t i = 2; i < ctx.argc(); i++) {
      if (std::optional<Entry> e = FindEntry(ctx.server, ctx.arg(i))) entries.push_back(*e);
    }
  }
  ctx.reply.MapHeader(entries.size());
  for (const Entry& e : entries) {
    ctx.reply.Bulk(e.name);
    DocsReply(ctx.reply, e);
  }
}

}  // namespace

void CommandCmd(CommandContext& ctx) {
  Server& server = ctx.server;
  ReplyBuilder& r = ctx.reply;
  if (ctx.argc() == 1) return InfoOrAll(ctx);
  std::string_view sub = ctx.arg(1);
  if (EqualsIgnoreCase(sub, "COUNT")) {
    return r.Integer(static_cast<int64_t>(server.commands().size()));
  }
  if (EqualsIgnoreCase(sub, "INFO")) return InfoOrAll(ctx);
  if (EqualsIgnoreCase(sub, "DOCS")) return DocsCmd(ctx);
  if (EqualsIgnoreCase(sub, "LIST")) return ListCmd(ctx);
  if (EqualsIgnoreCase(sub, "GETKEYS")) return GetKeysCmd(ctx, false);
  if (EqualsIgnoreCase(sub, "GETKEYSANDFLAGS")) return GetKeysCmd(ctx, true);
  if (EqualsIgnoreCase(sub, "HELP")) {
    return ReplyHelp(r, "command",
                     {"(no subcommand)",
                      "    Return details about all Redis commands.",
                      "COUNT",
                      "    Return the total number of commands in this Redis server.",
                      "LIST",
                      "    Return a list of all commands in this Redis server.",
                      "INFO [<command-name> ...]",
                      "    Return details about multiple Redis commands.",
                      "    If no command names are given, documentation details for all",
                      "    commands are returned.",
                      "DOCS [<command-name> ...]",
                      "    Return documentation details about multiple Redis commands.",
                      "    If no command names are given, documentation details for all",
                      "    commands are returned.",
                      "GETKEYS <full-command>",
                      "    Return the keys from a full Redis command.",
                      "GETKEYSANDFLAGS <full-command>",
                      "    Return the keys and the access flags from a full Redis command."});
  }
  r.Error(UnknownSubcommandError(sub, "COMMAND"));
}

}  // namespace rankd
