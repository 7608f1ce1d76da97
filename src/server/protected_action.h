// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// Protected actions, as Redis 7.0 names them: changing a protected config
// (dir, dbfilename: with SAVE they write a file anywhere the server may) and
// running DEBUG. Each is governed by a setting that reads "no" (refused),
// "yes" (allowed) or "local" (allowed to clients connected from 127.0.0.1
// or ::1). A script's client has no connection and is never "local".

#pragma once

#include <string_view>

#include "server/client.h"
#include "server/command.h"

namespace rankd {

// True when `setting` (enable-protected-configs / enable-debug-command)
// allows client `c` the action (Redis allowProtectedAction).
inline bool AllowProtectedAction(std::string_view setting, const Client& c) {
  if (setting == "yes") return true;
  if (setting != "local") return false;
  return c.conn != nullptr && c.conn->peer_is_local();
}

// Configs that only enable-protected-configs lets CONFIG SET change (any
// case, as config names).
inline bool IsProtectedConfig(std::string_view name) {
  return EqualsIgnoreCase(name, "dir") || EqualsIgnoreCase(name, "dbfilename");
}

}  // namespace rankd
