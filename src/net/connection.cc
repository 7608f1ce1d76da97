// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// One connection's life on the event loop: read, parse, dispatch, write.
// The listener, the per-iteration flush and closing live in net_server.cc.

#include "net/connection.h"

#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstring>
#include <optional>

#include "base/clock.h"
#include "base/logging.h"
#include "base/prefetch.h"

namespace rankd {
namespace {

constexpr size_t kReadChunk = 16 * 1024;          // PROTO_IOBUF_LEN
constexpr size_t kCompactOutputAt = 64 * 1024;    // written prefix worth erasing
constexpr size_t kKeptArgs = 1024;                 // argument slots kept between reads
constexpr size_t kKeptInputBytes = 256 * 1024;     // empty read buffer kept between reads
constexpr size_t kKeepOutputCapacity = 256 * 1024;

// Group prefetching (issue 16): when a read brings several commands, the
// ones after the command about to run are peeked from the read buffer
// (net/resp_peek.h) in groups of up to kGroup and hinted to the handler in
// two steps inside a PrefetchBatch (base/prefetch.h): step 0 for the whole
// group (the first loads, e.g. each member's index slot), flushed together,
// then step 1 (what those loads name, e.g. the records a slot holds),
// flushed together. A group's misses are paid once, overlapped, and its
// commands then run on cached lines. The first command of a read is hinted
// with the first group, before it runs. Offsets are relative to the start
// of the unconsumed input, whose address is checked before each command so
// nothing stale is ever hinted or taken. The ring holds the group and the
// command taken from it that is running, whose arguments the handler reads
// in place while the next group is peeked.
class Lookahead {
 public:
  // 8 and 16 measured alike at pipeline 16 (bench/RESULTS.md); 8 keeps the
  // ring small.
  static constexpr size_t kGroup = 8;

  // When the command at the start of `data` is the one peeked next, lets
  // the parser take it as read (RespParser::TakePeeked) instead of parsing
  // it again; *args then views the peeked arguments, which stay put until
  // the command after it is taken. False: parse it.
  bool TakeNext(std::string_view data, RespParser* parser, const RespParser::Limits& limits,
                size_t* pos, std::span<const std::string_view>* args) {
    if (data.data() != base_ || n_ == 0) return false;
    const PeekedCommand& p = Slot(0);
    if (p.end != p.size || !parser->TakePeeked(p, limits, pos)) return false;
    *args = std::span<const std::string_view>(p.args, p.argc);
    return true;
  }

  // Before the command that ends at `cur_end` (arguments `args`) runs.
  void BeforeCommand(ConnectionHandler* h, Connection* c, std::string_view data, size_t cur_end,
                     std::span<const std::string_view> args) {
    const bool fresh = data.data() != base_ || n_ == 0 || Slot(0).end != cur_end;
    if (fresh) {
      n_ = 0;  // fresh start (or the input moved): peek after this command
      next_ = cur_end;
      done_ = false;
    } else {
      --n_;  // the command about to run leaves the group
    }
    head_ = Next(head_);  // never over the slot a running command may use
    base_ = data.data();
    if (n_ > 0 || done_) return;
    // A new group: peek it, then both steps, each flushed as one batch.
    PrefetchBatch::Open();
    uintptr_t cur_memo = 0;
    // The running command's arguments, as many as a peeked command keeps.
    const auto cur = args.first(std::min(args.size(), PeekedCommand::kMaxArgs));
    if (fresh) h->Prefetch(c, cur, args.size(), 0, &cur_memo);
    while (n_ < kGroup) {
      PeekedCommand& p = Slot(n_);
      if (!PeekCommand(data, next_, &p)) {
        done_ = true;  // incomplete or unusual: stop looking this round
        break;
      }
      next_ = p.end;
      Memo(n_) = 0;
      Hint(h, c, n_++, 0);
    }
    PrefetchBatch::Flush();
    PrefetchBatch::Open();
    if (fresh) h->Prefetch(c, cur, args.size(), 1, &cur_memo);
    for (size_t i = 0; i < n_; i++) Hint(h, c, i, 1);
    PrefetchBatch::Flush();
  }
  // The command that ended at `pos` ran and was consumed.
  void Consumed(size_t pos) {
    base_ += pos;
    next_ -= pos;
    for (size_t i = 0; i < n_; i++) Slot(i).end -= pos;
  }

 private:
  static constexpr size_t kRing = kGroup + 1;

