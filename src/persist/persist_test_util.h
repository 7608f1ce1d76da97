// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// Helpers shared by the persist tests: build databases with every value
// type and encoding, and dump a database into a comparable form.

#pragma once

#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "base/clock.h"
#include "db/database.h"

namespace rankd::testing {

// key -> "type|expire|value..." with zset members in order.
inline std::map<std::string, std::string> Dump(Database& db) {
  std::map<std::string, std::string> out;
  db.ForEach([&](Database::Entry* e) {
    std::string v = std::string(e->value.TypeName()) + "|" + std::to_string(db.ExpireMs(e)) + "|";
    switch (e->value.type()) {
      case ValueType::kString:
        v += e->value.str();
        break;
      case ValueType::kZSet: {
        const SortedSet& z = e->value.zset();
        z.ForEachInRankRange(0, z.size() - 1, false, [&](std::string_view m, double s) {
          v += std::string(m) + "=" + std::to_string(s) + ",";
        });
        v += std::string("|") + (z.encoding() == SortedSet::Encoding::kCompact ? "compact" : "tree");
        break;
      }
      case ValueType::kSet: {
        std::vector<std::string> ms;
        e->value.set().ForEach([&](std::string_view m) { ms.emplace_back(m); });
        std::sort(ms.begin(), ms.end());
        for (auto& m : ms) v += m + ",";
        v += std::string("|") + std::string(e->value.set().EncodingName());
        break;
      }
      case ValueType::kHash: {
        std::vector<std::string> fs;
        const Hash& h = e->value.hash();
        h.ForEach([&](std::string_view f, std::string_view x) {
          fs.push_back(std::string(f) + "=" + std::string(x) + "@" +
                       std::to_string(h.FieldExpire(f)));
        });
        std::sort(fs.begin(), fs.end());
        for (auto& f : fs) v += f + ",";
        v += std::string("|") + std::string(h.EncodingName());
        break;
      }
      case ValueType::kList:
        e->value.list().ForEach(0, e->value.list().size(), false,
                                [&](std::string_view x) { v += std::string(x) + ","; });
        break;
    }
    out[std::string(e->key())] = v;
  });
  return out;
}

// Fills `db` with strings, small and large sorted sets, int and string sets,
// small and large hashes (some with field deadlines), short and long lists,
// some keys with future deadlines. Deterministic for a seed.
inline void Fill(Database& db, uint32_t seed, int keys) {
  std::mt19937 rng(seed);
  SortedSetLimits zl;
  PlainSetLimits sl;
  for (int i = 0; i < keys; i++) {
    std::string key = "k" + std::to_string(seed) + ":" + std::to_string(i);
    Database::Entry* e = nullptr;
    switch (i % 7) {
      case 0:
        e = db.Insert(key, Value(std::string(rng() % 100, static_cast<char>(rng()))));
        break;
      case 1:
        e = db.Insert(key, Value(std::to_string(static_cast<int>(rng()))));
        break;
      case 2:
      case 3: {
        size_t n = (i % 7 == 2) ? 1 + rng() % 20 : 200 + rng() % 300;
        auto z = std::make_unique<SortedSet>(zl);
        for (size_t j = 0; j < n; j++) {
          double score = (rng() % 4 == 0) ? 1.0 : static_cast<double>(rng() % 1000) / 7;
          z->Add("m" + std::to_string(rng() % 100000), score, AddOptions{}, zl);
        }
        e = db.Insert(key, Value(std::move(z)));
        break;
      }
      case 4: {
        auto s = std::make_unique<PlainSet>();
        size_t n = 1 + rng() % 50;
        bool ints = rng() % 2;
        for (size_t j = 0; j < n; j++) {
          s->Add(ints ? std::to_string(rng() % 1000) : "s" + std::to_string(rng()), sl);
        }
        e = db.Insert(key, Value(std::move(s)));
        break;
      }
      case 5: {  // small (listpack) and large (hashtable) hashes, some field deadlines
        auto h = std::make_unique<Hash>();
        size_t n = rng() % 2 ? 1 + rng() % 10 : 600 + rng() % 100;
        for (size_t j = 0; j < n; j++) {
          std::string f = "f" + std::to_string(rng() % 100000);
          h->Set(f, std::string(rng() % 30, 'v'), HashLimits{});
          if (rng() % 8 == 0) h->SetFieldExpire(f, WallMs() + 3600 * 1000 + rng() % 1000);
        }
        e = db.Insert(key, Value(std::move(h)));
        break;
      }
      case 6: {  // lists of one chunk and of many
        auto l = std::make_unique<QuickList>();
        size_t n = rng() % 2 ? 1 + rng() % 10 : 2000 + rng() % 1000;
        for (size_t j = 0; j < n; j++) {
          l->PushBack(std::string(rng() % 200, static_cast<char>('a' + rng() % 26)), ListLimits{});
        }
        e = db.Insert(key, Value(std::move(l)));
        break;
      }
    }
    if (rng() % 4 == 0) db.SetExpire(e, WallMs() + 3600 * 1000 + rng() % 100000);
  }
}

}  // namespace rankd::testing
