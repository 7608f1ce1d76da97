// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// LCS key1 key2 [LEN] [IDX] [MINMATCHLEN len] [WITHMATCHLEN] (Redis 7.0
// lcsCommand): the longest common subsequence of two strings, its length,
// or the matching ranges. Registered in string_family.cc's table. Missing
// keys read as empty strings; the keys' types are checked before the
// options; the table (core/lcs.h) may not need more transient memory than
// proto-max-bulk-len.

#include <string>

#include "base/numbers.h"
#include "commands/string_edit.h"
#include "core/lcs.h"
#include "server/errors.h"
#include "server/keys_common.h"
#include "server/server.h"

namespace rankd {
namespace {

struct LcsArgs {
  bool len = false, idx = false, with_match_len = false;
  int64_t min_match_len = 0;
};

// Parses args[3..]. Returns false after replying an error.
bool ParseLcsArgs(CommandContext& ctx, LcsArgs* a) {
  for (size_t j = 3; j < ctx.argc(); j++) {
    std::string_view opt = ctx.arg(j);
    const bool more = j + 1 < ctx.argc();
    if (EqualsIgnoreCase(opt, "idx")) {
      a->idx = true;
    } else if (EqualsIgnoreCase(opt, "len")) {
      a->len = true;
    } else if (EqualsIgnoreCase(opt, "withmatchlen")) {
      a->with_match_len = true;
    } else if (EqualsIgnoreCase(opt, "minmatchlen") && more) {
      if (!ParseInt64(ctx.arg(++j), &a->min_match_len)) {
        ctx.reply.Error(err::kNotInteger);
        return false;
      }
      if (a->min_match_len < 0) a->min_match_len = 0;
    } else {
      ctx.reply.Error(err::kSyntax);
      return false;
    }
  }
  if (a->idx && a->len) {
    ctx.reply.Error("ERR If you want both the length and indexes, please just use IDX.");
    return false;
  }
  return true;
}

void ReplyRanges(ReplyBuilder& r, const LcsResult& lcs, bool with_match_len) {
  r.MapHeader(2);
  r.Bulk("matches");
  r.ArrayHeader(lcs.ranges.size());
  for (const LcsRange& m : lcs.ranges) {
    r.ArrayHeader(with_match_len ? 3 : 2);
    r.ArrayHeader(2);
    r.Integer(m.a_first);
    r.Integer(m.a_last);
    r.ArrayHeader(2);
    r.Integer(m.b_first);
    r.Integer(m.b_last);
    if (with_match_len) r.Integer(m.length());
  }
  r.Bulk("len");
  r.Integer(lcs.length);
}

}  // namespace

void LcsCmd(CommandContext& ctx) {
  Database::Entry* ea = LookupRead(ctx, ctx.arg(1));
  Database::Entry* eb = LookupRead(ctx, ctx.arg(2));
  if ((ea && ea->value.type() != ValueType::kString) ||
      (eb && eb->value.type() != ValueType::kString)) {
    return ctx.reply.Error("ERR The specified keys must contain string values");
  }
  LcsArgs args;
  if (!ParseLcsArgs(ctx, &args)) return;
  std::string_view a = ea ? std::string_view(ea->value.str()) : std::string_view();
  std::string_view b = eb ? std::string_view(eb->value.str()) : std::string_view();
  if (LcsTableBytes(a.size(), b.size()) >
      static_cast<uint64_t>(ctx.server.config().proto_max_bulk_len)) {
    return ctx.reply.Error(
        "ERR Insufficient memory, transient memory for LCS exceeds proto-max-bulk-len");
  }
  const LcsResult lcs = Lcs(a, b, !args.idx && !args.len, args.idx,
                            static_cast<uint64_t>(args.min_match_len));
  if (args.idx) return ReplyRanges(ctx.reply, lcs, args.with_match_len);
  if (args.len) return ctx.reply.Integer(lcs.length);
  ctx.reply.Bulk(lcs.subsequence);
}

}  // namespace rankd
