// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// The geo family: its command table, GEOADD, GEOPOS, GEODIST and GEOHASH,
// and the parsers and reply formats geo_search_cmd.cc shares (see
// geo_handlers.h). As in Redis 7.0 geo.c, GEOADD is ZADD with each
// longitude/latitude pair replaced by its 52-bit geohash score.

#include <cmath>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "base/numbers.h"
#include "commands/families.h"
#include "commands/geo_handlers.h"
#include "commands/zset_common.h"
#include "commands/zset_handlers.h"
#include "core/geohash.h"
#include "server/errors.h"
#include "server/server.h"

namespace rankd {
namespace {

// GEOADD key [NX | XX] [CH] lon lat member [lon lat member ...]
void GeoAdd(CommandContext& ctx) {
  size_t first = 2;  // the first longitude
  bool nx = false, xx = false;
  for (; first < ctx.argc(); first++) {
    std::string_view opt = ctx.arg(first);
    if (EqualsIgnoreCase(opt, "nx")) {
      nx = true;
    } else if (EqualsIgnoreCase(opt, "xx")) {
      xx = true;
    } else if (!EqualsIgnoreCase(opt, "ch")) {
      break;
    }
  }
  if ((ctx.argc() - first) % 3 != 0 || (nx && xx)) return ctx.reply.Error(err::kSyntax);
  const size_t elements = (ctx.argc() - first) / 3;
  std::vector<std::string> scores(elements);
  for (size_t i = 0; i < elements; i++) {
    double lon, lat;
    const size_t at = first + 3 * i;
    if (!ParseLonLatOrReply(ctx, ctx.arg(at), ctx.arg(at + 1), &lon, &lat)) return;
    scores[i] = FormatInt64(static_cast<int64_t>(geo::Score(lon, lat)));
  }
  // ZADD key [options] score member ...
  std::vector<std::string_view> args(ctx.args.begin(), ctx.args.begin() + first);
  args[0] = "zadd";
  for (size_t i = 0; i < elements; i++) {
    args.push_back(scores[i]);
    args.push_back(ctx.arg(first + 3 * i + 2));
  }
  CommandContext zadd{ctx.server, ctx.client, ctx.reply, args, ctx.retrying_blocked,
                      ctx.no_block};
  ZAdd(zadd);
}

// GEOPOS and GEOHASH: one reply per member (args[2..]) from its score,
// or nullopt when the member or the key is missing.
void ReplyPerMember(CommandContext& ctx, void (*reply)(ReplyBuilder&, std::optional<double>)) {
  bool wrong_type;
  const SortedSet* z = FindZSetRead(ctx, ctx.arg(1), &wrong_type);
  if (wrong_type) return ctx.reply.Error(err::kWrongType);
  ctx.reply.ArrayHeader(ctx.argc() - 2);
  for (size_t i = 2; i < ctx.argc(); i++) {
    reply(ctx.reply, z ? z->Score(ctx.arg(i)) : std::nullopt);
  }
}

// GEOPOS key [member ...]: [lon, lat] or a null array per member.
void GeoPos(CommandContext& ctx) {
  ReplyPerMember(ctx, [](ReplyBuilder& r, std::optional<double> score) {
    if (!score) return r.NullArray();
    double lon, lat;
    geo::DecodeScore(*score, &lon, &lat);
    r.ArrayHeader(2);
    ReplyCoordinate(r, lon);
    ReplyCoordinate(r, lat);
  });
}

// GEODIST key member1 member2 [M | KM | FT | MI]
void GeoDist(CommandContext& ctx) {
  double to_meters = 1;
  if (ctx.argc() == 5) {
    to_meters = ParseUnitOrReply(ctx, ctx.arg(4));
    if (to_meters < 0) return;
  } else if (ctx.argc() > 5) {
    return ctx.reply.Error(err::kSyntax);
  }
  bool wrong_type;
  const SortedSet* z = FindZSetRead(ctx, ctx.arg(1), &wrong_type);
  if (wrong_type) return ctx.reply.Error(err::kWrongType);
  if (!z) return ctx.reply.Null();
  std::optional<double> s1 = z->Score(ctx.arg(2)), s2 = z->Score(ctx.arg(3));
  if (!s1 || !s2) return ctx.reply.Null();
  double lon1, lat1, lon2, lat2;
  geo::DecodeScore(*s1, &lon1, &lat1);
  geo::DecodeScore(*s2, &lon2, &lat2);
  ReplyDistance(ctx.reply, geo::Distance(lon1, lat1, lon2, lat2) / to_meters);
}

// GEOHASH key [member ...]: 11-character geohashes, null for missing ones.
void GeoHashCmd(CommandContext& ctx) {
  ReplyPerMember(ctx, [](ReplyBuilder& r, std::optional<double> score) {
    score ? r.Bulk(geo::HashString(*score)) : r.Null();
  });
}

// Arity follows Redis: N = exactly N args (incl. name), -N = at least N.
constexpr CommandSpec kGeoCommands[] = {
    // name                   arity flags              first last step handler
    {"geoadd",                -5,   kWrite | kDenyOom, 1,    1,   1,   &GeoAdd},
    {"geopos",                -2,   kReadOnly,         1,    1,   1,   &GeoPos},
    {"geodist",               -4,   kReadOnly,         1,    1,   1,   &GeoDist},
    {"geohash",               -2,   kReadOnly,         1,    1,   1,   &GeoHashCmd},
    {"georadius",             -6,   kWrite | kDenyOom, 1,    1,   1,   &GeoRadius},
    {"georadius_ro",          -6,   kReadOnly,         1,    1,   1,   &GeoRadiusRo},
    {"georadiusbymember",     -5,   kWrite | kDenyOom, 1,    1,   1,   &GeoRadiusByMember},
    {"georadiusbymember_ro",  -5,   kReadOnly,         1,    1,   1,   &GeoRadiusByMemberRo},
    {"geosearch",             -7,   kReadOnly,         1,    1,   1,   &GeoSearch},
    {"geosearchstore",        -8,   kWrite | kDenyOom, 1,    2,   1,   &GeoSearchStore},
};

}  // namespace

bool ParseLonLatOrReply(CommandContext& ctx, std::string_view lon_arg, std::string_view lat_arg,
                        double* lon, double* lat) {
  if (!ParseDouble(lon_arg, lon) || !ParseDouble(lat_arg, lat)) {
    ctx.reply.Error(err::kNotFloat);
    return false;
  }
  if (*lon < geo::kLonMin || *lon > geo::kLonMax || *lat < geo::kLatMin || *lat > geo::kLatMax) {
    char buf[128];
    snprintf(buf, sizeof(buf), "ERR invalid longitude,latitude pair %f,%f", *lon, *lat);
    ctx.reply.Error(buf);
    return false;
  }
  return true;
}

double ParseUnitOrReply(CommandContext& ctx, std::string_view unit) {
  if (EqualsIgnoreCase(unit, "m")) return 1;
  if (EqualsIgnoreCase(unit, "km")) return 1000;
  if (EqualsIgnoreCase(unit, "ft")) return 0.3048;
  if (EqualsIgnoreCase(unit, "mi")) return 1609.34;
  ctx.reply.Error("ERR unsupported unit provided. please use M, KM, FT, MI");
  return -1;
}

void ReplyDistance(ReplyBuilder& r, double d) {
  if (d == 0) return r.Bulk("0.0000");
  const long long scaled = std::llrint(d * 10000.0);
  const bool negative = scaled < 0;
  const auto magnitude = static_cast<unsigned long long>(scaled);
  const unsigned long long v = negative ? 0ULL - magnitude : magnitude;
  char buf[48];
  const int n = snprintf(buf, sizeof(buf), "%s%llu.%04llu", negative ? "-" : "", v / 10000,
                         v % 10000);
  r.Bulk(std::string_view(buf, static_cast<size_t>(n)));
}

void ReplyCoordinate(ReplyBuilder& r, double d) {
  const std::string text = FormatLongDouble(d);
  if (!r.resp3()) return r.Bulk(text);
  r.Raw(",");
  r.Raw(text);
  r.Raw("\r\n");
}

std::span<const CommandSpec> GeoCommands() { return kGeoCommands; }

}  // namespace rankd
