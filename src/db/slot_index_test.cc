// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// SlotIndex kept in step by Database: inserts, deletes, renames, FLUSHDB.

#include "db/slot_index.h"

#include <set>
#include <string>

#include "db/database.h"
#include "gtest/gtest.h"

namespace rankd {
namespace {

std::set<std::string> KeysIn(const Database& db, int slot) {
  std::set<std::string> out;
  db.slot_index()->ForSlot(slot, SIZE_MAX,
                           [&](const KeyEntry* e) { out.insert(std::string(e->key())); });
  return out;
}

TEST(SlotIndexTest, FollowsTheKeyTable) {
  Database db(0);
  db.Insert("foo", Value(std::string("1")));  // before: indexed by EnableSlotIndex
  EXPECT_EQ(db.slot_index(), nullptr);
  db.EnableSlotIndex();
  const int foo = KeySlot("foo");  // 12182
  EXPECT_EQ(db.slot_index()->Count(foo), 1u);
  db.Insert("{foo}a", Value(std::string("2")));
  db.Insert("bar", Value(std::string("3")));
  EXPECT_EQ(KeysIn(db, foo), (std::set<std::string>{"foo", "{foo}a"}));
  EXPECT_EQ(db.slot_index()->Count(KeySlot("bar")), 1u);
  EXPECT_TRUE(db.Delete("foo"));
  EXPECT_EQ(KeysIn(db, foo), (std::set<std::string>{"{foo}a"}));
  // RENAME: detached, rekeyed, attached under the new name's slot.
  Database::Entry* e = KeyEntry::Rekey(db.Detach("{foo}a"), "bar2");
  EXPECT_EQ(db.slot_index()->Count(foo), 0u);
  db.Attach(e);
  EXPECT_EQ(db.slot_index()->Count(KeySlot("bar2")), 1u);
  db.Clear();
  EXPECT_EQ(db.slot_index()->Count(KeySlot("bar")), 0u);
  EXPECT_EQ(db.slot_index()->Count(KeySlot("bar2")), 0u);
}

}  // namespace
}  // namespace rankd
