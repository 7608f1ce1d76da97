// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "server/acl_selector.h"

#include <algorithm>
#include <cctype>

#include "base/glob.h"
#include "server/acl_categories.h"
#include "server/command.h"

namespace rankd {
namespace {

constexpr std::string_view kUnknown = "Unknown command or category name in ACL";

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& ch : out) ch = static_cast<char>(tolower(static_cast<unsigned char>(ch)));
  return out;
}

}  // namespace

AclSelector::AclSelector(const AclCommandTable* table)
    : table_(table), allowed_(table->size(), false) {}

void AclSelector::Grow() {
  // Commands registered after this selector was made follow "+@all".
  if (allowed_.size() < static_cast<size_t>(table_->size())) {
    allowed_.resize(table_->size(), all_commands_);
  }
}

// Redis ACLChangeSelectorPerm: the command, its first-argument exceptions,
// and every subcommand of a container.
void AclSelector::SetCommand(int id, bool allow) {
  allowed_[id] = allow;
  first_args_.erase(id);
  for (int sub : table_->SubcommandIds(id)) allowed_[sub] = allow;
}

std::string AclSelector::SetRule(std::string_view rule) {
  Grow();
  auto is = [&](std::string_view word) { return EqualsIgnoreCase(rule, word); };
  if (rule.empty()) return "";  // Redis ignores empty words
  if (is("allkeys") || rule == "~*") {
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
    first_args_.clear();
    allowed_.assign(allowed_.size(), true);
    every_command_ = true;
  } else if (is("nocommands") || is("-@all")) {
    all_commands_ = false;
    first_args_.clear();
    allowed_.assign(allowed_.size(), false);
    every_command_ = false;
  } else if (rule[0] == '~' || rule[0] == '%') {
    if (all_keys_) {
      return "Adding a pattern after the * pattern (or the 'allkeys' flag) is not valid and "
             "does not have any effect. Try 'resetkeys' to start with an empty list of patterns";
    }
    AclKeyPattern p;
    std::string_view pat = rule;
    if (rule[0] == '%') {
      size_t tilde = rule.find('~');
      if (tilde == std::string_view::npos || tilde == 1) return "Syntax error";
      p.read = p.write = false;
      for (char ch : rule.substr(1, tilde - 1)) {
        if ((ch == 'R' || ch == 'r') && !p.read) {
          p.read = true;
        } else if ((ch == 'W' || ch == 'w') && !p.write) {
          p.write = true;
        } else {
          return "Syntax error";
        }
      }
      pat = rule.substr(tilde);
    }
    p.pattern = std::string(pat.substr(1));
    // As Redis ACLSetSelector: a pattern already listed gains the new
    // permissions ("%R~a %W~a" is "~a"); only "~*" itself means allkeys.
    auto same = std::find_if(keys_.begin(), keys_.end(),
                             [&](const AclKeyPattern& k) { return k.pattern == p.pattern; });
    if (same == keys_.end()) {
      keys_.push_back(std::move(p));
    } else {
      same->read |= p.read;
      same->write |= p.write;
    }
  } else if (rule[0] == '&') {
    if (all_channels_) {
      return "Adding a pattern after the * pattern (or the 'allchannels' flag) is not valid and "
             "does not have any effect. Try 'resetchannels' to start with an empty list of "
             "channels";
    }
    const std::string_view ch = rule.substr(1);
    if (std::find(channels_.begin(), channels_.end(), ch) == channels_.end()) {
      channels_.emplace_back(ch);
    }
  } else if (rule[0] == '+' || rule[0] == '-') {
    std::string err = SetCommandRule(rule);
    every_command_ = all_commands_ && std::find(allowed_.begin(), allowed_.end(), false) ==
                                          allowed_.end();
    return err;
  } else {
    return "Syntax error";
  }
  return "";
}

