// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "server/acl_user.h"

#include <algorithm>

#include "base/sha256.h"
#include "net/split_args.h"
#include "server/command.h"

namespace rankd {
namespace {

bool IsHexHash(std::string_view s) {
  return s.size() == 64 &&
         std::all_of(s.begin(), s.end(), [](char c) { return isdigit(c) || (c >= 'a' && c <= 'f'); });
}

constexpr std::string_view kBadHash =
    "The password hash must be exactly 64 characters and contain only lowercase hexadecimal "
    "characters";

}  // namespace

AclUser::AclUser(std::string name, const AclCommandTable* table,
                 std::shared_ptr<const bool> all_channels_default)
    : name_(std::move(name)),
      table_(table),
      all_channels_default_(std::move(all_channels_default)),
      root_(table) {
  if (this->all_channels_default()) root_.SetRule("allchannels");
}

std::string AclUser::SetRule(std::string_view rule) {
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
  } else if (is("sanitize-payload")) {
    sanitize_payload_ = 1;
  } else if (is("skip-sanitize-payload")) {
    sanitize_payload_ = 2;
  } else if (is("reset")) {
    for (std::string_view r : {"resetpass", "resetkeys", "resetchannels", "off",
                               "sanitize-payload", "clearselectors", "-@all"}) {
      SetRule(r);
    }
    if (all_channels_default()) SetRule("allchannels");
  } else if (is("clearselectors")) {
    selectors_.clear();
  } else if (rule.size() >= 2 && rule.front() == '(' && rule.back() == ')') {
    // Redis aclCreateSelectorFromOpSet: unbalanced quotes inside leave an
    // empty selector.
    AclSelector selector(table_);
    if (all_channels_default()) selector.SetRule("allchannels");
    auto words = SplitArgs(rule.substr(1, rule.size() - 2));
    for (const std::string& w : words.value_or(std::vector<std::string>{})) {
      std::string err = selector.SetRule(w);
      if (!err.empty()) return err;
    }
    selectors_.push_back(std::move(selector));
  } else if (rule[0] == '>' || rule[0] == '#') {
    std::string hash = rule[0] == '>' ? Sha256Hex(rule.substr(1)) : std::string(rule.substr(1));
    if (rule[0] == '#' && !IsHexHash(hash)) return std::string(kBadHash);
    nopass_ = false;
    if (std::find(passwords_.begin(), passwords_.end(), hash) == passwords_.end()) {
      passwords_.push_back(hash);
    }
  } else if (rule[0] == '<' || rule[0] == '!') {
    std::string hash = rule[0] == '<' ? Sha256Hex(rule.substr(1)) : std::string(rule.substr(1));
    if (rule[0] == '!' && !IsHexHash(hash)) return std::string(kBadHash);
    auto it = std::find(passwords_.begin(), passwords_.end(), hash);
    if (it == passwords_.end()) {
      return "The password you are trying to remove from the user does not exist";
    }
    passwords_.erase(it);
  } else {
    return root_.SetRule(rule);
  }
  return "";
}

bool AclUser::CheckPassword(std::string_view password) const {
  if (nopass_) return true;
  if (passwords_.empty()) return false;
  const std::string hash = Sha256Hex(password);
  return std::find(passwords_.begin(), passwords_.end(), hash) != passwords_.end();
}

AclDenial AclUser::Check(const AclRequest& req, size_t* pos) const {
  AclDenial worst = AclDenial::kCommand;
  size_t worst_pos = 0;
  auto try_one = [&](const AclSelector& s) {
    size_t at = 0;
    AclDenial d = s.Check(req, &at);
    if (d == AclDenial::kNone) return true;
    if (d > worst || (d == worst && at > worst_pos)) {
      worst = d;
      worst_pos = at;
    }
    return false;
  };
  if (try_one(root_)) return AclDenial::kNone;
  for (const AclSelector& s : selectors_) {
    if (try_one(s)) return AclDenial::kNone;
  }
  *pos = worst_pos;
  return worst;
}

bool AclUser::checks_keys() const {
  if (!root_.all_keys()) return true;
  return std::any_of(selectors_.begin(), selectors_.end(),
                     [](const AclSelector& s) { return !s.all_keys(); });
}

bool AclUser::CanUseChannel(std::string_view channel, bool is_pattern) const {
  if (root_.CanAccessChannel(channel, is_pattern)) return true;
  return std::any_of(selectors_.begin(), selectors_.end(), [&](const AclSelector& s) {
    return s.CanAccessChannel(channel, is_pattern);
  });
}

bool AclUser::checks_channels() const {
  if (!root_.all_channels()) return true;
  return std::any_of(selectors_.begin(), selectors_.end(),
                     [](const AclSelector& s) { return !s.all_channels(); });
}

std::vector<std::string> AclUser::Flags() const {
  std::vector<std::string> out = {enabled_ ? "on" : "off"};
  if (nopass_) out.push_back("nopass");
  if (sanitize_payload_ == 2) out.push_back("skip-sanitize-payload");
  if (sanitize_payload_ == 1) out.push_back("sanitize-payload");
  return out;
}

std::string AclUser::DescribeKeys() const { return root_.DescribeKeys(); }
std::string AclUser::DescribeChannels() const { return root_.DescribeChannels(); }
std::string AclUser::DescribeCommands() const { return root_.DescribeCommands(); }

std::string AclUser::Describe() const {
  std::string out;
  for (const std::string& f : Flags()) out += f + " ";
  for (const std::string& p : passwords_) out += "#" + p + " ";
  out += root_.Describe();
  for (const AclSelector& s : selectors_) out += " (" + s.Describe() + ")";
  return out;
}

}  // namespace rankd