  void Hint(ConnectionHandler* h, Connection* c, size_t i, int step) {
    const PeekedCommand& p = Slot(i);
    const size_t kept = std::min(p.argc, PeekedCommand::kMaxArgs);
    h->Prefetch(c, std::span<const std::string_view>(p.args, kept), p.argc, step, &Memo(i));
  }
  // The i-th command of the group (0: the next to run), and the handler's
  // memo for it. A command leaving the group costs no copy.
  static size_t Next(size_t k) { return k + 1 == kRing ? 0 : k + 1; }
  size_t Index(size_t i) const { return head_ + i < kRing ? head_ + i : head_ + i - kRing; }
  PeekedCommand& Slot(size_t i) { return q_[Index(i)]; }
  uintptr_t& Memo(size_t i) { return memo_[Index(i)]; }

  PeekedCommand q_[kRing];
  uintptr_t memo_[kRing] = {};
  size_t n_ = 0;  // peeked commands not yet run
  size_t next_ = 0, head_ = 0;
  const char* base_ = nullptr;
  bool done_ = false;
};

}  // namespace

Connection::Connection(NetServer* server, int fd, uint64_t id)
    : server_(server), fd_(fd), id_(id) {
  created_ms_ = last_active_ms_ = last_read_ms_ = MonoMs();
}

bool Connection::peer_is_local() const {
  std::string_view p = peer_;
  return unix_socket_ || p.starts_with("127.0.0.1:") || p.starts_with("[::1]:");
}

void Connection::Pause() { paused_ = true; }

void Connection::Resume() {
  paused_ = false;
  if (killed_) return;
  if (!in_.empty()) server_->MarkInput(this);
  server_->MarkWrite(this);
}

void Connection::CloseAfterReply() {
  if (killed_ || close_after_reply_) return;
  close_after_reply_ = true;
  server_->UpdateEvents(this);  // stop reading
  server_->MarkWrite(this);
}

void Connection::Kill() { server_->Kill(this); }

void Connection::ScheduleFlush() { server_->MarkWrite(this); }

bool Connection::EnforceOutputLimit() {
  if (killed_ || !server_->OverOutputLimit(this)) return false;
  server_->Kill(this);
  return true;
}

uint64_t Connection::limited_output_size() const {
  const uint64_t unsent = output_buffer_size();
  const uint64_t exempt = exempt_until_ > written_total_ ? exempt_until_ - written_total_ : 0;
  return (exempt < unsent ? unsent - exempt : 0) + held_output_;
}

void Connection::set_held_output(size_t bytes) {
  held_output_ = bytes;
  if (!killed_) server_->ArmOutputLimit(this);
}

void Connection::AppendExempt(std::string_view bytes) {
  reply_.set_limit(0);
  reply_.Raw(bytes);
  exempt_until_ = written_total_ + output_buffer_size();  // a prefix of the output
  if (!killed_) server_->ArmOutputLimit(this);
}

OutputLimit NetServer::LimitFor(const Connection* c) const {
  // As Redis's getClientType: a replica first, then pub/sub, else normal.
  if (c->replica_class_) return limits_.replica_output;
  if (c->pubsub_class_) return limits_.pubsub_output;
  return {limits_.output_buffer_hard_limit, limits_.output_buffer_soft_limit,
          limits_.output_buffer_soft_seconds};
}

RespParser::Limits NetServer::ParserLimits(const Connection* c) const {
  RespParser::Limits l;
  l.max_bulk_len = limits_.max_bulk_len;
  l.max_multibulk_len = INT_MAX;
  l.unauthenticated = c->unauthenticated_;
  return l;
}

void NetServer::OnEvent(Connection* c, uint32_t events) {
  busy_++;
  if ((events & (EPOLLERR | EPOLLHUP)) && !(c->events_ & EPOLLIN)) {
    // Not reading (closing or throttled): a hangup would fire forever.
    Kill(c);
  } else {
    if (events & (EPOLLIN | EPOLLERR | EPOLLHUP)) ReadFrom(c);
    if (!c->killed_ && (events & EPOLLOUT)) WriteTo(c);
  }
  busy_--;
}

void NetServer::ReadFrom(Connection* c) {
  // Like Redis: 16 KB per read, or exactly the rest of a big bulk, for which
  // the buffer is sized once instead of grown step by step.
  size_t want = c->parser_.BigBulkBytesWanted(c->in_.size());
  if (want == 0) want = kReadChunk;
  char* dst = c->in_.PrepareAppend(want);
  const ssize_t n = c->tls_ ? c->tls_->Read(dst, want) : read(c->fd_, dst, want);
  if (n < 0) {
    if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) return;
    LOG_VERBOSE("Reading from client: %s", strerror(errno));
    Kill(c);
    return;
  }
  if (n == 0) {
    LOG_VERBOSE("Client closed connection id=%llu addr=%s",
                static_cast<unsigned long long>(c->id_), c->peer_.c_str());
    Kill(c);
    return;
  }
  c->in_.Commit(static_cast<size_t>(n));
  c->last_active_ms_ = c->last_read_ms_ = CachedMonoMs();
  ProcessInput(c);
  if (c->killed_ || limits_.query_buffer_limit <= 0) return;
  const size_t held = c->in_.size() + c->parser_.pending_arg_bytes();
  if (held > static_cast<uint64_t>(limits_.query_buffer_limit)) {
    LOG_WARNING("Closing client that reached max query buffer length: id=%llu addr=%s "
                "qbuf=%zu",
                static_cast<unsigned long long>(c->id_), c->peer_.c_str(), c->in_.size());
    Kill(c);
    return;
  }
  // TLS may hold decrypted bytes no socket event will announce.
  if (c->tls_ && c->tls_->pending() && !c->paused_ && !c->throttled_ && !c->close_after_reply_) {
    ReadFrom(c);
  }
}

