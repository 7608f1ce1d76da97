// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// CommandTest: a GoogleTest fixture that runs commands through the real
// dispatcher (Server::Execute) of a Server that is never started (no
// sockets), for one connection-less Client, and returns each reply as raw
// RESP bytes. With the Resp* helpers below a test reads as a transcript:
//
//   EXPECT_EQ(Run({"SET", "k", "v"}), RespOk());
//   EXPECT_EQ(Run({"GET", "k"}), RespBulk("v"));
//
// Header-only so that it is not part of the rankd_server library.

#pragma once

#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "commands/families.h"
#include "gtest/gtest.h"
#include "server/client.h"
#include "server/server.h"

namespace rankd {

class CommandTest : public ::testing::Test {
 protected:
  explicit CommandTest(Config config = Config{}) : server_(std::move(config)) {
    RegisterAllCommands(server_);
    client_.reply = &reply_;
    client_.authenticated = true;
  }

  // Runs one command and returns its reply bytes (the buffer is cleared).
  std::string Run(std::initializer_list<std::string_view> args) {
    return Run(std::vector<std::string_view>(args));
  }
  std::string Run(const std::vector<std::string_view>& args) {
    server_.Execute(client_, args, /*no_block=*/true);
    std::string out;
    out.swap(reply_.buffer());
    return out;
  }
  std::string Run(const std::vector<std::string>& args) {
    return Run(std::vector<std::string_view>(args.begin(), args.end()));
  }

  // Switches the client's protocol (2 or 3).
  void SetResp(int version) { reply_.set_version(version); }

  Server& server() { return server_; }
  Client& client() { return client_; }
  Database& db() { return server_.db(client_.db_index); }

 private:
  Server server_;
  ReplyBuilder reply_;
  Client client_;
};

// Expected replies, RESP2 encoding.
inline std::string RespOk() { return "+OK\r\n"; }
inline std::string RespSimple(std::string_view s) { return "+" + std::string(s) + "\r\n"; }
inline std::string RespErr(std::string_view s) { return "-" + std::string(s) + "\r\n"; }
inline std::string RespInt(int64_t v) { return ":" + std::to_string(v) + "\r\n"; }
inline std::string RespNull() { return "$-1\r\n"; }
inline std::string RespBulk(std::string_view s) {
  return "$" + std::to_string(s.size()) + "\r\n" + std::string(s) + "\r\n";
}
// An array of already-encoded elements.
inline std::string RespArray(std::initializer_list<std::string> items) {
  std::string out = "*" + std::to_string(items.size()) + "\r\n";
  for (const std::string& item : items) out += item;
  return out;
}

}  // namespace rankd
