// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// The process title (what ps and /proc/<pid>/cmdline show), as Redis sets
// it from proc-title-template. Linux keeps no title of its own: the title
// is written over the memory that held the command line, extended over the
// environment strings that follow it (those are copied elsewhere first).
// Not thread-safe: the main thread calls both functions.

#pragma once

#include <string>
#include <string_view>

namespace rankd {

// Takes over the command-line memory of main's `argc`/`argv` for later
// titles and remembers argv[0] (ProcTitleExecName). Moves `environ` to the
// heap. REQUIRES: called once, before any thread reads the environment;
// nothing reads argv's strings afterwards (they are overwritten).
void ProcTitleInit(int argc, char** argv);

// argv[0] as the process was started ("" before ProcTitleInit).
const std::string& ProcTitleExecName();

// Replaces the title with `title` (cut to the memory there is). Does
// nothing before ProcTitleInit.
void SetProcTitle(std::string_view title);

}  // namespace rankd