std::string AclSelector::SetCommandRule(std::string_view rule) {
  const bool allow = rule[0] == '+';
  std::string_view what = rule.substr(1);
  if (!what.empty() && what[0] == '@') {
    std::optional<uint64_t> cat = AclCategoryByName(what.substr(1));
    if (!cat) return std::string(kUnknown);
    // Redis ACLSetSelectorCommandBitsForCategory: a command of the category
    // with all its subcommands, then each subcommand of the category.
    for (int id = 0; id < table_->size(); id++) {
      if (!table_->IsSubcommand(id) && (table_->CategoriesOf(id) & *cat)) SetCommand(id, allow);
    }
    for (int id = 0; id < table_->size(); id++) {
      if (table_->IsSubcommand(id) && (table_->CategoriesOf(id) & *cat)) allowed_[id] = allow;
    }
  } else if (int id = table_->IdOf(what); id >= 0) {
    SetCommand(id, allow);
  } else {
    // "+select|0": a first argument of a plain command (Redis 7.0 allows
    // it, deprecated); "-select|0" is unknown.
    const size_t bar = what.rfind('|');
    if (!allow || bar == std::string_view::npos) return std::string(kUnknown);
    const int cmd = table_->IdOf(what.substr(0, bar));
    if (cmd < 0) return std::string(kUnknown);
    if (table_->IsSubcommand(cmd)) return "Allowing first-arg of a subcommand is not supported";
    if (bar + 1 == what.size()) return "Syntax error";
    if (table_->IsContainer(cmd)) return std::string(kUnknown);
    std::vector<std::string>& args = first_args_[cmd];
    std::string arg = Lower(what.substr(bar + 1));
    if (std::find(args.begin(), args.end(), arg) == args.end()) args.push_back(std::move(arg));
  }
  return "";
}

bool AclSelector::CanRun(const AclRequest& req) const {
  if (req.no_auth) return true;
  // all_commands_ only decides commands registered after the last rule.
  if (static_cast<size_t>(req.command_id) >= allowed_.size()) return all_commands_;
  if (allowed_[req.command_id]) return true;
  // Redis checks args[1] (args[2] for a subcommand, which never has any).
  auto it = first_args_.find(req.command_id);
  const size_t at = req.is_subcommand ? 2 : 1;
  if (it == first_args_.end() || req.args.size() <= at) return false;
  for (const std::string& a : it->second) {
    if (EqualsIgnoreCase(a, req.args[at])) return true;
  }
  return false;
}

bool AclSelector::HasUnrestrictedKeyRead(const AclRequest& req) const {
  if (!CanRun(req)) return false;
  if (all_keys_) return true;
  return std::any_of(keys_.begin(), keys_.end(),
                     [](const AclKeyPattern& k) { return k.read && k.pattern == "*"; });
}

bool AclSelector::CanAccessKey(std::string_view key, bool read, bool write) const {
  if (all_keys_) return true;
  for (const AclKeyPattern& p : keys_) {
    if ((!read || p.read) && (!write || p.write) && GlobMatch(p.pattern, key, false)) return true;
  }
  return false;
}

bool AclSelector::CanAccessChannel(std::string_view channel, bool is_pattern) const {
  if (all_channels_) return true;
  for (const std::string& p : channels_) {
    if (is_pattern ? p == channel : GlobMatch(p, channel, false)) return true;
  }
  return false;
}

AclDenial AclSelector::Check(const AclRequest& req, size_t* pos) const {
  if (!CanRun(req)) return AclDenial::kCommand;
  if (!all_keys_) {
    for (const AclKeyRef& k : req.keys) {
      // A key position past a short line (redis.acl_check_cmd does not
      // check arity; SORT's rule names position 1 regardless) matches no
      // pattern, as Redis judges it.
      if (k.pos >= req.args.size() || !CanAccessKey(req.args[k.pos], k.read, k.write)) {
        *pos = k.pos;
        return AclDenial::kKey;
      }
    }
  }
  if (!all_channels_) {
    for (const AclChannelRef& ch : req.channels) {
      if (!CanAccessChannel(req.args[ch.pos], ch.pattern)) {
        *pos = ch.pos;
        return AclDenial::kChannel;
      }
    }
  }
  return AclDenial::kNone;
}

std::string AclSelector::DescribeKeys() const {
  if (all_keys_) return "~*";
  std::string out;
  for (const AclKeyPattern& p : keys_) {
    if (!out.empty()) out += ' ';
    out += p.read && p.write ? "~" : p.read ? "%R~" : "%W~";
    out += p.pattern;
  }
  return out;
}

std::string AclSelector::DescribeChannels() const {
  if (all_channels_) return "&*";
  std::string out;
  for (const std::string& c : channels_) out += (out.empty() ? "&" : " &") + c;
  return out;
}

std::string AclSelector::Describe() const {
  std::string out;
  std::string keys = DescribeKeys();
  if (!keys.empty()) out += keys + " ";
  out += all_channels_ ? "&* " : "resetchannels ";
  if (!all_channels_) {
    for (const std::string& c : channels_) out += "&" + c + " ";
  }
  return out + DescribeCommands();
}

}  // namespace rankd
