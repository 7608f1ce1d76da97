// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// The pub/sub family as Redis 7.0: SUBSCRIBE, UNSUBSCRIBE, PSUBSCRIBE,
// PUNSUBSCRIBE, SSUBSCRIBE, SUNSUBSCRIBE, PUBLISH, SPUBLISH and PUBSUB.
// Subscriptions and delivery live in server/pubsub.h; the RESP2 subscribed
// context (which commands a subscribed client may send) is the
// dispatcher's rule (Server::Dispatch).

#include "server/board_watch.h"
#include "server/pubsub.h"

#include <string>
#include <vector>

#include "cluster/bus.h"
#include "cluster/cluster.h"
#include "commands/families.h"
#include "server/client.h"
#include "server/server.h"

namespace rankd {
namespace {

void SubscribeEach(CommandContext& ctx, PubSub::Kind kind) {
  for (size_t i = 1; i < ctx.argc(); i++) {
    const bool added = ctx.server.pubsub().Subscribe(ctx.client, kind, ctx.arg(i));
    // A board channel (__lbtop@...) follows a leaderboard's top rows.
    if (added && kind == PubSub::kChannel) {
      ctx.server.board_watch().ChannelSubscribed(ctx.client, ctx.arg(i));
    }
  }
}

void UnsubscribeEach(CommandContext& ctx, PubSub::Kind kind) {
  if (ctx.argc() == 1) {
    ctx.server.pubsub().UnsubscribeAll(ctx.client, kind, /*notify=*/true);
    return;
  }
  for (size_t i = 1; i < ctx.argc(); i++) {
    ctx.server.pubsub().Unsubscribe(ctx.client, kind, ctx.arg(i), /*notify=*/true);
  }
}

void Subscribe(CommandContext& ctx) { SubscribeEach(ctx, PubSub::kChannel); }
void PSubscribe(CommandContext& ctx) { SubscribeEach(ctx, PubSub::kPattern); }
void SSubscribe(CommandContext& ctx) { SubscribeEach(ctx, PubSub::kShard); }
void Unsubscribe(CommandContext& ctx) { UnsubscribeEach(ctx, PubSub::kChannel); }
void PUnsubscribe(CommandContext& ctx) { UnsubscribeEach(ctx, PubSub::kPattern); }
void SUnsubscribe(CommandContext& ctx) { UnsubscribeEach(ctx, PubSub::kShard); }

// In cluster mode the bus carries a message to the other nodes (every node;
// a shard channel's: the slot's master and replicas), as Redis 7.0.
// Otherwise the command goes down the replication stream, so replicas'
// subscribers get it too (the append-only log skips it: PersistManager).
void PublishOnBus(CommandContext& ctx, bool shard) {
  if (Cluster* cluster = Cluster::Of(ctx.server)) {
    cluster->bus().Publish(ctx.arg(1), ctx.arg(2), shard);
    return;
  }
  const std::string_view args[] = {shard ? "SPUBLISH" : "PUBLISH", ctx.arg(1), ctx.arg(2)};
  ctx.server.Propagate(ctx.client, args);
}

void Publish(CommandContext& ctx) {
  ctx.reply.Integer(ctx.server.pubsub().Publish(PubSub::kChannel, ctx.arg(1), ctx.arg(2)));
  PublishOnBus(ctx, /*shard=*/false);
}

void SPublish(CommandContext& ctx) {
  ctx.reply.Integer(ctx.server.pubsub().Publish(PubSub::kShard, ctx.arg(1), ctx.arg(2)));
  PublishOnBus(ctx, /*shard=*/true);
}

void ReplyNames(CommandContext& ctx, PubSub::Kind kind) {
  std::optional<std::string_view> pattern;
  if (ctx.argc() == 3) pattern = ctx.arg(2);
  std::vector<std::string> names = ctx.server.pubsub().Names(kind, pattern);
  ctx.reply.ArrayHeader(names.size());
  for (const std::string& n : names) ctx.reply.Bulk(n);
}

void ReplyNumSub(CommandContext& ctx, PubSub::Kind kind) {
  // A flat array of name, count pairs, in RESP3 too (Redis 7.0).
  ctx.reply.ArrayHeader((ctx.argc() - 2) * 2);
  for (size_t i = 2; i < ctx.argc(); i++) {
    ctx.reply.Bulk(ctx.arg(i));
    ctx.reply.Integer(static_cast<int64_t>(ctx.server.pubsub().NumSubscribers(kind, ctx.arg(i))));
  }
}

void PubSubCmd(CommandContext& ctx) {
  std::string_view sub = ctx.arg(1);
  if (EqualsIgnoreCase(sub, "CHANNELS")) return ReplyNames(ctx, PubSub::kChannel);
  if (EqualsIgnoreCase(sub, "SHARDCHANNELS")) return ReplyNames(ctx, PubSub::kShard);
  if (EqualsIgnoreCase(sub, "NUMSUB")) return ReplyNumSub(ctx, PubSub::kChannel);
  if (EqualsIgnoreCase(sub, "SHARDNUMSUB")) return ReplyNumSub(ctx, PubSub::kShard);
  if (EqualsIgnoreCase(sub, "NUMPAT")) {
    return ctx.reply.Integer(static_cast<int64_t>(ctx.server.pubsub().NumPatterns()));
  }
  ReplyHelp(ctx.reply, "pubsub",
            {"CHANNELS [<pattern>]",
             "    Return the currently active channels matching a <pattern> (default: '*').",
             "NUMPAT", "    Return number of subscriptions to patterns.",
             "NUMSUB [<channel> ...]",
             "    Return the number of subscribers for the specified channels, excluding",
             "    pattern subscriptions(default: no channels).",
             "SHARDCHANNELS [<pattern>]",
             "    Return the currently active shard level channels matching a <pattern> (default: '*').",
             "SHARDNUMSUB [<shardchannel> ...]",
             "    Return the number of subscribers for the specified shard level channel(s)"});
}

constexpr uint32_t kSubFlags = kNoScript | kLoading | kStale;
constexpr uint32_t kIntrospect = kLoading | kStale;
constexpr CommandSpec kPubSubSubcommands[] = {
    {"channels", -2, kIntrospect, 0, 0, 0, &PubSubCmd},
    {"numpat", 2, kIntrospect, 0, 0, 0, &PubSubCmd},
    {"numsub", -2, kIntrospect, 0, 0, 0, &PubSubCmd},
    {"shardchannels", -2, kIntrospect, 0, 0, 0, &PubSubCmd},
    {"shardnumsub", -2, kIntrospect, 0, 0, 0, &PubSubCmd},
    {"help", 2, kIntrospect, 0, 0, 0, &PubSubCmd},
};

// Arity follows Redis: N = exactly N args (incl. name), -N = at least N.
constexpr CommandSpec kPubSubCommands[] = {
    // name          arity flags                        first last step handler
    {"subscribe",    -2,   kSubFlags,                   0,    0,   0,   &Subscribe},
    {"unsubscribe",  -1,   kSubFlags,                   0,    0,   0,   &Unsubscribe},
    {"psubscribe",   -2,   kSubFlags,                   0,    0,   0,   &PSubscribe},
    {"punsubscribe", -1,   kSubFlags,                   0,    0,   0,   &PUnsubscribe},
    {"ssubscribe",   -2,   kSubFlags,                   1,    -1,  1,   &SSubscribe},
    {"sunsubscribe", -1,   kSubFlags,                   1,    -1,  1,   &SUnsubscribe},
    {"publish",      3,    kIntrospect | kFast | kMayReplicate, 0, 0, 0, &Publish},
    {"spublish",     3,    kIntrospect | kFast | kMayReplicate, 1, 1, 1, &SPublish},
    {"pubsub",       -2,   kIntrospect,                 0,    0,   0,   &PubSubCmd,
     kPubSubSubcommands},
};

}  // namespace

std::span<const CommandSpec> PubSubCommands() { return kPubSubCommands; }

}  // namespace rankd
