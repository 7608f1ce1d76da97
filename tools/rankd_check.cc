// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// rankd-check: checks and repairs rankd's append-only log and snapshots.
// The same as `rankd --check-aof`; see persist/check_tool.h.

#include <cstdio>

#include "persist/check_tool.h"

int main(int argc, char** argv) {
  return rankd::RunCheckTool(rankd::Env::Default(), argc, argv, stdout);
}
