// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// AclSelector::DescribeCommands over the real command table: for random
// rule sets, the description set on a fresh user allows exactly the same
// commands (and describes itself the same way), whatever it dropped.

#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "commands/test_util.h"
#include "server/acl_categories.h"
#include "server/acl_user.h"
#include "net/split_args.h"

namespace rankd {
namespace {

class AclDescribeTest : public CommandTest {};

TEST_F(AclDescribeTest, DescriptionRebuildsTheSamePermissions) {
  const CommandIds& ids = server().command_ids();
  const uint32_t seed = 20261203;
  printf("seed %u\n", seed);
  std::mt19937 rng(seed);
  std::vector<std::string> words;
  for (const AclCategoryName& c : kAclCategories) words.push_back("@" + std::string(c.name));
  for (int id = 0; id < ids.size(); id++) words.emplace_back(ids.NameOf(id));
  words.push_back("select|0");
  words.push_back("select|3");
  for (int round = 0; round < 300; round++) {
    AclUser original("a", &ids);
    std::string rules = rng() % 2 ? "+@all" : "-@all";
    original.SetRule(rules);
    const int n = 1 + rng() % 8;
    for (int i = 0; i < n; i++) {
      std::string rule = (rng() % 2 ? "+" : "-") + words[rng() % words.size()];
      if (original.SetRule(rule).empty()) rules += " " + rule;
    }
    const std::string described = original.DescribeCommands();
    AclUser rebuilt("b", &ids);
    const std::vector<std::string> described_words = SplitArgs(described).value();
    for (const std::string& w : described_words) {
      ASSERT_EQ(rebuilt.SetRule(w), "") << w;
    }
    EXPECT_EQ(rebuilt.DescribeCommands(), described) << rules;
    for (int id = 0; id < ids.size(); id++) {
      AclRequest req;
      req.command_id = id;
      req.is_subcommand = ids.IsSubcommand(id);
      const std::string_view name = ids.NameOf(id);
      std::vector<std::string_view> args = {name, "0", "3"};
      if (req.is_subcommand) args.insert(args.begin(), name.substr(0, name.find('|')));
      req.args = args;
      size_t pos = 0;
      EXPECT_EQ(original.Check(req, &pos), rebuilt.Check(req, &pos))
          << rules << " -> " << described << " for " << name;
    }
  }
}

}  // namespace
}  // namespace rankd
