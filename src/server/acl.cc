// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "server/acl.h"

#include <algorithm>
#include <cctype>

#include "base/clock.h"
#include "server/config.h"

namespace rankd {
namespace {

std::unique_ptr<AclUser> NewDefaultUser(const AclCommandTable* table,
                                        std::shared_ptr<const bool> all_channels_default) {
  auto u = std::make_unique<AclUser>("default", table, std::move(all_channels_default));
  for (std::string_view r : {"on", "nopass", "~*", "&*", "+@all"}) u->SetRule(r);
  return u;
}

}  // namespace

Acl::Acl(const AclCommandTable* table) : table_(table) {
  users_["default"] = NewDefaultUser(table, all_channels_default_);
}

AclUser* Acl::Find(std::string_view name) {
  auto it = users_.find(name);
  return it == users_.end() ? nullptr : it->second.get();
}

std::vector<const AclUser*> Acl::Users() const {
  std::vector<const AclUser*> out;
  for (auto& [name, u] : users_) out.push_back(u.get());
  return out;
}

std::optional<std::vector<std::string>> MergeSelectorArgs(
    const std::vector<std::string_view>& rules, size_t* unmatched) {
  std::vector<std::string> out;
  size_t open = rules.size();  // index of an unclosed "(...", or none
  for (size_t i = 0; i < rules.size(); i++) {
    std::string_view r = rules[i];
    if (open == rules.size() && !r.empty() && r.front() == '(' && r.back() != ')') {
      open = i;
      out.emplace_back(r);
    } else if (open != rules.size()) {
      out.back() += " ";
      out.back() += r;
      if (!r.empty() && r.back() == ')') open = rules.size();
    } else {
      out.emplace_back(r);
    }
  }
  if (open != rules.size()) {
    *unmatched = open;
    return std::nullopt;
  }
  return out;
}

std::string Acl::SetUser(std::string_view name, const std::vector<std::string_view>& words) {
  // A name must survive ACL LIST and the ACL file, which separate by spaces.
  if (std::any_of(name.begin(), name.end(),
                  [](char ch) { return ch == '\0' || isspace(static_cast<unsigned char>(ch)); })) {
    return "Usernames can't contain spaces or null characters";
  }
  size_t unmatched = 0;
  auto rules = MergeSelectorArgs(words, &unmatched);
  if (!rules) {
    return "Unmatched parenthesis in acl selector starting at '" + std::string(words[unmatched]) +
           "'.";
  }
  AclUser* existing = Find(name);
  AclUser scratch = existing ? *existing : AclUser(std::string(name), table_, all_channels_default_);
  for (const std::string& rule : *rules) {
    std::string err = scratch.SetRule(rule);
    if (!err.empty()) {
      return "Error in ACL SETUSER modifier '" + std::string(rule) + "': " + err;
    }
  }
  if (existing) {
    *existing = std::move(scratch);
  } else {
    users_[std::string(name)] = std::make_unique<AclUser>(std::move(scratch));
  }
  return "";
}

bool Acl::DeleteUser(std::string_view name) {
  if (name == "default") return false;
  auto it = users_.find(name);
  if (it == users_.end()) return false;
  users_.erase(it);
  return true;
}

AclUser* Acl::Authenticate(std::string_view name, std::string_view password) {
  AclUser* u = Find(name);
  if (!u || !u->enabled() || !u->CheckPassword(password)) return nullptr;
  return u;
}

void Acl::SetDefaultPassword(std::string_view password) {
  AclUser& u = default_user();
  u.SetRule("resetpass");
  if (password.empty()) {
    u.SetRule("nopass");
  } else {
    u.SetRule(">" + std::string(password));
  }
}

void Acl::Log(std::string_view reason, std::string_view context, std::string_view object,
              std::string_view username, std::string client_info) {
  const int64_t now = WallMs();
  for (auto it = log_.begin(); it != log_.end(); ++it) {
    LogEntry& e = *it;
    if (e.reason == reason && e.context == context && e.object == object &&
        e.username == username && now - e.created_ms < 60000) {
      e.count++;
      e.created_ms = now;
      e.client_info = std::move(client_info);
      // Redis moves the updated entry to the head of the log.
      LogEntry moved = std::move(e);
      log_.erase(it);
      log_.push_front(std::move(moved));
      return;
    }
  }
  log_.push_front(LogEntry{1, std::string(reason), std::string(context), std::string(object),
                           std::string(username), now, std::move(client_info)});
  while (log_.size() > log_max_len_) log_.pop_back();
}

std::string Acl::LoadText(std::string_view text) {
  std::vector<std::pair<std::string, std::vector<std::string>>> lines;
  std::string err = ParseConfigText(text, &lines);
  if (!err.empty()) return err;
  Acl fresh(table_);
  fresh.all_channels_default_ = all_channels_default_;
  fresh.users_.erase("default");
  for (size_t i = 0; i < lines.size(); i++) {
    auto& [word, args] = lines[i];
    if (word != "user" || args.empty()) {
      return "/" + std::to_string(i + 1) + ": should start with user keyword";
    }
    std::vector<std::string_view> rules(args.begin() + 1, args.end());
    if (fresh.Find(args[0])) return "Duplicate user '" + args[0] + "' found";
    err = fresh.SetUser(args[0], rules);
    if (!err.empty()) return std::to_string(i + 1) + ": " + err;
  }
  if (!fresh.Find("default")) {
    fresh.users_["default"] = NewDefaultUser(table_, all_channels_default_);
  }
  users_ = std::move(fresh.users_);
  return "";
}

std::string Acl::SaveText() const {
  std::string out;
  for (auto& [name, u] : users_) out += "user " + name + " " + u->Describe() + "\n";
  return out;
}

}  // namespace rankd
