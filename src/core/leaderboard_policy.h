// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// The vocabulary of leaderboards (issue 7, docs/leaderboards.md): a board's
// order and tie policy, a member's stamp, and the three rank modes.

#pragma once

#include <cstdint>
#include <string_view>

namespace rankd {

// DESC: higher scores rank first (the default); ASC: lower scores first.
enum class BoardOrder : uint8_t { kDesc = 0, kAsc = 1 };
// Among equal scores, FIRST: whoever reached the score first ranks higher
// (the default); LAST: whoever reached it last.
enum class BoardTies : uint8_t { kFirst = 0, kLast = 1 };

struct BoardPolicy {
  BoardOrder order = BoardOrder::kDesc;
  BoardTies ties = BoardTies::kFirst;
  bool operator==(const BoardPolicy&) const = default;
  // In ascending engine order, does a smaller seq come later among equal
  // scores? (DESC+FIRST and ASC+LAST.) Then the board's own listing
  // direction puts earlier stamps first for FIRST and last for LAST.
  bool seq_desc() const { return (order == BoardOrder::kDesc) == (ties == BoardTies::kFirst); }
};

// When a member reached its current score: a per-board sequence number
// (strictly increasing, unique within the board) and unix time in ms.
struct BoardStamp {
  uint64_t seq = 0;
  int64_t ms = 0;
  bool operator==(const BoardStamp&) const = default;
};

// ORDINAL 1234 (every member its own rank), COMPETITION 1224 (ties share
// the best rank, the next rank skips), DENSE 1223 (ties share, no gaps).
enum class RankMode : uint8_t { kOrdinal, kCompetition, kDense };

inline std::string_view OrderName(BoardOrder o) { return o == BoardOrder::kDesc ? "desc" : "asc"; }
inline std::string_view TiesName(BoardTies t) { return t == BoardTies::kFirst ? "first" : "last"; }

}  // namespace rankd
