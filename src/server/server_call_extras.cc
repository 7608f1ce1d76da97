// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// What a command's call leaves beside its reply (Server::Call): latency
// samples for the latency monitor, the keys a read makes a tracking client
// remember (a script's read counts for the script's caller), and the pushes
// kept when CLIENT REPLY OFF / SKIP drops the reply; its effects, fed to
// replicas when it ends.

#include <cstring>

#include "base/clock.h"
#include "server/effect_targets.h"
#include "server/server.h"

namespace rankd {

void Server::AddLatencySample(std::string_view event, int64_t ms) {
  if (config_.latency_monitor_threshold > 0 && ms >= config_.latency_monitor_threshold) {
    latency_.Add(event, ms, WallMs() / 1000);
  }
}

void Server::RememberReadKeys(Client& c, const CommandSpec& spec,
                              std::span<const std::string_view> args) {
  // A script (kSkipMonitor marks EVAL_RO and FCALL_RO) is not tracked
  // itself: a read it calls tracks the keys the script declared, for the
  // script's caller (Redis 7.0 call()).
  if (spec.flags & kSkipMonitor) return;
  Client* tracked = c.conn ? &c : current_client_;
  const CommandSpec* tracked_spec = c.conn ? &spec : current_call_.spec;
  if (!tracked || !tracked_spec || !tracked->tracking.on || tracked->tracking.bcast) return;
  tracking_.RememberKeys(*tracked, *tracked_spec, c.conn ? args : current_call_.args);
}

void Server::DropReplyKeepingPushes(Client& c, size_t reply_start) {
  std::string& buf = c.reply->buffer();
  size_t out = reply_start;
  for (auto [begin, end] : c.kept_pushes) {
    // Invariant: ranges are in order, inside this command's output.
    if (begin < reply_start || end > buf.size() || begin < out) continue;
    memmove(buf.data() + out, buf.data() + begin, end - begin);
    out += end - begin;
  }
  buf.resize(out);
}

void Server::EmitEffect(int db, std::span<const std::string_view> args) {
  if (effect_log_ && (g_effect_targets & kEffectToLog)) effect_log_->Append(db, args);
  if (!(g_effect_targets & kEffectToReplicas)) return;  // redis.set_repl
  // Outside any command with nothing pending (an outermost command's only
  // effect, the expiry cycle's DELs): straight to the replicas.
  if (call_depth_ == 0 && pending_effects_.empty()) return repl_->Feed(db, args);
  // Inside a command, or after other effects of the command that just
  // ended: replicas get them together (FlushEffects).
  pending_effects_.push_back({db, std::vector<std::string>(args.begin(), args.end())});
}

void Server::FlushEffects() {
  if (pending_effects_.empty()) return;
  std::vector<PendingEffect> effects;
  effects.swap(pending_effects_);
  // As Redis 7.0: a command with several effects (EXEC, a script, ...)
  // reaches replicas as one MULTI ... EXEC, so they apply it whole.
  const bool wrap = effects.size() > 1;
  static constexpr std::string_view kMulti[] = {"MULTI"}, kExec[] = {"EXEC"};
  if (wrap) repl_->Feed(effects[0].db, kMulti);
  for (const PendingEffect& e : effects) {
    std::vector<std::string_view> args(e.args.begin(), e.args.end());
    repl_->Feed(e.db, args);
  }
  if (wrap) repl_->Feed(effects.back().db, kExec);
}

void Server::CountRejected(const CommandSpec* spec, std::string_view full_name) {
  if (!spec) return;
  ServerStats::CommandStat& stat = stats_.per_command[spec];
  if (stat.name.empty()) stat.name.assign(full_name);
  stat.rejected++;
}

bool Server::Redirected(Client& c, const CommandSpec& spec, const CommandSpec* found,
                        std::string_view full_name, std::span<const std::string_view> args) {
  std::string redirect = cluster_->Route(c, spec, args);
  if (redirect.empty()) return false;
  // A redirection is no rejection of the command: EXEC ends the transaction
  // and answers it plainly; a command inside MULTI dooms it.
  CountRejected(found, full_name);
  if (EqualsIgnoreCase(args[0], "exec")) {
    c.in_multi = false;
    c.multi_error = false;
    c.ClearQueued();
    UnwatchAll(c);
  } else if (c.in_multi) {
    c.multi_error = true;
  }
  c.reply->Error(redirect);
  return true;
}

}  // namespace rankd
