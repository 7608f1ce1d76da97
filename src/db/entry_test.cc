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

// Every way to make a sorted-set value gives the same embedded set.
TEST(ValueTest, SortedSetsBuiltInPlaceMovedOrFromTheHeap) {
  const SortedSetLimits lim;
  Value in_place = Value::NewZSet(lim, 4, 8);
  SortedSet local(lim);
  auto heap = std::make_unique<SortedSet>(lim);
  Value from_heap(std::move(heap));
  for (SortedSet* z : {&in_place.zset(), &local, &from_heap.zset()}) {
    z->Add("a", 1, AddOptions{}, lim);
    z->Add("b", 2, AddOptions{}, lim);
  }
  Value moved(std::move(local));
  for (Value* v : {&in_place, &moved, &from_heap}) {
    ASSERT_EQ(v->type(), ValueType::kZSet);
    EXPECT_EQ(v->zset().size(), 2u);
    EXPECT_EQ(v->EncodingName(), "listpack");
    Value again(std::move(*v));
    EXPECT_EQ(again.zset().size(), 2u);
  }
}

TEST(ValueTest, StringsInlineUpTo22BytesThenPackedThenOnTheHeap) {
  EXPECT_EQ(sizeof(Value), 24u);
  for (size_t n : {0, 1, 21, 22, 23, 32, 44, 45, 1000, 4096, 4097, 70000}) {
    const std::string s(n, 'x');
    for (bool from_view : {false, true}) {
      Value v = from_view ? Value::Str(s) : Value(s);
      EXPECT_EQ(v.type(), ValueType::kString);
      EXPECT_EQ(v.str(), s);
      EXPECT_EQ(v.EncodingName(), n <= 44 ? "embstr" : "raw");
      EXPECT_GE(v.MemoryUsage(), sizeof(Value) + (n <= 22 ? 0 : n));
      Value moved(std::move(v));
      EXPECT_EQ(moved.str(), s);
      EXPECT_EQ(v.str(), "");  // a moved-from Value is an empty string
      Value copy = moved.Clone();
      EXPECT_EQ(copy.str(), s);
      // Changed in place: a packed string becomes a std::string.
      moved.mutable_str().append("!");
      EXPECT_EQ(moved.str(), s + "!");
      EXPECT_EQ(copy.str(), s);
    }
  }
}

TEST(ValueTest, SortedSetIsEmbeddedAndSurvivesMoves) {
  const SortedSetLimits limits;
  auto z = std::make_unique<SortedSet>(limits);
  z->Add("a", 1, {}, limits);
  Value v(std::move(z));
  v.zset().Add("b", 2.5, {}, limits);
  Value w(std::move(v));
  EXPECT_EQ(w.type(), ValueType::kZSet);
  EXPECT_EQ(w.EncodingName(), "listpack");
  EXPECT_EQ(*w.zset().Score("b"), 2.5);
  w.zset().SetMemberExpire("a", 123);  // a rare part: still one word in the Value
  Value c = w.Clone();
  w = Value(std::string("s"));  // frees the set
  EXPECT_EQ(c.zset().size(), 2u);
  EXPECT_EQ(c.zset().MemberExpire("a"), 123);
  EXPECT_EQ(c.zset().CheckInvariants(), "");
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
  for (size_t n : {0, 1, 11, 12, 62, 63, 64, 254, 255, 256, 70000}) {
    const std::string key(n, 'k');
    KeyEntry* e = KeyEntry::Make(key, Value(std::string("v")), 123);
    EXPECT_EQ(e->key(), key);
    EXPECT_EQ(e->access(), 123u);
    e->set(KeyEntry::kHasExpire, true);
    e->set(KeyEntry::kHasMemberExpire, true);
    e->set(KeyEntry::kHasMemberExpire, false);
    EXPECT_EQ(e->key(), key);  // the flags share a byte with the length
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
