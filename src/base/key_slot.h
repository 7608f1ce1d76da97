// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// The hash slot of a key, as Redis Cluster computes it: CRC16 (XMODEM:
// polynomial 0x1021, initial value 0) of the key modulo 16384. When the key
// holds a hash tag (the bytes between the first '{' and the first '}' after
// it, if there is at least one byte between them), only the tag is hashed,
// so `{user1}.a` and `{user1}.b` share a slot. This is the interface every
// cluster client computes too, so it must never change.

#pragma once

#include <cstdint>
#include <string_view>

namespace rankd {

inline constexpr int kClusterSlots = 16384;

// CRC16/XMODEM of `data`.
uint16_t Crc16(std::string_view data);

// The slot of `key`, in [0, kClusterSlots).
int KeySlot(std::string_view key);

}  // namespace rankd
