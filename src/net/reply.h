// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// ReplyBuilder appends RESP2 or RESP3 replies to a byte buffer. It is the only
// place that knows reply encodings: handlers say "a map of 3", "a double", and
// the builder writes what the connection's protocol version calls for, with
// the downgrades Redis uses under RESP2 (map -> flat array, double -> bulk
// string, null -> $-1 or *-1, bool -> integer).
//
// One builder per connection (net/connection.h); scripting uses standalone
// builders to capture a command's reply. Not thread-safe.
//
// Output limit: a builder can be given a limit on its buffer's size (the
// connection arms it with the client's output buffer hard limit). Once an
// append takes the buffer past it the builder is overflowed: it drops every
// later append, so a reply of any size costs at most the limit in memory,
// and its owner closes the connection instead of sending what is there.
// Handlers whose replies are not bounded by the data (SRANDMEMBER and
// ZRANDMEMBER with a negative count) check overflowed() and stop early.

#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>


namespace rankd {

// Error replies counted by their code, the first word ("ERR", "WRONGTYPE"),
// for INFO errorstats; one instance shared by every connection's builder.
struct ErrorCounts {
  static constexpr size_t kMaxCodes = 128;  // Redis's cap on distinct codes
  std::map<std::string, uint64_t, std::less<>> by_code;  // sorted, as Redis lists them
  uint64_t total = 0;
  // Counts one error reply with text `msg` (no leading '-').
  void Add(std::string_view msg);
};

class ReplyBuilder {
 public:
  explicit ReplyBuilder(int resp_version = 2) : version_(resp_version) {}

  int version() const { return version_; }
  void set_version(int v) { version_ = v; }
  bool resp3() const { return version_ >= 3; }

  // The bytes written so far, in order. The owner drains it.
  std::string& buffer() { return buf_; }
  const std::string& buffer() const { return buf_; }

  void SimpleString(std::string_view s);  // +s
  void Ok() { SimpleString("OK"); }
  // Every Error() is counted in `counts` (nullptr: not counted, as for the
  // builders that capture a script's calls). REQUIRES: outlives the builder.
  void set_error_counts(ErrorCounts* counts) { error_counts_ = counts; }

  // `msg` is the full error text without the leading '-', e.g.
  // "ERR syntax error" or "WRONGTYPE Operation against ...". Any CR/LF in
  // `msg` is replaced by spaces so the reply stays one line.
  void Error(std::string_view msg);
  void Integer(int64_t v);      // :v
  void Bulk(std::string_view s);  // $len s
  void Double(double d);        // RESP3 ,d   RESP2 bulk "%.17g" / "inf"
  void Bool(bool b);            // RESP3 #t/#f RESP2 :1/:0
  void Null();                  // RESP3 _    RESP2 $-1 (null bulk)
  void NullArray();             // RESP3 _    RESP2 *-1 (null array)
  void ArrayHeader(size_t n);   // *n
  void MapHeader(size_t n);     // RESP3 %n   RESP2 *2n  (n key/value pairs)
  void SetHeader(size_t n);     // RESP3 ~n   RESP2 *n
  void PushHeader(size_t n);    // RESP3 >n   RESP2 *n
  void Verbatim(std::string_view s);  // RESP3 =len txt:s   RESP2 bulk
  void EmptyArray() { ArrayHeader(0); }
  // Appends pre-encoded RESP bytes unchanged (e.g. a queued EXEC reply).
  void Raw(std::string_view bytes) {
    if (overflowed_) return;
    buf_.append(bytes);
    CheckLimit();
  }

  // For replies whose length is known only after writing the elements:
  // reserve a header, write the elements, then fill it in. The token is a
  // buffer offset; it stays valid while nothing else drains the buffer.
  size_t DeferArray() { return buf_.size(); }
  void FinishArray(size_t token, size_t n);  // inserts *n at token
  void FinishMap(size_t token, size_t n);    // inserts %n (RESP2: *2n) at token
  void FinishSet(size_t token, size_t n);    // inserts ~n (RESP2: *n) at token

  // Takes back everything written since `mark` (an earlier buffer().size()),
  // so a handler can replace a reply it has begun by an error. Gives large
  // freed capacity back. No effect once overflowed (the client is closed).
  void Rollback(size_t mark);

  // Limit on buffer().size() in bytes; 0: none. Takes effect at the next
  // append (an already overflowed builder stays so).
  void set_limit(size_t bytes) { limit_ = bytes; }
  size_t limit() const { return limit_; }
  // True once an append passed the limit: later appends are dropped and the
  // buffer must not be sent. Never resets (the connection is closed).
  bool overflowed() const { return overflowed_; }

 private:
  void Header(char type, size_t n);
  void Insert(size_t token, std::string_view header);
  void CheckLimit() {
    if (limit_ != 0 && buf_.size() > limit_) overflowed_ = true;
  }
  std::string buf_;
  int version_;
  size_t limit_ = 0;
  bool overflowed_ = false;
  ErrorCounts* error_counts_ = nullptr;
};

// Writes many small replies (the elements of a range) through one stack
// buffer, handed to the builder when nearly full and on destruction: one
// append per couple of kilobytes instead of one per element. The bytes are
// exactly those of the builder's own methods. Nothing else may write to the
// builder while a batch is open.
// One element of a range reply: a member and its score.
struct ScoredView {
  std::string_view member;
  double score;
};

class ReplyBatch {
 public:
  explicit ReplyBatch(ReplyBuilder& r) : r_(r), resp3_(r.resp3()) {}
  ~ReplyBatch() { Flush(); }
  ReplyBatch(const ReplyBatch&) = delete;
  ReplyBatch& operator=(const ReplyBatch&) = delete;

  void ArrayHeader(size_t n);   // as ReplyBuilder::ArrayHeader
  void Bulk(std::string_view s);  // as ReplyBuilder::Bulk
  void Double(double d);        // as ReplyBuilder::Double
  // ArrayHeader(2) if `pair`, Bulk(member), Double(score): one element of a
  // range reply WITHSCORES.
  void ScoredMember(std::string_view member, double score, bool pair) {
    const ScoredView item{member, score};
    ScoredMembers(&item, 1, pair);
  }
  // ScoredMember for each of items[0, n), in one call: a short member with
  // an integral score (the usual leaderboard row) is written in the loop,
  // without any call.
  void ScoredMembers(const ScoredView* items, size_t n, bool pair);
  void Flush();

 private:
  static constexpr size_t kSize = 2048;
  static constexpr size_t kMaxItem = 128;  // larger strings go to the builder
  char* Room(size_t n) {
    if (len_ + n > kSize) Flush();
    return buf_ + len_;
  }
  // The paths of Bulk and ScoredMembers that call out (long members, a full
  // buffer, scores that need formatting), kept apart so that the common
  // path saves no registers.
  void BulkSlow(std::string_view s);
  void ScoredMemberSlow(std::string_view member, double score, bool pair);
  ReplyBuilder& r_;
  const bool resp3_;  // the builder's protocol does not change during a batch
  size_t len_ = 0;
  char buf_[kSize];
};

}  // namespace rankd
