// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// Shared pieces of the stream commands (stream_*.cc): Redis 7.0's id
// grammar, the XADD / XTRIM trimming options, entry replies and the error
// texts of the family.

#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "core/stream.h"
#include "server/command.h"

namespace rankd {

namespace stream_err {
inline constexpr std::string_view kInvalidId =
    "ERR Invalid stream ID specified as stream command argument";
inline constexpr std::string_view kAddTooSmall =
    "ERR The ID specified in XADD is equal or smaller than the target stream top item";
inline constexpr std::string_view kAddZero = "ERR The ID specified in XADD must be greater than 0-0";
inline constexpr std::string_view kExhausted =
    "ERR The stream has exhausted the last possible ID, unable to add more items";
inline constexpr std::string_view kBusyGroup = "BUSYGROUP Consumer Group name already exists";
}  // namespace stream_err

// Parses a stream id argument as Redis streamGenericParseIDOrReply: "-" and
// "+" (unless `strict`), "<ms>" (seq = missing_seq), "<ms>-<seq>", and when
// `seq_given` is non-null "<ms>-*" (then *seq_given = false). False:
// stream_err::kInvalidId.
[[nodiscard]] bool ParseStreamId(std::string_view arg, StreamId* id, uint64_t missing_seq,
                                 bool strict, bool* seq_given = nullptr);

// The node limits of new stream entries (stream-node-max-*).
StreamNodeLimits StreamLimits(CommandContext& ctx);

// The stream at `key` for writing, created empty when missing; nullptr with
// *wrong_type on WRONGTYPE.
Stream* StreamForWrite(CommandContext& ctx, std::string_view key, bool* wrong_type);

// Replies one id as a bulk string "ms-seq".
void ReplyStreamId(ReplyBuilder& reply, StreamId id);
// Replies one entry: [id, [field, value, ...]].
void ReplyStreamEntry(ReplyBuilder& reply, StreamId id, const Stream::Fields& fields);
// Replies the live entries in [lo, hi] (descending when `rev`), at most
// `count` (0: all), as an array of entries. Returns how many.
size_t ReplyStreamRange(ReplyBuilder& reply, const Stream& s, StreamId lo, StreamId hi, bool rev,
                        size_t count);

// XADD / XTRIM trimming options (Redis streamParseAddOrTrimArgsOrReply).
struct StreamTrimArgs {
  enum class Strategy { kNone, kMaxLen, kMinId } strategy = Strategy::kNone;
  int64_t maxlen = 0;
  StreamId minid;
  bool approx = false;
  int64_t limit = 0;      // 0: none
  size_t value_index = 0;  // argument index of the MAXLEN / MINID value
  // XADD only.
  bool nomkstream = false;
  bool id_given = false, seq_given = true;
  StreamId id;
  size_t id_index = 0;  // argument index of the id ("*" included)
};
// Parses from argument 2 on; for XADD stops at the id. Returns an error
// text or "" (then `out` is filled).
std::string ParseStreamTrimArgs(CommandContext& ctx, bool xadd, StreamTrimArgs* out);
// Trims `s` as `a` says; returns the entries removed.
int64_t ApplyStreamTrim(Stream& s, const StreamTrimArgs& a);
// Propagates the running XADD / XTRIM with an approximate trim rewritten to
// the exact one that happened ("=" and the length or first id now), and
// `id` (when given) in place of the id argument.
void PropagateStreamWrite(CommandContext& ctx, const StreamTrimArgs& a, const Stream& s,
                          const StreamId* id);

}  // namespace rankd
