// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// BoardWatch: live top-N of leaderboards (LB.WATCH, issue 17,
// docs/leaderboards.md). A client watches a key's top n rows (in a rank
// mode); whenever those rows change it is sent the new rows, exactly what
// `LB.TOP key n MODE m` answers at that moment, as one message
//
//   ["lb.top", key, [[rank, member, score], ...]]
//
// a RESP3 push, or in RESP2 an array in the pub/sub subscribed context
// (the client is in the pub/sub output-buffer class and is dropped past
// its limit, as a pub/sub subscriber). Subscribing answers
// ["lb.watch", key, boards watched] and then the current top (the
// snapshot); LB.UNWATCH answers ["lb.unwatch", key, boards watched].
//
// Cost: the board is a reader of the hub's "key changed" signal
// (Database::Touch, flushes, SWAPDB). A change to a watched key costs one
// hash lookup and marks the board dirty; once per event-loop iteration
// each dirty board's top n_max rows (n_max: the largest n watched) are
// hashed, O(log N + n_max), and compared with the hash seen last. Only a
// different top schedules anything: a write below the top sends nothing,
// arms no timer. Changes are coalesced per board: the first change after
// a quiet lb-watch-interval is sent at the end of its iteration; later
// ones wait for a timer at last message + interval and go out as one
// message with the state at that moment. Each watcher remembers the hash
// of the rows it was last sent, so it never gets the same rows twice.
//
// A key that is deleted, expires, is renamed away or flushed, or holds
// another type, reads as an empty top: the watchers get an empty row list,
// stay subscribed, and get rows again when the key is a sorted set again.
// A disconnect or RESET forgets the client's watches.
//
// Keys are per database (the one selected when watching); messages name
// the key only, as pub/sub messages name the channel. Not thread-safe: the
// server's thread only.
//
// Board channels (issue 33): ordinary pub/sub clients follow a board with a
// plain SUBSCRIBE to a channel named
//
//   __lbtop@<db>[:<n>[:<mode>]]__:<key>      (n 1..1000, default 10;
//                                             mode ordinal|competition|dense)
//
// The channel is a watcher of the board like a client is; its messages are
// standard "message" frames (PUBLISH's, so patterns match them too) whose
// payload is the rows as JSON, [[rank,"member",score],...]
// (board_channel.cc). Each new subscriber is first sent the current rows
// (at the end of the iteration that subscribed). The watch ends when the
// channel's last subscriber leaves. Other channel names are not watched.

#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "base/str_hash.h"
#include "core/leaderboard_policy.h"

namespace rankd {

class Server;
class SortedSet;
class ReplyBuilder;
struct Client;

class BoardWatch {
 public:
  // The largest n a watch may ask for (bounds the per-iteration cost).
  static constexpr int64_t kMaxTop = 1000;

  explicit BoardWatch(Server* server) : server_(server) {}
  ~BoardWatch();
  BoardWatch(const BoardWatch&) = delete;
  BoardWatch& operator=(const BoardWatch&) = delete;

  // LB.WATCH: `c` watches `key` of database `db` for its top `n` rows
  // ranked in `mode` (watching the same key again replaces n and mode).
  // Replies with the confirmation and then the snapshot; with
  // `defer_snapshot` (inside EXEC, whose reply holds one reply per command)
  // the snapshot is sent at the end of the event-loop iteration instead.
  // REQUIRES: 1 <= n <= kMaxTop.
  void Watch(Client& c, int db, std::string_view key, uint32_t n, RankMode mode,
             bool defer_snapshot);
  // LB.UNWATCH key: stops watching `key` of `db` and confirms (also when
  // it was not watched).
  void Unwatch(Client& c, int db, std::string_view key);
  // LB.UNWATCH without keys: stops every watch, confirming each, or once
  // with a null key when there was none.
  void UnwatchAll(Client& c);
  // Drops every watch of `c` without replies (disconnect, RESET).
  void Forget(Client& c);

  // Board channels (above): `c` has just subscribed to `channel` (SUBSCRIBE
  // of a name it did not have). Nothing when the name is not a board
  // channel. The current rows are sent to `c` at the next Flush.
  void ChannelSubscribed(Client& c, std::string_view channel);
  // `channel` lost its last subscriber (PubSub::on_channel_emptied).
  void ChannelEmptied(std::string_view channel);

  // The hub's signals: `key` of `db` changed; everything in `db` may have
  // changed (FLUSHDB, FLUSHALL, SWAPDB, a load).
  void KeyChanged(int db, std::string_view key) {
    if (watched_boards_ > 0) MarkDirty(db, key);
  }
  void DbChanged(int db);

