// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// CommandKeyPositions: the documented key finder when it knows the command,
// the spec's positions otherwise.

#include "server/command_keys.h"

#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

namespace rankd {
namespace {

// MSET-like: key value [key value ...].
constexpr CommandSpec kPairs{"mset", -3, 0, 1, -1, 2, nullptr};
constexpr std::string_view kArgs[] = {"mset", "a", "1", "b", "2"};

TEST(CommandKeysTest, SpecPositionsWithoutAFinder) {
  const KeyPositionList keys = CommandKeyPositions(FindKeysFn(), kPairs, "mset", kArgs);
  EXPECT_EQ(std::vector<size_t>(keys.begin(), keys.end()), (std::vector<size_t>{1, 3}));
}

TEST(CommandKeysTest, SpecPositionsWhenTheFinderDoesNotKnowTheCommand) {
  std::string asked;
  FindKeysFn find = [&](const CommandSpec&, std::string_view name,
                        std::span<const std::string_view>, std::vector<AclKeyRef>* keys) {
    asked = name;
    keys->push_back({4});
    return false;
  };
  const KeyPositionList keys = CommandKeyPositions(find, kPairs, "mset", kArgs);
  EXPECT_EQ(asked, "mset");
  EXPECT_EQ(std::vector<size_t>(keys.begin(), keys.end()), (std::vector<size_t>{1, 3}));
}

TEST(CommandKeysTest, TheFindersPositionsWhenItKnowsTheCommand) {
  FindKeysFn find = [](const CommandSpec&, std::string_view name,
                       std::span<const std::string_view>, std::vector<AclKeyRef>* keys) {
    if (name != "object|encoding") return false;
    keys->push_back({2});
    return true;
  };
  const KeyPositionList keys = CommandKeyPositions(find, kPairs, "object|encoding", kArgs);
  EXPECT_EQ(std::vector<size_t>(keys.begin(), keys.end()), (std::vector<size_t>{2}));
}

}  // namespace
}  // namespace rankd
