// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// QuickList: a Redis list, the role of Redis's quicklist: a sequence of
// chunks, each one packed buffer of entries (core/packed.h), so an element
// costs its bytes plus 2, not a node and a pointer.
//
//   chunks_:  [chunk 0] [chunk 1] ... [chunk k]      (std::deque: O(1) at ends)
//   chunk:    count | lzf | aux (lead) | buf = [lead] entry entry ...  (raw)
//               lzf | aux (raw size) | buf = LZF(entry entry ...)   (compressed)
//
// Chunk size follows list-max-listpack-size (`fill`): a positive fill caps
// the entries per chunk (and 8 KB, Redis's safety limit), a negative one the
// bytes: -1 4 KB, -2 8 KB, -3 16 KB, -4 32 KB, -5 (and below) 64 KB. An
// element bigger than the limit gets a chunk of its own. Pushing at an end
// fills the end chunk or starts a new one; inserting in a full chunk splits
// it; chunks emptied by removals are dropped. An element of at least
// `plain_threshold` bytes (DEBUG QUICKLIST-PACKED-THRESHOLD; 1 GB by
// default) is stored "plain", as Redis's plain nodes: alone in its chunk,
// which never takes another element while it holds it. The fill is read on each
// operation (ListLimits); Redis fixes it when the list is created, which
// only changes where chunks split, never what a command sees.
//
// Compression (list-compress-depth, Redis 7.0's rule): a list created with
// depth d > 0 keeps the d chunks at each end raw and stores every other
// ("interior") chunk LZF-compressed (base/lzf.h), when that pays: a chunk
// under kMinCompressBytes stays raw, and so does one that compression would
// shrink by less than kMinCompressImprove bytes. Like Redis, the depth is
// fixed when the list is created (CONFIG SET list-compress-depth affects
// lists created afterwards), and a raw interior chunk is retried only when
// it changes or crosses into the interior. Reads (At, ForEach) decompress
// an interior chunk into a scratch buffer and leave it compressed; an edit
// decompresses it in place and compresses it again before returning.
// Pushes and pops touch only end chunks, which are raw.
//
// The head chunk grows at its front: it keeps `lead` free bytes before its
// first entry (doubling with the chunk, as std::string's capacity does at
// the back), so LPUSH writes one entry instead of moving the chunk, and
// LPOP advances `lead` instead of moving the rest. Any other edit of a chunk
// (Open) drops the lead first, and a chunk that stops being the head gives
// its slack back (Trim), so finished chunks hold their entries' bytes only.
// Chunk boundaries do not depend on the lead: where chunks split (and so
// DEBUG, DUMP and OBJECT output) is exactly as without it.
//
// Invariants: no chunk is empty; size_ is the sum of the counts; only
// interior chunks are compressed; a raw interior chunk does not compress
// (CheckInvariants checks all three). Index access walks chunks from the
// nearer end (O(chunks + chunk bytes)). OBJECT ENCODING answers
// "quicklist", as Redis 7.0 does for every list. Not thread-safe.

#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <string_view>

#include "absl/functional/function_ref.h"

namespace rankd {

struct ListLimits {
  int64_t fill = -2;            // list-max-listpack-size
  int64_t compress_depth = 0;   // list-compress-depth, for lists created now
  size_t plain_threshold = kDefaultPlainThreshold;  // bytes from which an element is plain
  static constexpr size_t kDefaultPlainThreshold = size_t{1} << 30;
};

class QuickList {
 public:
  using Visitor = absl::FunctionRef<void(std::string_view element)>;
  using Predicate = absl::FunctionRef<bool(std::string_view element)>;

  // Redis's thresholds (quicklist.c MIN_COMPRESS_BYTES / _IMPROVE).
  static constexpr size_t kMinCompressBytes = 48;
  static constexpr size_t kMinCompressImprove = 8;
  // Redis keeps the depth in 16 bits and clamps larger values.
  static constexpr int64_t kMaxCompressDepth = 65535;

  // A list whose interior chunks are compressed past `compress_depth`
  // chunks from each end (0: never; clamped to 0..kMaxCompressDepth).
  explicit QuickList(int64_t compress_depth = 0);
  ~QuickList() = default;
  QuickList(const QuickList&) = delete;
  QuickList& operator=(const QuickList&) = delete;
  // A copy with the same elements, chunks and compress depth (COPY).
  std::unique_ptr<QuickList> Clone() const;

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  std::string_view EncodingName() const { return "quicklist"; }
  // Bytes held, compressed chunks at their compressed size.
  size_t MemoryUsage() const;
  size_t chunk_count() const { return chunks_.size(); }
  uint32_t compress_depth() const { return depth_; }
  // Chunks now stored compressed. O(chunks).
  size_t CompressedChunks() const;
  // Bytes of all chunks when raw (DEBUG OBJECT ql_uncompressed_size). O(chunks).
  size_t UncompressedBytes() const;

