// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "base/proc_title.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>

extern char** environ;

namespace rankd {
namespace {

char* g_base = nullptr;  // argv[0]: the title starts here
char* g_end = nullptr;   // one past the last byte the title may use
char* g_nul = nullptr;   // where the last argument's terminator was
std::string g_exec_name;

}  // namespace

void ProcTitleInit(int argc, char** argv) {
  if (argc < 1 || argv[0] == nullptr || g_base != nullptr) return;
  g_exec_name = argv[0];
  char* end = argv[0] + strlen(argv[0]) + 1;
  for (int i = 1; i < argc && argv[i] == end; i++) end = argv[i] + strlen(argv[i]) + 1;
  g_nul = end - 1;
  // The environment strings the kernel put right after the arguments give
  // room for a longer title once the environment lives elsewhere.
  size_t n = 0;
  while (environ[n] != nullptr) n++;
  for (size_t i = 0; i < n && environ[i] == end; i++) end = environ[i] + strlen(environ[i]) + 1;
  if (end > g_nul + 1) {
    char** moved = static_cast<char**>(calloc(n + 1, sizeof(char*)));
    if (moved == nullptr) {
      end = g_nul + 1;
    } else {
      for (size_t i = 0; i < n; i++) moved[i] = strdup(environ[i]);
      environ = moved;  // kept for the life of the process
    }
  }
  g_base = argv[0];
  g_end = end;
}

const std::string& ProcTitleExecName() { return g_exec_name; }

void SetProcTitle(std::string_view title) {
  if (g_base == nullptr) return;
  const size_t room = static_cast<size_t>(g_end - g_base);
  const size_t len = std::min(title.size(), room - 1);
  memset(g_base, 0, room);
  memcpy(g_base, title.data(), len);
  // Linux shows the whole argument area, NULs and all, while its last byte
  // is a NUL; anything else there makes it show one string up to the first
  // NUL: the title alone.
  char* nul = g_base + len;
  if (nul < g_nul) {
    *g_nul = '.';
  } else if (nul == g_nul && nul + 1 < g_end) {
    *g_nul = ' ';
    nul[1] = '\0';
  }
}

}  // namespace rankd
