// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// Score arithmetic of ZUNION / ZINTER / ZDIFF (and their STORE forms),
// with Redis's rules for infinities and NaN (t_zset.c, 7.0):
//
//   union:  every input element contributes  w * s  (NaN, i.e. 0 * inf,
//           becomes 0), folded into the result by the aggregate;
//   inter:  the first (smallest) input contributes  w * s  with NaN -> 0;
//           each further input contributes the raw product  s * w  (NaN
//           kept), folded by the aggregate;
//   SUM:    a + b, NaN (inf + -inf, or a NaN product) becomes 0;
//   MIN:    b < a ? b : a  (a NaN b never wins: the comparison is false);
//   MAX:    b > a ? b : a;
//   diff:   scores of the first input, unweighted.
//
// Plain sets (SADD) given as inputs count every member with score 1.0.
// The set walking itself belongs to the command layer; these helpers only
// make the arithmetic exact.

#pragma once

namespace rankd {

enum class Aggregate { kSum, kMin, kMax };

// w * s, with NaN replaced by 0 (union inputs; the first input of inter).
double WeightedScore(double score, double weight);

// Folds `value` into `*acc` under `agg` (Redis zunionInterAggregate).
void AggregateInto(Aggregate agg, double* acc, double value);

// The contribution of a further (not the first) input to an intersection:
// folds the raw product score * weight (NaN kept) into `*acc`.
inline void AggregateInterInput(Aggregate agg, double* acc, double score, double weight) {
  AggregateInto(agg, acc, score * weight);
}

// The contribution of any input to a union: folds WeightedScore into `*acc`.
inline void AggregateUnionInput(Aggregate agg, double* acc, double score, double weight) {
  AggregateInto(agg, acc, WeightedScore(score, weight));
}

}  // namespace rankd
