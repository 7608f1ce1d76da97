// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// What the bitmap commands share (bit_family.cc: SETBIT, GETBIT, BITCOUNT,
// BITPOS, BITOP and the table; bitfield_cmd.cc: BITFIELD, BITFIELD_RO):
// Redis's bit offset argument and its string lookup that grows the value to
// cover the highest bit written.

#pragma once

#include <cstdint>
#include <string_view>

#include "db/database.h"
#include "server/command.h"

namespace rankd {

// Redis getBitOffsetFromArgument: parses `arg` as a bit offset. With
// `field_bits` > 0 (BITFIELD) the form "#N" means N * field_bits. Replies
// "ERR bit offset is not an integer or out of range" and returns false when
// it is not an integer, negative, or its byte (offset / 8) reaches
// proto-max-bulk-len.
bool ParseBitOffsetOrReply(CommandContext& ctx, std::string_view arg, unsigned field_bits,
                           uint64_t* offset);

// Redis lookupStringForBitCommand: the string entry of `key` for a write,
// created or zero-padded so that it covers bit `max_bit`, and made "raw".
// Sets *grown when the key was created or lengthened. Replies WRONGTYPE and
// returns nullptr when the key holds another type.
Database::Entry* StringForBitWrite(CommandContext& ctx, std::string_view key, uint64_t max_bit,
                                   bool* grown);

void BitField(CommandContext& ctx);    // BITFIELD key [GET|SET|INCRBY|OVERFLOW ...]
void BitFieldRo(CommandContext& ctx);  // BITFIELD_RO key [GET type offset ...]

}  // namespace rankd
