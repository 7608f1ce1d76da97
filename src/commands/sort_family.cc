// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// SORT and SORT_RO over lists, sets and sorted sets (Redis 7.0 semantics):
//
//   SORT key [BY pattern] [LIMIT offset count] [GET pattern ...] [ASC|DESC]
//        [ALPHA] [STORE destination]
//
// Patterns substitute the element for the first '*'; "key->field" reads a
// hash field; "#" (GET only) is the element itself. A BY pattern without
// '*' means "do not sort" (nosort): lists and sorted sets keep their order
// (reversed by DESC, cut by LIMIT), sets are sorted ALPHA anyway when the
// result is stored or the caller is a script, as Redis does so replicas and
// replays agree. Any BY without '*' turns sorting off, even before a later
// BY with one (the last BY names the pattern). Numeric sorting parses with
// strtod (errors: "One or more scores can't be converted into double");
// ties compare the elements bytewise; ALPHA BY ties stay where Redis's sort
// leaves them (its partial quicksort for BY with LIMIT, else a stable sort).
// STORE writes a list (replacing the destination, whatever it held) or
// deletes the destination when the result is empty.
//
// rankd has no cluster mode, so Redis's cluster-mode refusals of BY / GET
// patterns that may reach other slots never apply. As Redis 7.0, a BY
// pattern with '*' and any GET need read access to every key (BY / GET
// "option of SORT denied due to insufficient ACL permissions").

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "base/clock.h"
#include "base/numbers.h"
#include "commands/families.h"
#include "commands/type_lookup.h"
#include "commands/zset_common.h"
#include "core/partial_qsort.h"
#include "server/errors.h"
#include "server/notify.h"
#include "server/keys_common.h"
#include "server/server.h"

