// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "server/pubsub.h"

#include <algorithm>
#include <charconv>
#include <cstring>

#include "base/glob.h"
#include "server/client.h"

namespace rankd {
namespace {

constexpr std::string_view kSubscribeName[3] = {"subscribe", "psubscribe", "ssubscribe"};
constexpr std::string_view kUnsubscribeName[3] = {"unsubscribe", "punsubscribe",
                                                  "sunsubscribe"};

// "$<len>\r\n<s>\r\n", built with one append: it runs for every PUBLISH.
void AppendBulk(std::string* out, std::string_view s) {
  char head[24];
  head[0] = '$';
  char* end = std::to_chars(head + 1, head + sizeof(head) - 2, s.size()).ptr;
  *end++ = '\r';
  *end++ = '\n';
  const size_t head_len = static_cast<size_t>(end - head);
  const size_t at = out->size();
  out->resize(at + head_len + s.size() + 2);
  char* p = out->data() + at;
  memcpy(p, head, head_len);
  memcpy(p + head_len, s.data(), s.size());
  memcpy(p + head_len + s.size(), "\r\n", 2);
}

// Writes one pre-encoded frame (whose first byte is '*') to `c`, as a push
// under RESP3, and drops `c` if that takes it over its output limit.
void Deliver(Client& c, std::string& frame) {
  if (!c.conn || c.conn->closing()) return;
  frame[0] = c.resp() >= 3 ? '>' : '*';
  PushScope push(c);
  c.reply->Raw(frame);
  if (!c.conn->EnforceOutputLimit()) c.conn->ScheduleFlush();
}

}  // namespace

void PubSub::Confirm(Client& c, Kind kind, bool subscribe, const std::string_view* name) {
  ReplyBuilder& r = *c.reply;
  PushScope push(c);
  r.PushHeader(3);
  r.Bulk(subscribe ? kSubscribeName[kind] : kUnsubscribeName[kind]);
  name ? r.Bulk(*name) : r.Null();
  r.Integer(static_cast<int64_t>(kind == kShard ? c.subscriptions[kShard].size()
                                                : c.subscription_count()));
}

bool PubSub::Subscribe(Client& c, Kind kind, std::string_view name) {
  const bool added = c.subscriptions[kind].insert(std::string(name)).second;
  if (added) subs_[kind][name].push_back(&c);
  if (c.conn) c.conn->set_pubsub_class(true);
  Confirm(c, kind, true, &name);
  return added;
}

size_t PubSub::UnsubscribeEveryone(Kind kind, std::string_view name) {
  auto it = subs_[kind].find(name);
  if (it == subs_[kind].end()) return 0;
  const std::string keep(name);  // `name` may point into the map
  const std::vector<Client*> clients = it->second;
  for (Client* c : clients) Unsubscribe(*c, kind, keep, /*notify=*/true);
  return clients.size();
}

bool PubSub::Unsubscribe(Client& c, Kind kind, std::string_view name, bool notify) {
  auto own = c.subscriptions[kind].find(name);
  const bool removed = own != c.subscriptions[kind].end();
  if (removed) {
    auto it = subs_[kind].find(name);
    // Invariant: a client's own set and the server's map agree.
    std::vector<Client*>& v = it->second;
    v.erase(std::find(v.begin(), v.end(), &c));
    if (v.empty()) {
      subs_[kind].erase(it);
      if (kind == kChannel && on_channel_emptied) on_channel_emptied(*own);
    }
    if (notify) {
      std::string keep = *own;  // `name` may point into the erased string
      c.subscriptions[kind].erase(own);
      std::string_view n = keep;
      Confirm(c, kind, false, &n);
    } else {
      c.subscriptions[kind].erase(own);
    }
  } else if (notify) {
    Confirm(c, kind, false, &name);
  }
  if (c.conn && c.all_subscription_count() == 0) c.conn->set_pubsub_class(false);
  return removed;
}

size_t PubSub::UnsubscribeAll(Client& c, Kind kind, bool notify) {
  std::vector<std::string> names(c.subscriptions[kind].begin(), c.subscriptions[kind].end());
  for (const std::string& n : names) Unsubscribe(c, kind, n, notify);
  if (notify && names.empty()) Confirm(c, kind, false, nullptr);
  return names.size();
}

void PubSub::Forget(Client& c) {
  for (Kind k : {kChannel, kPattern, kShard}) UnsubscribeAll(c, k, false);
}

int64_t PubSub::Publish(Kind kind, std::string_view channel, std::string_view message) {
  int64_t receivers = 0;
  auto it = subs_[kind].find(channel);
  if (it != subs_[kind].end()) {
    frame_.assign(kind == kShard ? "*3\r\n$8\r\nsmessage\r\n" : "*3\r\n$7\r\nmessage\r\n");
    AppendBulk(&frame_, channel);
    AppendBulk(&frame_, message);
    // A delivery may drop a slow subscriber: Kill defers its OnClose (and
    // so any edit of this list) to the end of the iteration.
    for (Client* c : it->second) Deliver(*c, frame_);
    receivers += static_cast<int64_t>(it->second.size());
  }
  if (kind != kChannel) return receivers;
  for (auto& [pattern, clients] : subs_[kPattern]) {
    if (!GlobMatch(pattern, channel)) continue;
    frame_.assign("*4\r\n$8\r\npmessage\r\n");
    AppendBulk(&frame_, pattern);
    AppendBulk(&frame_, channel);
    AppendBulk(&frame_, message);
    for (Client* c : clients) Deliver(*c, frame_);
    receivers += static_cast<int64_t>(clients.size());
  }
  return receivers;
}

std::vector<std::string> PubSub::Names(Kind kind,
                                       std::optional<std::string_view> pattern) const {
  std::vector<std::string> out;
  for (const auto& [name, clients] : subs_[kind]) {
    if (!pattern || GlobMatch(*pattern, name)) out.push_back(name);
  }
  return out;
}

size_t PubSub::NumSubscribers(Kind kind, std::string_view name) const {
  auto it = subs_[kind].find(name);
  return it == subs_[kind].end() ? 0 : it->second.size();
}

}  // namespace rankd
