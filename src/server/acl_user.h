// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// AclUser: one ACL user as Redis 7.0 keeps it: on/off, passwords (only their
// SHA-256), and its permissions: a root selector and any number of further
// selectors (server/acl_selector.h). A command is allowed when any selector
// allows it, commands, keys and channels judged per selector. Rules are
// Redis's ACL SETUSER words: the user's own
//
//   on off nopass >pass <pass #hash !hash resetpass reset
//   sanitize-payload skip-sanitize-payload clearselectors "(<selector rules>)"
//
// and every selector rule, which applies to the root selector. A "(...)"
// word adds a selector made of the rules inside (split as sdssplitargs
// does); user rules inside one are a syntax error.

#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "server/acl_selector.h"

namespace rankd {

class AclUser {
 public:
  // `all_channels_default` (acl-pubsub-default allchannels, read when used;
  // null: resetchannels): whether the new user, "reset" and each new
  // "(...)" selector start with allchannels.
  AclUser(std::string name, const AclCommandTable* table,
          std::shared_ptr<const bool> all_channels_default = nullptr);

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

  // Every command, key and channel (the dispatcher's fast path): the root
  // selector allows all (other selectors then add nothing).
  bool unrestricted() const { return root_.unrestricted(); }
  // Whether some selector allows `req`. Redis ACLCheckAllUserCommandPerm:
  // when none does, the highest denial (channel > key > command) is
  // returned, with *pos the latest argument denied at that level.
  AclDenial Check(const AclRequest& req, size_t* pos) const;
  // Whether some selector allows subscribing to `channel` (a pattern when
  // `is_pattern`): what a client subscribed before an ACL change may keep.
  bool CanUseChannel(std::string_view channel, bool is_pattern) const;
  // Whether some selector needs the request's keys / channels resolved.
  bool checks_keys() const;
  bool checks_channels() const;

  // Whether some selector runs `req`'s command with read access to every
  // key (AclSelector::HasUnrestrictedKeyRead).
  bool HasUnrestrictedKeyRead(const AclRequest& req) const {
    if (root_.HasUnrestrictedKeyRead(req)) return true;
    for (const AclSelector& s : selectors_) {
      if (s.HasUnrestrictedKeyRead(req)) return true;
    }
    return false;
  }
  const AclSelector& root() const { return root_; }
  const std::vector<AclSelector>& selectors() const { return selectors_; }

 private:
  std::string name_;
  const AclCommandTable* table_;
  std::shared_ptr<const bool> all_channels_default_;
  bool all_channels_default() const { return all_channels_default_ && *all_channels_default_; }
  bool enabled_ = false;
  bool nopass_ = false;
  std::vector<std::string> passwords_;  // SHA-256 hex, in insertion order
  // sanitize-payload / skip-sanitize-payload (RESTORE payload checks; kept
  // for ACL LIST): 0 neither (a new user), 1 sanitize, 2 skip.
  int sanitize_payload_ = 0;
  AclSelector root_;
  std::vector<AclSelector> selectors_;  // "(...)", in the order added
};

}  // namespace rankd
