// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// PartialQsort: the unstable quicksort Redis 7.0 runs for SORT ... BY pattern
// LIMIT (its pqsort, Bentley & McIlroy's "Engineering a Sort Function" as in
// NetBSD's qsort, skipping partitions outside the wanted range).
//
// Contract: after PartialQsort(v, cmp, lo, hi), v[lo..hi] hold, in order,
// the elements a full sort would put there; the rest of v is a permutation
// of the other elements in no promised order. `cmp(x, y)` returns <0, 0 or
// >0. Elements that compare equal end in the very order Redis leaves them
// in: the steps (median-of-three / ninther pivot, three-way partition,
// insertion sort under 7 elements or when a pass swapped nothing) are
// Redis's, so SORT replies match redis-server even on ties. Needs lo <= hi
// < v.size().

#ifndef RANKD_CORE_PARTIAL_QSORT_H_
#define RANKD_CORE_PARTIAL_QSORT_H_

#include <algorithm>
#include <cstddef>
#include <utility>
#include <vector>

namespace rankd {
namespace partial_qsort_internal {

template <typename T, typename Cmp>
class Sorter {
 public:
  Sorter(std::vector<T>& v, Cmp& cmp, size_t lo, size_t hi) : v_(v), cmp_(cmp), lo_(lo), hi_(hi) {}

  // Sorts v_[base, base + n) as far as [lo_, hi_] needs.
  void Sort(size_t base, size_t n) {
    for (;;) {
      if (n < 7) return Insertion(base, n);
      size_t pm = base + n / 2;
      if (n > 7) {
        size_t pl = base, pn = base + n - 1;
        if (n > 40) {
          const size_t d = n / 8;
          pl = Med3(pl, pl + d, pl + 2 * d);
          pm = Med3(pm - d, pm, pm + d);
          pn = Med3(pn - 2 * d, pn - d, pn);
        }
        pm = Med3(pl, pm, pn);
      }
      Swap(base, pm);
      // [base+1, pa): equal to the pivot; [pa, pb): less; (pc, pd]: greater;
      // (pd, base+n): equal.
      size_t pa = base + 1, pb = base + 1, pc = base + n - 1, pd = base + n - 1;
      bool swapped = false;
      for (;;) {
        int r;
        while (pb <= pc && (r = Cmp3(pb, base)) <= 0) {
          if (r == 0) {
            swapped = true;
            Swap(pa++, pb);
          }
          pb++;
        }
        while (pb <= pc && (r = Cmp3(pc, base)) >= 0) {
          if (r == 0) {
            swapped = true;
            Swap(pc, pd--);
          }
          pc--;
        }
        if (pb > pc) break;
        Swap(pb++, pc--);
        swapped = true;
      }
      if (!swapped) return Insertion(base, n);
      const size_t end = base + n;
      size_t r = std::min(pa - base, pb - pa);
      SwapRuns(base, pb - r, r);
      r = std::min(pd - pc, end - pd - 1);
      SwapRuns(pb, end - r, r);
      if ((r = pb - pa) > 1 && Wanted(base, r)) Sort(base, r);
      if ((r = pd - pc) <= 1 || !Wanted(end - r, r)) return;
      base = end - r;  // the greater side: iterate rather than recurse
      n = r;
    }
  }

 private:
  int Cmp3(size_t i, size_t j) { return cmp_(v_[i], v_[j]); }
  void Swap(size_t i, size_t j) { std::swap(v_[i], v_[j]); }
  void SwapRuns(size_t i, size_t j, size_t n) {
    for (size_t k = 0; k < n; k++) Swap(i + k, j + k);
  }
  // Whether [base, base + n) overlaps the wanted range.
  bool Wanted(size_t base, size_t n) const {
    const size_t last = base + n - 1;
    return !((lo_ < base && hi_ < base) || (lo_ > last && hi_ > last));
  }
  size_t Med3(size_t a, size_t b, size_t c) {
    return Cmp3(a, b) < 0 ? (Cmp3(b, c) < 0 ? b : (Cmp3(a, c) < 0 ? c : a))
                          : (Cmp3(b, c) > 0 ? b : (Cmp3(a, c) < 0 ? a : c));
  }
  void Insertion(size_t base, size_t n) {
    for (size_t m = base + 1; m < base + n; m++) {
      for (size_t l = m; l > base && Cmp3(l - 1, l) > 0; l--) Swap(l, l - 1);
    }
  }

  std::vector<T>& v_;
  Cmp& cmp_;
  const size_t lo_, hi_;
};

}  // namespace partial_qsort_internal

template <typename T, typename Cmp>
void PartialQsort(std::vector<T>& v, Cmp cmp, size_t lo, size_t hi) {
  partial_qsort_internal::Sorter<T, Cmp>(v, cmp, lo, hi).Sort(0, v.size());
}

}  // namespace rankd

#endif  // RANKD_CORE_PARTIAL_QSORT_H_
