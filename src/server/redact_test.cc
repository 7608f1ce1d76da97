// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "server/redact.h"

#include <gtest/gtest.h>

#include <string>

namespace rankd {
namespace {

// The command as SLOWLOG GET shows it, arguments joined by spaces.
std::string Shown(std::vector<std::string_view> args) {
  std::string out;
  for (std::string_view a : RedactSecrets(args)) {
    if (!out.empty()) out.push_back(' ');
    out.append(a);
  }
  return out;
}

// Expected strings are what redis-server 7.0.15's SLOWLOG GET shows.
TEST(RedactTest, Auth) {
  EXPECT_EQ(Shown({"AUTH", "pw"}), "AUTH (redacted)");
  EXPECT_EQ(Shown({"auth", "u", "pw"}), "auth (redacted) (redacted)");
  EXPECT_EQ(Shown({"AUTH", "a", "b", "c"}), "AUTH a b c");  // syntax error first
}

TEST(RedactTest, Hello) {
  EXPECT_EQ(Shown({"HELLO", "2", "AUTH", "u", "p"}), "HELLO 2 AUTH (redacted) (redacted)");
  EXPECT_EQ(Shown({"HELLO", "3", "SETNAME", "n", "auth", "u", "p", "FOO"}),
            "HELLO 3 SETNAME n auth (redacted) (redacted) FOO");
  EXPECT_EQ(Shown({"HELLO", "4", "AUTH", "u", "p"}), "HELLO 4 AUTH u p");
  EXPECT_EQ(Shown({"HELLO", "x", "AUTH", "u", "p"}), "HELLO x AUTH u p");
  EXPECT_EQ(Shown({"HELLO", "3", "FOO", "AUTH", "u", "p"}), "HELLO 3 FOO AUTH u p");
  EXPECT_EQ(Shown({"HELLO", "3", "AUTH", "u"}), "HELLO 3 AUTH u");
  EXPECT_EQ(Shown({"HELLO"}), "HELLO");
}

TEST(RedactTest, AclSetuser) {
  EXPECT_EQ(Shown({"ACL", "SETUSER", "zz", "on", ">pw"}),
            "ACL SETUSER (redacted) (redacted) (redacted)");
  EXPECT_EQ(Shown({"acl", "setuser", "zz"}), "acl setuser (redacted)");
  EXPECT_EQ(Shown({"ACL", "DELUSER", "zz"}), "ACL DELUSER zz");
  EXPECT_EQ(Shown({"ACL", "GETUSER", "zz"}), "ACL GETUSER zz");
}

TEST(RedactTest, ConfigSet) {
  EXPECT_EQ(Shown({"CONFIG", "SET", "masterauth", "s"}), "CONFIG SET masterauth (redacted)");
  EXPECT_EQ(Shown({"config", "set", "MASTERUSER", "u", "maxmemory", "0", "requirepass", "p"}),
            "config set MASTERUSER (redacted) maxmemory 0 requirepass (redacted)");
  EXPECT_EQ(Shown({"CONFIG", "SET", "nosuch", "1", "masterauth", "s"}),
            "CONFIG SET nosuch 1 masterauth (redacted)");
  EXPECT_EQ(Shown({"CONFIG", "SET", "masterauth", "s", "requirepass"}),
            "CONFIG SET masterauth s requirepass");  // odd count: syntax error first
  EXPECT_EQ(Shown({"CONFIG", "GET", "masterauth"}), "CONFIG GET masterauth");
}

TEST(RedactTest, Migrate) {
  EXPECT_EQ(Shown({"MIGRATE", "h", "1", "k", "0", "10", "AUTH", "pw"}),
            "MIGRATE h 1 k 0 10 AUTH (redacted)");
  EXPECT_EQ(Shown({"MIGRATE", "h", "1", "", "0", "10", "COPY", "auth2", "u", "pw", "KEYS", "a"}),
            "MIGRATE h 1  0 10 COPY auth2 (redacted) (redacted) KEYS a");
  EXPECT_EQ(Shown({"MIGRATE", "h", "1", "", "0", "10", "KEYS", "AUTH", "pw"}),
            "MIGRATE h 1  0 10 KEYS AUTH pw");  // keys, not options
  EXPECT_EQ(Shown({"MIGRATE", "h", "1", "k", "0", "10", "FOO", "AUTH", "pw"}),
            "MIGRATE h 1 k 0 10 FOO AUTH pw");
  EXPECT_EQ(Shown({"MIGRATE", "h", "1", "k", "0", "10", "AUTH2", "u"}),
            "MIGRATE h 1 k 0 10 AUTH2 u");
}

TEST(RedactTest, OtherCommandsUnchanged) {
  EXPECT_EQ(Shown({"SET", "auth", "pw"}), "SET auth pw");
  EXPECT_EQ(Shown({}), "");
}

}  // namespace
}  // namespace rankd
