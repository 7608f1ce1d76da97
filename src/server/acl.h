// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// Acl: the users (server/acl_user.h), the ACL LOG of denials, and the ACL
// file. There is always a "default" user, which new connections start as:
// "on nopass ~* &* +@all" until requirepass (or rules) give it a password.
//
// Permission checks happen in one place, Server::Dispatch (and Execute, for
// EXEC and every redis.call of a script): the command by its id, then each
// key by the spec's key positions (server/command_keys.h). No family checks
// permissions itself.

#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "server/acl_user.h"

namespace rankd {

// Joins the words of each "(...)" selector split over several words
// (ACL SETUSER u "(+get" "~k*)"). nullopt when one is never closed, with
// *unmatched the index of its first word.
std::optional<std::vector<std::string>> MergeSelectorArgs(
    const std::vector<std::string_view>& rules, size_t* unmatched);

class Acl {
 public:
  explicit Acl(const AclCommandTable* table);

  AclUser& default_user() { return *users_.at("default"); }
  // nullptr when there is no such user.
  AclUser* Find(std::string_view name);
  // Every user, by name (ACL LIST, ACL USERS).
  std::vector<const AclUser*> Users() const;

  // ACL SETUSER: creates the user if needed and applies `rules` all or
  // nothing. Words from one starting with "(" to one ending with ")" are
  // first joined with spaces into one selector rule (Redis
  // ACLMergeSelectorArguments). Returns "" or the error without "ERR ":
  // "Error in ACL SETUSER modifier '<rule>': <reason>", or "Unmatched
  // parenthesis in acl selector starting at '<word>'.", or "Usernames can't
  // contain spaces or null characters" (any isspace byte or NUL in `name`).
  std::string SetUser(std::string_view name, const std::vector<std::string_view>& rules);
  // Removes a user (never "default"). False when absent.
  bool DeleteUser(std::string_view name);

  // The user `name` if `password` opens it and it is on, else nullptr.
  AclUser* Authenticate(std::string_view name, std::string_view password);

  // requirepass: the default user's only password, or nopass when empty.
  void SetDefaultPassword(std::string_view password);
  // acl-pubsub-default: whether users created from now on, "reset" and
  // new "(...)" selectors start with allchannels (else resetchannels).
  void set_all_channels_default(bool v) { *all_channels_default_ = v; }

  // --- ACL LOG ---
  struct LogEntry {
    uint64_t count = 1;
    std::string reason;   // "command", "key", "channel", "auth"
    std::string context;  // "toplevel", "multi", "lua"
    std::string object;   // the command, key or channel ("AUTH" for auth)
    std::string username;
    int64_t created_ms = 0;  // wall clock
    std::string client_info;
  };
  // Records a denial; an identical one (reason, context, object, user)
  // less than 60 s old is counted instead, as Redis groups them.
  void Log(std::string_view reason, std::string_view context, std::string_view object,
           std::string_view username, std::string client_info);
  const std::deque<LogEntry>& log() const { return log_; }  // newest first
  void ResetLog() { log_.clear(); }
  // acllog-max-len: as Redis, a lower value trims the log at its next new entry.
  void set_log_max_len(size_t n) { log_max_len_ = n; }

  // --- The ACL file (and `user` lines of the config file) ---
  // Parses "user <name> <rules...>" lines; applies them only if all are
  // valid, replacing every user (default included: it is reset to its
  // defaults when the file does not name it). Returns "" or an error that
  // names the line.
  std::string LoadText(std::string_view text);
  // The file's text: one "user <name> <rules>" line per user.
  std::string SaveText() const;

 private:
  const AclCommandTable* table_;
  std::shared_ptr<bool> all_channels_default_ = std::make_shared<bool>(false);
  std::map<std::string, std::unique_ptr<AclUser>, std::less<>> users_;
  std::deque<LogEntry> log_;
  size_t log_max_len_ = 128;
};

}  // namespace rankd
