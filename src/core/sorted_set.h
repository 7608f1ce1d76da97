// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// SortedSet is the one API over a Redis sorted set's two encodings:
//   - compact: one sorted array for small sets (the role of Redis's
//     listpack), used while size <= zset-max-listpack-entries and every
//     member <= zset-max-listpack-value bytes;
//   - tree: an order-statistic (counted) B+tree ordered by (score, member),
//     plus a member index for O(1) member -> score.
// Callers never see which one is in use except through encoding().
//
// Order is Redis's: ascending score (a double, never NaN; -inf/+inf allowed,
// -0.0 == 0.0), ties by member bytes (memcmp, shorter first on a common
// prefix). Ranks are 0-based in that ascending order; reverse ranks are
// computed by callers as size() - 1 - rank.
//
// Board mode (issue 7, docs/leaderboards.md): a set made by NewBoard is a
// leaderboard. It is always tree-encoded, and among equal scores it orders
// by each member's stamp (a per-board sequence taken whenever the score
// changes, plus the wall time in ms) instead of by member bytes, so the
// board's own listing direction (descending ranks for DESC boards,
// ascending for ASC) puts ties in the policy's order. Every method below
// works on boards with that order; the Board* methods exist only for
// boards. Lex ranges on a board are some split point, as with mixed scores.
//
// Memory: a SortedSet is one word (it is embedded in the keyspace's Value);
// a compact set without member deadlines or metadata is nothing more than
// its one packed allocation (core/compact_set.h).
//
// Views (std::string_view members) returned by any method are valid until the
// next mutation of the set. Not thread-safe: one owner thread.

#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <new>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/functional/function_ref.h"
#include "core/compact_set.h"
#include "core/leaderboard_policy.h"

namespace rankd {

class BoardSnapshot;
class LeaderboardSet;
class MemberTtl;
class PeriodicBoard;
class TreeSet;

// Conversion thresholds, owned by the server configuration and passed in on
// each call that may grow the set, so CONFIG SET takes effect at once.
struct SortedSetLimits {
  size_t max_compact_entries = 128;  // zset-max-listpack-entries
  size_t max_compact_value = 64;     // zset-max-listpack-value (bytes)
};

// Score interval with Redis's "(" exclusive bounds.
struct ScoreRange {
  double min = 0, max = 0;
  bool min_exclusive = false, max_exclusive = false;
};

// Lex interval: "-" and "+" are the infinities, "[x" inclusive, "(x" exclusive.
struct LexBound {
  enum class Kind { kMinusInf, kPlusInf, kInclusive, kExclusive };
  Kind kind = Kind::kMinusInf;
  std::string_view value;  // for kInclusive / kExclusive
};
struct LexRange {
  LexBound min, max;
};

// What ZADD-family flags ask for. incr: the score is an increment.
struct AddOptions {
  bool nx = false, xx = false, gt = false, lt = false, incr = false;
};

struct AddResult {
  enum class Kind {
    kAdded,      // a new member
    kUpdated,    // existing member, score changed
    kUnchanged,  // existing member, same score
    kSkipped,    // NX/XX/GT/LT prevented the write
    kNaN,        // incr produced NaN (inf + -inf); nothing changed
  };
  Kind kind;
  // The member's score after the call (kAdded/kUpdated/kUnchanged). For
  // kSkipped and kNaN: the current score if the member exists, else the
  // given score (callers reply nil for INCR in those cases).
  double score;
};

class SortedSet {
 public:
  enum class Encoding { kCompact, kTree };
  using Visitor = absl::FunctionRef<void(std::string_view member, double score)>;