  // Once per event-loop iteration, before replies are written: checks the
  // dirty boards and sends what is due (see above).
  void Flush();

  // Boards with at least one watcher.
  size_t watched_boards() const { return watched_boards_; }
  // Watches: (client, board) pairs (INFO leaderboards).
  size_t watches() const { return watches_; }

 private:
  struct Watcher {
    Client* client;         // nullptr for a board channel
    uint32_t n;
    RankMode mode;
    uint64_t sent_hash;     // hash of the rows last sent to it
    bool snapshot_due;      // deferred snapshot (EXEC) not sent yet
    std::string channel;    // a board channel's name (client == nullptr)
  };
  // A new subscriber of a board channel waiting for its first rows.
  struct ChannelSnapshot {
    Client* client;
    int db;
    std::string key;
    std::string channel;
    uint32_t n;
    RankMode mode;
  };
  struct Board {
    std::vector<Watcher> watchers;
    uint32_t max_n = 0;
    bool dirty = false;
    bool seen_valid = false;   // seen_hash describes the top max_n rows
    bool snapshot_due = false;  // a watcher waits for its snapshot
    uint64_t seen_hash = 0;
    int64_t last_sent_ms = 0;  // monotonic; 0: never
    uint64_t timer = 0;        // coalescing timer, 0 when none
  };
  using BoardMap = absl::flat_hash_map<std::string, Board, StrHash, StrEq>;

  Board* FindBoard(int db, std::string_view key);
  void MarkDirty(int db, std::string_view key);
  void RemoveWatcher(Client& c, int db, std::string_view key);
  // After a watcher of `it` (in database `db`) was erased: drops the board
  // when it has no watcher left, else recomputes max_n.
  void AfterRemoval(int db, BoardMap::iterator it);
  // Sends the board channels' pending first rows (board_channel.cc).
  void SendChannelSnapshots();
  void Confirm(Client& c, std::string_view type, const std::string_view* key);
  // The sorted set at `key` (nullptr: missing or another type).
  const SortedSet* Lookup(int db, std::string_view key);
  // Checks a dirty board: sends now, arms the timer, or does nothing.
  void Check(int db, const std::string& key, Board& b);
  void OnTimer(int db, const std::string& key);
  // Sends each watcher whose rows differ from what it was last sent
  // (`only_due`: only the watchers waiting for a deferred snapshot).
  // Returns whether anything was sent.
  bool Send(int db, std::string_view key, Board& b, bool only_due);

  Server* server_;
  std::vector<BoardMap> boards_;  // by database, sized on first use
  size_t watched_boards_ = 0;
  size_t watches_ = 0;
  std::vector<std::pair<int, std::string>> dirty_;
  std::vector<ChannelSnapshot> channel_snapshots_;
};

namespace detail {
// Hashes of the first i rows of `z`'s top (i = 0..min(n, size)) into
// *prefix when given; returns the last one.
uint64_t TopHashes(const SortedSet* z, uint32_t n, std::vector<uint64_t>* prefix);
// How many of the top rows a watcher of n in `mode` is sent.
size_t RowsFor(const SortedSet* z, uint32_t n, RankMode mode);
// Writes a pre-encoded frame to `c`, dropping `c` past its output limit.
void Deliver(Client& c, std::string_view frame);
}  // namespace detail

// A board channel's name parsed (see BoardWatch): false for any other name.
struct BoardChannel {
  int db = 0;
  uint32_t n = 10;
  RankMode mode = RankMode::kOrdinal;
  std::string_view key;  // points into the parsed name
};
[[nodiscard]] bool ParseBoardChannel(std::string_view name, int db_count, BoardChannel* out);

// The payload of a board channel's message: the top `n` rows of `z` in
// `mode` as JSON, [[rank,"member",score],...] ("[]" for none). Member bytes
// are written as they are, with '"', '\\' and control bytes escaped; scores as
// JSON numbers (+-inf as 1e999 / -1e999, which JSON parsers read as
// infinities).
std::string TopRowsJson(const SortedSet* z, uint32_t n, RankMode mode);

// Writes ["lb.top", key, rows] (a push under RESP3) with the top `n` rows
// of `z` ranked in `mode`: LB.TOP's rows. No rows when `z` is null, or for
// DENSE on a plain sorted set.
void AppendTopMessage(ReplyBuilder& r, std::string_view key, const SortedSet* z, uint32_t n,
                      RankMode mode);

}  // namespace rankd
