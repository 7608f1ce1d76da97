// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// Redis's test settings rdb-key-save-delay and key-load-delay: a pause after
// each key a snapshot writes or loads, so a test can hold a BGSAVE, a full
// sync or a load open. A delay > 0 is microseconds (slept), < 0 is
// nanoseconds (spun), 0 none, as Redis's debugDelay.

#pragma once

#include <cstdint>

namespace rankd {

// The pause after each key written by the snapshot writers of this process
// (persist/snapshot.h, persist/rdb_file.h). Set from rdb-key-save-delay in
// a fork()ed child before it writes, and around a SAVE in the server.
void SetKeySaveDelay(int64_t delay);
int64_t KeySaveDelay();

// Pauses for `delay` (see above).
void KeyDelay(int64_t delay);

// What the snapshot writers call after each key: the save delay, then the
// hook (a fork()ed child's progress report, durability/child_info.h), if set.
void KeySaved();
void SetKeySavedHook(void (*hook)());

}  // namespace rankd
