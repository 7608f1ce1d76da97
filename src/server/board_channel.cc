// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// Board channels (issue 33, server/board_watch.h): a plain SUBSCRIBE to
// __lbtop@<db>[:<n>[:<mode>]]__:<key> follows the board's top rows as
// standard pub/sub messages, so any client library's message handler
// receives them (redis-py PubSub, ioredis "message"), in RESP2 and RESP3.

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "base/numbers.h"
#include "core/leaderboard.h"
#include "server/board_watch.h"
#include "server/client.h"
#include "server/server.h"

namespace rankd {
namespace {

constexpr std::string_view kPrefix = "__lbtop@";
constexpr std::string_view kKeyMark = "__:";

bool ParseMode(std::string_view s, RankMode* mode) {
  if (EqualsIgnoreCase(s, "ordinal")) *mode = RankMode::kOrdinal;
  else if (EqualsIgnoreCase(s, "competition")) *mode = RankMode::kCompetition;
  else if (EqualsIgnoreCase(s, "dense")) *mode = RankMode::kDense;
  else return false;
  return true;
}

void AppendJsonString(std::string* out, std::string_view s) {
  out->push_back('"');
  for (unsigned char ch : s) {
    if (ch == '"' || ch == '\\') {
      out->push_back('\\');
      out->push_back(static_cast<char>(ch));
    } else if (ch < 0x20) {
      char esc[8];
      snprintf(esc, sizeof(esc), "\\u%04x", ch);
      out->append(esc);
    } else {
      out->push_back(static_cast<char>(ch));
    }
  }
  out->push_back('"');
}

// The rows `c` would be sent, as one "message" frame in its protocol.
std::string SnapshotFrame(const Client& c, std::string_view channel, std::string_view payload) {
  ReplyBuilder r(c.resp());
  r.PushHeader(3);
  r.Bulk("message");
  r.Bulk(channel);
  r.Bulk(payload);
  return std::move(r.buffer());
}

}  // namespace

bool ParseBoardChannel(std::string_view name, int db_count, BoardChannel* out) {
  if (name.substr(0, kPrefix.size()) != kPrefix) return false;
  const size_t mark = name.find(kKeyMark, kPrefix.size());
  if (mark == std::string_view::npos) return false;
  // <db>[:<n>[:<mode>]] between the prefix and the key mark.
  std::string_view spec = name.substr(kPrefix.size(), mark - kPrefix.size());
  std::string_view parts[3];
  size_t count = 0;
  while (count < 3) {
    const size_t colon = spec.find(':');
    parts[count++] = spec.substr(0, colon);
    if (colon == std::string_view::npos) break;
    spec.remove_prefix(colon + 1);
    if (count == 3) return false;  // a fourth part
  }
  BoardChannel c;
  int64_t v;
  if (!ParseInt64(parts[0], &v) || v < 0 || v >= db_count) return false;
  c.db = static_cast<int>(v);
  if (count >= 2) {
    if (!ParseInt64(parts[1], &v) || v < 1 || v > BoardWatch::kMaxTop) return false;
    c.n = static_cast<uint32_t>(v);
  }
  if (count == 3 && !ParseMode(parts[2], &c.mode)) return false;
  c.key = name.substr(mark + kKeyMark.size());
  *out = c;
  return true;
}

std::string TopRowsJson(const SortedSet* z, uint32_t n, RankMode mode) {
  std::string out = "[";
  if (const size_t rows = detail::RowsFor(z, n, mode); rows > 0) {
    const uint64_t last = rows - 1;
    BoardView(*z).ForEachRow(0, last, mode, [&](uint64_t rank, std::string_view m, double s) {
      if (out.size() > 1) out.push_back(',');
      out.push_back('[');
      AppendInt64(&out, static_cast<int64_t>(rank));
      out.push_back(',');
      AppendJsonString(&out, m);
      out.push_back(',');
      if (std::isinf(s)) {
        out.append(s > 0 ? "1e999" : "-1e999");
      } else {
        AppendDouble(&out, s);
      }
      out.push_back(']');
    });
  }
  out.push_back(']');
  return out;
}

void BoardWatch::ChannelSubscribed(Client& c, std::string_view channel) {
  BoardChannel bc;
  if (!ParseBoardChannel(channel, server_->db_count(), &bc)) return;
  if (boards_.empty()) boards_.resize(static_cast<size_t>(server_->db_count()));
  auto [it, inserted] = boards_[bc.db].try_emplace(bc.key);
  Board& b = it->second;
  if (inserted) watched_boards_++;
  auto w = std::find_if(b.watchers.begin(), b.watchers.end(), [&](const Watcher& x) {
    return !x.client && x.channel == channel;
  });
  if (w == b.watchers.end()) {
    // The channel starts from the rows its first subscriber is sent.
    std::vector<uint64_t> prefix;
    const SortedSet* z = Lookup(bc.db, bc.key);
    detail::TopHashes(z, bc.n, &prefix);
    b.watchers.push_back({nullptr, bc.n, bc.mode, prefix[detail::RowsFor(z, bc.n, bc.mode)],
                          false, std::string(channel)});
    watches_++;
    if (bc.n > b.max_n) {
      b.max_n = bc.n;
      b.seen_valid = false;
    }
  }
  channel_snapshots_.push_back(
      {&c, bc.db, std::string(bc.key), std::string(channel), bc.n, bc.mode});
}

void BoardWatch::ChannelEmptied(std::string_view channel) {
  BoardChannel bc;
  if (watched_boards_ == 0 || !ParseBoardChannel(channel, server_->db_count(), &bc)) return;
  if (static_cast<size_t>(bc.db) >= boards_.size()) return;
  auto it = boards_[bc.db].find(bc.key);
  if (it == boards_[bc.db].end()) return;
  std::vector<Watcher>& v = it->second.watchers;
  auto w = std::find_if(v.begin(), v.end(),
                        [&](const Watcher& x) { return !x.client && x.channel == channel; });
  if (w == v.end()) return;
  v.erase(w);
  AfterRemoval(bc.db, it);
}

void BoardWatch::SendChannelSnapshots() {
  std::vector<ChannelSnapshot> due;
  due.swap(channel_snapshots_);
  for (const ChannelSnapshot& s : due) {
    // An UNSUBSCRIBE in the same iteration: nothing to send.
    if (!s.client->subscriptions[0].contains(s.channel)) continue;
    const std::string payload = TopRowsJson(Lookup(s.db, s.key), s.n, s.mode);
    detail::Deliver(*s.client, SnapshotFrame(*s.client, s.channel, payload));
  }
}

}  // namespace rankd
