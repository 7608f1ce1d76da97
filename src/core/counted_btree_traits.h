// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// What CountedBTree reads off its comparator at compile time: the hint type
// (HintOf), groups (SameGroup) and slot codes (kSlotCodes); and the empty
// placeholder members a tree without them keeps. See core/counted_btree.h.

#pragma once

#include <concepts>
#include <cstdint>
#include <type_traits>
#include <utility>

namespace rankd {
namespace detail {

// The hint type and accessor of a comparator, or a placeholder.
template <typename L, typename V, bool = requires(const L& l, V v) { l.HintOf(v); }>
struct BTreeHint {
  using Type = uint8_t;
  static Type Of(const L&, V) { return 0; }
};
template <typename L, typename V>
struct BTreeHint<L, V, true> {
  using Type = decltype(std::declval<const L&>().HintOf(std::declval<V>()));
  static Type Of(const L& l, V v) { return l.HintOf(v); }
};

// Whether the comparator defines groups (see "Groups" in core/counted_btree.h).
template <typename L, typename V>
inline constexpr bool kBTreeGroups = requires(const L& l, V v) {
  { l.SameGroup(v, v) } -> std::convertible_to<bool>;
};

// Whether leaves keep slot codes (see core/counted_btree_codes.h).
template <typename L, typename V>
inline constexpr bool kBTreeSlotCodes =
    requires { requires L::kSlotCodes; } &&
    std::is_same_v<typename BTreeHint<L, V>::Type, double>;

// Take no space as [[no_unique_address]] members: the summaries of a tree
// without groups, the code fields of leaves without slot codes (distinct
// types, so that several of them share one address).
template <int>
struct Absent {};
using NoGroupBits = Absent<0>;

}  // namespace detail

}  // namespace rankd
