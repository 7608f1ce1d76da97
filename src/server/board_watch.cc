// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "server/board_watch.h"

#include <algorithm>
#include <cstring>
#include <functional>

#include "base/clock.h"
#include "core/leaderboard.h"
#include "server/client.h"
#include "server/pubsub.h"
#include "server/server.h"

namespace rankd {
namespace {

constexpr uint64_t kEmptyTopHash = 0x6c62746f70ULL;  // the hash of no rows

uint64_t SplitMix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

// Folds one row (member bytes, score bits) into the hash of the rows above
// it. Ranks need not be hashed: in every mode they follow from the scores
// of the rows above, which the hash covers.
uint64_t MixRow(uint64_t h, std::string_view member, double score) {
  uint64_t bits;
  memcpy(&bits, &score, sizeof(bits));
  h = SplitMix(h ^ std::hash<std::string_view>{}(member));
  return SplitMix(h ^ bits);
}

}  // namespace

namespace detail {

// Hashes of the first i rows of `z`'s top, for i = 0..min(n, size), into
// *prefix (when given); returns the last one.
uint64_t TopHashes(const SortedSet* z, uint32_t n, std::vector<uint64_t>* prefix) {
  uint64_t h = kEmptyTopHash;
  if (prefix) prefix->assign(1, h);
  if (!z || z->empty() || n == 0) return h;
  BoardView v(*z);
  const uint64_t last = std::min<uint64_t>(n, v.size()) - 1;
  v.ForEachRow(0, last, RankMode::kOrdinal, [&](uint64_t, std::string_view m, double s) {
    h = MixRow(h, m, s);
    if (prefix) prefix->push_back(h);
  });
  return h;
}

// How many of the top rows a watcher of n in `mode` is sent.
size_t RowsFor(const SortedSet* z, uint32_t n, RankMode mode) {
  if (!z || (mode == RankMode::kDense && !z->board())) return 0;
  return std::min<size_t>(n, z->size());
}

// Writes a pre-encoded message to `c` and drops `c` if that takes it over
// its output limit (the pub/sub class), as PubSub's delivery does. A client
// without a connection (a unit test's) just gets the bytes.
void Deliver(Client& c, std::string_view frame) {
  if (c.conn && c.conn->closing()) return;
  c.reply->Raw(frame);
  if (c.conn && !c.conn->EnforceOutputLimit()) c.conn->ScheduleFlush();
}

}  // namespace detail

using detail::Deliver;
using detail::RowsFor;
using detail::TopHashes;

void AppendTopMessage(ReplyBuilder& r, std::string_view key, const SortedSet* z, uint32_t n,
                      RankMode mode) {
  r.PushHeader(3);
  r.Bulk("lb.top");
  r.Bulk(key);
  const size_t rows = RowsFor(z, n, mode);
  if (rows == 0) return r.EmptyArray();
  r.ArrayHeader(rows);
  BoardView(*z).ForEachRow(0, rows - 1, mode, [&](uint64_t rank, std::string_view m, double s) {
    r.ArrayHeader(3);
    r.Integer(static_cast<int64_t>(rank));
    r.Bulk(m);
    r.Double(s);
  });
}

BoardWatch::~BoardWatch() {
  for (BoardMap& m : boards_) {
    for (auto& [key, b] : m) {
      if (b.timer) server_->loop().CancelTimer(b.timer);
    }
  }
}

BoardWatch::Board* BoardWatch::FindBoard(int db, std::string_view key) {
  if (static_cast<size_t>(db) >= boards_.size()) return nullptr;
  auto it = boards_[db].find(key);
  return it == boards_[db].end() ? nullptr : &it->second;
}

void BoardWatch::MarkDirty(int db, std::string_view key) {
  Board* b = FindBoard(db, key);
  if (!b || b->dirty) return;
  b->dirty = true;
  dirty_.emplace_back(db, std::string(key));
}

void BoardWatch::DbChanged(int db) {
  if (watched_boards_ == 0 || static_cast<size_t>(db) >= boards_.size()) return;
  for (auto& [key, b] : boards_[db]) MarkDirty(db, key);
}

const SortedSet* BoardWatch::Lookup(int db, std::string_view key) {
  // Find (not Peek): due members and an expired key are reclaimed first, as
  // for any read, so the rows never show what expired.
  Database::Entry* e = server_->db(db).Find(key, /*touch_access=*/false);
  return e && e->value.type() == ValueType::kZSet ? &e->value.zset() : nullptr;
}

void BoardWatch::Confirm(Client& c, std::string_view type, const std::string_view* key) {
  ReplyBuilder& r = *c.reply;
  r.PushHeader(3);
  r.Bulk(type);
  key ? r.Bulk(*key) : r.Null();
  r.Integer(static_cast<int64_t>(c.lb_watches.size()));
}

void BoardWatch::Watch(Client& c, int db, std::string_view key, uint32_t n, RankMode mode,
                       bool defer_snapshot) {
  if (boards_.empty()) boards_.resize(static_cast<size_t>(server_->db_count()));
  auto [it, inserted] = boards_[db].try_emplace(key);
  Board& b = it->second;
  if (inserted) watched_boards_++;
  auto w = std::find_if(b.watchers.begin(), b.watchers.end(),
                        [&](const Watcher& x) { return x.client == &c; });
  if (w == b.watchers.end()) {
    b.watchers.push_back({&c, n, mode, 0, false, {}});
    watches_++;
    w = b.watchers.end() - 1;
    c.lb_watches.emplace_back(db, std::string(key));
  } else {
    w->n = n;
    w->mode = mode;
  }
  const uint32_t old_max = b.max_n;
  b.max_n = 0;
  for (const Watcher& x : b.watchers) b.max_n = std::max(b.max_n, x.n);
  if (b.max_n != old_max) b.seen_valid = false;  // the next change check starts afresh
  if (c.conn) c.conn->set_pubsub_class(true);
  Confirm(c, "lb.watch", &key);
  if (defer_snapshot) {
    w->snapshot_due = b.snapshot_due = true;
    MarkDirty(db, key);
    return;
  }
  // Lookup may reclaim expired members (a Touch that only marks this board
  // dirty): `w` stays valid, nothing is added to the watcher list.
  const SortedSet* z = Lookup(db, key);
  AppendTopMessage(*c.reply, key, z, n, mode);
  std::vector<uint64_t> prefix;
  TopHashes(z, n, &prefix);
  w->sent_hash = prefix[RowsFor(z, n, mode)];
  w->snapshot_due = false;
}

void BoardWatch::RemoveWatcher(Client& c, int db, std::string_view key) {
  auto own = std::find_if(c.lb_watches.begin(), c.lb_watches.end(),
                          [&](const auto& x) { return x.first == db && x.second == key; });
  if (own == c.lb_watches.end()) return;
  // Invariant: the client's list and the board's watchers agree.
  auto it = boards_[db].find(key);
  Board& b = it->second;
  b.watchers.erase(std::find_if(b.watchers.begin(), b.watchers.end(),
                                [&](const Watcher& x) { return x.client == &c; }));
  c.lb_watches.erase(own);  // `key` may point into it: not used below
  AfterRemoval(db, it);
  if (c.conn && c.all_subscription_count() == 0) c.conn->set_pubsub_class(false);
}

void BoardWatch::AfterRemoval(int db, BoardMap::iterator it) {
  Board& b = it->second;
  watches_--;
  if (b.watchers.empty()) {
    if (b.timer) server_->loop().CancelTimer(b.timer);
    boards_[db].erase(it);
    watched_boards_--;
    return;
  }
  const uint32_t old_max = b.max_n;
  b.max_n = 0;
  for (const Watcher& x : b.watchers) b.max_n = std::max(b.max_n, x.n);
  if (b.max_n != old_max) b.seen_valid = false;
}

void BoardWatch::Unwatch(Client& c, int db, std::string_view key) {
  RemoveWatcher(c, db, key);
  Confirm(c, "lb.unwatch", &key);
}

void BoardWatch::UnwatchAll(Client& c) {
  if (c.lb_watches.empty()) return Confirm(c, "lb.unwatch", nullptr);
  std::vector<std::pair<int, std::string>> all = c.lb_watches;
  for (const auto& [db, key] : all) {
    RemoveWatcher(c, db, key);
    std::string_view k = key;
    Confirm(c, "lb.unwatch", &k);
  }
}

void BoardWatch::Forget(Client& c) {
  std::erase_if(channel_snapshots_, [&](const ChannelSnapshot& x) { return x.client == &c; });
  std::vector<std::pair<int, std::string>> all = c.lb_watches;
  for (const auto& [db, key] : all) RemoveWatcher(c, db, key);
}

void BoardWatch::Flush() {
  // Reading a board may reclaim expired members, which marks it dirty
  // again: a second round finds nothing more to reclaim.
  if (!channel_snapshots_.empty()) SendChannelSnapshots();
  for (int round = 0; round < 4 && !dirty_.empty(); round++) {
    std::vector<std::pair<int, std::string>> batch;
    batch.swap(dirty_);
    for (const auto& [db, key] : batch) {
      Board* b = FindBoard(db, key);
      if (!b || !b->dirty) continue;
      b->dirty = false;
      Check(db, key, *b);
    }
  }
}

void BoardWatch::Check(int db, const std::string& key, Board& b) {
  if (b.snapshot_due) Send(db, key, b, /*only_due=*/true);
  const uint64_t h = TopHashes(Lookup(db, key), b.max_n, nullptr);
  if (b.seen_valid && h == b.seen_hash) return;  // the top did not change
  b.seen_hash = h;
  b.seen_valid = true;
  if (b.timer) return;  // a message is already due
  const int64_t now = MonoMs();
  const int64_t interval = server_->config().lb_watch_interval;
  if (b.last_sent_ms == 0 || now - b.last_sent_ms >= interval) {
    Send(db, key, b, /*only_due=*/false);
    return;
  }
  b.timer = server_->loop().AddTimer(b.last_sent_ms + interval - now,
                                     [this, db, key] { OnTimer(db, key); });
}

void BoardWatch::OnTimer(int db, const std::string& key) {
  Board* b = FindBoard(db, key);
  if (!b) return;
  b->timer = 0;
  Send(db, key, *b, /*only_due=*/false);
}

bool BoardWatch::Send(int db, std::string_view key, Board& b, bool only_due) {
  const SortedSet* z = Lookup(db, key);
  std::vector<uint64_t> prefix;
  const uint64_t top = TopHashes(z, b.max_n, &prefix);
  // One encoding per (n, mode, protocol) among the watchers sent to.
  struct Frame {
    uint32_t n;
    RankMode mode;
    int resp;
    std::string bytes;
  };
  std::vector<Frame> frames;
  bool sent = false;
  for (Watcher& w : b.watchers) {
    if (only_due && !w.snapshot_due) continue;
    const uint64_t h = prefix[RowsFor(z, w.n, w.mode)];
    if (!w.snapshot_due && h == w.sent_hash) continue;
    w.snapshot_due = false;
    w.sent_hash = h;
    const int resp = w.client ? w.client->resp() : 0;  // 0: a channel's JSON
    auto f = std::find_if(frames.begin(), frames.end(), [&](const Frame& x) {
      return x.n == w.n && x.mode == w.mode && x.resp == resp;
    });
    if (f == frames.end()) {
      std::string bytes;
      if (w.client) {
        ReplyBuilder r(resp);
        AppendTopMessage(r, key, z, w.n, w.mode);
        bytes = std::move(r.buffer());
      } else {
        bytes = TopRowsJson(z, w.n, w.mode);
      }
      frames.push_back({w.n, w.mode, resp, std::move(bytes)});
      f = frames.end() - 1;
    }
    if (w.client) {
      Deliver(*w.client, f->bytes);
    } else {
      server_->pubsub().Publish(PubSub::kChannel, w.channel, f->bytes);
    }
    sent = true;
  }
  if (only_due) {
    b.snapshot_due = false;
    return sent;
  }
  b.seen_hash = top;
  b.seen_valid = true;
  if (sent) b.last_sent_ms = MonoMs();
  return sent;
}

}  // namespace rankd
