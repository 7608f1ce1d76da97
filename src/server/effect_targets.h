// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// Where the effects of the running command go: the effect log (the
// append-only file) and the replicas. Both, except while a script has
// narrowed them with redis.set_repl (Redis's REPL_AOF / REPL_REPLICA bits).
// Server::EmitEffect reads them; a script's run holds an EffectTargetsScope
// so its choice ends with it. Per thread, as the clocks in base/.

#pragma once

namespace rankd {

inline constexpr int kEffectToLog = 1;
inline constexpr int kEffectToReplicas = 2;
inline constexpr int kEffectToAll = kEffectToLog | kEffectToReplicas;

inline thread_local int g_effect_targets = kEffectToAll;

// Sends effects to all targets for its lifetime (a script's run, which may
// narrow them; an effect of the server's own, which a script's choice never
// narrows), then restores the targets in force before it.
class EffectTargetsScope {
 public:
  EffectTargetsScope() : saved_(g_effect_targets) { g_effect_targets = kEffectToAll; }
  ~EffectTargetsScope() { g_effect_targets = saved_; }
  EffectTargetsScope(const EffectTargetsScope&) = delete;
  EffectTargetsScope& operator=(const EffectTargetsScope&) = delete;

 private:
  int saved_;
};

}  // namespace rankd
