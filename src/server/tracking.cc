// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "server/tracking.h"

#include <algorithm>

#include "server/command_keys.h"
#include "server/server.h"

namespace rankd {
namespace {

// One of `a`, `b` is a prefix of the other (Redis stringCheckPrefix).
bool Overlap(std::string_view a, std::string_view b) {
  const size_t n = std::min(a.size(), b.size());
  return a.substr(0, n) == b.substr(0, n);
}

constexpr std::string_view kOverlapTail = ". Prefixes for a single client must not overlap.";

}  // namespace

std::string Tracking::Enable(Client& c, const TrackingState& opts) {
  TrackingState& t = c.tracking;
  if (!opts.bcast && !opts.prefixes.empty()) {
    return "ERR PREFIX option requires BCAST mode to be enabled";
  }
  if (t.on && t.bcast != opts.bcast) {
    return "ERR You can't switch BCAST mode on/off before disabling tracking for this client, "
           "and then re-enabling it with a different mode.";
  }
  if (opts.bcast && (opts.optin || opts.optout)) {
    return "ERR OPTIN and OPTOUT are not compatible with BCAST";
  }
  if (opts.optin && opts.optout) return "ERR You can't specify both OPTIN mode and OPTOUT mode";
  if ((opts.optin && t.optout) || (opts.optout && t.optin)) {
    return "ERR You can't switch OPTIN/OPTOUT mode before disabling tracking for this client, "
           "and then re-enabling it with a different mode.";
  }
  if (opts.bcast) {
    for (size_t i = 0; i < opts.prefixes.size(); i++) {
      for (const std::string& old : t.prefixes) {
        if (Overlap(old, opts.prefixes[i])) {
          return "ERR Prefix '" + opts.prefixes[i] + "' overlaps with an existing prefix '" +
                 old + "'" + std::string(kOverlapTail);
        }
      }
      for (size_t j = i + 1; j < opts.prefixes.size(); j++) {
        if (Overlap(opts.prefixes[i], opts.prefixes[j])) {
          return "ERR Prefix '" + opts.prefixes[i] + "' overlaps with another provided prefix '" +
                 opts.prefixes[j] + "'" + std::string(kOverlapTail);
        }
      }
    }
  }
  t.on = true;
  t.bcast = opts.bcast;
  t.optin = opts.optin;
  t.optout = opts.optout;
  t.noloop = opts.noloop;
  t.redirect = opts.redirect;
  t.broken_redirect = false;
  if (opts.bcast) {
    std::vector<std::string> add = opts.prefixes;
    if (add.empty()) add.emplace_back();  // every key
    for (std::string& p : add) {
      if (std::find(t.prefixes.begin(), t.prefixes.end(), p) != t.prefixes.end()) continue;
      prefixes_[p].clients.insert(c.id);
      t.prefixes.push_back(std::move(p));
    }
  }
  return "";
}

void Tracking::Disable(Client& c) {
  TrackingState& t = c.tracking;
  for (const std::string& p : t.prefixes) {
    auto it = prefixes_.find(p);
    if (it == prefixes_.end()) continue;
    it->second.clients.erase(c.id);
    if (it->second.clients.empty()) prefixes_.erase(it);
  }
  t = TrackingState{};  // keys in the table are skipped when they fire
}

void Tracking::RememberKeys(Client& c, const CommandSpec& spec,
                            std::span<const std::string_view> args) {
  const TrackingState& t = c.tracking;
  if ((t.optin && !t.caching) || (t.optout && t.caching)) return;
  // KeyPositions also knows the numkeys commands (ZUNION, ZINTERCARD, ...),
  // whose table entry names no keys.
  for (size_t pos : KeyPositions(spec, args)) table_[args[pos]].insert(c.id);
}

void Tracking::KeyChanged(std::string_view key, const Client* cause, const Client* running) {
  if (table_.empty() && prefixes_.empty()) return;  // the common case: nobody tracks
  const uint64_t cause_id = cause ? cause->id : 0;
  const uint64_t running_id = running ? running->id : 0;
  for (auto& [prefix, p] : prefixes_) {
    if (key.substr(0, prefix.size()) == prefix) p.pending.emplace_back(key, cause_id);
  }
  auto it = table_.find(key);
  if (it == table_.end()) return;
  absl::flat_hash_set<uint64_t> ids = std::move(it->second);
  table_.erase(it);
  for (uint64_t id : ids) {
    Client* target = server_->FindClient(id);
    if (!target || !target->tracking.on || target->tracking.bcast) continue;
    if (id == cause_id && target->tracking.noloop) continue;
    if (id == running_id) {
      deferred_.emplace_back(id, std::string(key));  // after its own reply
      continue;
    }
    SendOne(id, key);
  }
}

void Tracking::Flushed(const Client* running) {
  table_.clear();
  for (auto& [prefix, p] : prefixes_) p.pending.clear();
  if (flushed_in_command_) return;
  flushed_in_command_ = true;
  server_->ForEachClient([&](Client& c) {
    if (!c.tracking.on) return;
    if (&c == running) {
      deferred_flush_ = c.id;  // after its own reply
    } else {
      Send(c, nullptr);
    }
  });
}

void Tracking::SendOne(uint64_t client_id, std::string_view key) {
  Client* target = server_->FindClient(client_id);
  if (!target) return;
  std::vector<std::string_view> keys = {key};
  Send(*target, &keys);
}

void Tracking::Send(Client& target, const std::vector<std::string_view>* keys) {
  Client* dest = &target;
  const bool redirected = target.tracking.redirect != 0;
  if (redirected) {
    dest = server_->FindClient(target.tracking.redirect);
    if (!dest) {
      target.tracking.broken_redirect = true;
      if (target.resp() >= 3 && target.conn) {
        PushScope push(target);
        target.reply->PushHeader(2);
        target.reply->Bulk("tracking-redir-broken");
        target.reply->Integer(static_cast<int64_t>(target.tracking.redirect));
        target.conn->ScheduleFlush();
      }
      return;
    }
  }
  if (!dest->conn || dest->conn->closing()) return;
  ReplyBuilder& r = *dest->reply;
  PushScope push(*dest);
  if (dest->resp() >= 3) {
    r.PushHeader(2);
    r.Bulk("invalidate");
  } else if (redirected && dest->all_subscription_count() > 0) {
    r.ArrayHeader(3);
    r.Bulk("message");
    r.Bulk("__redis__:invalidate");
  } else {
    return;  // RESP2 without a redirect: nowhere to say it
  }
  if (keys) {
    r.ArrayHeader(keys->size());
    for (std::string_view k : *keys) r.Bulk(k);
  } else {
    r.Null();
  }
  if (!dest->conn->EnforceOutputLimit()) dest->conn->ScheduleFlush();
}

void Tracking::SendDeferred() {
  if (deferred_flush_ != 0) {
    if (Client* target = server_->FindClient(deferred_flush_)) Send(*target, nullptr);
    deferred_flush_ = 0;
  }
  if (deferred_.empty()) return;
  std::vector<std::pair<uint64_t, std::string>> deferred;
  deferred.swap(deferred_);
  for (auto& [id, key] : deferred) SendOne(id, key);
}

void Tracking::Flush(int64_t max_keys) {
  SendDeferred();
  for (auto& [prefix, p] : prefixes_) {
    if (p.pending.empty()) continue;
    std::vector<std::pair<std::string, uint64_t>> pending;
    pending.swap(p.pending);
    for (uint64_t id : p.clients) {
      Client* target = server_->FindClient(id);
      if (!target) continue;
      std::vector<std::string_view> keys;
      for (auto& [key, cause] : pending) {
        if (!(target->tracking.noloop && cause == id)) keys.push_back(key);
      }
      if (!keys.empty()) Send(*target, &keys);
    }
  }
  // Over tracking-table-max-keys: forget keys (telling their clients), a
  // bounded number per iteration, as Redis trackingLimitUsedSlots.
  for (int budget = 1000; max_keys > 0 && table_.size() > static_cast<size_t>(max_keys) &&
                          budget > 0;
       budget--) {
    auto it = table_.begin();
    std::string key = it->first;
    absl::flat_hash_set<uint64_t> ids = std::move(it->second);
    table_.erase(it);
    for (uint64_t id : ids) {
      Client* target = server_->FindClient(id);
      if (target && target->tracking.on && !target->tracking.bcast) SendOne(id, key);
    }
  }
}

}  // namespace rankd