void NetServer::ArmOutputLimit(Connection* c) {
  const int64_t hard = LimitFor(c).hard;
  if (hard <= 0) return c->reply_.set_limit(0);
  // The buffer may grow by what the limit allows beyond what is counted
  // now; at least one byte, so a connection already over it overflows.
  const uint64_t counted = c->limited_output_size();
  const uint64_t room = counted < static_cast<uint64_t>(hard) ? hard - counted : 1;
  c->reply_.set_limit(c->reply_.buffer().size() + room);
}

bool NetServer::OverOutputLimit(Connection* c) {
  const uint64_t out = c->limited_output_size();
  const OutputLimit l = LimitFor(c);
  bool over = c->reply_.overflowed() || (l.hard > 0 && out > static_cast<uint64_t>(l.hard));
  if (l.soft > 0 && out > static_cast<uint64_t>(l.soft)) {
    const int64_t now = MonoMs();
    if (c->soft_limit_since_ms_ < 0) {
      c->soft_limit_since_ms_ = now;
    } else if (now - c->soft_limit_since_ms_ > l.soft_seconds * 1000) {
      over = true;
    }
  } else {
    c->soft_limit_since_ms_ = -1;
  }
  if (over) {
    // Redis's wording (it frees the client asynchronously: so does Kill).
    LOG_WARNING("Client id=%llu addr=%s laddr=%s omem=%llu scheduled to be closed ASAP for "
                "overcoming of output buffer limits.",
                static_cast<unsigned long long>(c->id_), c->peer_.c_str(), c->local_.c_str(),
                static_cast<unsigned long long>(out));
  }
  return over;
}

