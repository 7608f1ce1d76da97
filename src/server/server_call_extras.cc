// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// What a command's call leaves beside its reply (Server::Call): latency
// samples for the latency monitor, the keys a read makes a tracking client
// remember (a script's read counts for the script's caller), and the pushes
// kept when CLIENT REPLY OFF / SKIP drops the reply.

#include <cstring>

#include "base/clock.h"
#include "server/server.h"

namespace rankd {

void Server::AddLatencySample(std::string_view event, int64_t ms) {
  if (config_.latency_monitor_threshold > 0 && ms >= config_.latency_monitor_threshold) {
    latency_.Add(event, ms, WallMs() / 1000);
  }
}

void Server::RememberReadKeys(Client& c, const CommandSpec& spec,
                              std::span<const std::string_view> args) {
  // A script (kSkipMonitor marks EVAL_RO and FCALL_RO) is not tracked
  // itself: a read it calls tracks the keys the script declared, for the
  // script's caller (Redis 7.0 call()).
  if (spec.flags & kSkipMonitor) return;
  Client* tracked = c.conn ? &c : current_client_;
  const CommandSpec* tracked_spec = c.conn ? &spec : current_call_.spec;
  if (!tracked || !tracked_spec || !tracked->tracking.on || tracked->tracking.bcast) return;
  tracking_.RememberKeys(*tracked, *tracked_spec, c.conn ? args : current_call_.args);
}

void Server::DropReplyKeepingPushes(Client& c, size_t reply_start) {
  std::string& buf = c.reply->buffer();
  size_t out = reply_start;
  for (auto [begin, end] : c.kept_pushes) {
    // Invariant: ranges are in order, inside this command's output.
    if (begin < reply_start || end > buf.size() || begin < out) continue;
    memmove(buf.data() + out, buf.data() + begin, end - begin);
    out += end - begin;
  }
  buf.resize(out);
}

}  // namespace rankd
