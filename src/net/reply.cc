// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// Every append starts with `if (overflowed_) return;` and ends with
// CheckLimit(): past the output limit nothing more is buffered.

#include "net/reply.h"

#include <charconv>
#include <cstring>
#include <utility>

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
char* PutHeader(char* p, char type, uint64_t n) {
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

// RESP3 ",d\r\n"; RESP2 "$len\r\nd\r\n". Writes at most kMaxDoubleReply bytes.
// An integral score (most leaderboard scores) is written in place, its
// length known from its digit count; others are formatted, then framed.
constexpr size_t kMaxDoubleReply = kMaxHeader + kMaxDoubleChars + 2;
char* PutDouble(char* p, double d, bool resp3) {
  int64_t i;
  if (DoubleAsInteger(d, &i)) {
    const bool neg = i < 0;
    const uint64_t u = neg ? 0 - static_cast<uint64_t>(i) : static_cast<uint64_t>(i);
    const int digits = DecimalDigits(u);
    if (resp3) {
      *p++ = ',';
    } else {
      p = PutHeader(p, '$', static_cast<uint64_t>(digits + neg));
    }
    if (neg) *p++ = '-';
    p = WriteDecimal(p, u, digits);
    *p++ = '\r';
    *p++ = '\n';
    return p;
  }
  char num[kMaxDoubleChars];
  const std::string_view text(num, FormatDoubleTo(num, d) - num);
  if (resp3) {
    *p++ = ',';
  } else {
    p = PutHeader(p, '$', static_cast<uint64_t>(text.size()));
  }
  return PutBytes(p, text);
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

void ReplyBuilder::UncountedError(std::string_view msg) {
  ErrorCounts* counts = std::exchange(error_counts_, nullptr);
  Error(msg);
  error_counts_ = counts;
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
    buf_.append(tmp, PutBytes(PutHeader(tmp, '$', s.size()), s) - tmp);
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
  if (s.size() > kMaxItem) {
    Flush();
    return r_.Bulk(s);
  }
  len_ = PutBytes(PutHeader(Room(kMaxHeader + kMaxItem + 2), '$', s.size()), s) - buf_;
}

void ReplyBatch::Double(double d) {
  len_ = PutDouble(Room(kMaxDoubleReply), d, r_.resp3()) - buf_;
}

void ReplyBatch::Flush() {
  if (len_ > 0) r_.Raw(std::string_view(buf_, len_));
  len_ = 0;
}

}  // namespace rankd
