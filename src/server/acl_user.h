// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// AclUser: one ACL user as Redis 7.0 keeps it: on/off, passwords (only their
// SHA-256), which commands it may run, which keys (read, write or both) and
// which pub/sub channels it may touch. Rules are Redis's ACL SETUSER words:
//
//   on off nopass >pass <pass #hash !hash resetpass reset
//   ~pattern %R~pattern %W~pattern %RW~pattern allkeys resetkeys
//   &pattern allchannels resetchannels
//   +cmd -cmd +cmd|sub -cmd|sub +@category -@category allcommands nocommands
//
// Commands are numbered by the server (AclCommandTable); a user holds one bit
// per command id, plus whether it was given "+@all" (which also allows
// commands registered later, as Redis's "future commands" bit).
// Selectors ("(...)") are not supported.

#pragma once

#include <cstdint>
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
};

struct AclKeyPattern {
  std::string pattern;
  bool read = true, write = true;
};

class AclUser {
 public:
  AclUser(std::string name, const AclCommandTable* table);

  const std::string& name() const { return name_; }

  // Applies one rule. Returns "" or Redis's reason, e.g. "Syntax error",
  // "Unknown command or category name in ACL".
  std::string SetRule(std::string_view rule);

  // The rules that rebuild this user, as ACL LIST prints them after
  // "user <name> ": "on nopass ~* &* +@all".
  std::string Describe() const;
  // ACL GETUSER's parts.
  std::vector<std::string> Flags() const;
  const std::vector<std::string>& password_hashes() const { return passwords_; }
  std::string DescribeCommands() const;
  std::string DescribeKeys() const;
  std::string DescribeChannels() const;

  bool enabled() const { return enabled_; }
  bool nopass() const { return nopass_; }
  // True when `password` opens this user (nopass, or its hash is listed).
  bool CheckPassword(std::string_view password) const;

  bool CanRun(int command_id) const {
    return static_cast<size_t>(command_id) < allowed_.size() ? allowed_[command_id]
                                                             : all_commands_;
  }
  // Every command and every key: the dispatcher's fast path.
  bool unrestricted() const { return all_commands_ && rules_.empty() && all_keys_; }
  // `read` / `write`: the access the command needs on the key.
  bool CanAccessKey(std::string_view key, bool read, bool write) const;
  // `is_pattern`: PSUBSCRIBE's pattern must equal an allowed one.
  bool CanAccessChannel(std::string_view channel, bool is_pattern) const;

 private:
  void SetCommand(int id, bool allow);

  std::string name_;
  const AclCommandTable* table_;
  bool enabled_ = false;
  bool nopass_ = false;
  std::vector<std::string> passwords_;  // SHA-256 hex, in insertion order
  std::vector<bool> allowed_;
  bool all_commands_ = false;  // "+@all": also future commands
  // The command rules after the last +@all / -@all, as written ("+@read",
  // "-get", "+config|get"); a later rule on the same target replaces an
  // earlier one. ACL LIST prints them after "+@all" / "-@all" (Redis 7.0).
  std::vector<std::string> rules_;
  // sanitize-payload / skip-sanitize-payload (RESTORE payload checks; kept
  // for ACL LIST): 0 neither (a new user), 1 sanitize, 2 skip.
  int sanitize_payload_ = 0;
  bool all_keys_ = false;
  std::vector<AclKeyPattern> keys_;
  bool all_channels_ = false;
  std::vector<std::string> channels_;
};

}  // namespace rankd
