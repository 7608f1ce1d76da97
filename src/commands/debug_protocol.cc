// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// DEBUG PROTOCOL <type>: one sample reply of each RESP type, so a client
// library can test its parser against a live server (Redis's replies, byte
// for byte: RESP3 forms on a RESP3 connection, their RESP2 stand-ins
// otherwise; a push reply needs RESP3).

#include <string>

#include "commands/server_handlers.h"

namespace rankd {

void DebugProtocol(CommandContext& ctx) {
  ReplyBuilder& r = ctx.reply;
  const std::string_view type = ctx.arg(2);
  auto is = [&](std::string_view name) { return EqualsIgnoreCase(type, name); };
  if (is("string")) return r.Bulk("Hello World");
  if (is("integer")) return r.Integer(12345);
  if (is("double")) return r.Double(3.141);
  if (is("bignum")) {
    static constexpr std::string_view kBig = "1234567999999999999999999999999999999";
    if (!r.resp3()) return r.Bulk(kBig);
    return r.Raw("(" + std::string(kBig) + "\r\n");
  }
  if (is("null")) return r.Null();
  if (is("array") || is("set")) {
    is("set") ? r.SetHeader(3) : r.ArrayHeader(3);
    for (int i = 0; i < 3; i++) r.Integer(i);
    return;
  }
  if (is("map")) {
    r.MapHeader(3);
    for (int i = 0; i < 3; i++) {
      r.Integer(i);
      r.Bool(i == 1);
    }
    return;
  }
  if (is("attrib")) {
    // RESP3 attributes precede the reply they annotate; RESP2 has none.
    if (r.resp3()) {
      r.Raw("|1\r\n");
      r.Bulk("key-popularity");
      r.ArrayHeader(2);
      r.Bulk("key:123");
      r.Integer(90);
    }
    return r.Bulk("Some real reply following the attribute");
  }
  if (is("push")) {
    if (!r.resp3()) return r.Error("ERR RESP2 is not supported by this command");
    r.PushHeader(2);
    r.Bulk("server-cpu-usage");
    r.Integer(42);
    // A push is out of band: a normal reply follows for the caller to read.
    return r.Bulk("Some real reply following the push reply");
  }
  if (is("verbatim")) return r.Verbatim("This is a verbatim\nstring");
  if (is("true") || is("false")) return r.Bool(is("true"));
  r.Error(
      "ERR Wrong protocol type name. Please use one of the following: "
      "string|integer|double|bignum|null|array|set|map|attrib|push|verbatim|true|false");
}

}  // namespace rankd
