// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "persist/periodic_codec.h"

#include <cmath>
#include <memory>

#include "base/time_zone.h"
#include "core/periodic_board.h"
#include "persist/coding.h"

namespace rankd {
namespace {

void EncodeBoard(std::string* out, const SortedSet& z) {
  coding::PutVarint64(out, z.BoardNextSeq());
  coding::PutVarint64(out, z.size());
  z.BoardForEach([&](std::string_view m, double score, BoardStamp st) {
    coding::PutLengthPrefixed(out, m);
    coding::PutDouble(out, score);
    coding::PutVarint64(out, st.seq);
    coding::PutFixed64(out, static_cast<uint64_t>(st.ms));
  });
  coding::PutVarint64(out, z.MembersWithMeta());
  z.ForEachMemberMeta([&](std::string_view m, std::string_view meta) {
    coding::PutLengthPrefixed(out, m);
    coding::PutLengthPrefixed(out, meta);
  });
}

// Reads one period's members into `z` (null: skips them).
std::string DecodeBoard(std::string_view* in, SortedSet* z) {
  uint64_t next_seq, n, metas;
  if (!coding::GetVarint64(in, &next_seq) || !coding::GetVarint64(in, &n)) {
    return "truncated period";
  }
  if (n > in->size()) return "period member count past its end";
  for (uint64_t i = 0; i < n; i++) {
    std::string_view m;
    double score;
    uint64_t seq, ms;
    if (!coding::GetLengthPrefixed(in, &m) || !coding::GetDouble(in, &score) ||
        !coding::GetVarint64(in, &seq) || !coding::GetFixed64(in, &ms)) {
      return "truncated period member";
    }
    if (std::isnan(score)) return "NaN score";
    if (seq == 0 || seq >= next_seq) return "leaderboard sequence out of range";
    if (!z) continue;
    if (z->Score(m)) return "duplicate sorted set member";
    z->BoardPut(m, score, {seq, static_cast<int64_t>(ms)});
  }
  if (z) z->BoardRaiseNextSeq(next_seq);
  if (!coding::GetVarint64(in, &metas)) return "truncated period metadata";
  for (uint64_t i = 0; i < metas; i++) {
    std::string_view m, meta;
    if (!coding::GetLengthPrefixed(in, &m) || !coding::GetLengthPrefixed(in, &meta)) {
      return "truncated period metadata";
    }
    if (z && z->Score(m)) z->SetMemberMeta(m, meta);
  }
  return "";
}

}  // namespace

std::string EncodePeriodic(const SortedSet& z) {
  const PeriodicBoard& p = *z.periodic();
  const PeriodSpec& spec = p.spec();
  std::string out;
  out.push_back(static_cast<char>(spec.unit));
  coding::PutVarint64(&out, static_cast<uint64_t>(spec.seconds));
  coding::PutLengthPrefixed(&out, spec.zone);
  out.push_back(spec.week_starts_sunday ? 1 : 0);
  coding::PutVarint64(&out, static_cast<uint64_t>(spec.retain + 1));
  coding::PutFixed64(&out, static_cast<uint64_t>(p.open_index()));
  coding::PutVarint64(&out, p.closed_count());
  p.ForEachClosed([&](int64_t index, const SortedSet& board) {
    coding::PutFixed64(&out, static_cast<uint64_t>(index));
    EncodeBoard(&out, board);
  });
  return out;
}

std::string DecodePeriodic(std::string_view blob, SortedSet* z) {
  if (blob.size() < 2) return "truncated periods";
  PeriodSpec spec;
  const uint8_t unit = static_cast<uint8_t>(blob[0]);
  blob.remove_prefix(1);
  if (unit > static_cast<uint8_t>(PeriodUnit::kMonth)) return "bad period unit";
  spec.unit = static_cast<PeriodUnit>(unit);
  uint64_t seconds, retain, open, closed;
  std::string_view zone;
  if (!coding::GetVarint64(&blob, &seconds) || !coding::GetLengthPrefixed(&blob, &zone) ||
      blob.empty()) {
    return "truncated periods";
  }
  spec.week_starts_sunday = blob[0] != 0;
  blob.remove_prefix(1);
  if (!coding::GetVarint64(&blob, &retain) || !coding::GetFixed64(&blob, &open) ||
      !coding::GetVarint64(&blob, &closed)) {
    return "truncated periods";
  }
  if (spec.unit == PeriodUnit::kSeconds && (seconds < 1 || seconds > kMaxPeriodSeconds)) {
    return "bad period length";
  }
  spec.seconds = static_cast<int64_t>(seconds);
  spec.zone.assign(zone);
  spec.retain = static_cast<int64_t>(retain) - 1;
  absl::TimeZone tz = absl::UTCTimeZone();
  if (spec.unit != PeriodUnit::kSeconds && !LoadZone(spec.zone, &tz)) {
    return "unknown time zone '" + spec.zone + "' (is tzdata installed?)";
  }
  std::unique_ptr<PeriodicBoard> p;
  if (z) p = std::make_unique<PeriodicBoard>(PeriodCalendar(spec, tz), static_cast<int64_t>(open));
  for (uint64_t i = 0; i < closed; i++) {
    uint64_t index;
    if (!coding::GetFixed64(&blob, &index)) return "truncated periods";
    if (static_cast<int64_t>(index) >= static_cast<int64_t>(open)) {
      return "closed period after the open one";
    }
    SortedSet* board = z ? &p->ClosedForLoad(static_cast<int64_t>(index), *z->board()) : nullptr;
    if (std::string e = DecodeBoard(&blob, board); !e.empty()) return e;
  }
  if (!blob.empty()) return "trailing bytes after the periods";
  if (z) {
    p->DropEmpty();
    z->SetPeriodic(std::move(p));
  }
  return "";
}

std::string EncodeBoardViews(const SortedSet& z) {
  std::string out;
  coding::PutVarint64(&out, static_cast<uint64_t>(z.snapshot_every_ms()));
  return out;
}

std::string DecodeBoardViews(std::string_view blob, SortedSet* z) {
  uint64_t every_ms;
  if (!coding::GetVarint64(&blob, &every_ms) || !blob.empty() ||
      every_ms > uint64_t{315360000} * 1000) {
    return "bad leaderboard view schedule";
  }
  if (z && !z->board()) return "view schedule of a plain set";
  if (z) z->set_snapshot_every_ms(static_cast<int64_t>(every_ms));
  return "";
}

}  // namespace rankd
