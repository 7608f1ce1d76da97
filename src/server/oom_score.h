// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// oom-score-adj / oom-score-adj-values, as Redis 7.0 (Linux): the process
// writes its class's value (primary, replica, background child) to
// /proc/self/oom_score_adj, so the kernel's OOM killer picks a child or a
// replica before a primary. "yes" / "relative" add the value to the score
// the process had when rankd first took control; "absolute" writes it as
// is; "no" restores that first score (if rankd changed it).

#pragma once

#include <string>
#include <string_view>

#include "server/config.h"

namespace rankd {

enum class OomClass { kPrimary = 0, kReplica = 1, kChild = 2 };

// Applies cfg's setting for `cls`. Returns "" or the reason it failed
// (also logged). Off and never on: does nothing.
std::string ApplyOomScoreAdj(const Config& cfg, OomClass cls);

// The row check of oom-score-adj-values: three integers in [-2000, 2000].
std::string RefuseOomScoreValues(std::string_view value);

}  // namespace rankd
