// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// PubSub: who listens to what, and delivery. Three kinds of subscription,
// as Redis 7.0: channels (SUBSCRIBE), glob patterns (PSUBSCRIBE, Redis's
// glob rules) and shard channels (SSUBSCRIBE; one shard here, so a shard
// channel is a channel in its own namespace).
//
// Delivery writes the message into each subscriber's reply buffer at once
// (RESP2 array or RESP3 push, the same bytes apart from the first one) and
// checks the subscriber's output limit (client-output-buffer-limit pubsub):
// a subscriber that does not read is disconnected, not buffered for.
//
// Subscribers of a channel are served in subscription order; patterns in
// no particular order (Redis keeps them in a hash table too).
// Not thread-safe: the server's thread only.

#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "base/str_hash.h"

namespace rankd {

struct Client;

class PubSub {
 public:
  enum Kind { kChannel = 0, kPattern = 1, kShard = 2 };

  PubSub() = default;
  PubSub(const PubSub&) = delete;
  PubSub& operator=(const PubSub&) = delete;

  // Adds `c` to `name`'s subscribers and replies with Redis's
  // "subscribe"/"psubscribe"/"ssubscribe" confirmation. Returns false (still
  // confirming) when it was already subscribed.
  bool Subscribe(Client& c, Kind kind, std::string_view name);
  // Removes `c` from `name`; with `notify` replies with the
  // "unsubscribe"-style confirmation even when it was not subscribed.
  bool Unsubscribe(Client& c, Kind kind, std::string_view name, bool notify);
  // Removes every subscription of `kind`; with `notify` confirms each, or
  // once with a null name when there was none. Returns how many were removed.
  size_t UnsubscribeAll(Client& c, Kind kind, bool notify);
  // Removes every client's subscription to `name`, confirming each (a shard
  // channel whose slot left this node, cluster mode). Returns how many.
  size_t UnsubscribeEveryone(Kind kind, std::string_view name);
  // Removes all of `c`'s subscriptions without replies (disconnect, RESET).
  void Forget(Client& c);

  // Delivers `message` to subscribers of `channel` (kChannel: and to every
  // matching pattern, as "pmessage"; kShard: "smessage" to shard
  // subscribers). Returns the number of deliveries (PUBLISH's reply).
  int64_t Publish(Kind kind, std::string_view channel, std::string_view message);

  // Called with a channel's name when its last subscriber leaves (kChannel
  // only; board channels end their watch: server/board_watch.h).
  std::function<void(std::string_view)> on_channel_emptied;

  // True when anyone subscribes to anything (keyspace events skip the
  // formatting work otherwise).
  bool empty() const { return subs_[0].empty() && subs_[1].empty() && subs_[2].empty(); }

  // PUBSUB CHANNELS / SHARDCHANNELS: active names of `kind` (kChannel or
  // kShard) matching `pattern` (all without one).
  std::vector<std::string> Names(Kind kind, std::optional<std::string_view> pattern) const;
  // PUBSUB NUMSUB / SHARDNUMSUB: subscribers of one name.
  size_t NumSubscribers(Kind kind, std::string_view name) const;
  // PUBSUB NUMPAT: distinct patterns with at least one subscriber.
  size_t NumPatterns() const { return subs_[kPattern].size(); }
  // Names of `kind` with at least one subscriber (INFO pubsub_channels, ...).
  size_t NumNames(Kind kind) const { return subs_[kind].size(); }

 private:
  using SubscriberMap =
      absl::flat_hash_map<std::string, std::vector<Client*>, StrHash, StrEq>;
  void Confirm(Client& c, Kind kind, bool subscribe, const std::string_view* name);
  SubscriberMap subs_[3];  // by Kind
  std::string frame_;      // reused encoding of one message
};

}  // namespace rankd
