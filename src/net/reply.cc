// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// Every append starts with `if (overflowed_) return;` and ends with
// CheckLimit(): past the output limit nothing more is buffered.

#include "net/reply.h"

#include <charconv>
#include <cmath>
#include <cstring>

#include "base/decimal.h"
#include "base/numbers.h"

namespace rankd {
namespace {

// Room for the longest header: type byte, 20 digits, CRLF.
constexpr size_t kMaxHeader = 24;
// Bulk strings up to this size are composed on the stack and appended once
// (members, scores: each append is a call and a copy).
constexpr size_t kSmallBulk = 64;

// `type` then the integer and CRLF: a header ("*3", "$5") or an integer reply.
inline char* PutHeader(char* p, char type, uint64_t n) {
  if (n < 10) {  // most headers: "$7", "*2"
    p[0] = type;
    p[1] = static_cast<char>('0' + n);
    p[2] = '\r';
    p[3] = '\n';
    return p + 4;
  }
  *p++ = type;
  p = WriteDecimal(p, n);
  *p++ = '\r';
  *p++ = '\n';
  return p;
}
char* PutHeader(char* p, char type, int64_t v) {
  if (v >= 0) return PutHeader(p, type, static_cast<uint64_t>(v));
  *p++ = type;
  *p++ = '-';
  p = WriteDecimal(p, 0 - static_cast<uint64_t>(v));
  *p++ = '\r';
  *p++ = '\n';
  return p;
}

char* PutBytes(char* p, std::string_view s) {
  std::memcpy(p, s.data(), s.size());
  p += s.size();
  *p++ = '\r';
  *p++ = '\n';
  return p;
}

// "$<n>\r\n" for n <= 32, each padded to 8 bytes: a short bulk's header is
// one load and one store.
struct ShortHeads {
  char text[33][8];
  constexpr ShortHeads() : text() {
    for (int n = 0; n <= 32; n++) {
      int k = 0;
      text[n][k++] = '$';
      if (n >= 10) text[n][k++] = static_cast<char>('0' + n / 10);
      text[n][k++] = static_cast<char>('0' + n % 10);
      text[n][k++] = '\r';
      text[n][k++] = '\n';
    }
  }
};
constexpr ShortHeads kShortHeads;
constexpr size_t kMaxShort = 32;

// Writes "$<n>\r\n" for n <= kMaxShort (8 bytes of room); returns its end.
inline char* PutShortHead(char* p, size_t n) {
  std::memcpy(p, kShortHeads.text[n], 8);
  return p + 4 + (n >= 10);
}

// Copies n <= kMaxShort bytes with at most two (overlapping) moves of a
// fixed size instead of a call to memcpy: members are short.
inline void CopyShort(char* dst, const char* src, size_t n) {
  if (n >= 16) {
    std::memcpy(dst, src, 16);
    std::memcpy(dst + n - 16, src + n - 16, 16);
  } else if (n >= 8) {
    std::memcpy(dst, src, 8);
    std::memcpy(dst + n - 8, src + n - 8, 8);
  } else if (n >= 4) {
    std::memcpy(dst, src, 4);
    std::memcpy(dst + n - 4, src + n - 4, 4);
  } else if (n > 0) {
    dst[0] = src[0];
    dst[n / 2] = src[n / 2];
    dst[n - 1] = src[n - 1];
  }
}

// A bulk string of at most kMaxShort bytes: writes at most 8 + s.size() + 2.
inline char* PutShortBulk(char* p, std::string_view s) {
  p = PutShortHead(p, s.size());
  CopyShort(p, s.data(), s.size());
  p += s.size();
  p[0] = '\r';
  p[1] = '\n';
  return p + 2;
}

// "$<len>\r\n<s>\r\n": writes at most kMaxHeader + s.size() + 2 bytes.
inline char* PutBulk(char* p, std::string_view s) {
  if (s.size() <= kMaxShort) return PutShortBulk(p, s);
  return PutBytes(PutHeader(p, '$', s.size()), s);
}

// True when d is integral, below 10^16 in magnitude and not -0: "%.17g"
// prints it as its integer text (-0 keeps its sign), which it stores in *i.
[[gnu::always_inline]] inline bool SmallIntegral(double d, int64_t* i) {
  constexpr double kLimit = static_cast<double>(SmallDecimal::kLimit);
  if (!(d > -kLimit && d < kLimit)) return false;
  *i = static_cast<int64_t>(d);
  return static_cast<double>(*i) == d && (*i != 0 || !std::signbit(d));
}

// A double reply of a SmallIntegral value: RESP3 ",<i>\r\n", RESP2
// "$<len>\r\n<i>\r\n", made in registers (base/decimal.h) so that the length
// is known before anything is stored. Writes at most 5 + 1 + 16 + 8 bytes.
[[gnu::always_inline]] inline char* PutIntegralDouble(char* p, int64_t i, bool resp3) {
  const SmallDecimal text(i < 0 ? 0 - static_cast<uint64_t>(i) : static_cast<uint64_t>(i));
  if (resp3) {
    *p++ = ',';
  } else {
    p = PutShortHead(p, static_cast<size_t>(text.len) + (i < 0));  // at most 17
  }
  *p = '-';
  p += i < 0;
  p = text.Store(p);
  p[0] = '\r';
  p[1] = '\n';
  return p + 2;
}

// RESP3 ",d\r\n"; RESP2 "$len\r\nd\r\n". Writes at most kMaxDoubleReply bytes.
constexpr size_t kMaxDoubleReply = kMaxHeader + kMaxDoubleChars + 2;
static_assert(kMaxDoubleReply >= 5 + 1 + 16 + 8, "PutIntegralDouble's stores");

// PutDouble's general path (fractions, infinities, -0, |d| >= 10^16): out of
// line, so that callers of the integral path keep no registers for it.
[[gnu::noinline]] char* PutFormattedDouble(char* p, double d, bool resp3) {
  char num[kMaxDoubleChars];
  const std::string_view text(num, FormatDoubleTo(num, d) - num);
  if (resp3) {
    *p++ = ',';
  } else {
    p = PutHeader(p, '$', static_cast<uint64_t>(text.size()));
  }
  return PutBytes(p, text);
}

inline char* PutDouble(char* p, double d, bool resp3) {
  int64_t i;
  if (SmallIntegral(d, &i)) return PutIntegralDouble(p, i, resp3);
  return PutFormattedDouble(p, d, resp3);
}
constexpr size_t kShortReply = 29;  // SimpleString's one-append size

}  // namespace

void ReplyBuilder::Header(char type, size_t n) {
  if (overflowed_) return;
  char tmp[kMaxHeader];
  buf_.append(tmp, PutHeader(tmp, type, n) - tmp);
  CheckLimit();
}

void ReplyBuilder::SimpleString(std::string_view s) {
  if (overflowed_) return;
  if (s.size() <= kShortReply) {
    // "+OK", "+PONG": framed on the stack and appended once.
    char line[kShortReply + 3];
    line[0] = '+';
    buf_.append(line, PutBytes(line + 1, s) - line);
  } else {
    buf_.push_back('+');
    buf_.append(s);
    buf_.append("\r\n", 2);
  }
  CheckLimit();
}

void ErrorCounts::Add(std::string_view msg) {
  total++;
  std::string_view code = msg.substr(0, msg.find(' '));
  auto it = by_code.find(code);
  if (it != by_code.end()) {
    it->second++;
  } else if (by_code.size() < kMaxCodes) {
    by_code.emplace(std::string(code), 1);
  }
}

void ReplyBuilder::Error(std::string_view msg) {
  if (overflowed_) return;
  if (error_counts_) error_counts_->Add(msg);
  buf_.push_back('-');
  size_t start = buf_.size();
  buf_.append(msg);
  for (size_t i = start; i < buf_.size(); i++) {
    if (buf_[i] == '\r' || buf_[i] == '\n') buf_[i] = ' ';
  }
  buf_.append("\r\n", 2);
  CheckLimit();
}

void ReplyBuilder::Integer(int64_t v) {
  if (overflowed_) return;
  char tmp[kMaxHeader];
  buf_.append(tmp, PutHeader(tmp, ':', v) - tmp);
  CheckLimit();
}

void ReplyBuilder::Bulk(std::string_view s) {
  if (overflowed_) return;
  if (s.size() <= kSmallBulk) {
    char tmp[kMaxHeader + kSmallBulk + 2];
    buf_.append(tmp, PutBulk(tmp, s) - tmp);
    return CheckLimit();
  }
  Header('$', s.size());
  if (overflowed_) return;
  buf_.append(s);
  buf_.append("\r\n", 2);
  CheckLimit();
}

void ReplyBuilder::Double(double d) {
  if (overflowed_) return;
  char tmp[kMaxDoubleReply];
  buf_.append(tmp, PutDouble(tmp, d, resp3()) - tmp);
  CheckLimit();
}

void ReplyBuilder::Bool(bool b) { Raw(resp3() ? (b ? "#t\r\n" : "#f\r\n") : (b ? ":1\r\n" : ":0\r\n")); }
void ReplyBuilder::Null() { Raw(resp3() ? "_\r\n" : "$-1\r\n"); }
void ReplyBuilder::NullArray() { Raw(resp3() ? "_\r\n" : "*-1\r\n"); }
void ReplyBuilder::ArrayHeader(size_t n) { Header('*', n); }
void ReplyBuilder::MapHeader(size_t n) { resp3() ? Header('%', n) : Header('*', 2 * n); }
void ReplyBuilder::SetHeader(size_t n) { Header(resp3() ? '~' : '*', n); }
void ReplyBuilder::PushHeader(size_t n) { Header(resp3() ? '>' : '*', n); }

void ReplyBuilder::Verbatim(std::string_view s) {
  if (!resp3()) return Bulk(s);
  Header('=', s.size() + 4);
  if (overflowed_) return;
  buf_.append("txt:");
  buf_.append(s);
  buf_.append("\r\n", 2);
  CheckLimit();
}

void ReplyBuilder::Insert(size_t token, std::string_view header) {
  if (overflowed_) return;
  // Invariant: the buffer only grows while a deferred header is pending.
  buf_.insert(token, header);
  CheckLimit();
}

void ReplyBuilder::Rollback(size_t mark) {
  if (overflowed_ || mark > buf_.size()) return;
  buf_.resize(mark);
  if (buf_.capacity() > (1u << 20) && buf_.capacity() > 4 * buf_.size()) buf_.shrink_to_fit();
}

void ReplyBuilder::FinishArray(size_t token, size_t n) {
  Insert(token, "*" + FormatInt64(static_cast<int64_t>(n)) + "\r\n");
}

void ReplyBuilder::FinishMap(size_t token, size_t n) {
  Insert(token, (resp3() ? "%" : "*") + FormatInt64(static_cast<int64_t>(resp3() ? n : 2 * n)) +
                    "\r\n");
}

void ReplyBuilder::FinishSet(size_t token, size_t n) {
  Insert(token, (resp3() ? "~" : "*") + FormatInt64(static_cast<int64_t>(n)) + "\r\n");
}

void ReplyBatch::ArrayHeader(size_t n) { len_ = PutHeader(Room(kMaxHeader), '*', n) - buf_; }

void ReplyBatch::Bulk(std::string_view s) {
  if (s.size() > kMaxShort || len_ + 8 + kMaxShort + 2 > kSize) return BulkSlow(s);
  len_ = PutShortBulk(buf_ + len_, s) - buf_;
}

void ReplyBatch::BulkSlow(std::string_view s) {
  if (s.size() > kMaxItem) {
    Flush();
    return r_.Bulk(s);
  }
  len_ = PutBulk(Room(kMaxHeader + kMaxItem + 2), s) - buf_;
}

void ReplyBatch::Double(double d) { len_ = PutDouble(Room(kMaxDoubleReply), d, resp3_) - buf_; }

void ReplyBatch::ScoredMembers(const ScoredView* items, size_t n, bool pair) {
  constexpr size_t kMost = 4 + 8 + kMaxShort + 2 + kMaxDoubleReply;
  for (const ScoredView* it = items; it != items + n; ++it) {
    int64_t i;
    if (it->member.size() > kMaxShort || len_ + kMost > kSize || !SmallIntegral(it->score, &i)) {
      ScoredMemberSlow(it->member, it->score, pair);
      continue;
    }
    char* p = buf_ + len_;
    if (pair) {
      std::memcpy(p, "*2\r\n", 4);
      p += 4;
    }
    len_ = PutIntegralDouble(PutShortBulk(p, it->member), i, resp3_) - buf_;
  }
}

void ReplyBatch::ScoredMemberSlow(std::string_view member, double score, bool pair) {
  if (pair) ArrayHeader(2);
  Bulk(member);
  Double(score);
}

void ReplyBatch::Flush() {
  if (len_ > 0) r_.Raw(std::string_view(buf_, len_));
  len_ = 0;
}

}  // namespace rankd
