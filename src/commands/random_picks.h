// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// Replies made of repeated random picks: ZRANDMEMBER, SRANDMEMBER and
// HRANDFIELD with a negative count pick |count| times, repeats allowed, so
// the reply is not bounded by the data. redis-server 7.0 loops |count| times:
// `ZRANDMEMBER key -9223372036854775807` never returns, stops it answering
// anyone and grows it by gigabytes (unless an output buffer limit closes the
// client). rankd caps such a reply at kMaxRepeatedPicksBytes of RESP instead:
//
//   * a count that cannot fit (every item costs at least kMinPickBytes,
//     "$0\r\n\r\n") is refused at once with kRepeatedPicksTooLarge;
//   * a reply that passes the cap while being written is taken back
//     (ReplyBuilder::Rollback) and replaced by the same error.
//
// Nothing partial is ever sent, and the work is at most ~11 million picks.
// The client's output buffer hard limit still applies first when lower: the
// picks are then written until it is reached and the client is closed.

#pragma once

#include <cstdint>

#include "net/reply.h"
#include "server/errors.h"

namespace rankd {

inline constexpr uint64_t kMaxRepeatedPicksBytes = 64ull << 20;
inline constexpr uint64_t kMinPickBytes = 6;

// Writes header(count) then calls emit() count times, each writing one pick;
// or the error, when the reply would pass the cap.
template <typename Header, typename Emit>
void ReplyRepeatedPicks(ReplyBuilder& reply, uint64_t count, Header header, Emit emit) {
  const size_t mark = reply.buffer().size();
  // An output buffer hard limit below the cap stops the reply first: the
  // client is closed mid-run, as Redis 7.0 closes it.
  const bool limited = reply.limit() != 0 && reply.limit() - mark <= kMaxRepeatedPicksBytes;
  if (!limited && count > kMaxRepeatedPicksBytes / kMinPickBytes) {
    return reply.Error(err::kRepeatedPicksTooLarge);
  }
  header(count);
  for (uint64_t i = 0; i < count && !reply.overflowed(); i++) {
    emit();
    if (reply.buffer().size() - mark > kMaxRepeatedPicksBytes) {
      reply.Rollback(mark);
      return reply.Error(err::kRepeatedPicksTooLarge);
    }
  }
}

}  // namespace rankd
