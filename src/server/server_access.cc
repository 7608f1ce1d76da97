// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// Who may run what, checked by Dispatch before a command runs: commands
// Redis has (for NOAUTH), a read-only replica, protected actions, ACL rules (command and keys,
// with ACL LOG entries), authentication, and maxmemory (-OOM).

#include <cctype>
#include <string>
#include <vector>

#include "base/clock.h"
#include "server/command_keys.h"
#include "server/errors.h"
#include "server/protected_action.h"
#include "server/redis_commands.h"
#include "server/replication.h"
#include "server/server.h"

namespace rankd {
namespace {

std::string Lower(std::string_view s) {
  std::string out(s.substr(0, 64));
  for (char& ch : out) ch = static_cast<char>(tolower(static_cast<unsigned char>(ch)));
  return out;
}


}  // namespace

std::string_view Server::ReadOnlyRefusal(const Client& c, const CommandSpec& spec) const {
  // EXEC writes when a queued command does, and is refused while stale
  // when one is (Redis is_write_command / is_denystale_command).
  bool write = spec.flags & kWrite, deny_stale = !(spec.flags & kStale);
  if (c.in_multi && spec.name == "exec") {
    write = write || (c.queued_flags & kWrite);
    deny_stale = deny_stale || c.queued_deny_stale;
  }
  return repl_->Refusal(c, write, deny_stale);
}

bool Server::KnownToRedis(std::span<const std::string_view> args) const {
  // Redis finds the command (MONITOR, CLIENT PAUSE) and then asks for AUTH.
  const CommandSpec* spec = FindCommand(args[0]);
  if (!spec) return IsRedis70Command(Lower(args[0]));
  return args.size() >= 2 && !spec->subcommands.empty() &&
         IsRedis70Command(Lower(args[0]) + "|" + Lower(args[1]));
}

bool Server::ProtectedAllowed(const Client& c) const {
  return AllowProtectedAction(config_.enable_debug_command, c);
}

bool Server::OutOfMemoryFor(Client& c, const CommandSpec& spec) {
  // Redis processCommand: evict first; refuse only what may grow memory.
  // Inside MULTI queueing itself grows memory, so everything but the
  // transaction's own controls is refused; EXEC is refused when it holds a
  // deny-oom command.
  oom_before_command_ = evictor_.Perform() == Evictor::Result::kFail;
  if (!oom_before_command_) return false;
  if (spec.flags & kDenyOom) return true;
  const std::string_view name = spec.name;
  if (c.in_multi && name != "exec" && name != "discard" && name != "quit" && name != "reset") {
    return true;
  }
  if (name == "exec" && c.in_multi && (c.queued_flags & kDenyOom)) return true;
  return false;
}

std::vector<size_t> Server::CommandKeys(std::span<const std::string_view> args,
                                       const CommandSpec** spec) const {
  std::string_view name;
  std::string error;
  *spec = Resolve(args, &name, &error);
  if (*spec == nullptr) return {};
  const KeyPositionList keys = CommandKeyPositions(find_acl_keys, **spec, name, args);
  return {keys.begin(), keys.end()};
}

AclRequest Server::MakeAclRequest(const CommandSpec& spec,
                                  std::span<const std::string_view> args,
                                  const AclUser& user) const {
  AclRequest req;
  req.command_id = command_ids_.IdOf(&spec);
  req.no_auth = spec.flags & kNoAuth;
  req.is_subcommand = command_ids_.IsSubcommand(req.command_id);
  req.args = args;
  if (user.checks_keys()) {
    const std::string_view name = command_ids_.NameOf(req.command_id);
    if (!find_acl_keys || !find_acl_keys(spec, name, args, &req.keys)) {
      const bool write = spec.flags & kWrite;
      for (size_t pos : KeyPositions(spec, args)) req.keys.push_back({pos, !write, write});
    }
  }
  if (user.checks_channels()) {
    // Redis getChannelsFromCommand, for the flags ACL checks (publish and
    // subscribe; unsubscribing is always allowed).
    const std::string_view name = spec.name;
    if (name == "publish" || name == "spublish") {
      req.channels.push_back({1, false});
    } else if (name == "subscribe" || name == "ssubscribe" || name == "psubscribe") {
      for (size_t i = 1; i < args.size(); i++) req.channels.push_back({i, name == "psubscribe"});
    }
  }
  return req;
}

bool Server::HasFullKeyRead(const Client& c, std::span<const std::string_view> args) const {
  if (!c.user || c.user->unrestricted()) return true;
  const CommandSpec* spec = FindCommand(args[0]);
  return spec && c.user->HasUnrestrictedKeyRead(MakeAclRequest(*spec, args, *c.user));
}

AclDenial Server::CheckAcl(Client& c, const CommandSpec& spec,
                           std::span<const std::string_view> args, std::string_view context) {
  const AclUser& u = *c.user;
  const AclRequest req = MakeAclRequest(spec, args, u);
  size_t pos = 0;
  const AclDenial denial = u.Check(req, &pos);
  if (denial == AclDenial::kNone) return denial;
  const std::string_view reason = denial == AclDenial::kCommand ? "command"
                                  : denial == AclDenial::kKey   ? "key"
                                                                : "channel";
  const std::string_view object =
      denial == AclDenial::kCommand ? command_ids_.NameOf(req.command_id)
      : pos < args.size()           ? args[pos]
                                    : std::string_view();
  acl_.Log(reason, context, object, u.name(), describe_client ? describe_client(c) : "");
  return denial;
}

std::optional<bool> Server::AclAllows(const AclUser* user,
                                      std::span<const std::string_view> args) const {
  std::string_view full_name;
  std::string error;
  const CommandSpec* spec = nullptr;
  Resolve(args, &full_name, &error, &spec);  // spec is set even when arity is wrong
  if (!spec) return std::nullopt;
  if (!user || user->unrestricted()) return true;
  size_t pos = 0;
  return user->Check(MakeAclRequest(*spec, args, *user), &pos) == AclDenial::kNone;
}

void Server::AnswerAuthFailure(Client& c, std::string_view error, bool no_block) {
  const std::string_view address = c.conn ? PeerAddress(c.conn->peer()) : "";
  const AuthThrottle::Verdict v = auth_throttle_.Failed(address, &c.auth_failures, MonoMs());
  if (v.delay_ms <= 0 || no_block || !c.conn) {
    c.reply->Error(error);
    if (v.close && c.conn) c.conn->CloseAfterReply();
    return;
  }
  // The reply waits on a timer; the client may be gone by then.
  c.conn->Pause();
  loop_.AddTimer(v.delay_ms, [this, id = c.id, error = std::string(error), close = v.close] {
    Client* late = FindClient(id);
    if (!late || !late->conn || late->conn->closing()) return;
    late->conn->reply()->Error(error);
    if (close) late->conn->CloseAfterReply();
    late->conn->Resume();
  });
}

void Server::SetAuthenticated(Client& c, AclUser* user) {
  if (user) {
    c.user = user;
    c.user_name = user->name();
  }
  c.authenticated = true;
  if (c.conn) c.conn->set_unauthenticated(false);
}

}  // namespace rankd
