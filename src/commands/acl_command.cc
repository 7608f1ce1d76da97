// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// ACL SETUSER / GETUSER / DELUSER / LIST / USERS / WHOAMI / CAT / LOG /
// GENPASS / DRYRUN / SAVE / LOAD / HELP over the server's Acl
// (server/acl.h). Permission checks themselves are in the dispatcher.

#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "base/clock.h"
#include "base/numbers.h"
#include "server/acl_categories.h"
#include "server/errors.h"
#include "server/server.h"

namespace rankd {
namespace {

constexpr std::string_view kNoAclFile =
    "ERR This Redis instance is not configured to use an ACL file. You may want to specify "
    "users via the ACL SETUSER command and then issue a CONFIG REWRITE (assuming you have a "
    "Redis configuration file set) in order to store users in the Redis configuration.";

void DescribeSelector(ReplyBuilder& r, const AclSelector& s) {
  r.Bulk("commands");
  r.Bulk(s.DescribeCommands());
  r.Bulk("keys");
  r.Bulk(s.DescribeKeys());
  r.Bulk("channels");
  r.Bulk(s.DescribeChannels());
}

void GetUser(CommandContext& ctx) {
  const AclUser* u = ctx.server.acl().Find(ctx.arg(2));
  ReplyBuilder& r = ctx.reply;
  if (!u) return r.Null();
  r.MapHeader(6);
  r.Bulk("flags");
  auto flags = u->Flags();
  r.SetHeader(flags.size());
  for (auto& f : flags) r.Bulk(f);
  r.Bulk("passwords");
  r.ArrayHeader(u->password_hashes().size());
  for (auto& p : u->password_hashes()) r.Bulk(p);
  // The root selector at the top level, the others under "selectors".
  DescribeSelector(r, u->root());
  r.Bulk("selectors");
  r.ArrayHeader(u->selectors().size());
  for (const AclSelector& s : u->selectors()) {
    r.MapHeader(3);
    DescribeSelector(r, s);
  }
}

void Cat(CommandContext& ctx) {
  ReplyBuilder& r = ctx.reply;
  if (ctx.argc() == 2) {
    r.ArrayHeader(std::size(kAclCategories));
    for (const AclCategoryName& c : kAclCategories) r.Bulk(c.name);
    return;
  }
  if (ctx.argc() > 3) return r.Error(SubcommandSyntaxError(ctx.arg(1), "acl"));
  std::optional<uint64_t> cat = AclCategoryByName(ctx.arg(2));
  if (!cat) return r.Error("ERR Unknown category '" + std::string(ctx.arg(2)) + "'");
  const CommandIds& ids = ctx.server.command_ids();
  std::vector<std::string_view> names;
  for (int id = 0; id < ids.size(); id++) {
    if (ids.CategoriesOf(id) & *cat) names.push_back(ids.NameOf(id));
  }
  r.ArrayHeader(names.size());
  for (auto n : names) r.Bulk(n);
}

void Log(CommandContext& ctx) {
  ReplyBuilder& r = ctx.reply;
  Acl& acl = ctx.server.acl();
  int64_t count = 10;
  if (ctx.argc() > 3) return r.Error(SubcommandSyntaxError(ctx.arg(1), "acl"));
  if (ctx.argc() == 3) {
    if (EqualsIgnoreCase(ctx.arg(2), "RESET")) {
      acl.ResetLog();
      return r.Ok();
    }
    if (!ParseInt64(ctx.arg(2), &count)) return r.Error(err::kNotInteger);
    if (count < 0) count = 0;
  }
  const auto& log = acl.log();
  const size_t n = std::min<size_t>(static_cast<size_t>(count), log.size());
  const int64_t now = WallMs();
  r.ArrayHeader(n);
  for (size_t i = 0; i < n; i++) {
    const Acl::LogEntry& e = log[i];
    r.MapHeader(7);
    r.Bulk("count");
    r.Integer(static_cast<int64_t>(e.count));
    r.Bulk("reason");
    r.Bulk(e.reason);
    r.Bulk("context");
    r.Bulk(e.context);
    r.Bulk("object");
    r.Bulk(e.object);
    r.Bulk("username");
    r.Bulk(e.username);
    r.Bulk("age-seconds");
    r.Double(static_cast<double>(now - e.created_ms) / 1000.0);
    r.Bulk("client-info");
    r.Bulk(e.client_info);
  }
}

void GenPass(CommandContext& ctx) {
  int64_t bits = 256;
  if (ctx.argc() > 3) return ctx.reply.Error(SubcommandSyntaxError(ctx.arg(1), "acl"));
  if (ctx.argc() == 3 && (!ParseInt64(ctx.arg(2), &bits) || bits <= 0 || bits > 4096)) {
    return ctx.reply.Error(
        "ERR ACL GENPASS argument must be the number of bits for the output password, a "
        "positive number up to 4096");
  }
  static std::random_device dev;
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (int64_t i = 0; i < (bits + 3) / 4; i++) out.push_back(kHex[dev() & 15]);
  ctx.reply.Bulk(out);
}

void DryRun(CommandContext& ctx) {
  ReplyBuilder& r = ctx.reply;
  AclUser* u = ctx.server.acl().Find(ctx.arg(2));
  if (!u) return r.Error("ERR User '" + std::string(ctx.arg(2)) + "' not found");
  std::span<const std::string_view> args = ctx.args.subspan(3);
  const CommandSpec* spec = ctx.server.FindCommand(args[0]);
  if (!spec) return r.Error("ERR Command '" + std::string(args[0]) + "' not found");
  std::string name(spec->name);
  if (!spec->subcommands.empty() && args.size() >= 2) {
    const CommandSpec* sub = nullptr;
    for (const CommandSpec& s : spec->subcommands) {
      if (EqualsIgnoreCase(s.name, args[1])) sub = &s;
    }
    // Redis 7.0 names the container: "Command 'config' not found".
    if (!sub) return r.Error("ERR Command '" + std::string(args[0]) + "' not found");
    spec = sub;
    name += "|" + std::string(sub->name);
  }
  if (!ArityAccepts(spec->arity, args.size())) {
    return r.Error(WrongArityError(name));
  }
  size_t pos = 0;
  switch (u->Check(ctx.server.MakeAclRequest(*spec, args, *u), &pos)) {
    case AclDenial::kNone:
      return r.Ok();
    case AclDenial::kCommand:
      return r.Bulk("This user has no permissions to run the '" + name + "' command");
    case AclDenial::kKey:
      return r.Bulk("This user has no permissions to access the '" + std::string(args[pos]) +
                    "' key");
    case AclDenial::kChannel:
      return r.Bulk("This user has no permissions to access the '" + std::string(args[pos]) +
                    "' channel");
  }
}

void SaveOrLoad(CommandContext& ctx, bool save) {
  const std::string& path = ctx.server.config().aclfile;
  if (path.empty()) return ctx.reply.Error(kNoAclFile);
  Acl& acl = ctx.server.acl();
  if (save) {
    std::string tmp = path + ".tmp";
    {
      std::ofstream out(tmp, std::ios::trunc);
      out << acl.SaveText();
      if (!out) return ctx.reply.Error("ERR There was an error trying to save the ACLs. Please check the server logs for more information");
    }
    if (rename(tmp.c_str(), path.c_str()) != 0) {
      return ctx.reply.Error("ERR There was an error trying to save the ACLs. Please check the server logs for more information");
    }
    return ctx.reply.Ok();
  }
  std::ifstream in(path);
  std::stringstream ss;
  if (in) ss << in.rdbuf();
  std::string error = in ? acl.LoadText(ss.str()) : "Error loading ACLs, opening file '" + path + "': No such file or directory";
  if (!error.empty()) return ctx.reply.Error("ERR " + error);
  ctx.server.RebindClients(&ctx.client, /*reloaded=*/true);
  ctx.reply.Ok();
}

void AclCmd(CommandContext& ctx) {
  std::string_view sub = ctx.arg(1);
  ReplyBuilder& r = ctx.reply;
  Acl& acl = ctx.server.acl();
  if (EqualsIgnoreCase(sub, "SETUSER")) {
    std::vector<std::string_view> rules(ctx.args.begin() + 3, ctx.args.end());
    std::string error = acl.SetUser(ctx.arg(2), rules);
    if (!error.empty()) return r.Error("ERR " + error);
    ctx.server.KillRevokedSubscribers(*acl.Find(ctx.arg(2)), &ctx.client);
    return r.Ok();
  }
  if (EqualsIgnoreCase(sub, "GETUSER")) return GetUser(ctx);
  if (EqualsIgnoreCase(sub, "DELUSER")) {
    for (size_t i = 2; i < ctx.argc(); i++) {
      if (ctx.arg(i) == "default") return r.Error("ERR The 'default' user cannot be removed");
    }
    int64_t n = 0;
    for (size_t i = 2; i < ctx.argc(); i++) n += acl.DeleteUser(ctx.arg(i));
    ctx.server.RebindClients(&ctx.client, /*reloaded=*/false);  // their clients are disconnected
    return r.Integer(n);
  }
  if (EqualsIgnoreCase(sub, "LIST") || EqualsIgnoreCase(sub, "USERS")) {
    const bool list = EqualsIgnoreCase(sub, "LIST");
    auto users = acl.Users();
    r.ArrayHeader(users.size());
    for (const AclUser* u : users) r.Bulk(list ? "user " + u->name() + " " + u->Describe() : u->name());
    return;
  }
  if (EqualsIgnoreCase(sub, "WHOAMI")) return r.Bulk(ctx.client.user_name);
  if (EqualsIgnoreCase(sub, "CAT")) return Cat(ctx);
  if (EqualsIgnoreCase(sub, "LOG")) return Log(ctx);
  if (EqualsIgnoreCase(sub, "GENPASS")) return GenPass(ctx);
  if (EqualsIgnoreCase(sub, "DRYRUN")) return DryRun(ctx);
  if (EqualsIgnoreCase(sub, "SAVE")) return SaveOrLoad(ctx, true);
  if (EqualsIgnoreCase(sub, "LOAD")) return SaveOrLoad(ctx, false);
  if (EqualsIgnoreCase(sub, "HELP")) {
    return ReplyHelp(
        r, "acl",
        {"CAT [<category>]", "    List all commands that belong to <category>, or all command categories",
         "    when no category is specified.",
         "DELUSER <username> [<username> ...]", "    Delete a list of users.",
         "DRYRUN <username> <command> [<arg> ...]",
         "    Returns whether the user can execute the given command without executing the command.",
         "GETUSER <username>", "    Get the user's details.",
         "GENPASS [<bits>]", "    Generate a secure 256-bit user password. The optional `bits` argument can",
         "    be used to specify a different size.",
         "LIST", "    Show users details in config file format.",
         "LOAD", "    Reload users from the ACL file.",
         "LOG [<count> | RESET]", "    Show the ACL log entries.",
         "SAVE", "    Save the current config to the ACL file.",
         "SETUSER <username> <attribute> [<attribute> ...]", "    Create or modify a user with the specified attributes.",
         "USERS", "    List all the registered usernames.",
         "WHOAMI", "    Return the current connection username."});
  }
  r.Error(UnknownSubcommandError(sub, "ACL"));
}

constexpr uint32_t kAclAdminFlags = kAdmin | kNoScript | kLoading | kStale;
constexpr uint32_t kAclFlags = kNoScript | kLoading | kStale;
constexpr CommandSpec kAclSubcommands[] = {
    {"cat", -2, kAclFlags, 0, 0, 0, &AclCmd},
    {"deluser", -3, kAclAdminFlags, 0, 0, 0, &AclCmd},
    {"dryrun", -4, kAclAdminFlags, 0, 0, 0, &AclCmd},
    {"genpass", -2, kAclFlags, 0, 0, 0, &AclCmd},
    {"getuser", 3, kAclAdminFlags, 0, 0, 0, &AclCmd},
    {"help", 2, kLoading | kStale, 0, 0, 0, &AclCmd},
    {"list", 2, kAclAdminFlags, 0, 0, 0, &AclCmd},
    {"load", 2, kAclAdminFlags, 0, 0, 0, &AclCmd},
    {"log", -2, kAclAdminFlags, 0, 0, 0, &AclCmd},
    {"save", 2, kAclAdminFlags, 0, 0, 0, &AclCmd},
    {"setuser", -3, kAclAdminFlags, 0, 0, 0, &AclCmd},
    {"users", 2, kAclAdminFlags, 0, 0, 0, &AclCmd},
    {"whoami", 2, kAclFlags, 0, 0, 0, &AclCmd},
};

constexpr CommandSpec kAclCommands[] = {
    {"acl", -2, kAclFlags, 0, 0, 0, &AclCmd, kAclSubcommands},
};

}  // namespace

std::span<const CommandSpec> AclCommands() { return kAclCommands; }

}  // namespace rankd
