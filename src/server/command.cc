// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "server/command.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstring>

#include "server/client.h"
#include "server/server.h"

namespace rankd {

Database& CommandContext::db() { return server.db(client.db_index); }

std::span<const std::string_view> CommandContext::ServeKeys(
    std::span<const std::string_view> keys) const {
  const std::string_view& ready = server.serving_key();
  if (retrying_blocked && std::find(keys.begin(), keys.end(), ready) != keys.end()) {
    return {&ready, 1};
  }
  return keys;
}

std::string WrongArityError(std::string_view command_name) {
  std::string s = "ERR wrong number of arguments for '";
  for (char ch : command_name) s.push_back(static_cast<char>(tolower(ch)));
  return s + "' command";
}

// "<prefix>'<subcommand>'. Try <COMMAND> HELP.", the subcommand cut at 128 bytes.
static std::string TryHelpError(std::string_view prefix, std::string_view subcommand,
                                std::string_view command) {
  std::string s(prefix);
  s += "'";
  s.append(subcommand.substr(0, 128));
  s += "'. Try ";
  for (char ch : command) s.push_back(static_cast<char>(toupper(ch)));
  return s + " HELP.";
}

std::string UnknownSubcommandError(std::string_view subcommand, std::string_view command) {
  return TryHelpError("ERR unknown subcommand ", subcommand, command);
}

std::string SubcommandSyntaxError(std::string_view subcommand, std::string_view container) {
  return TryHelpError("ERR unknown subcommand or wrong number of arguments for ", subcommand,
                      container);
}

void ReplyHelp(ReplyBuilder& reply, std::string_view command,
               std::initializer_list<std::string_view> lines) {
  reply.ArrayHeader(lines.size() + 3);
  std::string header;
  for (char ch : command) header.push_back(static_cast<char>(toupper(ch)));
  reply.SimpleString(header + " <subcommand> [<arg> [value] [opt] ...]. Subcommands are:");
  for (std::string_view line : lines) reply.SimpleString(line);
  reply.SimpleString("HELP");
  reply.SimpleString("    Prints this help.");
}

namespace {

// Each byte of `x` that is an ASCII capital, lower-cased; others unchanged.
// Per byte, without carries across bytes: the low seven bits plus a bias set
// the byte's top bit when it is >= 'A' (resp. > 'Z'); bytes >= 0x80 never fold.
uint64_t FoldAscii8(uint64_t x) {
  constexpr uint64_t kOnes = 0x0101010101010101ull;
  const uint64_t low7 = x & (0x7f * kOnes);
  const uint64_t ge_a = low7 + (0x80 - 'A') * kOnes;
  const uint64_t gt_z = low7 + (0x80 - 'Z' - 1) * kOnes;
  const uint64_t upper = ge_a & ~gt_z & ~x & (0x80 * kOnes);
  return x | (upper >> 2);
}

}  // namespace

bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
  // ASCII folding, as tolower() in the "C" locale the server runs in, without
  // a library call per byte (every option word of every command comes here):
  // eight bytes at a time, the last eight overlapping the ones before
  // ("WITHSCORES": two words); four to seven bytes as two overlapping
  // four-byte halves in one word.
  const size_t n = a.size();
  if (n != b.size()) return false;
  const char* x = a.data();
  const char* y = b.data();
  auto load8 = [](const char* p) {
    uint64_t v;
    std::memcpy(&v, p, 8);
    return v;
  };
  if (n >= 8) {
    for (size_t i = 0; i + 8 < n; i += 8) {
      if (FoldAscii8(load8(x + i)) != FoldAscii8(load8(y + i))) return false;
    }
    return FoldAscii8(load8(x + n - 8)) == FoldAscii8(load8(y + n - 8));
  }
  if (n >= 4) {
    auto halves = [n](const char* p) {
      uint32_t lo, hi;
      std::memcpy(&lo, p, 4);
      std::memcpy(&hi, p + n - 4, 4);
      return lo | (uint64_t{hi} << 32);
    };
    return FoldAscii8(halves(x)) == FoldAscii8(halves(y));
  }
  auto fold = [](char ch) { return ch >= 'A' && ch <= 'Z' ? static_cast<char>(ch | 0x20) : ch; };
  for (size_t i = 0; i < n; i++) {
    if (fold(x[i]) != fold(y[i])) return false;
  }
  return true;
}

}  // namespace rankd
