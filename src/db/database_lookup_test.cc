// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// Database::Lookup's one-entry cache of the last key found (issue 16): every
// way an entry leaves the table (delete, expiry, detach, clear, swap) must
// drop it, so a lookup after that never sees the old entry. Run under
// `make asan` a stale pointer is a use-after-free report.

#include <string>

#include "base/clock.h"
#include "db/database.h"
#include "gtest/gtest.h"

namespace rankd {
namespace {

std::string_view StrOf(const Database::Entry* e) { return e ? e->value.str() : "<none>"; }

TEST(DatabaseLookupTest, NoLookupSeesAnEntryThatLeftTheTable) {
  Database db(0), other(1);
  db.Insert("k", Value(std::string("1")));
  ASSERT_EQ(StrOf(db.Find("k")), "1");  // cached
  ASSERT_TRUE(db.Delete("k"));
  EXPECT_EQ(db.Find("k"), nullptr);
  EXPECT_EQ(db.Peek("k"), nullptr);
  db.Insert("k", Value(std::string("2")));
  EXPECT_EQ(StrOf(db.Find("k")), "2");

  // Expired on lookup.
  db.SetExpire(db.Find("k"), WallMs() - 1);
  EXPECT_EQ(db.Find("k"), nullptr);
  EXPECT_FALSE(db.IsExpiredButPresent("k"));
  EXPECT_EQ(db.size(), 0u);

  // RENAME: detached, rekeyed, attached under the new name.
  db.Insert("a", Value(std::string("3")));
  ASSERT_EQ(StrOf(db.Find("a")), "3");
  Database::Entry* e = KeyEntry::Rekey(db.Detach("a"), "b");
  EXPECT_EQ(db.Find("a"), nullptr);
  db.Attach(e);
  EXPECT_EQ(db.Find("a"), nullptr);
  EXPECT_EQ(StrOf(db.Find("b")), "3");

  // Set replaces the value in the same entry.
  db.Set("b", Value(std::string("4")));
  EXPECT_EQ(StrOf(db.Find("b")), "4");

  // SWAPDB: each database's cache is dropped.
  other.Insert("x", Value(std::string("5")));
  ASSERT_EQ(StrOf(other.Find("x")), "5");
  ASSERT_EQ(StrOf(db.Find("b")), "4");
  db.SwapContents(other);
  EXPECT_EQ(db.Find("b"), nullptr);
  EXPECT_EQ(other.Find("x"), nullptr);
  EXPECT_EQ(StrOf(db.Find("x")), "5");
  EXPECT_EQ(StrOf(other.Find("b")), "4");

  // FLUSHDB.
  db.Clear();
  EXPECT_EQ(db.Find("x"), nullptr);
  db.Insert("x", Value(std::string("6")));
  EXPECT_EQ(StrOf(db.Find("x")), "6");
}

}  // namespace
}  // namespace rankd
