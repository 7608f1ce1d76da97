// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "persist/key_delay.h"

#include <time.h>
#include <unistd.h>

namespace rankd {
namespace {

int64_t save_delay = 0;  // one process: the child that writes, or SAVE's server
void (*saved_hook)() = nullptr;

}  // namespace

void SetKeySaveDelay(int64_t delay) { save_delay = delay; }

int64_t KeySaveDelay() { return save_delay; }

void SetKeySavedHook(void (*hook)()) { saved_hook = hook; }

void KeySaved() {
  KeyDelay(save_delay);
  if (saved_hook) saved_hook();
}

void KeyDelay(int64_t delay) {
  if (delay > 0) {
    usleep(static_cast<useconds_t>(delay));
  } else if (delay < 0) {
    timespec start, now;
    clock_gettime(CLOCK_MONOTONIC, &start);
    const int64_t until_ns = start.tv_sec * 1000000000LL + start.tv_nsec - delay;
    do {
      clock_gettime(CLOCK_MONOTONIC, &now);
    } while (now.tv_sec * 1000000000LL + now.tv_nsec < until_ns);
  }
}

}  // namespace rankd
