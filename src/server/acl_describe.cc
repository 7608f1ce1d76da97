// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// AclSelector::DescribeCommands: the command rules of a selector, derived
// from what it allows rather than replayed from the rules it was given, as
// Redis 7.0 prints them. The result starts "+@all" (the selector also runs
// commands added later) or "-@all", then names categories greedily: while
// some category not yet named has more commands that still need its
// verdict than commands it would get wrong, the one with the fewest wrong
// (then the most right) is named. Single commands, subcommands and allowed
// first arguments then fix what the categories left different. Redis lists
// those single rules in its command table's hash order, which changes from
// one start to the next; rankd lists them in command id order.

#include <cassert>
#include <climits>
#include <string>
#include <vector>

#include "server/acl_categories.h"
#include "server/acl_selector.h"

namespace rankd {

std::string AclSelector::DescribeCommands() const {
  const int n = table_->size();
  const bool additive = !all_commands_;
  std::string out = additive ? "-@all" : "+@all";
  // `fake` is what the rules printed so far allow; `todo` is this
  // selector with the categories named so far undone, so each category is
  // judged on the commands no earlier category explained.
  AclSelector fake(table_);
  fake.SetRule(out);
  AclSelector todo = *this;
  todo.Grow();
  bool named[std::size(kAclCategories)] = {};
  while (true) {
    int best = -1;
    long min_wrong = LONG_MAX, max_right = 0;
    for (size_t j = 0; j < std::size(kAclCategories); j++) {
      if (named[j]) continue;
      long on = 0, off = 0;
      for (int id = 0; id < n; id++) {
        if (!(table_->CategoriesOf(id) & kAclCategories[j].bit)) continue;
        (todo.Allowed(id) ? on : off)++;
      }
      const long wrong = additive ? off : on, right = additive ? on : off;
      if (right > wrong && (wrong < min_wrong || (wrong == min_wrong && right > max_right))) {
        best = static_cast<int>(j);
        min_wrong = wrong;
        max_right = right;
      }
    }
    if (best < 0) break;
    const std::string name(kAclCategories[best].name);
    fake.SetRule((additive ? "+@" : "-@") + name);
    todo.SetRule((additive ? "-@" : "+@") + name);
    out += (additive ? " +@" : " -@") + name;
    named[best] = true;
  }
  auto fix = [&](int id) {
    const bool want = Allowed(id);
    if (want != fake.Allowed(id)) {
      out += want ? " +" : " -";
      out += table_->NameOf(id);
      fake.SetCommand(id, want);
    }
  };
  for (int id = 0; id < n; id++) {
    if (table_->IsSubcommand(id)) continue;
    fix(id);
    for (int sub : table_->SubcommandIds(id)) fix(sub);
    auto args = first_args_.find(id);
    if (Allowed(id) || args == first_args_.end()) continue;
    for (const std::string& a : args->second) {
      out += " +";
      out += table_->NameOf(id);
      out += "|" + a;
    }
  }
  // Invariant: the printed rules allow exactly what this selector allows.
  for (int id = 0; id < n; id++) assert(fake.Allowed(id) == Allowed(id));
  return out;
}

}  // namespace rankd
