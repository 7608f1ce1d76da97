// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "core/zset_algebra.h"

#include <cmath>

namespace rankd {

double WeightedScore(double score, double weight) {
  double v = weight * score;
  return std::isnan(v) ? 0.0 : v;
}

void AggregateInto(Aggregate agg, double* acc, double value) {
  switch (agg) {
    case Aggregate::kSum:
      *acc += value;
      if (std::isnan(*acc)) *acc = 0.0;  // inf + -inf, as Redis
      return;
    case Aggregate::kMin:
      if (value < *acc) *acc = value;
      return;
    case Aggregate::kMax:
      if (value > *acc) *acc = value;
      return;
  }
}

}  // namespace rankd