void NetServer::ProcessInput(Connection* c) {
  ArmOutputLimit(c);
  bool replied = false;
  // Built only when a second command is buffered: a lone command (pipeline
  // 1) has nothing to look ahead at.
  std::optional<Lookahead> ahead;
  while (!c->paused_ && !c->close_after_reply_ && !c->killed_ && !c->throttled_) {
    // Per command: an AUTH earlier in the same read lifts the limits of an
    // unauthenticated client for the commands after it, as in Redis (MIGRATE
    // pipelines AUTH before large RESTOREs).
    const RespParser::Limits parser_limits = ParserLimits(c);
    size_t pos = 0;
    std::span<const std::string_view> args;
    RespParser::Result r = RespParser::Result::kCommand;
    if (!ahead || !ahead->TakeNext(c->in_.data(), &c->parser_, parser_limits, &pos, &args)) {
      r = c->parser_.Parse(c->in_.data(), &pos, &args_, parser_limits);
      args = args_;
    }
    if (r == RespParser::Result::kNeedMore) {
      c->in_.Consume(pos);
      break;
    }
    replied = true;
    if (r == RespParser::Result::kError) {
      LOG_VERBOSE("Protocol error (%s) from client: id=%llu addr=%s", c->parser_.error().c_str(),
                  static_cast<unsigned long long>(c->id_), c->peer_.c_str());
      c->reply_.Error("ERR " + c->parser_.error());
      c->in_.Consume(c->in_.size());
      c->CloseAfterReply();
      break;
    }
    if (!ahead && pos < c->in_.size()) ahead.emplace();
    if (ahead) ahead->BeforeCommand(handler_, c, c->in_.data(), pos, args);
    handler_->OnCommand(c, args);
    c->in_.Consume(pos);
    if (ahead) ahead->Consumed(pos);
    // OverOutputLimit is false, and changes nothing, for a client with no
    // limits that did not overflow and has no soft-limit clock running (a
    // normal client under the default limits): skipped then.
    const OutputLimit limit = LimitFor(c);
    if ((limit.hard > 0 || limit.soft > 0 || c->reply_.overflowed() ||
         c->soft_limit_since_ms_ >= 0) &&
        c->EnforceOutputLimit()) {
      break;
    }
    const size_t out = c->output_buffer_size();
    if (limits_.output_buffer_pause > 0 &&
        out > static_cast<uint64_t>(limits_.output_buffer_pause)) {
      c->throttled_ = true;  // until the client reads (WriteTo)
      UpdateEvents(c);
    }
  }
  // As Redis frees each command's argv and shrinks a query buffer far above
  // its use: one command with many arguments or bytes does not pin that
  // memory (the lazyfree unit's UNLINK test) until the client goes idle.
  if (args_.capacity() > kKeptArgs) std::vector<std::string_view>().swap(args_);
  c->parser_.TrimStorage(kKeptArgs);
  if (c->in_.empty() && c->in_.capacity() > kKeptInputBytes) c->in_.Release();
  if (replied) MarkWrite(c);
}

void NetServer::WriteTo(Connection* c) {
  std::string& buf = c->reply_.buffer();
  bool wrote = false;
  while (c->out_pos_ < c->flushable_) {
    const char* src = buf.data() + c->out_pos_;
    const size_t len = c->flushable_ - c->out_pos_;
    const ssize_t n = c->tls_ ? c->tls_->Write(src, len) : send(c->fd_, src, len, MSG_NOSIGNAL);
    if (n > 0) {
      c->out_pos_ += static_cast<size_t>(n);
      c->written_total_ += static_cast<uint64_t>(n);
      wrote = true;
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) break;
    LOG_VERBOSE("Error writing to client: %s", n < 0 ? strerror(errno) : "short write");
    Kill(c);
    return;
  }
  if (wrote) c->last_active_ms_ = CachedMonoMs();
  if (c->out_pos_ == buf.size()) {
    buf.clear();
    if (buf.capacity() > kKeepOutputCapacity) std::string().swap(buf);
    c->out_pos_ = c->flushable_ = 0;
    c->want_write_ = false;
    if (c->close_after_reply_) {
      Kill(c);
      return;
    }
  } else if (c->out_pos_ == c->flushable_) {
    c->want_write_ = false;  // newer bytes wait for the next BeforeFlush
  } else {
    c->want_write_ = true;  // socket full
    // Drop the written prefix now and then so a reader that never catches
    // up does not keep it; erasing at least half keeps this linear.
    if (c->out_pos_ >= kCompactOutputAt && c->out_pos_ * 2 >= buf.size()) {
      buf.erase(0, c->out_pos_);
      c->flushable_ -= c->out_pos_;
      c->out_pos_ = 0;
    }
  }
  ArmOutputLimit(c);  // out_pos_ moved
  const int64_t soft = LimitFor(c).soft;
  if (soft <= 0 || c->limited_output_size() <= static_cast<uint64_t>(soft)) {
    c->soft_limit_since_ms_ = -1;
  }
  if (c->throttled_ && (limits_.output_buffer_pause <= 0 ||
                        c->output_buffer_size() <=
                            static_cast<uint64_t>(limits_.output_buffer_pause))) {
    c->throttled_ = false;
    MarkInput(c);  // run what was left buffered
  }
  UpdateEvents(c);
}

void NetServer::UpdateEvents(Connection* c) {
  if (c->killed_) return;
  uint32_t ev = 0;
  if (!c->close_after_reply_ && !c->throttled_) ev |= EPOLLIN;
  if (c->want_write_) ev |= EPOLLOUT;
  if (ev != c->events_) {
    loop_->ModifyFd(c->fd_, ev);
    c->events_ = ev;
  }
}

}  // namespace rankd
