// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// DEBUG HTSTATS <db> and DEBUG HTSTATS-KEY <key>: the shape of rankd's
// chained hash tables (core/scan_table.h) in Redis's text layout: table
// size, elements, non-empty buckets, chain lengths. rankd resizes a table
// at once, so there is never a second "rehashing target" table. Its
// deadlines live in an open-addressing table, which has slots but no
// chains: [Expires HT] gives its size and elements only.

#include <algorithm>
#include <cstdio>
#include <string>

#include "base/numbers.h"
#include "commands/server_handlers.h"
#include "db/database.h"
#include "server/errors.h"
#include "server/server.h"

namespace rankd {
namespace {

constexpr std::string_view kHeader = "Hash table 0 stats (main hash table):\n";
constexpr std::string_view kEmpty = "No stats available for empty dictionaries\n";

std::string Line(const char* format, double a, double b = 0) {
  char buf[96];
  snprintf(buf, sizeof(buf), format, a, b);
  return buf;
}

std::string ChainText(const ChainStats& st) {
  std::string out(kHeader);
  if (st.elements == 0) return out.append(kEmpty);
  size_t slots = 0, longest = 0, chained = 0;
  for (size_t len = 1; len < st.chain_lengths.size(); len++) {
    if (st.chain_lengths[len] == 0) continue;
    slots += st.chain_lengths[len];
    chained += len * st.chain_lengths[len];
    longest = len;
  }
  out += " table size: " + std::to_string(st.buckets) + "\n";
  out += " number of elements: " + std::to_string(st.elements) + "\n";
  out += " different slots: " + std::to_string(slots) + "\n";
  out += " max chain length: " + std::to_string(longest) + "\n";
  out += Line(" avg chain length (counted): %.02f\n", static_cast<double>(chained) / slots);
  out += Line(" avg chain length (computed): %.02f\n", static_cast<double>(st.elements) / slots);
  out += " Chain length distribution:\n";
  for (size_t len = 0; len < st.chain_lengths.size(); len++) {
    const size_t n = st.chain_lengths[len];
    if (n == 0) continue;
    out += "   " + std::to_string(len) + ": " + std::to_string(n);
    out += Line(" (%.02f%%)\n", 100.0 * static_cast<double>(n) / st.buckets);
  }
  return out;
}

}  // namespace

void DebugHtStats(CommandContext& ctx) {
  int64_t index;
  if (!ParseInt64(ctx.arg(2), &index)) return ctx.reply.Error(err::kNotInteger);
  if (index < 0 || index >= ctx.server.db_count()) {
    return ctx.reply.Error("ERR Out of range database");
  }
  const Database& db = ctx.server.db(static_cast<int>(index));
  std::string out = "[Dictionary HT]\n" + ChainText(db.KeyTableStats());
  out += "[Expires HT]\n";
  out += kHeader;
  if (db.expires_size() == 0) {
    out += kEmpty;
  } else {
    out += " table size: " + std::to_string(db.expires_capacity()) + "\n";
    out += " number of elements: " + std::to_string(db.expires_size()) + "\n";
  }
  ctx.reply.Verbatim(out);
}

void DebugHtStatsKey(CommandContext& ctx) {
  const Database::Entry* e = ctx.db().Peek(ctx.arg(2));
  if (!e) return ctx.reply.Error(err::kNoSuchKey);
  const Value& v = e->value;
  if (v.type() == ValueType::kSet && !v.set().is_intset()) {
    return ctx.reply.Verbatim(ChainText(v.set().TableStats()));
  }
  if (v.type() == ValueType::kHash && !v.hash().is_listpack()) {
    return ctx.reply.Verbatim(ChainText(v.hash().TableStats()));
  }
  // Small encodings have no table; a sorted set's member index is open
  // addressing, with no chains to report.
  ctx.reply.Error("ERR The value stored at the specified key is not represented using an hash table");
}

}  // namespace rankd