  // An empty set. `hint_size` / `hint_max_len` say what the first write will
  // bring (ZADD's pair count and longest member; a store command's result
  // size) so a set that would convert at once starts as a tree, as Redis's
  // zsetTypeCreate does. Entries limit 0 means always a tree.
  SortedSet(const SortedSetLimits& limits, size_t hint_size = 0, size_t hint_max_len = 0);
  ~SortedSet();
  SortedSet(const SortedSet&) = delete;
  SortedSet& operator=(const SortedSet&) = delete;
  // Moves leave `o` an empty compact set.
  SortedSet(SortedSet&& o) noexcept;
  SortedSet& operator=(SortedSet&& o) noexcept;
  // An empty leaderboard with `policy` (see "Board mode"), sized for
  // `expected_size` members.
  static std::unique_ptr<SortedSet> NewBoard(BoardPolicy policy, size_t expected_size = 0);
  // Deep copy (COPY command); a board's copy keeps its policy, stamps and
  // sequence counter.
  std::unique_ptr<SortedSet> Clone() const;

  size_t size() const;
  bool empty() const { return size() == 0; }
  Encoding encoding() const;
  // Bytes allocated for this set (tree, index, member bytes), for MEMORY USAGE
  // and INFO used_memory accounting. O(1).
  size_t MemoryUsage() const;

  // Inserts or updates with ZADD semantics (NX, XX, GT, LT, INCR as Redis:
  // GT/LT never block adding a new member; INCR with a NaN result changes
  // nothing). Converts compact -> tree past `limits`, and only when a new
  // member is added (as Redis). O(log n) for trees.
  // Scores are stored bit for bit as given, so -0.0 is kept as -0.0; an
  // update to a score that compares equal (-0.0 vs 0.0) is kUnchanged and
  // keeps the stored bits, as Redis does.
  // REQUIRES: !isnan(score); options already validated for conflicts.
  AddResult Add(std::string_view member, double score, const AddOptions& opts,
                const SortedSetLimits& limits);
  // The same; a board stamps a changed member (kAdded, kUpdated) with a new
  // sequence and `now_ms`. The overload above uses the wall clock.
  AddResult Add(std::string_view member, double score, const AddOptions& opts,
                const SortedSetLimits& limits, int64_t now_ms);

  // Removes `member`; false if absent. O(log n).
  bool Remove(std::string_view member);

  // The member's score, or nullopt. O(1) for trees.
  std::optional<double> Score(std::string_view member) const;

  // Group prefetching (issue 16): starts loading what a lookup of `member`
  // will touch, in two steps: step 0 the member index slot, step 1 (once
  // its line arrived) the records that slot names, all of each record's
  // bytes if it were as long as `member`. Only live addresses are hinted
  // (base/prefetch.h). A hint only: changes nothing, no-op for small
  // (compact) sets.
  void PrefetchMember(std::string_view member, int step) const;

  // The member's 0-based ascending rank, or nullopt. O(log n).
  std::optional<uint64_t> Rank(std::string_view member) const;

  // Number of elements strictly before the first element inside `r`'s lower
  // bound, i.e. the rank the first in-range element would have. O(log n).
  uint64_t ScoreLowerRank(double min, bool exclusive) const;
  // Number of elements with score < max (exclusive) or <= max (inclusive):
  // one past the rank of the last element inside an upper bound. O(log n).
  uint64_t ScoreUpperRank(double max, bool exclusive) const;
  // Same for lex bounds (assuming equal scores, as Redis does; with mixed
  // scores the result is some split point, unspecified as in Redis). Bytes
  // compare as memcmp, shorter first. O(log n).
  uint64_t LexLowerRank(const LexBound& min) const;
  uint64_t LexUpperRank(const LexBound& max) const;

  // Visits elements with ranks [start, stop] (inclusive, ascending ranks,
  // REQUIRES: start <= stop < size()) in ascending order, or descending
  // (stop down to start) if `reverse`. O(log n + count). The member views
  // point into the set's own storage: valid until the set next changes.
  void ForEachInRankRange(uint64_t start, uint64_t stop, bool reverse, Visitor fn) const;

  // The element at ascending rank `rank`. REQUIRES: rank < size(). O(log n).
  std::pair<std::string_view, double> At(uint64_t rank) const;

  // Removes elements with ranks [start, stop]; returns how many. REQUIRES:
  // start <= stop < size(). Trees: O(count * log n) with no comparisons
  // (each removal descends by subtree counts), O(n / 60) to remove all.
  uint64_t RemoveRankRange(uint64_t start, uint64_t stop);

