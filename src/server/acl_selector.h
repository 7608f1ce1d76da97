// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// AclSelector: one set of permissions of an ACL user, as Redis 7.0's
// aclSelector: which commands (with first-argument exceptions such as
// "+select|0"), which keys (read, write or both) and which pub/sub channels.
// A user has a root selector and any number of "(...)" selectors; a command
// runs when any one of them allows it (server/acl_user.h).
//
// Its rules are the selector words of ACL SETUSER:
//
//   ~pattern %R~pattern %W~pattern %RW~pattern allkeys resetkeys
//   &pattern allchannels resetchannels
//   +cmd -cmd +cmd|sub -cmd|sub +cmd|firstarg +@category -@category
//   allcommands nocommands
//
// Commands are numbered by the server (AclCommandTable); a selector holds
// one bit per command id, plus whether it was given "+@all" (which also
// allows commands registered later, as Redis's "future commands" bit).

#pragma once

#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace rankd {

// The server's commands as ACL rules see them.
class AclCommandTable {
 public:
  virtual ~AclCommandTable() = default;
  // Number of ids (commands and subcommands).
  virtual int size() const = 0;
  // The id of "get" or "config|get" (any case), or -1.
  virtual int IdOf(std::string_view name) const = 0;
  // Ids of a container's subcommands (empty for plain commands).
  virtual std::vector<int> SubcommandIds(int id) const = 0;
  // Full name ("config|get") and category bits of an id.
  virtual std::string_view NameOf(int id) const = 0;
  virtual uint64_t CategoriesOf(int id) const = 0;
  // True for containers (CONFIG, CLIENT): their own id is never checked.
  virtual bool IsContainer(int id) const = 0;
  // True for subcommands ("config|get").
  virtual bool IsSubcommand(int id) const = 0;
};

// One key argument of a command line and the access its key spec declares:
// `read` for ACCESS, `write` for INSERT, DELETE or UPDATE (Redis
// ACLSelectorCheckKey). Neither: any key pattern covers it (EXISTS, TYPE).
struct AclKeyRef {
  size_t pos;  // index into the command line
  bool read = false, write = false;
};

// One channel argument (PUBLISH, SUBSCRIBE, PSUBSCRIBE, ...).
struct AclChannelRef {
  size_t pos;
  bool pattern = false;  // PSUBSCRIBE: must equal an allowed pattern
};

// What a command line asks for, as the permission check needs it.
struct AclRequest {
  int command_id = -1;
  bool no_auth = false;  // AUTH, HELLO, QUIT...: always allowed as commands
  bool is_subcommand = false;
  std::span<const std::string_view> args;  // args[0] is the command name
  std::vector<AclKeyRef> keys;
  std::vector<AclChannelRef> channels;
};

// Ordered as Redis 7.0's ACL_DENIED_*: when no selector allows a command,
// the highest denial is reported.
enum class AclDenial { kNone = 0, kCommand = 1, kKey = 2, kChannel = 4 };

struct AclKeyPattern {
  std::string pattern;
  bool read = true, write = true;
};

class AclSelector {
 public:
  explicit AclSelector(const AclCommandTable* table);

  // Applies one selector rule. Returns "" or Redis's reason ("Syntax error",
  // "Unknown command or category name in ACL", ...).
  std::string SetRule(std::string_view rule);

  // Whether this selector allows `req`; on a key or channel denial *pos is
  // the argument's index (else untouched; it may be past req.args for a
  // line shorter than its arity). Redis ACLSelectorCheckCmd.
  AclDenial Check(const AclRequest& req, size_t* pos) const;

  // Every command, key and channel: the dispatcher's fast path.
  bool unrestricted() const { return every_command_ && all_keys_ && all_channels_; }
  bool all_keys() const { return all_keys_; }
  // Whether this selector runs `req`'s command and may read every key
  // ("allkeys" or a "*" pattern with read), Redis 7.0's
  // ACLSelectorHasUnrestrictedKeyAccess (SORT's BY and GET need it).
  bool HasUnrestrictedKeyRead(const AclRequest& req) const;
  bool all_channels() const { return all_channels_; }
  // Whether `channel` is allowed: a channel (or shard channel) by glob
  // match against each "&pattern", a PSUBSCRIBE pattern only when it
  // equals one (Redis ACLCheckChannelAgainstList).
  bool CanAccessChannel(std::string_view channel, bool is_pattern) const;

  // ACL GETUSER's "commands" ("+@all -get"), "keys" ("~a* %R~b*") and
  // "channels" ("&ch*") fields.
  //
  // The command rules are worked out from what the selector allows, not
  // from the rules given, as Redis 7.0 does (server/acl_describe.cc): a
  // rule that changes nothing disappears ("-@all +@set -@geo" reads back
  // "-@all +@set"), and a category is named wherever most of its commands
  // share one verdict. Setting the rules read back gives the same selector.
  std::string DescribeCommands() const;
  std::string DescribeKeys() const;
  std::string DescribeChannels() const;
  // The rules that rebuild it, as ACL LIST prints them:
  // "~a* resetchannels &ch -@all +get".
  std::string Describe() const;

 private:
  bool CanRun(const AclRequest& req) const;
  bool CanAccessKey(std::string_view key, bool read, bool write) const;
  void SetCommand(int id, bool allow);
  // Whether command id `id` is allowed (ids registered after the last rule
  // follow "+@all" / "-@all").
  bool Allowed(int id) const {
    return static_cast<size_t>(id) < allowed_.size() ? allowed_[id] : all_commands_;
  }
  std::string SetCommandRule(std::string_view rule);
  void Grow();

  const AclCommandTable* table_;
  std::vector<bool> allowed_;
  bool all_commands_ = false;  // "+@all": also future commands
  // Allowed first arguments of otherwise denied commands ("+select|0"),
  // lower case, by command id.
  std::map<int, std::vector<std::string>> first_args_;
  // all_commands_ and no command denied (kept by SetRule).
  bool every_command_ = false;
  bool all_keys_ = false;
  std::vector<AclKeyPattern> keys_;
  bool all_channels_ = false;
  std::vector<std::string> channels_;
};

}  // namespace rankd
