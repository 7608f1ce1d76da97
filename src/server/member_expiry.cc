// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// Active member expiry (issue 17): one event-loop timer at the earliest
// member deadline of all databases, the same timer mechanism the blocked
// clients' wake times use, so nothing polls. Lookups already hide expired
// members (Database::Find reclaims them); this reclaims the members of keys
// nobody reads, so their memory comes back and a key whose last member
// expired disappears from KEYS, SCAN and DBSIZE.

#include <algorithm>

#include "base/clock.h"
#include "server/server.h"

namespace rankd {
namespace {

// Reclaiming a burst of due members is spread over loop iterations so that
// other clients are served in between.
constexpr int64_t kMemberExpiryBudgetUs = 1000;
// A far deadline re-arms daily rather than overflowing the loop's clock.
constexpr int64_t kMaxDelayMs = 24 * 3600 * 1000;

}  // namespace

void Server::ArmMemberExpiry() {
  // Not on a replica (the primary's ZREMs remove them), nor after DEBUG
  // SET-ACTIVE-EXPIRE 0 (lookups still reclaim them).
  if (repl_->is_replica() || !active_expire_) return;
  int64_t next = -1;
  for (const auto& db : dbs_) {
    const int64_t t = db->next_member_expire();
    if (t >= 0 && (next < 0 || t < next)) next = t;
  }
  if (next < 0) return;  // an armed timer finds nothing due and stops
  if (member_timer_ && member_timer_at_ <= next) return;
  if (member_timer_) loop_.CancelTimer(member_timer_);
  const int64_t delay = std::clamp<int64_t>(next - WallMs(), 1, kMaxDelayMs);
  member_timer_at_ = next;
  member_timer_ = loop_.AddTimer(delay, [this] {
    member_timer_ = 0;
    ExpireMembers();
  });
}

void Server::ExpireMembers() {
  if (!active_expire_) return;
  const int64_t budget = kMemberExpiryBudgetUs / std::max<int64_t>(1, db_count());
  for (auto& db : dbs_) {
    if (db->next_member_expire() >= 0) db->ActiveExpireMembers(budget);
  }
  ServeReadyKeys();  // reclaiming touched keys
}

}  // namespace rankd