  // ZSCAN step: visits some elements and returns the next cursor (0 when the
  // iteration is complete). A full iteration visits every element present
  // from start to end at least once, even if the set changes or converts
  // between calls (Redis's SCAN guarantee). `count` is a hint. A compact set
  // is visited whole in one call (cursor 0), as Redis does for listpacks.
  // Tree sets: the cursor is a 64-bit hash threshold (any uint64 value is
  // accepted; print it unsigned, e.g. "18446744073709551615" is possible);
  // elements are visited in hash order, elements sharing a hash in the same
  // call; roughly `count` (at least 1) elements per call. Cursors are valid
  // only within one server process. O(count) amortized.
  uint64_t Scan(uint64_t cursor, size_t count, Visitor fn) const;

  // Converts a compact set to the tree encoding (no-op otherwise). SORT
  // does this, as Redis converts a listpack to a skiplist before sorting.
  void ConvertToTree();

  // If the set is a tree that now fits the compact limits, converts it back
  // (Redis does this for the results of store commands and on load).
  void ShrinkIfFits(const SortedSetLimits& limits);

  // ---- Board mode only: REQUIRES board() != nullptr ----
  // The policy of a board, or nullptr for a plain sorted set.
  const BoardPolicy* board() const;
  // The member's stamp, or nullopt if absent. O(1).
  std::optional<BoardStamp> BoardStampOf(std::string_view member) const;
  // Sets `member` to exactly (score, stamp), adding it if absent, whatever
  // its current score (log replay, imports). REQUIRES: !isnan(score), and
  // no other member holds stamp.seq. Raises the sequence counter past it.
  void BoardPut(std::string_view member, double score, BoardStamp stamp);
  // The sequence the next change takes; raising it (never lowers).
  uint64_t BoardNextSeq() const;
  void BoardRaiseNextSeq(uint64_t seq);
  // Distinct scores: in the board; among ascending ranks [0, rank); the
  // ascending rank where the k-th (0-based, ascending) distinct score
  // starts. O(log n). REQUIRES: rank <= size(); k < BoardDistinct().
  uint64_t BoardDistinct() const;
  uint64_t BoardDistinctBefore(uint64_t rank) const;
  uint64_t BoardDistinctStart(uint64_t k) const;
  // Visits every member with its score and stamp in ascending order. O(n).
  void BoardForEach(absl::FunctionRef<void(std::string_view, double, BoardStamp)> fn) const;

  // ---- Member expiry (issue 17; docs/commands.md "Member expiry") ----
  // Deadlines live beside the set (core/member_ttl.h), allocated only while
  // some member has one. Remove / RemoveRankRange drop a removed member's
  // deadline; Add keeps it (a score update keeps the TTL); Clone copies them.
  // The set never removes a member on its own: the keyspace reclaims due
  // members (RemoveDue) when the key is looked up and in its active cycle.
  //
  // The member's deadline (unix ms), or -1 if it has none (or is absent).
  int64_t MemberExpire(std::string_view member) const;
  // Sets (deadline_ms >= 0) or clears (< 0) the member's deadline.
  // REQUIRES: the member is present. O(log n).
  void SetMemberExpire(std::string_view member, int64_t deadline_ms);
  // The earliest member deadline, or -1 when no member has one. O(1).
  int64_t EarliestMemberExpire() const;
  // Number of members with a deadline. O(1).
  size_t MembersWithExpire() const;
  // Removes the members whose deadline is <= now_ms, earliest first (at
  // most `limit`), and returns them. O(k log n) for k removed.
  std::vector<std::string> RemoveDue(int64_t now_ms, size_t limit = SIZE_MAX);
  // Visits every (member, deadline) pair, earliest first.
  void ForEachMemberExpire(absl::FunctionRef<void(std::string_view, int64_t)> fn) const;