  void PushFront(std::string_view v, const ListLimits& limits);
  void PushBack(std::string_view v, const ListLimits& limits);
  // Remove and return an end element. REQUIRES: !empty().
  std::string PopFront();
  std::string PopBack();

  // A copy of the element at `index` (0-based from the head).
  // REQUIRES: index < size().
  std::string At(size_t index) const;
  // Replaces the element at `index`. REQUIRES: index < size().
  void Replace(size_t index, std::string_view v, const ListLimits& limits);
  // Inserts `v` so that it becomes element `index`. REQUIRES: index <= size().
  void Insert(size_t index, std::string_view v, const ListLimits& limits);
  // Removes `count` elements from `index`. REQUIRES: index + count <= size().
  void Erase(size_t index, size_t count);
  // Removes the first `limit` elements for which `match` holds, counted
  // from the head, or from the tail when `from_tail` (LREM). Returns how
  // many were removed. Each chunk is decompressed at most once. O(size).
  size_t RemoveIf(Predicate match, uint64_t limit, bool from_tail);

  // Visits elements [first, first + count) from the head, or, when
  // `reverse`, from element first + count - 1 down to first. A string_view
  // is valid during its call only. `fn` must not mutate the list.
  // REQUIRES: first + count <= size().
  void ForEach(size_t first, size_t count, bool reverse, Visitor fn) const;

  // Checks the invariants (tests).
  bool CheckInvariants() const;

  // Redis's rule for storing a chunk compressed: true, with *lzf set, when
  // `raw` has at least kMinCompressBytes and compresses to at least
  // kMinCompressImprove bytes less. Exposed for tests.
  static bool CompressChunk(std::string_view raw, std::string* lzf);

 private:
  struct Chunk {
    std::string buf;          // [lead free bytes] entries, or their LZF form
    uint32_t count : 30 = 0;  // entries
    uint32_t lzf : 1 = 0;     // buf holds the LZF form
    uint32_t plain : 1 = 0;   // holds one plain element (count == 1)
    // Raw: the lead (free bytes before the first entry). LZF: the size of
    // the raw entries. One field, so a chunk stays 40 bytes.
    uint32_t aux = 0;
    bool compressed() const { return lzf != 0; }
    uint32_t lead() const { return lzf ? 0 : aux; }
    uint32_t raw_size() const { return lzf ? aux : 0; }
    // The raw entries. REQUIRES: !compressed().
    std::string_view entries() const { return std::string_view(buf).substr(aux); }
    // Bytes of the raw entries, compressed or not.
    size_t raw_bytes() const { return lzf ? aux : buf.size() - aux; }
  };
  static_assert(sizeof(Chunk) <= sizeof(std::string) + 8, "a chunk's overhead is per element");

  // True when `chunk` may take one more entry of `len` bytes.
  bool Fits(const Chunk& chunk, size_t len, const ListLimits& limits) const;
  // Makes room for `n` more bytes before the first entry of the raw chunk
  // `c` (c.lead >= n after), reallocating with free space at the front
  // that doubles with the chunk, so a run of PushFront costs O(1) per push.
  static void GrowLead(Chunk* c, size_t n, const ListLimits& limits);
  // Gives back a raw chunk's slack (lead and capacity): called when it
  // stops being an end chunk that pushes grow.
  static void Trim(Chunk* c);
  // The chunk holding element `index` and the index inside it.
  size_t Locate(size_t index, size_t* in_chunk) const;
  // Byte offset of entry `i` of the raw entries `buf` holding `count`
  // entries (i <= count; count gives the end).
  static size_t Offset(std::string_view buf, size_t count, size_t i);
  // After an insert or replace into the opened chunk `ci`: splits it in
  // two halves and settles both when it no longer respects `limits`.
  // Returns true when it split (else the caller settles `ci`).
  bool SplitIfOverfull(size_t ci, const ListLimits& limits);
  // After an insert or replace put element `k` into the opened chunk `ci`
  // and either the element is plain or the chunk was: cuts the chunk so the
  // element stands alone (marked `plain`), and settles the pieces.
  void IsolatePlain(size_t ci, size_t k, bool plain);

  // Compression (quick_list_compress.cc).
  // The raw entries of chunk `ci`: its buffer, or a decompression of it
  // into *scratch.
  std::string_view View(size_t ci, std::string* scratch) const;
  // Decompresses chunk `ci` in place and returns its raw buffer for an
  // edit; the caller calls Settle(ci) when done.
  std::string& Open(size_t ci);
  // True when chunk `ci` is interior, so stored compressed if it pays.
  bool Interior(size_t ci) const;
  // Brings chunk `ci` to the form its position asks: compressed (if it
  // pays) when interior, else raw.
  void Settle(size_t ci);
  // After chunks were added or removed: settles the chunks at and next to
  // the depth boundary at both ends (Redis's __quicklistCompress). O(depth).
  void SettleEnds();

  std::deque<Chunk> chunks_;
  size_t size_ = 0;
  uint32_t depth_ = 0;  // immutable after construction
};

}  // namespace rankd
