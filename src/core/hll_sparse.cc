// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// The sparse HyperLogLog code: raising one register in place, and the text
// PFDEBUG DECODE prints. An update rewrites only the opcode that covers the
// register (split into at most three: the zeros or equal values before it,
// the register, those after it), then merges equal VAL neighbours in a short
// window from the opcode before it. That exact procedure is what Redis does,
// so the same adds in the same order give the same bytes.

#include <cassert>
#include <cstdio>
#include <string>

#include "core/hll_internal.h"
#include "core/hyperloglog.h"

namespace rankd::detail {
namespace {

constexpr size_t kNone = std::string::npos;
constexpr int kMergeWindow = 5;  // opcodes looked at after an update

// Merges adjacent VAL opcodes of equal value whose runs fit one opcode,
// looking at up to kMergeWindow opcodes from `pos`.
void MergeNeighbours(std::string* s, size_t pos) {
  int budget = kMergeWindow;
  while (pos < s->size() && budget-- > 0) {
    const auto b = static_cast<uint8_t>((*s)[pos]);
    if (IsXZeroOp(b)) {
      pos += 2;
      continue;
    }
    if (IsZeroOp(b)) {
      pos++;
      continue;
    }
    if (pos + 1 < s->size()) {
      const auto next = static_cast<uint8_t>((*s)[pos + 1]);
      if (IsValOp(next) && ValOpValue(b) == ValOpValue(next) &&
          ValOpRun(b) + ValOpRun(next) <= kValOpMaxRun) {
        (*s)[pos + 1] = static_cast<char>(ValOp(ValOpValue(b), ValOpRun(b) + ValOpRun(next)));
        s->erase(pos, 1);
        continue;  // the merged opcode may merge again with its right side
      }
    }
    pos++;
  }
}

int PromoteAndRaise(std::string* hll, uint32_t index, uint8_t value) {
  if (!HllToDense(hll)) return -1;
  [[maybe_unused]] const int changed = HllRaise(hll, index, value, 0);
  assert(changed == 1);  // promotion happens only for a register that grows
  return 1;
}

}  // namespace

void AppendZeroRun(std::string* out, uint32_t run) {
  assert(run >= 1 && run <= hll::kRegisters);
  if (run <= kZeroOpMaxRun) {
    out->push_back(static_cast<char>(run - 1));
    return;
  }
  out->push_back(static_cast<char>(0x40 | ((run - 1) >> 8)));
  out->push_back(static_cast<char>((run - 1) & 0xFF));
}

int SparseRaise(std::string* hll, uint32_t index, uint8_t value, size_t sparse_max_bytes) {
  if (value > hll::kSparseMaxValue) return PromoteAndRaise(hll, index, value);
  // Find the opcode covering `index`: it starts at `pos` and register `first`.
  size_t pos = hll::kHeaderSize, prev = kNone;
  uint64_t first = 0;
  SparseOp op{0, 0, 0};
  while (pos < hll->size()) {
    op = ReadSparseOp(*hll, pos);
    if (index < first + op.run) break;
    prev = pos;
    pos += op.bytes;
    first += op.run;
  }
  if (op.run == 0 || pos >= hll->size()) return -1;  // the body ends before `index`

  if (op.value >= value) return 0;  // a VAL already as high (zeros are never)
  if (op.run == 1 && op.bytes == 1) {  // a VAL or ZERO of one register: rewrite it in place
    (*hll)[pos] = static_cast<char>(ValOp(value, 1));
  } else {
    const uint64_t last = first + op.run - 1;
    std::string seq;
    if (op.value == 0) {
      if (index != first) AppendZeroRun(&seq, static_cast<uint32_t>(index - first));
      seq.push_back(static_cast<char>(ValOp(value, 1)));
      if (index != last) AppendZeroRun(&seq, static_cast<uint32_t>(last - index));
    } else {
      if (index != first) seq.push_back(static_cast<char>(ValOp(op.value, static_cast<uint32_t>(index - first))));
      seq.push_back(static_cast<char>(ValOp(value, 1)));
      if (index != last) seq.push_back(static_cast<char>(ValOp(op.value, static_cast<uint32_t>(last - index))));
    }
    const size_t old_size = hll->size();
    const auto grow = static_cast<int64_t>(seq.size()) - op.bytes;
    if (grow > 0 && old_size + grow > sparse_max_bytes) return PromoteAndRaise(hll, index, value);
    // An XZERO cut off by the end counts two bytes, its second being the
    // (virtual) terminator: the string ends at old_size + grow either way.
    if (pos + op.bytes > old_size) hll->push_back('\0');
    hll->replace(pos, op.bytes, seq);
    hll->resize(static_cast<size_t>(static_cast<int64_t>(old_size) + grow));
  }
  MergeNeighbours(hll, prev == kNone ? hll::kHeaderSize : prev);
  // Redis marks the cache stale here, in the sparse update itself: visible
  // when a later element of the same PFADD then finds the body corrupt.
  HllInvalidateCache(hll);
  return 1;
}

}  // namespace rankd::detail

namespace rankd {

std::string HllDecodeSparse(std::string_view hll) {
  std::string out;
  char buf[32];
  for (size_t pos = hll::kHeaderSize; pos < hll.size();) {
    const detail::SparseOp op = detail::ReadSparseOp(hll, pos);
    int n;
    if (op.value != 0) {
      n = std::snprintf(buf, sizeof(buf), "v:%d,%u ", op.value, op.run);
    } else {
      n = std::snprintf(buf, sizeof(buf), "%s:%u ", op.bytes == 1 ? "z" : "Z", op.run);
    }
    out.append(buf, static_cast<size_t>(n));
    pos += op.bytes;
  }
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

}  // namespace rankd
