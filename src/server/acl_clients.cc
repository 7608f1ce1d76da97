// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// What an ACL change does to connected clients, as redis-server 7.0.15
// (checked side by side):
//
// - ACL SETUSER: a client of that user with any subscription (channel,
//   pattern or shard channel; RESP2 or RESP3) that the new rules no longer
//   allow is disconnected; command rules and "off" disconnect nobody.
// - ACL DELUSER: every client of a deleted user is disconnected.
// - ACL LOAD: every client of a user other than "default" is disconnected,
//   even when the file leaves the user as it was; "default"'s clients stay,
//   subscriptions included.
//
// The client that ran the command gets its reply and is closed after it
// (redis-server 7.0.15 crashes when SETUSER revokes the caller's own
// subscription, which a RESP3 client can do).

#include "server/acl.h"
#include "server/client.h"
#include "server/pubsub.h"
#include "server/server.h"

namespace rankd {
namespace {

void Disconnect(Client& c, Client* self) {
  if (!c.conn) return;
  &c == self ? c.conn->CloseAfterReply() : c.conn->Kill();
}

bool LostAnySubscription(const Client& c, const AclUser& user) {
  for (int kind : {PubSub::kChannel, PubSub::kPattern, PubSub::kShard}) {
    for (const std::string& name : c.subscriptions[kind]) {
      if (!user.CanUseChannel(name, kind == PubSub::kPattern)) return true;
    }
  }
  return false;
}

}  // namespace

void Server::RebindClients(Client* self, bool reloaded) {
  AclUser& fallback = acl_.default_user();
  ForEachClient([&](Client& c) {
    AclUser* u = acl_.Find(c.user_name);
    if (u && (!reloaded || u == &fallback)) {
      c.user = u;
      return;
    }
    c.user = &fallback;  // never left pointing at a freed user
    Disconnect(c, self);
  });
}

void Server::KillRevokedSubscribers(const AclUser& user, Client* self) {
  ForEachClient([&](Client& c) {
    if (c.user == &user && LostAnySubscription(c, user)) Disconnect(c, self);
  });
}

}  // namespace rankd
