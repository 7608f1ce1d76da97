// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// COMMAND, COMMAND COUNT / INFO / DOCS / LIST / GETKEYS: what client
// libraries and redis-cli ask to learn the command set.

#include <string>
#include <vector>

#include "base/glob.h"
#include "commands/server_handlers.h"
#include "server/errors.h"
#include "server/server.h"

namespace rankd {
namespace {

void FlagNames(uint32_t flags, std::vector<std::string_view>* out) {
  static constexpr std::pair<uint32_t, std::string_view> kNames[] = {
      {kWrite, "write"},     {kReadOnly, "readonly"}, {kDenyOom, "denyoom"},
      {kAdmin, "admin"},     {kNoScript, "noscript"}, {kLoading, "loading"},
      {kStale, "stale"},     {kFast, "fast"},         {kNoAuth, "no_auth"},
      {kBlocking, "blocking"}, {kNoMulti, "no_multi"},
      {kSkipMonitor, "skip_monitor"}};
  for (auto [bit, name] : kNames) {
    if (flags & bit) out->push_back(name);
  }
}

// One COMMAND INFO entry, Redis 7.0 shape: name, arity, flags, first key,
// last key, step, ACL categories, tips, key specs, subcommands.
void DescribeCommand(ReplyBuilder& r, const CommandSpec& spec) {
  r.ArrayHeader(10);
  r.Bulk(spec.name);
  r.Integer(spec.arity);
  std::vector<std::string_view> flags;
  FlagNames(spec.flags, &flags);
  r.SetHeader(flags.size());
  for (auto f : flags) r.SimpleString(f);
  r.Integer(spec.first_key);
  r.Integer(spec.last_key);
  r.Integer(spec.key_step);
  r.SetHeader(0);
  r.SetHeader(0);
  r.ArrayHeader(0);
  r.ArrayHeader(0);
}

}  // namespace

void CommandCmd(CommandContext& ctx) {
  Server& server = ctx.server;
  ReplyBuilder& r = ctx.reply;
  if (ctx.argc() == 1) {
    r.ArrayHeader(server.commands().size());
    for (const CommandSpec* spec : server.commands()) DescribeCommand(r, *spec);
    return;
  }
  std::string_view sub = ctx.arg(1);
  if (EqualsIgnoreCase(sub, "COUNT") && ctx.argc() == 2) {
    return r.Integer(static_cast<int64_t>(server.commands().size()));
  }
  if (EqualsIgnoreCase(sub, "INFO")) {
    if (ctx.argc() == 2) {
      r.ArrayHeader(server.commands().size());
      for (const CommandSpec* spec : server.commands()) DescribeCommand(r, *spec);
      return;
    }
    r.ArrayHeader(ctx.argc() - 2);
    for (size_t i = 2; i < ctx.argc(); i++) {
      const CommandSpec* spec = server.FindCommand(ctx.arg(i));
      spec ? DescribeCommand(r, *spec) : r.NullArray();
    }
    return;
  }
  if (EqualsIgnoreCase(sub, "DOCS")) {
    std::vector<const CommandSpec*> specs;
    if (ctx.argc() == 2) {
      specs = server.commands();
    } else {
      for (size_t i = 2; i < ctx.argc(); i++) {
        if (const CommandSpec* s = server.FindCommand(ctx.arg(i))) specs.push_back(s);
      }
    }
    r.MapHeader(specs.size());
    for (const CommandSpec* spec : specs) {
      r.Bulk(spec->name);
      r.MapHeader(2);
      r.Bulk("summary");
      r.Bulk(spec->name);
      r.Bulk("since");
      r.Bulk("1.0.0");
    }
    return;
  }
  if (EqualsIgnoreCase(sub, "LIST")) {
    std::string_view pattern;
    if (ctx.argc() == 5 && EqualsIgnoreCase(ctx.arg(2), "FILTERBY") &&
        EqualsIgnoreCase(ctx.arg(3), "PATTERN")) {
      pattern = ctx.arg(4);
    } else if (ctx.argc() != 2) {
      return r.Error(err::kSyntax);
    }
    std::vector<std::string_view> names;
    for (const CommandSpec* spec : server.commands()) {
      if (pattern.empty() || GlobMatch(pattern, spec->name, true)) names.push_back(spec->name);
    }
    r.ArrayHeader(names.size());
    for (auto n : names) r.Bulk(n);
    return;
  }
  if (EqualsIgnoreCase(sub, "GETKEYS") && ctx.argc() >= 3) {
    const CommandSpec* spec = server.FindCommand(ctx.arg(2));
    if (!spec) return r.Error("ERR Invalid command specified");
    std::span<const std::string_view> args = ctx.args.subspan(2);
    if ((spec->arity > 0 && static_cast<int>(args.size()) != spec->arity) ||
        static_cast<int>(args.size()) < -spec->arity) {
      return r.Error("ERR Invalid number of arguments specified for command");
    }
    if (spec->first_key <= 0) return r.Error("ERR The command has no key arguments");
    int last = spec->last_key < 0 ? static_cast<int>(args.size()) + spec->last_key
                                  : spec->last_key;
    std::vector<std::string_view> keys;
    for (int i = spec->first_key; i <= last && i < static_cast<int>(args.size());
         i += spec->key_step) {
      keys.push_back(args[i]);
    }
    r.ArrayHeader(keys.size());
    for (auto k : keys) r.Bulk(k);
    return;
  }
  if (EqualsIgnoreCase(sub, "HELP") && ctx.argc() == 2) {
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
                      "    Return the keys from a full Redis command."});
  }
  r.Error(UnknownSubcommandError(sub, "COMMAND"));
}

}  // namespace rankd
