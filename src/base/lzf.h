// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// LZF: the small, fast byte compressor Redis uses for RDB strings, DUMP
// payloads and the interior chunks of compressed lists. This is an
// implementation of the published format (liblzf), written here; its
// output is readable by liblzf and by Redis, and it reads theirs.
//
// The compressed stream is a sequence of items, each opened by a control
// byte `c`:
//
//   c < 32        literal run: the next c + 1 bytes are copied as they are
//   c >> 5 in 1..6  back reference of (c >> 5) + 2 bytes: one more byte `o`;
//                 copy from ((c & 31) << 8 | o) + 1 bytes back
//   c >> 5 == 7   long back reference: one byte `l`, then `o`; copy
//                 l + 9 bytes from ((c & 31) << 8 | o) + 1 bytes back
//
// So a back reference reaches at most 8192 bytes back and copies 3..264
// bytes; a copy may overlap the bytes it produces (runs). The stream keeps
// no length: callers store the decompressed length beside it, as Redis does.
//
// Pure functions; the compressor keeps one 512 KB hash table per thread.

#pragma once

#include <cstddef>
#include <string_view>

namespace rankd {

// Compresses `in` into `out`, writing at most `out_cap` bytes. Returns the
// compressed length, or 0 when the result would not fit in `out_cap` (so a
// caller passing in.size() learns that the data does not compress) or when
// `in` is empty. The output is liblzf 3.6 lzf_compress's byte for byte
// (what redis-server writes in RDB files, DUMP payloads and compressed list
// nodes), and so is the limit: like liblzf it may give up when the result
// would come within 4 bytes of `out_cap`. Deterministic (liblzf's own
// output can vary with its uninitialised hash table; this is its output
// from a clean one). O(in.size()).
[[nodiscard]] size_t LzfCompress(std::string_view in, char* out, size_t out_cap);

// Decompresses `in` into `out`. Returns true only when `in` is a valid
// stream that produces exactly `out_len` bytes; on false, `out` holds
// garbage. Never reads or writes out of bounds, whatever `in` holds.
[[nodiscard]] bool LzfDecompress(std::string_view in, char* out, size_t out_len);

// An upper bound of the decompressed size of `compressed_len` bytes (a
// 3-byte long reference expands to 264 bytes): a declared length above it
// is corrupt, which lets readers refuse it before allocating.
constexpr size_t LzfMaxDecompressedSize(size_t compressed_len) { return compressed_len * 88; }

}  // namespace rankd
