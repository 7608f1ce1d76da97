// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "base/key_slot.h"

#include <array>

namespace rankd {
namespace {

// One entry per byte value: the CRC of that byte shifted through the
// polynomial eight times, built at compile time.
constexpr std::array<uint16_t, 256> MakeTable() {
  std::array<uint16_t, 256> table{};
  for (int b = 0; b < 256; b++) {
    uint16_t crc = static_cast<uint16_t>(b << 8);
    for (int i = 0; i < 8; i++) {
      crc = (crc & 0x8000) ? static_cast<uint16_t>((crc << 1) ^ 0x1021)
                           : static_cast<uint16_t>(crc << 1);
    }
    table[b] = crc;
  }
  return table;
}

constexpr std::array<uint16_t, 256> kTable = MakeTable();

}  // namespace

uint16_t Crc16(std::string_view data) {
  uint16_t crc = 0;
  for (unsigned char c : data) {
    crc = static_cast<uint16_t>((crc << 8) ^ kTable[((crc >> 8) ^ c) & 0xff]);
  }
  return crc;
}

int KeySlot(std::string_view key) {
  const size_t open = key.find('{');
  if (open != std::string_view::npos) {
    const size_t close = key.find('}', open + 1);
    // "{}" tags nothing: the whole key is hashed.
    if (close != std::string_view::npos && close > open + 1) {
      key = key.substr(open + 1, close - open - 1);
    }
  }
  return Crc16(key) & (kClusterSlots - 1);
}

}  // namespace rankd