  // ---- Member metadata (issue 17: LB.ADD ... META) ----
  // A small blob per member (a display name, a JSON profile), kept in a side
  // table allocated only while some member has one. Dropped when the member
  // is removed; kept by score updates; copied by Clone.
  //
  // The member's metadata, or nullopt if it has none (or is absent). O(1).
  std::optional<std::string_view> MemberMeta(std::string_view member) const;
  // Sets the member's metadata; empty `meta` removes it. REQUIRES: the
  // member is present.
  void SetMemberMeta(std::string_view member, std::string_view meta);
  size_t MembersWithMeta() const;
  // Visits every (member, metadata) pair, in no particular order.
  void ForEachMemberMeta(absl::FunctionRef<void(std::string_view, std::string_view)> fn) const;

  // ---- Periodic boards (issue 17: LB.CREATE ... PERIOD) ----
  // A periodic board's periods (core/periodic_board.h), or nullptr. This set
  // holds the open period; the PeriodicBoard the closed ones. Clone copies
  // it; MemoryUsage counts it.
  const PeriodicBoard* periodic() const;
  PeriodicBoard* periodic();
  // Attaches `p`. REQUIRES: board() != nullptr.
  void SetPeriodic(std::unique_ptr<PeriodicBoard> p);
  // Exchanges the members (and their stamps, deadlines, metadata, policy and
  // counter) of this set and `other`; each keeps its own periodic(). O(1).
  void SwapContents(SortedSet& other);

  // ---- Stable views (issue 17; docs/leaderboards.md "Stable views") ----
  // A board's view (core/board_snapshot.h): the board frozen at one
  // instant, kept up to date by every write at a cost per changed member.
  // Clone, SwapContents and the periodic roll do not carry it.
  // Replaces the view with one of the board now. REQUIRES: board().
  void BoardTakeView(int64_t now_ms);
  void BoardDropView();
  // The view, or nullptr (also for a plain sorted set).
  const BoardSnapshot* board_snapshot() const;
  // SNAPSHOT EVERY: the schedule of automatic views in ms, 0 for none. It
  // belongs to the key like periodic() (SwapContents keeps it, Clone copies
  // it); the keyspace applies it (db/database.h).
  int64_t snapshot_every_ms() const;
  void set_snapshot_every_ms(int64_t ms);

  // For tests: "" if every internal invariant of the encoding in use holds
  // (tree shape, counts, order, index agreement), else a description. O(n).
  std::string CheckInvariants() const;

 private:
  // The rare parts: the tree once converted, a board, member deadlines,
  // metadata, a periodic board's closed periods (core/sorted_set_rare.h).
  struct Rare;

  void CopySideTables(SortedSet& dst) const;

  // The representation is one word (issue 15: a million small sets pay for
  // their packed bytes, not for a side structure): either the CompactSet
  // itself (one pointer, low bit clear), or a Rare* with the low bit set,
  // made on the first need for a rare part and dropped when none is left.
  static constexpr uintptr_t kRareBit = 1;
  uintptr_t word() const {
    uintptr_t w;
    std::memcpy(&w, rep_, sizeof(w));
    return w;
  }
  bool is_rare() const { return (word() & kRareBit) != 0; }
  Rare* rare() const { return reinterpret_cast<Rare*>(word() & ~kRareBit); }
  CompactSet& small() { return *std::launder(reinterpret_cast<CompactSet*>(rep_)); }
  const CompactSet& small() const {
    return *std::launder(reinterpret_cast<const CompactSet*>(rep_));
  }
  // Accessors over both forms (null / the compact set when not rare).
  CompactSet& compact();
  const CompactSet& compact() const;
  TreeSet* tree() const;
  LeaderboardSet* lb() const;
  MemberTtl* ttl() const;
  // The Rare part, made (holding the compact set) if absent.
  Rare& MakeRare();
  // Back to the one-pointer form when the Rare part holds nothing rare.
  void MaybeDemote();
  // Frees the representation; leaves nothing constructed in rep_.
  void Destroy();

  alignas(8) unsigned char rep_[sizeof(CompactSet)];
};

static_assert(sizeof(SortedSet) == sizeof(void*));

}  // namespace rankd
