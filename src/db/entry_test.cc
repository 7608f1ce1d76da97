// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// The compact keyspace entry (issue 15): Value's inline and heap strings and
// embedded Hash, KeyEntry's inline key (short and long), and the Database's
// deadline side table across Detach / Rekey / Attach.

#include <memory>
#include <string>

#include "db/database.h"
#include "gtest/gtest.h"

namespace rankd {
namespace {

TEST(ValueTest, StringsInlineUpTo22BytesThenOnTheHeap) {
  EXPECT_EQ(sizeof(Value), 24u);
  for (size_t n : {0, 1, 21, 22, 23, 44, 1000}) {
    const std::string s(n, 'x');
    Value v(s);
    EXPECT_EQ(v.type(), ValueType::kString);
    EXPECT_EQ(v.str(), s);
    Value moved(std::move(v));
    EXPECT_EQ(moved.str(), s);
    EXPECT_EQ(v.str(), "");  // a moved-from Value is an empty string
    Value copy = moved.Clone();
    EXPECT_EQ(copy.str(), s);
  }
}

TEST(ValueTest, MutableStrMovesAnInlineStringToTheHeap) {
  Value v(std::string("abc"));
  v.mutable_str().append(40, 'd');
  EXPECT_EQ(v.str(), "abc" + std::string(40, 'd'));
  v.mutable_str().resize(2);
  EXPECT_EQ(v.str(), "ab");
  EXPECT_EQ(v.EncodingName(), "embstr");
  v.set_raw(true);
  EXPECT_EQ(v.EncodingName(), "raw");
  EXPECT_EQ(Value(std::string("12345")).EncodingName(), "int");
}

TEST(ValueTest, HashIsEmbeddedAndSurvivesMoves) {
  Value v(std::make_unique<Hash>());
  HashLimits limits;
  v.hash().Set("f", "v", limits);
  Value w(std::move(v));
  EXPECT_EQ(w.type(), ValueType::kHash);
  EXPECT_EQ(*w.hash().Get("f"), "v");
  Value c = w.Clone();
  w = Value(std::string("s"));  // frees the hash
  EXPECT_EQ(*c.hash().Get("f"), "v");
}

TEST(KeyEntryTest, ShortAndLongKeysAndRekey) {
  for (size_t n : {0, 1, 11, 254, 255, 256, 70000}) {
    const std::string key(n, 'k');
    KeyEntry* e = KeyEntry::Make(key, Value(std::string("v")), 123);
    EXPECT_EQ(e->key(), key);
    EXPECT_EQ(e->access(), 123u);
    e->set(KeyEntry::kHasExpire, true);
    KeyEntry* r = KeyEntry::Rekey(e, key + "!");
    EXPECT_EQ(r->key(), key + "!");
    EXPECT_EQ(r->value.str(), "v");
    EXPECT_TRUE(r->has(KeyEntry::kHasExpire));
    delete r;
  }
}

TEST(DatabaseTest, DeadlinesLiveBesideEntries) {
  Database db(0);
  const int64_t later = WallMs() + 100000;
  Database::Entry* a = db.Insert("a", Value(std::string("1")));
  Database::Entry* b = db.Insert("b", Value(std::string("2")));
  EXPECT_EQ(db.ExpireMs(a), -1);
  db.SetExpire(a, later);
  db.SetExpire(b, later + 1);
  EXPECT_EQ(db.expires_size(), 2u);
  db.SetExpire(a, -1);  // removing a deadline keeps the other's position valid
  EXPECT_EQ(db.ExpireMs(a), -1);
  EXPECT_EQ(db.ExpireMs(b), later + 1);
  EXPECT_EQ(db.expires_size(), 1u);
  // RENAME: Detach forgets the deadline, the caller sets it again.
  const int64_t t = db.ExpireMs(b);
  Database::Entry* e = db.Detach("b");
  EXPECT_EQ(db.expires_size(), 0u);
  e = KeyEntry::Rekey(e, "c");
  db.Attach(e);
  db.SetExpire(e, t);
  EXPECT_EQ(db.Peek("b"), nullptr);
  EXPECT_EQ(db.ExpireMs(db.Peek("c")), later + 1);
  // An expired key is invisible and deleted on lookup.
  db.SetExpire(db.Find("a"), WallMs() - 1);
  EXPECT_EQ(db.Find("a"), nullptr);
  EXPECT_EQ(db.size(), 1u);
}

}  // namespace
}  // namespace rankd
