// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// What the sorted-set handlers (zset_family.cc, zset_range.cc,
// zset_algebra_cmds.cc, zset_pop.cc) share: typed key lookups with Redis's
// lookupKeyRead / lookupKeyWrite meaning, the reply shapes of member lists,
// and the rank interval a score or lex range covers.
//
// Pointers returned by the lookups are valid until the key is deleted or
// replaced; string_views from a SortedSet until its next mutation.

#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "commands/zset_args.h"
#include "core/hash.h"
#include "core/plain_set.h"
#include "core/sorted_set.h"
#include "net/reply.h"
#include "server/command.h"
#include "server/notify.h"

namespace rankd {

// The sorted set at `key` (read: counted in keyspace hits/misses), or
// nullptr when absent. Sets *wrong_type and returns nullptr when the key
// holds another type. An empty board (LB.CREATE before its first member, a
// state Redis never has) also reads as nullptr: every Z* reader answers for
// it exactly as for a missing key, and never sees a set of size 0.
SortedSet* FindZSetRead(CommandContext& ctx, std::string_view key, bool* wrong_type);
// As FindZSetRead, but an empty board is returned (LB.* reads: LB.INFO of a
// new board shows its policy).
SortedSet* FindBoardRead(CommandContext& ctx, std::string_view key, bool* wrong_type);
// Same for commands that write `key` (not counted in the stats).
SortedSet* FindZSetWrite(CommandContext& ctx, std::string_view key, bool* wrong_type);

// The plain set at `key`, with the same contract (set_family.cc).
PlainSet* FindSetRead(CommandContext& ctx, std::string_view key, bool* wrong_type);
PlainSet* FindSetWrite(CommandContext& ctx, std::string_view key, bool* wrong_type);

// Reports a removal from the sorted set or set at `key` (KeyChanged with
// `event`, e.g. "zrem"); when the removal left it empty, first deletes the
// key and then adds Redis's "del" event.
void ReportRemoval(CommandContext& ctx, std::string_view key, bool emptied, NotifyClass cls,
                   std::string_view event);

// A member list already collected.
using ScoredMembers = std::vector<std::pair<std::string, double>>;

// Removes up to `count` members from the low end of `z` (the set at `key`),
// or from the high end if `from_top`, and returns them in pop order.
// Reports the removal as `event` (ReportRemoval: deletes the key when
// emptied); removing nothing changes nothing (an empty board stays).
// O(log n + count).
ScoredMembers PopEnd(CommandContext& ctx, std::string_view key, SortedSet* z, bool from_top,
                     uint64_t count, std::string_view event);

// ---- SSCAN / ZSCAN ----
// The preamble both share, in Redis's order: the cursor (args[2], else ERR
// invalid cursor), the key args[1] looked up with `find` (FindSetRead or
// FindZSetRead): a missing key answers cursor "0" and an empty array before
// the options are looked at; WRONGTYPE; then MATCH / COUNT from args[3].
// Returns the object to scan, or nullptr when it has replied.
template <class T>
T* OpenScan(CommandContext& ctx, T* (*find)(CommandContext&, std::string_view, bool*),
            uint64_t* cursor, ScanArgs* scan);
// The reply of a scan step: the next cursor, then the items.
void ReplyScan(ReplyBuilder& r, uint64_t next, const std::vector<std::string>& items);

// ---- Reply shapes of member lists ----
// kMembers: m, m, ...       (no scores)
// kFlat:    m, s, m, s, ... (RESP2 WITHSCORES; BZPOPMIN; ZPOPMIN without count)
// kPairs:   [m, s], ...     (RESP3 WITHSCORES; ZMPOP; ZPOPMIN count in RESP3)
enum class ListShape { kMembers, kFlat, kPairs };

// The WITHSCORES shape for the client's protocol.
inline ListShape ScoresShape(const ReplyBuilder& r) {
  return r.resp3() ? ListShape::kPairs : ListShape::kFlat;
}
inline ListShape MaybeScores(const ReplyBuilder& r, bool withscores) {
  return withscores ? ScoresShape(r) : ListShape::kMembers;
}

// The array header for `n` members.
void ReplyListHeader(ReplyBuilder& r, size_t n, ListShape shape);
// One member (and its score unless kMembers).
void ReplyListItem(ReplyBuilder& r, std::string_view member, double score, ListShape shape);

void ReplyList(ReplyBuilder& r, const ScoredMembers& items, ListShape shape);

// Ascending ranks [first, first + count) of `z`, in descending order if
// `reverse`, straight from the set (no copies). O(log n + count).
void ReplyRankRange(ReplyBuilder& r, const SortedSet& z, uint64_t first, uint64_t count,
                    bool reverse, ListShape shape);

// ---- Rank intervals ----
// A half-open interval of ascending ranks, visited forward or backward.
struct RankSlice {
  uint64_t first = 0;  // lowest ascending rank
  uint64_t count = 0;
  bool reverse = false;  // visit from first + count - 1 down to first
};

// The ranks a parsed ZRANGE-family request selects in `z`: rank ranges with
// negative indexes, score and lex intervals, REV and LIMIT offset count.
// O(log n) whatever the offset for a tree (counted ranks; the offset is never
// walked).
//
// Lex ranges assume equal scores; Redis leaves them undefined otherwise, but
// its listpack code answers deterministically (it scans for the first member
// >= min, or from the end for the last <= max, skips the offset unchecked,
// then takes members while they stay inside). A compact set follows that
// scan exactly (O(n), n <= zset-max-listpack-entries), so mixed scores give
// Redis's answers too; a tree uses the binary search, which matches whenever
// the scores are equal.
RankSlice SelectRange(const SortedSet& z, const ZRangeArgs& a);

// [lower, upper) ascending ranks of the elements inside a score range
// (empty when upper <= lower). O(log n).
std::pair<uint64_t, uint64_t> ScoreRankBounds(const SortedSet& z, const ScoreRange& r);

// Copies the members of a slice in visiting order (before mutating the set).
ScoredMembers CopySlice(const SortedSet& z, const RankSlice& s);

// ---- Negative zero ----
// Redis 7.0's listpack stores an integral score as an integer, so a -0 score
// written while a set is compact reads back as 0, while a skiplist keeps -0
// (ZADD k -0 a; ZSCORE k a is "0", but "-0" once the set is a skiplist). The
// engine stores scores bit for bit, so the writers below fold -0 to 0 exactly
// where Redis's listpack would have.

// The score to store when ZADD writes `member` with `score` into `z`: 0 for
// -0 when the write leaves the set compact (an update, or an insert that
// does not convert it), else `score` unchanged.
double ScoreToStore(const SortedSet& z, std::string_view member, bool exists, double score,
                    const SortedSetLimits& limits);

// How Redis builds a store command's result, which decides which -0 scores
// become 0: kWhole builds a skiplist and converts it whole to a listpack
// when it fits (all fold, or none: ZUNIONSTORE & co.); kSequential inserts
// one by one into a listpack that converts when it outgrows the limits (the
// members inserted before the conversion fold: ZRANGESTORE).
enum class BuildOrder { kWhole, kSequential };

// Builds a sorted set for a store command's result, encoded as Redis would
// leave it (compact when it fits the limits).
std::unique_ptr<SortedSet> BuildZSet(const ScoredMembers& items, const SortedSetLimits& limits,
                                     BuildOrder order);

}  // namespace rankd
