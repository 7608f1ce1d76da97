// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "commands/stream_common.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "base/numbers.h"
#include "commands/type_lookup.h"
#include "server/errors.h"
#include "server/server.h"

namespace rankd {
namespace {

// Redis string2ull: a non-negative long long, else strtoull's full-string
// parse (which also takes a leading '+' or spaces). `s` has no NUL and at
// most 127 bytes (ParseStreamId), so it is copied to the stack for strtoull.
bool ParseULL(std::string_view s, uint64_t* out) {
  int64_t v;
  if (ParseInt64(s, &v)) {
    if (v < 0) return false;
    *out = static_cast<uint64_t>(v);
    return true;
  }
  char buf[128];
  if (s.empty() || s.size() >= sizeof(buf)) return false;
  std::memcpy(buf, s.data(), s.size());
  buf[s.size()] = '\0';
  errno = 0;
  char* end = nullptr;
  *out = std::strtoull(buf, &end, 10);
  return errno != EINVAL && errno != ERANGE && end == buf + s.size();
}

}  // namespace

bool ParseStreamId(std::string_view arg, StreamId* id, uint64_t missing_seq, bool strict,
                   bool* seq_given) {
  if (arg.size() > 127) return false;
  if (strict && (arg == "-" || arg == "+")) return false;
  if (seq_given) *seq_given = true;
  if (arg == "-") {
    *id = {};
    return true;
  }
  if (arg == "+") {
    *id = StreamId::Max();
    return true;
  }
  // C string semantics: the argument ends at its first NUL.
  const std::string_view buf = arg.substr(0, arg.find('\0'));
  const size_t dash = buf.find('-');
  uint64_t ms, seq = missing_seq;
  if (!ParseULL(buf.substr(0, dash), &ms)) return false;
  if (dash != std::string_view::npos) {
    const std::string_view tail = buf.substr(dash + 1);
    if (seq_given && tail == "*") {
      seq = 0;
      *seq_given = false;
    } else if (!ParseULL(tail, &seq)) {
      return false;
    }
  }
  *id = {ms, seq};
  return true;
}

StreamNodeLimits StreamLimits(CommandContext& ctx) {
  const Config& c = ctx.server.config();
  return {static_cast<size_t>(c.stream_node_max_bytes),
          static_cast<size_t>(c.stream_node_max_entries)};
}

Stream* StreamForWrite(CommandContext& ctx, std::string_view key, bool* wrong_type) {
  Stream* s = FindStreamWrite(ctx, key, wrong_type);
  if (s || *wrong_type) return s;
  return &ctx.db().Insert(key, Value(std::make_unique<Stream>()))->value.stream();
}

void ReplyStreamId(ReplyBuilder& reply, StreamId id) { reply.Bulk(id.ToString()); }

void ReplyStreamEntry(ReplyBuilder& reply, StreamId id, const Stream::Fields& fields) {
  reply.ArrayHeader(2);
  ReplyStreamId(reply, id);
  reply.ArrayHeader(fields.size());
  for (std::string_view f : fields) reply.Bulk(f);
}

size_t ReplyStreamRange(ReplyBuilder& reply, const Stream& s, StreamId lo, StreamId hi, bool rev,
                        size_t count) {
  const size_t token = reply.DeferArray();
  const size_t n = s.Range(lo, hi, rev, count, [&](StreamId id, const Stream::Fields& f) {
    ReplyStreamEntry(reply, id, f);
    return true;
  });
  reply.FinishArray(token, n);
  return n;
}

std::string ParseStreamTrimArgs(CommandContext& ctx, bool xadd, StreamTrimArgs* a) {
  using S = StreamTrimArgs::Strategy;
  constexpr std::string_view kBoth =
      "ERR syntax error, MAXLEN and MINID options at the same time are not compatible";
  bool limit_given = false;
  size_t i = 2;
  for (; i < ctx.argc(); i++) {
    const size_t more = ctx.argc() - 1 - i;
    std::string_view opt = ctx.arg(i);
    const bool maxlen = EqualsIgnoreCase(opt, "maxlen"), minid = EqualsIgnoreCase(opt, "minid");
    if (xadd && opt == "*") {
      break;
    } else if ((maxlen || minid) && more) {
      if (a->strategy != S::kNone) return std::string(kBoth);
      a->approx = false;
      std::string_view next = ctx.arg(i + 1);
      if (more >= 2 && next == "~") {
        a->approx = true;
        i++;
      } else if (more >= 2 && next == "=") {
        i++;
      }
      if (maxlen) {
        if (!ParseInt64(ctx.arg(i + 1), &a->maxlen)) return std::string(err::kNotInteger);
        if (a->maxlen < 0) return "ERR The MAXLEN argument must be >= 0.";
      } else if (!ParseStreamId(ctx.arg(i + 1), &a->minid, 0, true)) {
        return std::string(stream_err::kInvalidId);
      }
      i++;
      a->strategy = maxlen ? S::kMaxLen : S::kMinId;
      a->value_index = i;
    } else if (EqualsIgnoreCase(opt, "limit") && more) {
      if (!ParseInt64(ctx.arg(i + 1), &a->limit)) return std::string(err::kNotInteger);
      if (a->limit < 0) return "ERR The LIMIT argument must be >= 0.";
      limit_given = true;
      i++;
    } else if (xadd && EqualsIgnoreCase(opt, "nomkstream")) {
      a->nomkstream = true;
    } else if (xadd) {
      if (!ParseStreamId(opt, &a->id, 0, true, &a->seq_given)) {
        return std::string(stream_err::kInvalidId);
      }
      a->id_given = true;
      break;
    } else {
      return std::string(err::kSyntax);
    }
  }
  a->id_index = i;
  if (a->limit != 0 && a->strategy == S::kNone) {
    return "ERR syntax error, LIMIT cannot be used without specifying a trimming strategy";
  }
  if (!xadd && a->strategy == S::kNone) {
    return "ERR syntax error, XTRIM must be called with a trimming strategy";
  }
  if (ctx.client.obeyed) {
    a->limit = 0;  // a primary's or the log's command is already exact
  } else if (limit_given) {
    if (!a->approx) return "ERR syntax error, LIMIT cannot be used without the special ~ option";
  } else if (a->approx) {
    const int64_t per_node = ctx.server.config().stream_node_max_entries;
    a->limit = per_node > 0 && per_node <= 100 ? 100 * per_node : 10000;
  } else {
    a->limit = 0;
  }
  return "";
}

int64_t ApplyStreamTrim(Stream& s, const StreamTrimArgs& a) {
  switch (a.strategy) {
    case StreamTrimArgs::Strategy::kNone:
      return 0;
    case StreamTrimArgs::Strategy::kMaxLen:
      return s.TrimMaxLen(static_cast<uint64_t>(a.maxlen), a.approx, a.limit);
    case StreamTrimArgs::Strategy::kMinId:
      return s.TrimMinId(a.minid, a.approx, a.limit);
  }
  return 0;
}

void PropagateStreamWrite(CommandContext& ctx, const StreamTrimArgs& a, const Stream& s,
                          const StreamId* id) {
  // Views of the arguments with the (at most two) rewritten ones pointing
  // at local strings: no copy of the fields.
  std::vector<std::string_view> views(ctx.args.begin(), ctx.args.end());
  std::string id_text, value_text;
  if (id) views[a.id_index] = id_text = id->ToString();
  if (a.approx) {
    views[a.value_index - 1] = "=";
    views[a.value_index] = value_text = a.strategy == StreamTrimArgs::Strategy::kMaxLen
                                            ? std::to_string(s.size())
                                            : s.FirstNodeId().ToString();
  }
  ctx.server.Propagate(ctx.client, views);
}

}  // namespace rankd
