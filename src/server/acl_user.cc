// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "server/acl_user.h"

#include <algorithm>

#include "base/glob.h"
#include "base/sha256.h"
#include "server/acl_categories.h"
#include "server/command.h"

namespace rankd {
namespace {

bool IsHexHash(std::string_view s) {
  return s.size() == 64 &&
         std::all_of(s.begin(), s.end(), [](char c) { return isdigit(c) || (c >= 'a' && c <= 'f'); });
}

constexpr std::string_view kUnknown = "Unknown command or category name in ACL";

}  // namespace

AclUser::AclUser(std::string name, const AclCommandTable* table)
    : name_(std::move(name)), table_(table), allowed_(table->size(), false) {}

void AclUser::SetCommand(int id, bool allow) {
  allowed_[id] = allow;
  for (int sub : table_->SubcommandIds(id)) allowed_[sub] = allow;
}

std::string AclUser::SetRule(std::string_view rule) {
  // Commands registered after this user was made follow "+@all".
  if (allowed_.size() < static_cast<size_t>(table_->size())) {
    allowed_.resize(table_->size(), all_commands_);
  }
  auto is = [&](std::string_view word) { return EqualsIgnoreCase(rule, word); };
  if (rule.empty()) return "";  // Redis ignores empty words
  if (is("on")) {
    enabled_ = true;
  } else if (is("off")) {
    enabled_ = false;
  } else if (is("nopass")) {
    nopass_ = true;
    passwords_.clear();
  } else if (is("resetpass")) {
    nopass_ = false;
    passwords_.clear();
  } else if (is("allkeys") || rule == "~*") {
    all_keys_ = true;
    keys_.clear();
  } else if (is("resetkeys")) {
    all_keys_ = false;
    keys_.clear();
  } else if (is("allchannels") || rule == "&*") {
    all_channels_ = true;
    channels_.clear();
  } else if (is("resetchannels")) {
    all_channels_ = false;
    channels_.clear();
  } else if (is("allcommands") || is("+@all")) {
    all_commands_ = true;
    rules_.clear();
    allowed_.assign(allowed_.size(), true);
  } else if (is("nocommands") || is("-@all")) {
    all_commands_ = false;
    rules_.clear();
    allowed_.assign(allowed_.size(), false);
  } else if (is("sanitize-payload")) {
    sanitize_payload_ = 1;
  } else if (is("skip-sanitize-payload")) {
    sanitize_payload_ = 2;
  } else if (is("reset")) {
    for (std::string_view r : {"resetpass", "resetkeys", "resetchannels", "off",
                               "sanitize-payload", "-@all"}) {
      SetRule(r);
    }
  } else if (is("clearselectors")) {
    // No selectors beyond the root one.
  } else if (rule[0] == '>' || rule[0] == '#') {
    std::string hash = rule[0] == '>' ? Sha256Hex(rule.substr(1)) : std::string(rule.substr(1));
    if (rule[0] == '#' && !IsHexHash(hash)) {
      return "The password hash must be exactly 64 characters and contain only lowercase "
             "hexadecimal characters";
    }
    nopass_ = false;
    if (std::find(passwords_.begin(), passwords_.end(), hash) == passwords_.end()) {
      passwords_.push_back(hash);
    }
  } else if (rule[0] == '<' || rule[0] == '!') {
    std::string hash = rule[0] == '<' ? Sha256Hex(rule.substr(1)) : std::string(rule.substr(1));
    if (rule[0] == '!' && !IsHexHash(hash)) {
      return "The password hash must be exactly 64 characters and contain only lowercase "
             "hexadecimal characters";
    }
    auto it = std::find(passwords_.begin(), passwords_.end(), hash);
    if (it == passwords_.end()) {
      return "The password you are trying to remove from the user does not exist";
    }
    passwords_.erase(it);
  } else if (rule[0] == '~' || rule[0] == '%') {
    AclKeyPattern p;
    std::string_view pat = rule;
    if (rule[0] == '%') {
      size_t tilde = rule.find('~');
      if (tilde == std::string_view::npos || tilde == 1) return "Syntax error";
      p.read = p.write = false;
      for (char ch : rule.substr(1, tilde - 1)) {
        if (ch == 'R' || ch == 'r') {
          p.read = true;
        } else if (ch == 'W' || ch == 'w') {
          p.write = true;
        } else {
          return "Syntax error";
        }
      }
      pat = rule.substr(tilde);
    }
    if (all_keys_) {
      return "Adding a pattern after the * pattern (or the 'allkeys' flag) is not valid and "
             "does not have any effect. Try 'resetkeys' to start with an empty list of patterns";
    }
    p.pattern = std::string(pat.substr(1));
    if (p.pattern == "*" && p.read && p.write) return SetRule("allkeys");
    keys_.push_back(std::move(p));
  } else if (rule[0] == '&') {
    if (all_channels_) {
      return "Adding a pattern after the * pattern (or the 'allchannels' flag) is not valid and "
             "does not have any effect. Try 'resetchannels' to start with an empty list of "
             "channels";
    }
    channels_.emplace_back(rule.substr(1));
  } else if (rule[0] == '+' || rule[0] == '-') {
    const bool allow = rule[0] == '+';
    std::string_view what = rule.substr(1);
    if (!what.empty() && what[0] == '@') {
      std::optional<uint64_t> cat = AclCategoryByName(what.substr(1));
      if (!cat) return std::string(kUnknown);
      for (int id = 0; id < table_->size(); id++) {
        if (table_->CategoriesOf(id) & *cat) allowed_[id] = allow;
      }
    } else {
      int id = table_->IdOf(what);
      if (id < 0) return std::string(kUnknown);
      SetCommand(id, allow);
    }
    std::string target(what);
    for (char& ch : target) ch = static_cast<char>(tolower(static_cast<unsigned char>(ch)));
    std::erase_if(rules_, [&](const std::string& r) { return r.substr(1) == target; });
    rules_.push_back((allow ? "+" : "-") + target);
  } else {
    return "Syntax error";
  }
  return "";
}

bool AclUser::CheckPassword(std::string_view password) const {
  if (nopass_) return true;
  if (passwords_.empty()) return false;
  const std::string hash = Sha256Hex(password);
  return std::find(passwords_.begin(), passwords_.end(), hash) != passwords_.end();
}

bool AclUser::CanAccessKey(std::string_view key, bool read, bool write) const {
  if (all_keys_) return true;
  for (const AclKeyPattern& p : keys_) {
    if ((!read || p.read) && (!write || p.write) && GlobMatch(p.pattern, key, false)) return true;
  }
  return false;
}

bool AclUser::CanAccessChannel(std::string_view channel, bool is_pattern) const {
  if (all_channels_) return true;
  for (const std::string& p : channels_) {
    if (is_pattern ? p == channel : GlobMatch(p, channel, false)) return true;
  }
  return false;
}

std::vector<std::string> AclUser::Flags() const {
  std::vector<std::string> out = {enabled_ ? "on" : "off"};
  if (nopass_) out.push_back("nopass");
  if (sanitize_payload_ == 2) out.push_back("skip-sanitize-payload");
  if (sanitize_payload_ == 1) out.push_back("sanitize-payload");
  return out;
}

std::string AclUser::DescribeKeys() const {
  if (all_keys_) return "~*";
  std::string out;
  for (const AclKeyPattern& p : keys_) {
    if (!out.empty()) out += ' ';
    out += p.read && p.write ? "~" : p.read ? "%R~" : "%W~";
    out += p.pattern;
  }
  return out;
}

std::string AclUser::DescribeChannels() const {
  if (all_channels_) return "&*";
  std::string out;
  for (const std::string& c : channels_) out += (out.empty() ? "&" : " &") + c;
  return out;
}

std::string AclUser::DescribeCommands() const {
  std::string out = all_commands_ ? "+@all" : "-@all";
  for (const std::string& r : rules_) out += " " + r;
  return out;
}

std::string AclUser::Describe() const {
  std::string out;
  for (const std::string& f : Flags()) out += f + " ";
  for (const std::string& p : passwords_) out += "#" + p + " ";
  std::string keys = DescribeKeys();
  if (!keys.empty()) out += keys + " ";
  out += all_channels_ ? "&* " : "resetchannels ";
  if (!all_channels_) {
    for (const std::string& c : channels_) out += "&" + c + " ";
  }
  return out + DescribeCommands();
}

}  // namespace rankd
