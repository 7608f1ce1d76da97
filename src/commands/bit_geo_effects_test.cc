// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// Bitmap and geo commands through the real dispatcher: which of them the
// append-only log records (writes that change nothing are not logged, as
// Redis does not propagate them) and that replaying the log rebuilds the
// same keyspace.

#include <span>
#include <string>
#include <vector>

#include "commands/test_util.h"

namespace rankd {
namespace {

class RecordingLog : public EffectLog {
 public:
  void Append(int db, std::span<const std::string_view> args) override {
    lines.emplace_back(args.begin(), args.end());
  }
  std::vector<std::vector<std::string>> lines;
};

class BitGeoEffectsTest : public CommandTest {};

TEST_F(BitGeoEffectsTest, UnchangedWritesAreNotLogged) {
  RecordingLog log;
  server().set_effect_log(&log);
  Run({"SETBIT", "b", "7", "1"});                       // logged
  Run({"SETBIT", "b", "7", "1"});                       // same bit: not logged
  Run({"BITFIELD", "b", "GET", "u8", "0"});             // reads only: not logged
  Run({"BITFIELD", "b", "SET", "u8", "0", "200"});      // logged
  // Overflow FAIL writes nothing: not logged (redis-server 7.0 leaves dirty alone).
  Run({"BITFIELD", "b", "OVERFLOW", "FAIL", "INCRBY", "u8", "0", "300"});
  Run({"BITOP", "AND", "d", "missing"});                // nothing to delete: not logged
  Run({"GEOADD", "g", "13.361389", "38.115556", "Palermo"});                // logged
  Run({"GEOADD", "g", "NX", "13.361389", "38.115556", "Palermo"});          // not logged
  Run({"GEOSEARCHSTORE", "s", "g", "FROMMEMBER", "Palermo", "BYRADIUS", "1", "km"});
  Run({"GEORADIUS_RO", "g", "13", "38", "100", "km"});  // read: not logged
  server().set_effect_log(nullptr);
  ASSERT_EQ(log.lines.size(), 4u);
  EXPECT_EQ(log.lines[0][0], "SETBIT");
  EXPECT_EQ(log.lines[1][0], "BITFIELD");
  EXPECT_EQ(log.lines[2][0], "GEOADD");
  EXPECT_EQ(log.lines[3][0], "GEOSEARCHSTORE");
}

TEST_F(BitGeoEffectsTest, ReplayRebuildsTheSameKeys) {
  RecordingLog log;
  server().set_effect_log(&log);
  Run({"SETBIT", "b", "100", "1"});
  Run({"BITFIELD", "b", "SET", "i16", "#3", "-1234", "INCRBY", "u5", "3", "7"});
  Run({"SETRANGE", "b", "20", "xyz"});
  Run({"BITOP", "NOT", "n", "b"});
  Run({"GEOADD", "g", "13.361389", "38.115556", "Palermo", "15.087269", "37.502669",
       "Catania"});
  Run({"GEORADIUS", "g", "15", "37", "200", "km", "STOREDIST", "dist"});
  server().set_effect_log(nullptr);
  const std::vector<std::string> keys = {"b", "n", "g", "dist"};
  auto state = [&](const std::string& k) {
    return Run({"TYPE", k}) + Run({"GET", k}) + Run({"ZRANGE", k, "0", "-1", "WITHSCORES"});
  };
  std::vector<std::string> before;
  for (const std::string& k : keys) before.push_back(state(k));
  Run({"FLUSHALL"});
  for (const auto& line : log.lines) Run(line);
  for (size_t i = 0; i < keys.size(); i++) EXPECT_EQ(state(keys[i]), before[i]) << keys[i];
}

}  // namespace
}  // namespace rankd
