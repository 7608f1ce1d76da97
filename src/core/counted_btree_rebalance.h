// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// CountedBTree node restructuring on the way down a mutation: making room
// in a full child (hand entries to a sibling, or split) and refilling a
// minimum-size child (borrow from a sibling, or merge). Every helper keeps
// counts[], heads[] (groups), keys[] and hints[] of the parent exact. Group
// head bits travel with their values: moving values between nodes never
// changes which values are heads. Included only by
// core/counted_btree.h; see the design block there.

#pragma once

#include <cassert>
#include <cstring>

namespace rankd {

#define RANKD_BTREE_TMPL template <typename V, typename L, size_t LB, size_t IB>
#define RANKD_BTREE CountedBTree<V, L, LB, IB>

RANKD_BTREE_TMPL
void RANKD_BTREE::MakeRoom(InnerNode* p, uint32_t i, int child_h) {
  // With slot codes, inner nodes share too (~2/3 full otherwise: 0.13 B
  // per element more at 1M).
  if (child_h == 0 || kCodes) {
    // Hand work to a sibling with >= 2 free slots, leaving both with room.
    const size_t cap = child_h == 0 ? kLeafCap : kInnerCap;
    if (i > 0) {
      size_t free = cap - NodeSize(p->children[i - 1], child_h);
      if (free >= 2) return MoveToLeft(p, i, free / 2, child_h);
    }
    if (i + 1 < p->n) {
      size_t free = cap - NodeSize(p->children[i + 1], child_h);
      if (free >= 2) return MoveToRight(p, i, free / 2, child_h);
    }
  }
  if (child_h == 0) {
    // With slot codes, two (nearly) full leaves become three of 2/3 rather
    // than one into two halves (B*-tree style): 0.06 B per element less at 1M,
    // and one leaf to Recode instead of two.
    if constexpr (kCodes) {
      if (p->n >= 2) return SplitTwoIntoThree(p, i + 1 < p->n ? i : i - 1);
    }
  }
  Split(p, i, child_h);
}

RANKD_BTREE_TMPL
void RANKD_BTREE::SplitTwoIntoThree(InnerNode* p, uint32_t i) {
  static_assert(!kGroups, "group bits would need to move too");
  LeafNode* c = AsLeaf(p->children[i]);
  LeafNode* s = AsLeaf(p->children[i + 1]);
  const size_t total = c->n + s->n;
  const size_t keep_c = total / 3, mid = total / 3, keep_s = total - keep_c - mid;
  // Invariant: the two leaves were (nearly) full, so each third is above
  // the minimum, c gives values to m and m takes the rest from s's front.
  assert(keep_c >= kLeafMin && keep_s <= kLeafCap && c->n > keep_c && c->n - keep_c <= mid);
  LeafNode* m = NewLeaf();
  const size_t from_c = c->n - keep_c, from_s = mid - from_c;
  MoveSlots(m, 0, c, keep_c, from_c);
  MoveSlots(m, from_c, s, 0, from_s);
  MoveSlots(s, 0, s, from_s, s->n - from_s);
  c->n = static_cast<uint16_t>(keep_c);
  s->n = static_cast<uint16_t>(keep_s);
  m->n = static_cast<uint16_t>(mid);
  Recode(m);  // c and s lost values only: their codes stand
  m->prev = c, m->next = s;
  c->next = m, s->prev = m;
  p->counts[i] -= from_c;
  p->counts[i + 1] -= from_s;
  InsertChild(p, i + 1, m, mid, 0, m->vals[0]);
  SetKey(p, i + 2, s->vals[0]);
}

RANKD_BTREE_TMPL
void RANKD_BTREE::Refill(InnerNode* p, uint32_t i, int child_h) {
  const size_t min = child_h == 0 ? kLeafMin : kInnerMin;
  if (i > 0) {
    size_t n = NodeSize(p->children[i - 1], child_h);
    if (n > min) return MoveToRight(p, i - 1, (n - min + 1) / 2, child_h);
  }
  if (i + 1 < p->n) {
    size_t n = NodeSize(p->children[i + 1], child_h);
    if (n > min) return MoveToLeft(p, i + 1, (n - min + 1) / 2, child_h);
  }
  Merge(p, i > 0 ? i - 1 : i, child_h);
}

RANKD_BTREE_TMPL
void RANKD_BTREE::MoveToLeft(InnerNode* p, uint32_t i, size_t k, int child_h) {
  uint64_t moved = k, moved_heads = 0;
  if (child_h == 0) {
    LeafNode* l = AsLeaf(p->children[i - 1]);
    LeafNode* c = AsLeaf(p->children[i]);
    if constexpr (kGroups) {
      const uint64_t bits = c->heads & LowBits(k);
      moved_heads = static_cast<uint64_t>(__builtin_popcountll(bits));
      l->heads |= bits << l->n;
      c->heads >>= k;
    }
    MoveSlots(l, l->n, c, 0, k);
    MoveSlots(c, 0, c, k, c->n - k);
    l->n += k;
    c->n -= k;
    Recode(l);  // the values from c came with codes in c's range
  } else {
    InnerNode* l = AsInner(p->children[i - 1]);
    InnerNode* c = AsInner(p->children[i]);
    moved = 0;
    for (size_t j = 0; j < k; ++j) moved += c->counts[j];
    if constexpr (kGroups) {
      for (size_t j = 0; j < k; ++j) moved_heads += c->heads[j];
    }
    MoveEntries(l, l->n, c, 0, k);
    MoveEntries(c, 0, c, k, c->n - k);
    l->n += k;
    c->n -= k;
  }
  p->counts[i - 1] += moved;
  p->counts[i] -= moved;
  if constexpr (kGroups) p->heads[i - 1] += moved_heads, p->heads[i] -= moved_heads;
  SetKey(p, i, MinOf(p->children[i], child_h));
}

RANKD_BTREE_TMPL
void RANKD_BTREE::MoveToRight(InnerNode* p, uint32_t i, size_t k, int child_h) {
  uint64_t moved = k, moved_heads = 0;
  if (child_h == 0) {
    LeafNode* c = AsLeaf(p->children[i]);
    LeafNode* r = AsLeaf(p->children[i + 1]);
    if constexpr (kGroups) {
      const uint64_t bits = c->heads >> (c->n - k);
      moved_heads = static_cast<uint64_t>(__builtin_popcountll(bits));
      r->heads = (r->heads << k) | bits;
      c->heads &= LowBits(c->n - k);
    }
    MoveSlots(r, k, r, 0, r->n);
    MoveSlots(r, 0, c, c->n - k, k);
    r->n += k;
    c->n -= k;
    Recode(r);  // the values from c came with codes in c's range
  } else {
    InnerNode* c = AsInner(p->children[i]);
    InnerNode* r = AsInner(p->children[i + 1]);
    size_t from = c->n - k;
    moved = 0;
    for (size_t j = from; j < c->n; ++j) moved += c->counts[j];
    if constexpr (kGroups) {
      for (size_t j = from; j < c->n; ++j) moved_heads += c->heads[j];
    }
    MoveEntries(r, k, r, 0, r->n);
    MoveEntries(r, 0, c, from, k);
    r->n += k;
    c->n -= k;
  }
  p->counts[i] -= moved;
  p->counts[i + 1] += moved;
  if constexpr (kGroups) p->heads[i] -= moved_heads, p->heads[i + 1] += moved_heads;
  SetKey(p, i + 1, MinOf(p->children[i + 1], child_h));
}

RANKD_BTREE_TMPL
void RANKD_BTREE::Split(InnerNode* p, uint32_t i, int child_h) {
  if (child_h == 0) {
    LeafNode* c = AsLeaf(p->children[i]);
    LeafNode* r = NewLeaf();
    size_t keep = c->n / 2, move = c->n - keep;
    MoveSlots(r, 0, c, keep, move);
    if constexpr (kGroups) {
      r->heads = c->heads >> keep;
      c->heads &= LowBits(keep);
    }
    r->n = move;
    c->n = keep;
    Recode(c);  // each half gets the whole code range for its own values
    Recode(r);
    r->next = c->next;
    if (r->next != nullptr) r->next->prev = r;
    r->prev = c;
    c->next = r;
    p->counts[i] -= move;
    const uint64_t moved_heads = HeadsOf(r, 0);
    if constexpr (kGroups) p->heads[i] -= moved_heads;
    InsertChild(p, i + 1, r, move, moved_heads, r->vals[0]);
  } else {
    InnerNode* c = AsInner(p->children[i]);
    InnerNode* r = NewInner();
    size_t keep = c->n / 2, move = c->n - keep;
    uint64_t moved = 0;
    for (size_t j = keep; j < c->n; ++j) moved += c->counts[j];
    MoveEntries(r, 0, c, keep, move);
    r->n = move;
    c->n = keep;
    p->counts[i] -= moved;
    const uint64_t moved_heads = HeadsOf(r, child_h);
    if constexpr (kGroups) p->heads[i] -= moved_heads;
    InsertChild(p, i + 1, r, moved, moved_heads, r->keys[0]);
  }
}

RANKD_BTREE_TMPL
void RANKD_BTREE::Merge(InnerNode* p, uint32_t i, int child_h) {
  // Appends child i+1 to child i. Invariant: both together fit one node.
  if (child_h == 0) {
    LeafNode* l = AsLeaf(p->children[i]);
    LeafNode* r = AsLeaf(p->children[i + 1]);
    assert(l->n + r->n <= kLeafCap);
    if constexpr (kGroups) l->heads |= r->heads << l->n;
    MoveSlots(l, l->n, r, 0, r->n);
    l->n += r->n;
    Recode(l);
    l->next = r->next;
    if (l->next != nullptr) l->next->prev = l;
    FreeLeaf(r);
  } else {
    InnerNode* l = AsInner(p->children[i]);
    InnerNode* r = AsInner(p->children[i + 1]);
    assert(l->n + r->n <= kInnerCap);
    MoveEntries(l, l->n, r, 0, r->n);
    l->n += r->n;
    FreeInner(r);
  }
  p->counts[i] += p->counts[i + 1];
  if constexpr (kGroups) p->heads[i] += p->heads[i + 1];
  RemoveChild(p, i + 1);
}

RANKD_BTREE_TMPL
void RANKD_BTREE::InsertChild(InnerNode* p, uint32_t pos, void* child, uint64_t count,
                              uint64_t heads, V key) {
  assert(p->n < kInnerCap);
  MoveEntries(p, pos + 1, p, pos, p->n - pos);
  p->children[pos] = child;
  p->counts[pos] = count;
  if constexpr (kGroups) p->heads[pos] = heads;
  SetKey(p, pos, key);
  p->n++;
}

RANKD_BTREE_TMPL
void RANKD_BTREE::RemoveChild(InnerNode* p, uint32_t pos) {
  MoveEntries(p, pos, p, pos + 1, p->n - pos - 1);
  p->n--;
}

RANKD_BTREE_TMPL
void RANKD_BTREE::MoveEntries(InnerNode* dst, size_t di, const InnerNode* src, size_t si,
                              size_t n) {
  std::memmove(&dst->children[di], &src->children[si], n * sizeof(void*));
  std::memmove(&dst->counts[di], &src->counts[si], n * sizeof(uint64_t));
  if constexpr (kGroups) std::memmove(&dst->heads[di], &src->heads[si], n * sizeof(uint64_t));
  std::memmove(&dst->hints[di], &src->hints[si], n * sizeof(Hint));
  std::memmove(&dst->keys[di], &src->keys[si], n * sizeof(V));
}

#undef RANKD_BTREE
#undef RANKD_BTREE_TMPL

}  // namespace rankd
