// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// DEBUG MALLCTL <name> [<int>] and DEBUG MALLCTL-STR <name> [<string>|VOID]:
// jemalloc's own controls (base/memory.h Mallctl), as Redis exposes them.
// MALLCTL reads the old value as the widest integer jemalloc accepts for
// the control (8, 4, 2 then 1 bytes) and writes the new one at that width;
// a write-only control answers OK. MALLCTL-STR reads and writes strings;
// VOID writes "nothing" (a control that is an action, like
// thread.tcache.flush). Errors are strerror texts, as Redis replies.

#include <cerrno>
#include <cstring>
#include <string>

#include "base/memory.h"
#include "base/numbers.h"
#include "commands/server_handlers.h"
#include "server/errors.h"

namespace rankd {
namespace {

void ErrnoError(CommandContext& ctx, int e) { ctx.reply.Error(std::string("ERR ") + strerror(e)); }

}  // namespace

void DebugMallctl(CommandContext& ctx) {
  const std::string name(ctx.arg(2));
  const bool write = ctx.argc() > 3;
  int64_t value = 0;
  if (write && !ParseInt64(ctx.arg(3), &value)) return ctx.reply.Error(err::kNotInteger);
  for (size_t width = sizeof(int64_t); width > 0; width /= 2) {
    int64_t old = 0;
    size_t len = width;
    int rc = Mallctl(name.c_str(), &old, &len, write ? &value : nullptr, write ? width : 0);
    if (rc == 0) return ctx.reply.Integer(old);  // little-endian: the low bytes
    if (rc == EPERM && write) {
      // A write-only control: write without reading.
      if (Mallctl(name.c_str(), nullptr, nullptr, &value, width) == 0) return ctx.reply.Ok();
    }
    if (rc != EINVAL) return ErrnoError(ctx, rc);
  }
  ErrnoError(ctx, EINVAL);
}

void DebugMallctlStr(CommandContext& ctx) {
  const std::string name(ctx.arg(2));
  const bool write = ctx.argc() > 3;
  const char* old = nullptr;
  size_t len = sizeof(old);
  const int read_rc = Mallctl(name.c_str(), &old, &len, nullptr, 0);
  // Only a write-only control may fail to read.
  if (read_rc != 0 && !(read_rc == EPERM && write)) return ErrnoError(ctx, read_rc);
  int write_rc = 0;
  if (write) {
    std::string value(ctx.arg(3));
    const char* ptr = value.c_str();
    write_rc = value == "VOID" ? Mallctl(name.c_str(), nullptr, nullptr, nullptr, 0)
                               : Mallctl(name.c_str(), nullptr, nullptr, &ptr, sizeof(ptr));
  }
  if (read_rc == 0) return ctx.reply.Bulk(old ? old : "");
  if (write_rc != 0) return ErrnoError(ctx, write_rc);
  ctx.reply.Ok();
}

}  // namespace rankd
