// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "commands/zset_common.h"

#include <algorithm>
#include <cmath>
#include <new>

#include "base/numbers.h"
#include "db/database.h"
#include "server/errors.h"
#include "server/keys_common.h"

namespace rankd {
namespace {

template <ValueType kType>
Value* TypedValue(Database::Entry* e, bool* wrong_type) {
  *wrong_type = false;
  if (!e) return nullptr;
  if (e->value.type() != kType) {
    *wrong_type = true;
    return nullptr;
  }
  return &e->value;
}

}  // namespace

SortedSet* FindBoardRead(CommandContext& ctx, std::string_view key, bool* wrong_type) {
  Value* v = TypedValue<ValueType::kZSet>(LookupRead(ctx, key), wrong_type);
  return v ? &v->zset() : nullptr;
}

SortedSet* FindZSetRead(CommandContext& ctx, std::string_view key, bool* wrong_type) {
  SortedSet* z = FindBoardRead(ctx, key, wrong_type);
  return z && !z->empty() ? z : nullptr;
}

SortedSet* FindZSetWrite(CommandContext& ctx, std::string_view key, bool* wrong_type) {
  Value* v = TypedValue<ValueType::kZSet>(LookupWrite(ctx, key), wrong_type);
  return v ? &v->zset() : nullptr;
}

PlainSet* FindSetRead(CommandContext& ctx, std::string_view key, bool* wrong_type) {
  Value* v = TypedValue<ValueType::kSet>(LookupRead(ctx, key), wrong_type);
  return v ? &v->set() : nullptr;
}

PlainSet* FindSetWrite(CommandContext& ctx, std::string_view key, bool* wrong_type) {
  Value* v = TypedValue<ValueType::kSet>(LookupWrite(ctx, key), wrong_type);
  return v ? &v->set() : nullptr;
}

void ReportRemoval(CommandContext& ctx, std::string_view key, bool emptied, NotifyClass cls,
                   std::string_view event) {
  std::string k(key);  // `key` may view the entry being freed
  if (emptied) {
    // A periodic board keeps its closed periods when its open one empties.
    const Database::Entry* e = ctx.db().Peek(k);
    if (e && e->value.type() == ValueType::kZSet && e->value.zset().periodic()) emptied = false;
  }
  if (emptied) ctx.db().Delete(k);
  KeyChanged(ctx, ctx.db(), k, cls, event);
  if (emptied) KeyEvent(ctx, ctx.db(), kNotifyGeneric, "del", k);
}

ScoredMembers PopEnd(CommandContext& ctx, std::string_view key, SortedSet* z, bool from_top,
                     uint64_t count, std::string_view event) {
  const uint64_t size = z->size();
  const uint64_t n = std::min(count, size);
  RankSlice s{.first = from_top ? size - n : 0, .count = n, .reverse = from_top};
  ScoredMembers out = CopySlice(*z, s);
  if (n == 0) return out;
  z->RemoveRankRange(s.first, s.first + n - 1);
  ReportRemoval(ctx, key, z->empty(), kNotifyZset, event);
  return out;
}

template <class T>
T* OpenScan(CommandContext& ctx, T* (*find)(CommandContext&, std::string_view, bool*),
            uint64_t* cursor, ScanArgs* scan) {
  if (!ParseScanCursor(ctx.arg(2), cursor)) {
    ctx.reply.Error(err::kInvalidCursor);
    return nullptr;
  }
  bool wrong_type;
  T* obj = find(ctx, ctx.arg(1), &wrong_type);
  if (!obj && !wrong_type) {
    ReplyScan(ctx.reply, 0, {});
    return nullptr;
  }
  if (wrong_type) {
    ctx.reply.Error(err::kWrongType);
    return nullptr;
  }
  if (std::string_view e = ParseScanArgs(ctx.args, 3, scan); !e.empty()) {
    ctx.reply.Error(e);
    return nullptr;
  }
  return obj;
}
template PlainSet* OpenScan(CommandContext&, PlainSet* (*)(CommandContext&, std::string_view, bool*),
                            uint64_t*, ScanArgs*);
template Hash* OpenScan(CommandContext&, Hash* (*)(CommandContext&, std::string_view, bool*),
                        uint64_t*, ScanArgs*);
template SortedSet* OpenScan(CommandContext&,
                             SortedSet* (*)(CommandContext&, std::string_view, bool*), uint64_t*,
                             ScanArgs*);

void ReplyScan(ReplyBuilder& r, uint64_t next, const std::vector<std::string>& items) {
  r.ArrayHeader(2);
  r.Bulk(FormatInt64(static_cast<int64_t>(next)));
  r.ArrayHeader(items.size());
  for (const std::string& item : items) r.Bulk(item);
}

void ReplyListHeader(ReplyBuilder& r, size_t n, ListShape shape) {
  r.ArrayHeader(shape == ListShape::kFlat ? 2 * n : n);
}

void ReplyListItem(ReplyBuilder& r, std::string_view member, double score, ListShape shape) {
  if (shape == ListShape::kPairs) r.ArrayHeader(2);
  r.Bulk(member);
  if (shape != ListShape::kMembers) r.Double(score);
}

void ReplyList(ReplyBuilder& r, const ScoredMembers& items, ListShape shape) {
  ReplyListHeader(r, items.size(), shape);
  for (const auto& [m, s] : items) ReplyListItem(r, m, s, shape);
}

void ReplyRankRange(ReplyBuilder& r, const SortedSet& z, uint64_t first, uint64_t count,
                    bool reverse, ListShape shape) {
  ReplyListHeader(r, count, shape);
  if (count == 0) return;
  ReplyBatch batch(r);  // one append per few dozen elements
  const uint64_t last = first + count - 1;
  if (shape == ListShape::kMembers) {
    z.ForEachInRankRange(first, last, reverse, [&](std::string_view m, double) { batch.Bulk(m); });
    return;
  }
  // Elements are gathered a screenful at a time and written in one loop
  // (no call per element for the usual short member and integral score).
  // The views point into the set's own storage, which nothing changes
  // during the reply. The buffer is left uninitialized (each slot is made
  // when filled): zeroing it cost as much as the calls it saves.
  const bool pairs = shape == ListShape::kPairs;
  constexpr size_t kChunk = 16;
  alignas(ScoredView) unsigned char storage[kChunk * sizeof(ScoredView)];
  ScoredView* const items = reinterpret_cast<ScoredView*>(storage);
  size_t n = 0;
  z.ForEachInRankRange(first, last, reverse, [&](std::string_view m, double s) {
    new (&items[n++]) ScoredView{m, s};
    if (n == kChunk) batch.ScoredMembers(items, n, pairs), n = 0;
  });
  batch.ScoredMembers(items, n, pairs);
}

std::pair<uint64_t, uint64_t> ScoreRankBounds(const SortedSet& z, const ScoreRange& r) {
  uint64_t lo = z.ScoreLowerRank(r.min, r.min_exclusive);
  uint64_t hi = z.ScoreUpperRank(r.max, r.max_exclusive);
  return {lo, std::max(lo, hi)};
}

namespace {

std::pair<uint64_t, uint64_t> LexRankBounds(const SortedSet& z, const LexRange& r) {
  uint64_t lo = z.LexLowerRank(r.min);
  uint64_t hi = z.LexUpperRank(r.max);
  return {lo, std::max(lo, hi)};
}

bool LexGteMin(std::string_view m, const LexBound& b) {
  switch (b.kind) {
    case LexBound::Kind::kMinusInf: return true;
    case LexBound::Kind::kPlusInf: return false;
    case LexBound::Kind::kInclusive: return m >= b.value;
    case LexBound::Kind::kExclusive: return m > b.value;
  }
  return false;
}

bool LexLteMax(std::string_view m, const LexBound& b) {
  switch (b.kind) {
    case LexBound::Kind::kMinusInf: return false;
    case LexBound::Kind::kPlusInf: return true;
    case LexBound::Kind::kInclusive: return m <= b.value;
    case LexBound::Kind::kExclusive: return m < b.value;
  }
  return false;
}

// Redis's test for lex ranges that are always empty (sdscmplex; "-" and "+"
// count as exclusive bounds).
bool LexRangeEmpty(const LexRange& r) {
  using K = LexBound::Kind;
  int cmp;
  if (r.min.kind == r.max.kind && (r.min.kind == K::kMinusInf || r.min.kind == K::kPlusInf)) {
    cmp = 0;
  } else if (r.min.kind == K::kMinusInf || r.max.kind == K::kPlusInf) {
    cmp = -1;
  } else if (r.min.kind == K::kPlusInf || r.max.kind == K::kMinusInf) {
    cmp = 1;
  } else {
    cmp = r.min.value.compare(r.max.value);
  }
  return cmp > 0 || (cmp == 0 && (r.min.kind != K::kInclusive || r.max.kind != K::kInclusive));
}

// Redis's listpack lex walk (zzlFirstInLexRange / zzlLastInLexRange, then
// the offset and limit loops of genericZrangebylexCommand).
RankSlice CompactLexSlice(const SortedSet& z, const LexRange& r, bool reverse, int64_t offset,
                          int64_t limit) {
  RankSlice s;
  s.reverse = reverse;
  const uint64_t n = z.size();
  if (n == 0 || LexRangeEmpty(r) || offset < 0) return s;
  std::vector<std::string_view> m;
  m.reserve(n);
  z.ForEachInRankRange(0, n - 1, false, [&](std::string_view v, double) { m.push_back(v); });
  if (!LexGteMin(m[n - 1], r.min) || !LexLteMax(m[0], r.max)) return s;
  const uint64_t want = limit < 0 ? n : static_cast<uint64_t>(limit);
  const uint64_t skip = static_cast<uint64_t>(offset);
  if (!reverse) {
    uint64_t i = 0;
    while (!LexGteMin(m[i], r.min)) i++;  // stops: the last member is >= min
    if (!LexLteMax(m[i], r.max) || skip >= n - i) return s;
    s.first = i + skip;
    while (s.first + s.count < n && s.count < want && LexLteMax(m[s.first + s.count], r.max)) {
      s.count++;
    }
    return s;
  }
  uint64_t i = n - 1;
  while (!LexLteMax(m[i], r.max)) i--;  // stops: the first member is <= max
  if (!LexGteMin(m[i], r.min) || skip > i) return s;
  const uint64_t top = i - skip;
  while (s.count <= top && s.count < want && LexGteMin(m[top - s.count], r.min)) s.count++;
  s.first = top + 1 - s.count;
  return s;
}

}  // namespace

RankSlice SelectRange(const SortedSet& z, const ZRangeArgs& a) {
  RankSlice s;
  s.reverse = a.reverse;
  const int64_t size = static_cast<int64_t>(z.size());
  if (a.by == ZRangeArgs::By::kRank) {
    int64_t start = a.start, stop = a.stop;
    if (start < 0) start += size;
    if (stop < 0) stop += size;
    if (start < 0) start = 0;
    if (start > stop || start >= size) return s;
    if (stop >= size) stop = size - 1;
    s.count = static_cast<uint64_t>(stop - start + 1);
    // Reverse ranks count from the top.
    s.first = a.reverse ? static_cast<uint64_t>(size - 1 - stop) : static_cast<uint64_t>(start);
    return s;
  }
  if (a.by == ZRangeArgs::By::kLex && z.encoding() == SortedSet::Encoding::kCompact) {
    return CompactLexSlice(z, a.lex, a.reverse, a.offset, a.limit);
  }
  auto [lo, hi] = a.by == ZRangeArgs::By::kScore ? ScoreRankBounds(z, a.score)
                                                 : LexRankBounds(z, a.lex);
  // Redis walks a negative offset off the end of the range: empty.
  if (a.offset < 0) return s;
  const uint64_t n = hi - lo;
  const uint64_t offset = static_cast<uint64_t>(a.offset);
  if (offset >= n) return s;
  uint64_t count = n - offset;
  if (a.limit >= 0) count = std::min(count, static_cast<uint64_t>(a.limit));
  s.count = count;
  s.first = a.reverse ? hi - offset - count : lo + offset;
  return s;
}

ScoredMembers CopySlice(const SortedSet& z, const RankSlice& s) {
  ScoredMembers out;
  if (s.count == 0) return out;
  out.reserve(s.count);
  z.ForEachInRankRange(s.first, s.first + s.count - 1, s.reverse,
                       [&](std::string_view m, double sc) { out.emplace_back(m, sc); });
  return out;
}

double ScoreToStore(const SortedSet& z, std::string_view member, bool exists, double score,
                    const SortedSetLimits& limits) {
  if (score != 0 || !std::signbit(score) || z.encoding() != SortedSet::Encoding::kCompact) {
    return score;
  }
  // Only a new member converts a compact set (as in Redis's zsetAdd).
  const bool converts = !exists && (z.size() + 1 > limits.max_compact_entries ||
                                    member.size() > limits.max_compact_value);
  return converts ? score : 0.0;
}

std::unique_ptr<SortedSet> BuildZSet(const ScoredMembers& items, const SortedSetLimits& limits,
                                     BuildOrder order) {
  size_t max_len = 0;
  for (const auto& item : items) max_len = std::max(max_len, item.first.size());
  const bool fits = items.size() <= limits.max_compact_entries && max_len <= limits.max_compact_value;
  // kSequential: members before the one that outgrows the limits were
  // written to a listpack.
  size_t folded = fits ? items.size() : 0;
  if (order == BuildOrder::kSequential && !fits) {
    while (folded < items.size() && folded + 1 <= limits.max_compact_entries &&
           items[folded].first.size() <= limits.max_compact_value) {
      folded++;
    }
  }
  auto z = std::make_unique<SortedSet>(limits, items.size(), max_len);
  for (size_t i = 0; i < items.size(); i++) {
    double s = items[i].second;
    if (i < folded && s == 0) s = 0.0;
    (void)z->Add(items[i].first, s, AddOptions{}, limits);
  }
  return z;
}

}  // namespace rankd
