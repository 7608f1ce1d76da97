// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// What the geo commands share (geo_family.cc: the table, GEOADD, GEOPOS,
// GEODIST, GEOHASH; geo_search_cmd.cc: GEORADIUS*, GEOSEARCH*): Redis 7.0's
// argument parsers with their error replies, and the reply formats of
// coordinates and distances. A geo key is a sorted set whose scores are
// 52-bit geohashes (core/geohash.h), so every Z* command works on it.

#pragma once

#include <string_view>

#include "net/reply.h"
#include "server/command.h"

namespace rankd {

// Parses a longitude and a latitude (Redis extractLongLatOrReply). Replies
// "ERR value is not a valid float", or "ERR invalid longitude,latitude pair
// <lon>,<lat>" (printf "%f") outside the WGS84 limits, and returns false.
bool ParseLonLatOrReply(CommandContext& ctx, std::string_view lon_arg, std::string_view lat_arg,
                        double* lon, double* lat);

// Metres per unit m | km | ft | mi (any case), or -1 after replying
// "ERR unsupported unit provided. please use M, KM, FT, MI".
double ParseUnitOrReply(CommandContext& ctx, std::string_view unit);

// A distance as Redis prints it: a bulk string with 4 decimals, rounded as
// llrint(d * 10000) ("0.0000" for 0).
void ReplyDistance(ReplyBuilder& r, double d);

// A coordinate: "%.17Lf" without trailing zeros; a bulk string in RESP2, a
// double in RESP3.
void ReplyCoordinate(ReplyBuilder& r, double d);

void GeoRadius(CommandContext& ctx);            // GEORADIUS key lon lat radius unit ...
void GeoRadiusRo(CommandContext& ctx);          // GEORADIUS_RO (no STORE)
void GeoRadiusByMember(CommandContext& ctx);    // GEORADIUSBYMEMBER key member radius unit ...
void GeoRadiusByMemberRo(CommandContext& ctx);  // GEORADIUSBYMEMBER_RO (no STORE)
void GeoSearch(CommandContext& ctx);            // GEOSEARCH key FROM... BY... ...
void GeoSearchStore(CommandContext& ctx);       // GEOSEARCHSTORE dest src FROM... BY... ...

}  // namespace rankd
