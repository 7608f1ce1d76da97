// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "base/huge_pages.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>

namespace rankd {
namespace {

// The VmFlags line of the mapping that contains `p` (from /proc/self/smaps).
std::string VmFlagsOf(const void* p) {
  std::ifstream smaps("/proc/self/smaps");
  const uintptr_t a = reinterpret_cast<uintptr_t>(p);
  std::string line;
  bool inside = false;
  while (std::getline(smaps, line)) {
    uintptr_t lo, hi;
    if (std::sscanf(line.c_str(), "%lx-%lx ", &lo, &hi) == 2 && line.find(':') > 8) {
      inside = lo <= a && a < hi;
    } else if (inside && line.rfind("VmFlags:", 0) == 0) {
      return line;
    }
  }
  return "";
}

bool SystemThpMadvise() {
  std::ifstream f("/sys/kernel/mm/transparent_hugepage/enabled");
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str().find("[never]") == std::string::npos && !ss.str().empty();
}

TEST(HugePagesTest, SmallBlocksAreCacheLineAligned) {
  void* p = AllocHuge(100);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % 64, 0u);
  std::memset(p, 1, 100);
  FreeHuge(p, 100);
  FreeHuge(nullptr, 100);  // a no-op
}

TEST(HugePagesTest, LargeBlocksAreAlignedAndAdvisedOverTheirWholePagesOnly) {
  const size_t bytes = kHugePageBytes * 2 + 12345;  // a 4 KiB-page tail too
  char* p = static_cast<char*>(AllocHuge(bytes));
  EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % kHugePageBytes, 0u);
  std::memset(p, 7, bytes);
  EXPECT_EQ(VmFlagsOf(p).find(" hg"), std::string::npos);  // not before AdviseHuge
  AdviseHuge(p, bytes);
  EXPECT_EQ(p[bytes - 1], 7);
  if (SystemThpMadvise()) {
    EXPECT_NE(VmFlagsOf(p).find(" hg"), std::string::npos) << VmFlagsOf(p);
    EXPECT_NE(VmFlagsOf(p + 2 * kHugePageBytes - 1).find(" hg"), std::string::npos);
    EXPECT_EQ(VmFlagsOf(p + 2 * kHugePageBytes).find(" hg"), std::string::npos);  // the tail
  }
  FreeHuge(p, bytes);
}

TEST(HugePagesTest, AdviceCoversOnlyWholePagesOfAnUnalignedRange) {
  char* p = static_cast<char*>(AllocHuge(kHugePageBytes * 3));
  AdviseHuge(p + 1, kHugePageBytes * 3 - 1);  // the first page is not whole
  if (SystemThpMadvise()) {
    EXPECT_EQ(VmFlagsOf(p).find(" hg"), std::string::npos);
    EXPECT_NE(VmFlagsOf(p + kHugePageBytes).find(" hg"), std::string::npos);
  }
  FreeHuge(p, kHugePageBytes * 3);
}

TEST(HugePagesTest, FreeingWithdrawsTheAdvice) {
  // The allocator may hand the same range out again for small objects: it
  // must not be backed by huge pages then.
  char* p = static_cast<char*>(AllocHuge(kHugePageBytes));
  AdviseHuge(p, kHugePageBytes);
  FreeHuge(p, kHugePageBytes);
  const std::string flags = VmFlagsOf(p);
  if (!flags.empty()) EXPECT_EQ(flags.find(" hg"), std::string::npos) << flags;
}

}  // namespace
}  // namespace rankd