namespace rankd {
namespace {

struct SortArgs {
  bool desc = false, alpha = false, dontsort = false;
  int64_t offset = 0, count = -1;
  std::optional<std::string_view> by;
  std::vector<std::string_view> gets;
  std::optional<std::string_view> store;
};

// Parses options from args[2]; replies and returns false on error.
bool ParseSort(CommandContext& ctx, bool readonly, SortArgs* a) {
  for (size_t j = 2; j < ctx.argc(); j++) {
    const size_t left = ctx.argc() - j - 1;
    std::string_view opt = ctx.arg(j);
    if (EqualsIgnoreCase(opt, "asc")) {
      a->desc = false;
    } else if (EqualsIgnoreCase(opt, "desc")) {
      a->desc = true;
    } else if (EqualsIgnoreCase(opt, "alpha")) {
      a->alpha = true;
    } else if (EqualsIgnoreCase(opt, "limit") && left >= 2) {
      if (!ParseInt64(ctx.arg(j + 1), &a->offset) || !ParseInt64(ctx.arg(j + 2), &a->count)) {
        ctx.reply.Error(err::kNotInteger);
        return false;
      }
      j += 2;
    } else if (!readonly && EqualsIgnoreCase(opt, "store") && left >= 1) {
      a->store = ctx.arg(++j);
    } else if (EqualsIgnoreCase(opt, "by") && left >= 1) {
      a->by = ctx.arg(++j);
      // As Redis: the last BY names the pattern, but any BY without a '*'
      // (read as a C string) turns sorting off for good, even if a later
      // BY has one.
      const std::string_view c_str = a->by->substr(0, a->by->find('\0'));
      if (c_str.find('*') == std::string_view::npos) {
        a->dontsort = true;
      } else if (ctx.server.cluster()) {  // a pattern names keys of any slot
        ctx.reply.Error("ERR BY option of SORT denied in Cluster mode.");
        return false;
      } else if (!ctx.server.HasFullKeyRead(ctx.client, ctx.args)) {
        ctx.reply.Error("ERR BY option of SORT denied due to insufficient ACL permissions.");
        return false;
      }
    } else if (EqualsIgnoreCase(opt, "get") && left >= 1) {
      if (ctx.server.cluster()) {
        ctx.reply.Error("ERR GET option of SORT denied in Cluster mode.");
        return false;
      }
      if (!ctx.server.HasFullKeyRead(ctx.client, ctx.args)) {
        ctx.reply.Error("ERR GET option of SORT denied due to insufficient ACL permissions.");
        return false;
      }
      a->gets.push_back(ctx.arg(++j));
    } else {
      ctx.reply.Error(err::kSyntax);
      return false;
    }
  }
  return true;
}

// Redis lookupKeyByPattern: the string (or hash field) a pattern names for
// `elem`, or nullopt. "#" is the element itself.
std::optional<std::string> LookupByPattern(CommandContext& ctx, std::string_view pattern,
                                           std::string_view elem, bool write) {
  if (pattern == "#") return std::string(elem);
  // Redis reads the pattern as a C string: it ends at the first NUL.
  pattern = pattern.substr(0, std::min(pattern.size(), pattern.find('\0')));
  const size_t star = pattern.find('*');
  if (star == std::string_view::npos) return std::nullopt;
  std::string_view field;
  const size_t arrow = pattern.find("->", star + 1);
  if (arrow != std::string_view::npos && arrow + 2 < pattern.size()) {
    field = pattern.substr(arrow + 2);
    pattern = pattern.substr(0, arrow);
  }
  std::string key(pattern.substr(0, star));
  key.append(elem).append(pattern.substr(star + 1));
  Database::Entry* e = write ? LookupWrite(ctx, key) : LookupRead(ctx, key);
  if (!e) return std::nullopt;
  if (!field.empty()) {
    if (e->value.type() != ValueType::kHash) return std::nullopt;
    if (e->value.hash().has_field_deadlines()) e = ctx.db().ExpireFields(e, WallMs());
    if (!e) return std::nullopt;
    std::optional<std::string_view> v = e->value.hash().Get(field);
    if (!v) return std::nullopt;
    return std::string(*v);
  }
  if (e->value.type() != ValueType::kString) return std::nullopt;
  return std::string(e->value.str());
}

struct Item {
  std::string elem;
  double score = 0;
  std::optional<std::string> cmp;  // ALPHA with BY: the value compared
};

// Bytewise compare (Redis compareStringObjects); `c_string` stops at the
// first NUL as strcoll in the C locale does (ALPHA without STORE).
int Compare(const std::string& a, const std::string& b, bool c_string) {
  if (c_string) return std::strcmp(a.c_str(), b.c_str());
  int c = std::memcmp(a.data(), b.data(), std::min(a.size(), b.size()));
  if (c != 0) return c;
  return a.size() < b.size() ? -1 : (a.size() > b.size() ? 1 : 0);
}

// The elements to sort, in the value's own order. For a nosort request on
// a list or sorted set, only [start, end] (in DESC order when desc).
std::vector<Item> Load(const Value* v, const SortArgs& a, int64_t* start, int64_t* end) {
  std::vector<Item> out;
  if (!v) return out;
  auto add = [&](std::string_view e) { out.push_back(Item{std::string(e), 0, std::nullopt}); };
  const bool ranged = a.dontsort && (v->type() == ValueType::kList || v->type() == ValueType::kZSet);
  if (v->type() == ValueType::kList) {
    const QuickList& l = v->list();
    if (!ranged) {
      l.ForEach(0, l.size(), false, add);
    } else if (*end >= *start) {
      const int64_t n = static_cast<int64_t>(l.size()), len = *end - *start + 1;
      const int64_t first = a.desc ? n - 1 - *end : *start;
      l.ForEach(static_cast<size_t>(first), static_cast<size_t>(len), a.desc, add);
    }
  } else if (v->type() == ValueType::kSet) {
    v->set().ForEach(add);
  } else {
    const SortedSet& z = v->zset();
    auto add_scored = [&](std::string_view e, double) { add(e); };
    if (!ranged) {
      if (!z.empty()) z.ForEachInRankRange(0, z.size() - 1, false, add_scored);
    } else if (*end >= *start) {
      const int64_t n = static_cast<int64_t>(z.size());
      const int64_t lo = a.desc ? n - 1 - *end : *start, hi = a.desc ? n - 1 - *start : *end;
      z.ForEachInRankRange(static_cast<uint64_t>(lo), static_cast<uint64_t>(hi), a.desc,
                           add_scored);
    }
  }
  if (ranged) {
    *end -= *start;
    *start = 0;
  }
  return out;
}

void SortGeneric(CommandContext& ctx, bool readonly) {
  SortArgs a;
  if (!ParseSort(ctx, readonly, &a)) return;
  const bool write = a.store.has_value();
  Database::Entry* e = LookupRead(ctx, ctx.arg(1));
  const Value* v = e ? &e->value : nullptr;
  if (v && v->type() != ValueType::kList && v->type() != ValueType::kSet &&
      v->type() != ValueType::kZSet) {
    return ctx.reply.Error(err::kWrongType);
  }
  if (v && v->type() == ValueType::kZSet) e->value.zset().ConvertToTree();  // as Redis
  if (a.dontsort && v && v->type() == ValueType::kSet && (write || !ctx.client.conn)) {
    a.dontsort = false;  // sets have no order of their own: sort them
    a.alpha = true;
    a.by.reset();
  }
  const int64_t len = !v ? 0
                      : v->type() == ValueType::kList ? static_cast<int64_t>(v->list().size())
                      : v->type() == ValueType::kSet  ? static_cast<int64_t>(v->set().size())
                                                      : static_cast<int64_t>(v->zset().size());
  // As Redis 7.0, LIMIT is first cut to the value's size, so that
  // start + count cannot overflow (LIMIT 9223372036854775807 1).
  int64_t start = std::min(std::max<int64_t>(a.offset, 0), len);
  const int64_t count = std::min(std::max<int64_t>(a.count, -1), len);
  int64_t end = count < 0 ? len - 1 : start + count - 1;
  if (start >= len) {
    start = len - 1;
    end = len - 2;
  }
  if (end >= len) end = len - 1;
  std::vector<Item> items = Load(v, a, &start, &end);

  bool conversion_error = false;
  if (!a.dontsort) {
    for (Item& it : items) {
      std::optional<std::string> by;
      if (a.by) {
        by = LookupByPattern(ctx, *a.by, it.elem, write);
        if (!by) continue;
      }
      const std::string& val = by ? *by : it.elem;
      if (a.alpha) {
        if (a.by) it.cmp = std::move(by);
        continue;
      }
      char* eptr;
      errno = 0;
      it.score = std::strtod(val.c_str(), &eptr);
      if (*eptr != '\0' || errno == ERANGE || std::isnan(it.score)) conversion_error = true;
    }
    const bool c_string = !write;
    auto cmp3 = [&](const Item& x, const Item& y) {
      int c;
      if (!a.alpha) {
        c = x.score > y.score ? 1 : x.score < y.score ? -1 : Compare(x.elem, y.elem, false);
      } else if (a.by) {
        if (!x.cmp || !y.cmp) {
          c = x.cmp.has_value() == y.cmp.has_value() ? 0 : (!x.cmp ? -1 : 1);
        } else {
          c = Compare(*x.cmp, *y.cmp, c_string);
        }
      } else {
        c = Compare(x.elem, y.elem, c_string);
      }
      return a.desc ? -c : c;
    };
    // As Redis: BY with a LIMIT inside the elements runs its partial
    // quicksort (unstable: ties end where it leaves them), any other sort
    // glibc's qsort, a stable merge sort.
    const int64_t n = static_cast<int64_t>(items.size());
    if (a.by && (start != 0 || end != n - 1)) {
      if (end >= start) {
        PartialQsort(items, cmp3, static_cast<size_t>(start), static_cast<size_t>(end));
      }
    } else {
      std::stable_sort(items.begin(), items.end(),
                       [&](const Item& x, const Item& y) { return cmp3(x, y) < 0; });
    }
  }

  const int64_t rows = end - start + 1;
  const size_t per_row = a.gets.empty() ? 1 : a.gets.size();
  const int64_t outputlen = rows * static_cast<int64_t>(per_row);
  if (conversion_error) {
    return ctx.reply.Error("ERR One or more scores can't be converted into double");
  }
  if (!write) {
    ctx.reply.ArrayHeader(static_cast<size_t>(outputlen));
    for (int64_t j = start; j <= end; j++) {
      if (a.gets.empty()) ctx.reply.Bulk(items[j].elem);
      for (std::string_view pattern : a.gets) {
        std::optional<std::string> got = LookupByPattern(ctx, pattern, items[j].elem, false);
        if (got) {
          ctx.reply.Bulk(*got);
        } else {
          ctx.reply.Null();
        }
      }
    }
    return;
  }
  const ListLimits limits = ctx.server.list_limits();
  auto list = std::make_unique<QuickList>(limits.compress_depth);
  for (int64_t j = start; j <= end; j++) {
    if (a.gets.empty()) list->PushBack(items[j].elem, limits);
    for (std::string_view pattern : a.gets) {
      std::optional<std::string> got = LookupByPattern(ctx, pattern, items[j].elem, true);
      list->PushBack(got ? *got : std::string(), limits);
    }
  }
  std::string dst(*a.store);
  Database& db = ctx.db();
  if (outputlen > 0) {
    db.Set(dst, Value(std::move(list)));
    KeyChanged(ctx, db, dst, kNotifyList, "sortstore");
  } else if (db.Delete(dst)) {
    KeyChanged(ctx, db, dst, kNotifyGeneric, "del");
  }
  ctx.reply.Integer(outputlen);
}

void Sort(CommandContext& ctx) { SortGeneric(ctx, false); }
void SortRo(CommandContext& ctx) { SortGeneric(ctx, true); }

constexpr CommandSpec kSortCommands[] = {
    // name      arity  flags              first last step handler
    {"sort",     -2,    kWrite | kDenyOom, 1,    1,   1,   &Sort},
    {"sort_ro",  -2,    kReadOnly,         1,    1,   1,   &SortRo},
};

}  // namespace

std::span<const CommandSpec> SortCommands() { return kSortCommands; }

}  // namespace rankd
