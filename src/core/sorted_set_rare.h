// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// The rare parts of a SortedSet (core/sorted_set.h), private to its two
// source files: the tree once a set outgrows the compact limits, a board,
// member deadlines, metadata and a periodic board's closed periods. A set
// holds a Rare only while it has one of them; the compact set moves in
// beside them (e.g. a small set with member deadlines).

#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "absl/container/flat_hash_map.h"
#include "base/str_hash.h"
#include "core/board_snapshot.h"
#include "core/compact_set.h"
#include "core/leaderboard_set.h"
#include "core/member_ttl.h"
#include "core/periodic_board.h"
#include "core/sorted_set.h"
#include "core/tree_set.h"

namespace rankd {

struct SortedSet::Rare {
  using MetaMap = absl::flat_hash_map<std::string, std::string, StrHash, StrEq>;

  CompactSet compact;             // the encoding while `tree` and `board` are null
  std::unique_ptr<TreeSet> tree;  // the encoding once converted
  std::unique_ptr<LeaderboardSet> board;  // board mode: the only part in use
  std::unique_ptr<MemberTtl> ttl;  // member deadlines; null while none has one
  std::unique_ptr<MetaMap> meta;   // member metadata; null while none has any
  size_t meta_bytes = 0;
  std::unique_ptr<PeriodicBoard> periodic;  // closed periods of a periodic board
  int64_t snapshot_every_ms = 0;            // SNAPSHOT EVERY, 0: none

  // True while some rare part is present (else the set drops this object).
  bool needed() const {
    return tree || board || ttl || meta || periodic || snapshot_every_ms != 0;
  }

  // Drops `member`'s metadata, and the table with the last of it.
  void EraseMeta(std::string_view member) {
    if (!meta) return;
    if (auto it = meta->find(member); it != meta->end()) {
      if (BoardSnapshot* view = board ? board->view() : nullptr) {
        view->BeforeMetaChange(member, &it->second);
      }
      meta_bytes -= it->first.size() + it->second.size();
      meta->erase(it);
    }
    if (meta->empty()) meta.reset();
  }
};

}  // namespace rankd
