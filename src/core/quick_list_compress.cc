// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// QuickList compression: which chunks are stored LZF-compressed, and the
// moves between the two forms. Redis 7.0's quicklist does the same work
// incrementally: after a chunk is added or removed it decompresses the
// `depth` chunks at each end and compresses the one just inside them
// (__quicklistCompress); after an edit it compresses the edited chunk
// again. SettleEnds and Settle are those two steps.

#include <cassert>
#include <cstdlib>

#include "base/lzf.h"
#include "core/packed.h"
#include "core/quick_list.h"

namespace rankd {

bool QuickList::CompressChunk(std::string_view raw, std::string* lzf) {
  if (raw.size() < kMinCompressBytes || raw.size() > UINT32_MAX) return false;
  std::string out(raw.size(), '\0');
  const size_t n = LzfCompress(raw, out.data(), out.size());
  if (n == 0 || n + kMinCompressImprove >= raw.size()) return false;
  out.resize(n);
  out.shrink_to_fit();
  *lzf = std::move(out);
  return true;
}

std::string_view QuickList::View(size_t ci, std::string* scratch) const {
  const Chunk& c = chunks_[ci];
  if (!c.compressed()) return c.entries();
  scratch->resize(c.raw_size());
  // CHECK: our own compressed bytes fail to decode only if memory is corrupt.
  if (!LzfDecompress(c.buf, scratch->data(), c.raw_size())) std::abort();
  return *scratch;
}

std::string& QuickList::Open(size_t ci) {
  Chunk& c = chunks_[ci];
  if (c.compressed()) {
    std::string raw;
    (void)View(ci, &raw);
    c.buf = std::move(raw);
    c.lzf = 0;
    c.aux = 0;
  } else if (c.aux != 0) {
    c.buf.erase(0, c.aux);  // edits index the entries from buf[0]
    c.aux = 0;
  }
  return c.buf;
}

bool QuickList::Interior(size_t ci) const {
  const size_t n = chunks_.size(), d = depth_;
  return d > 0 && n > 2 * d && ci >= d && ci < n - d;
}

void QuickList::Settle(size_t ci) {
  Chunk& c = chunks_[ci];
  if (!Interior(ci)) {
    (void)Open(ci);
    return;
  }
  std::string lzf;
  if (c.compressed() || !CompressChunk(c.entries(), &lzf)) return;
  const uint32_t raw = static_cast<uint32_t>(c.entries().size());
  c.buf = std::move(lzf);
  c.lzf = 1;
  c.aux = raw;
}

void QuickList::SettleEnds() {
  if (depth_ == 0) return;
  const size_t n = chunks_.size(), d = depth_;
  if (n <= 2 * d) {  // no interior: everything raw
    for (size_t ci = 0; ci < n; ci++) (void)Open(ci);
    return;
  }
  for (size_t i = 0; i < d; i++) {
    (void)Open(i);
    (void)Open(n - 1 - i);
  }
  Settle(d);  // the chunks that may just have entered the interior
  Settle(n - 1 - d);
}

size_t QuickList::CompressedChunks() const {
  size_t n = 0;
  for (const Chunk& c : chunks_) n += c.compressed() ? 1 : 0;
  return n;
}

size_t QuickList::UncompressedBytes() const {
  size_t bytes = 0;
  for (const Chunk& c : chunks_) bytes += c.raw_bytes();
  return bytes;
}

bool QuickList::CheckInvariants() const {
  size_t total = 0;
  std::string scratch, lzf;
  for (size_t ci = 0; ci < chunks_.size(); ci++) {
    const Chunk& c = chunks_[ci];
    if (c.count == 0 || c.lead() > c.buf.size()) return false;
    if (c.plain && c.count != 1) return false;  // a plain element stands alone
    if (c.compressed()) {
      if (!Interior(ci)) return false;  // only interior chunks compress
      scratch.resize(c.raw_size());
      if (!LzfDecompress(c.buf, scratch.data(), c.raw_size())) return false;
    } else if (Interior(ci) && CompressChunk(c.entries(), &lzf)) {
      return false;  // an interior chunk left raw although it compresses
    }
    const std::string_view raw = c.compressed() ? std::string_view(scratch) : c.entries();
    size_t off = 0, n = 0;
    while (off < raw.size()) {
      (void)packed::At(raw, off, &off);
      n++;
    }
    if (n != c.count || off != raw.size()) return false;
    total += n;
  }
  return total == size_;
}

}  // namespace rankd
