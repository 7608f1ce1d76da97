// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// GEORADIUS, GEORADIUSBYMEMBER (and their _RO forms), GEOSEARCH and
// GEOSEARCHSTORE: one handler, as Redis 7.0's georadiusGeneric, with its
// order of checks (source type, centre, then options left to right, then the
// combinations) so the first error is Redis's. The search itself is
// core/geo_search.h. Results are sorted by distance with a stable sort, as
// glibc's qsort (a merge sort) leaves them in Redis.

#include <algorithm>
#include <string>
#include <vector>

#include "base/numbers.h"
#include "commands/geo_handlers.h"
#include "commands/zset_common.h"
#include "core/geo_search.h"
#include "server/errors.h"
#include "server/notify.h"
#include "server/keys_common.h"
#include "server/server.h"

namespace rankd {
namespace {

enum SearchFlags : unsigned {
  kFromCoords = 1 << 0,  // GEORADIUS: key lon lat radius unit
  kFromMember = 1 << 1,  // GEORADIUSBYMEMBER: key member radius unit
  kNoStore = 1 << 2,     // the _RO forms
  kSearch = 1 << 3,      // GEOSEARCH grammar
  kSearchStore = 1 << 4,  // GEOSEARCHSTORE dest src
};

enum class Sort { kNone, kAsc, kDesc };

struct SearchArgs {
  geo::Shape shape;
  bool with_dist = false, with_hash = false, with_coord = false, any = false;
  bool from_member = false, from_lonlat = false, by_radius = false, by_box = false;
  Sort sort = Sort::kNone;
  int64_t count = 0;
  std::string_view store_key;
  bool store_dist = false;
};

// Parses a radius and its unit (Redis extractDistanceOrReply).
bool ParseRadiusOrReply(CommandContext& ctx, size_t at, geo::Shape* s) {
  double radius;
  if (!ParseDouble(ctx.arg(at), &radius)) {
    ctx.reply.Error("ERR need numeric radius");
    return false;
  }
  if (radius < 0) {
    ctx.reply.Error("ERR radius cannot be negative");
    return false;
  }
  s->radius = radius;
  s->to_meters = ParseUnitOrReply(ctx, ctx.arg(at + 1));
  s->kind = geo::Shape::Kind::kRadius;
  return s->to_meters >= 0;
}

// Parses width, height and unit (Redis extractBoxOrReply).
bool ParseBoxOrReply(CommandContext& ctx, size_t at, geo::Shape* s) {
  double w, h;
  if (!ParseDouble(ctx.arg(at), &w)) {
    ctx.reply.Error("ERR need numeric width");
    return false;
  }
  if (!ParseDouble(ctx.arg(at + 1), &h)) {
    ctx.reply.Error("ERR need numeric height");
    return false;
  }
  if (h < 0 || w < 0) {
    ctx.reply.Error("ERR height or width cannot be negative");
    return false;
  }
  s->width = w;
  s->height = h;
  s->to_meters = ParseUnitOrReply(ctx, ctx.arg(at + 2));
  s->kind = geo::Shape::Kind::kBox;
  return s->to_meters >= 0;
}

// The decoded position of `member` of `z`, or false after replying.
bool MemberCenterOrReply(CommandContext& ctx, const SortedSet& z, std::string_view member,
                         geo::Shape* s) {
  std::optional<double> score = z.Score(member);
  if (!score) {
    ctx.reply.Error("ERR could not decode requested zset member");
    return false;
  }
  geo::DecodeScore(*score, &s->lon, &s->lat);
  return true;
}

// Parses the options from args[base..]. `z` is the source (nullptr when
// missing: FROMMEMBER is then not looked up). FROMMEMBER and FROMLONLAT
// exclude each other (a syntax error), as do BYRADIUS and BYBOX; repeating
// one is allowed and the last one counts.
bool ParseOptionsOrReply(CommandContext& ctx, size_t base, unsigned flags, const SortedSet* z,
                         SearchArgs* a) {
  const bool search = flags & kSearch;
  const bool store_ok = !(flags & kNoStore) && !search;
  for (size_t i = base; i < ctx.argc(); i++) {
    std::string_view arg = ctx.arg(i);
    const size_t more = ctx.argc() - i - 1;
    if (EqualsIgnoreCase(arg, "withdist")) {
      a->with_dist = true;
    } else if (EqualsIgnoreCase(arg, "withhash")) {
      a->with_hash = true;
    } else if (EqualsIgnoreCase(arg, "withcoord")) {
      a->with_coord = true;
    } else if (EqualsIgnoreCase(arg, "any")) {
      a->any = true;
    } else if (EqualsIgnoreCase(arg, "asc")) {
      a->sort = Sort::kAsc;
    } else if (EqualsIgnoreCase(arg, "desc")) {
      a->sort = Sort::kDesc;
    } else if (EqualsIgnoreCase(arg, "count") && more >= 1) {
      if (!ParseInt64(ctx.arg(++i), &a->count)) {
        ctx.reply.Error(err::kNotInteger);
        return false;
      }
      if (a->count <= 0) {
        ctx.reply.Error("ERR COUNT must be > 0");
        return false;
      }
    } else if (store_ok && EqualsIgnoreCase(arg, "store") && more >= 1) {
      a->store_key = ctx.arg(++i);
      a->store_dist = false;
    } else if (store_ok && EqualsIgnoreCase(arg, "storedist") && more >= 1) {
      a->store_key = ctx.arg(++i);
      a->store_dist = true;
    } else if ((flags & kSearchStore) && EqualsIgnoreCase(arg, "storedist")) {
      a->store_dist = true;
    } else if (search && EqualsIgnoreCase(arg, "frommember") && more >= 1 &&
               !a->from_lonlat) {
      if (z && !MemberCenterOrReply(ctx, *z, ctx.arg(i + 1), &a->shape)) return false;
      a->from_member = true;
      i++;
    } else if (search && EqualsIgnoreCase(arg, "fromlonlat") && more >= 2 &&
               !a->from_member) {
      if (!ParseLonLatOrReply(ctx, ctx.arg(i + 1), ctx.arg(i + 2), &a->shape.lon,
                              &a->shape.lat)) {
        return false;
      }
      a->from_lonlat = true;
      i += 2;
    } else if (search && EqualsIgnoreCase(arg, "byradius") && more >= 2 && !a->by_box) {
      if (!ParseRadiusOrReply(ctx, i + 1, &a->shape)) return false;
      a->by_radius = true;
      i += 2;
    } else if (search && EqualsIgnoreCase(arg, "bybox") && more >= 3 && !a->by_radius) {
      if (!ParseBoxOrReply(ctx, i + 1, &a->shape)) return false;
      a->by_box = true;
      i += 3;
    } else {
      ctx.reply.Error(err::kSyntax);
      return false;
    }
  }
  return true;
}

// Checks the combinations Redis refuses once all options are read.
bool CheckCombinationsOrReply(CommandContext& ctx, unsigned flags, const SearchArgs& a) {
  if (!a.store_key.empty() && (a.with_dist || a.with_hash || a.with_coord)) {
    ctx.reply.Error(std::string("ERR ") +
                    ((flags & kSearchStore) ? "GEOSEARCHSTORE" : "STORE option in GEORADIUS") +
                    " is not compatible with WITHDIST, WITHHASH and WITHCOORD options");
    return false;
  }
  if ((flags & kSearch) && !(a.from_member || a.from_lonlat)) {
    ctx.reply.Error("ERR exactly one of FROMMEMBER or FROMLONLAT can be specified for " +
                    std::string(ctx.arg(0)));
    return false;
  }
  if ((flags & kSearch) && !(a.by_radius || a.by_box)) {
    ctx.reply.Error("ERR exactly one of BYRADIUS and BYBOX can be specified for " +
                    std::string(ctx.arg(0)));
    return false;
  }
  if (a.any && a.count == 0) {
    ctx.reply.Error("ERR the ANY argument requires COUNT argument");
    return false;
  }
  return true;
}

void ReplyPoints(ReplyBuilder& r, std::vector<geo::Point>& points, size_t n,
                 const SearchArgs& a) {
  const size_t extra = a.with_dist + a.with_hash + a.with_coord;
  r.ArrayHeader(n);
  for (size_t i = 0; i < n; i++) {
    const geo::Point& p = points[i];
    if (extra) r.ArrayHeader(extra + 1);
    r.Bulk(p.member);
    if (a.with_dist) ReplyDistance(r, p.dist / a.shape.to_meters);
    if (a.with_hash) r.Integer(static_cast<int64_t>(p.score));
    if (a.with_coord) {
      r.ArrayHeader(2);
      ReplyCoordinate(r, p.lon);
      ReplyCoordinate(r, p.lat);
    }
  }
}

// Stores the first `n` points at the store key (scores: geohashes, or
// distances in the request's unit with STOREDIST); an empty result deletes
// it. Replies the count.
void StorePoints(CommandContext& ctx, const std::vector<geo::Point>& points, size_t n,
                 const SearchArgs& a) {
  Database& db = ctx.db();
  if (n == 0) {
    if (db.Delete(a.store_key)) KeyChanged(ctx, db, a.store_key, kNotifyGeneric, "del");
    return ctx.reply.Integer(0);
  }
  ScoredMembers items;
  for (size_t i = 0; i < n; i++) {
    const geo::Point& p = points[i];
    items.emplace_back(p.member, a.store_dist ? p.dist / a.shape.to_meters : p.score);
  }
  db.Set(a.store_key, Value(BuildZSet(items, ctx.server.zset_limits(), BuildOrder::kWhole)));
  const bool search = EqualsIgnoreCase(ctx.arg(0), "geosearchstore");
  KeyChanged(ctx, db, a.store_key, kNotifyZset, search ? "geosearchstore" : "georadiusstore");
  ctx.reply.Integer(static_cast<int64_t>(n));
}

void SearchGeneric(CommandContext& ctx, size_t src_index, unsigned flags) {
  bool wrong_type;
  const SortedSet* z = FindZSetRead(ctx, ctx.arg(src_index), &wrong_type);
  if (wrong_type) return ctx.reply.Error(err::kWrongType);
  SearchArgs a;
  size_t base;
  if (flags & kFromCoords) {
    base = 6;
    if (!ParseLonLatOrReply(ctx, ctx.arg(2), ctx.arg(3), &a.shape.lon, &a.shape.lat)) return;
    if (!ParseRadiusOrReply(ctx, 4, &a.shape)) return;
  } else if (flags & kFromMember) {
    base = 5;
    // Without a source there is nothing to decode; the options still are.
    if (z && (!MemberCenterOrReply(ctx, *z, ctx.arg(2), &a.shape) ||
              !ParseRadiusOrReply(ctx, 3, &a.shape))) {
      return;
    }
  } else {
    base = (flags & kSearchStore) ? 3 : 2;
    if (flags & kSearchStore) a.store_key = ctx.arg(1);
  }
  if (!ParseOptionsOrReply(ctx, base, flags, z, &a)) return;
  if (!CheckCombinationsOrReply(ctx, flags, a)) return;
  if (!z) {
    if (a.store_key.empty()) return ctx.reply.EmptyArray();
    if (ctx.db().Delete(a.store_key)) KeyChanged(ctx, ctx.db(), a.store_key, kNotifyGeneric, "del");
    return ctx.reply.Integer(0);
  }
  // COUNT without ANY means the nearest ones.
  if (a.count != 0 && a.sort == Sort::kNone && !a.any) a.sort = Sort::kAsc;
  std::vector<geo::Point> points =
      geo::Search(*z, a.shape, a.any ? static_cast<uint64_t>(a.count) : 0);
  if (points.empty() && a.store_key.empty()) return ctx.reply.EmptyArray();
  const size_t n = a.count == 0 ? points.size()
                                : std::min(points.size(), static_cast<size_t>(a.count));
  if (a.sort == Sort::kAsc) {
    std::stable_sort(points.begin(), points.end(),
                     [](const geo::Point& x, const geo::Point& y) { return x.dist < y.dist; });
  } else if (a.sort == Sort::kDesc) {
    std::stable_sort(points.begin(), points.end(),
                     [](const geo::Point& x, const geo::Point& y) { return x.dist > y.dist; });
  }
  if (a.store_key.empty()) return ReplyPoints(ctx.reply, points, n, a);
  StorePoints(ctx, points, n, a);
}

}  // namespace

void GeoRadius(CommandContext& ctx) { SearchGeneric(ctx, 1, kFromCoords); }
void GeoRadiusRo(CommandContext& ctx) { SearchGeneric(ctx, 1, kFromCoords | kNoStore); }
void GeoRadiusByMember(CommandContext& ctx) { SearchGeneric(ctx, 1, kFromMember); }
void GeoRadiusByMemberRo(CommandContext& ctx) { SearchGeneric(ctx, 1, kFromMember | kNoStore); }
void GeoSearch(CommandContext& ctx) { SearchGeneric(ctx, 1, kSearch); }
void GeoSearchStore(CommandContext& ctx) { SearchGeneric(ctx, 2, kSearch | kSearchStore); }

}  // namespace rankd
