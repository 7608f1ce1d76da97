// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// LATENCY LATEST / HISTORY / RESET / GRAPH / DOCTOR / HISTOGRAM / HELP and
// INFO latencystats, over the server's LatencyMonitor (spikes past
// latency-monitor-threshold) and per-command LatencyHistograms.

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "commands/info_writer.h"
#include "commands/server_handlers.h"
#include "server/errors.h"
#include "server/server.h"

namespace rankd {
namespace {

void Latest(CommandContext& ctx) {
  const auto& events = ctx.server.latency().events();
  ctx.reply.ArrayHeader(events.size());
  for (const auto& [name, e] : events) {
    ctx.reply.ArrayHeader(4);
    ctx.reply.Bulk(name);
    ctx.reply.Integer(e.samples.back().unix_s);
    ctx.reply.Integer(e.samples.back().ms);
    ctx.reply.Integer(e.max_ms);
  }
}

void History(CommandContext& ctx) {
  const auto& events = ctx.server.latency().events();
  auto it = events.find(ctx.arg(2));
  if (it == events.end()) return ctx.reply.ArrayHeader(0);
  ctx.reply.ArrayHeader(it->second.samples.size());
  for (const LatencyMonitor::Sample& s : it->second.samples) {
    ctx.reply.ArrayHeader(2);
    ctx.reply.Integer(s.unix_s);
    ctx.reply.Integer(s.ms);
  }
}

// Redis draws a sparkline; rankd keeps its header and ruler and draws one
// column per sample, '#' up to the sample's height of 4 rows.
void Graph(CommandContext& ctx) {
  const auto& events = ctx.server.latency().events();
  auto it = events.find(ctx.arg(2));
  if (it == events.end()) {
    return ctx.reply.Error("ERR No samples available for event '" + std::string(ctx.arg(2)) +
                           "'");
  }
  const LatencyMonitor::Event& e = it->second;
  int64_t hi = 0, lo = INT64_MAX;
  for (const auto& s : e.samples) {
    hi = std::max(hi, s.ms);
    lo = std::min(lo, s.ms);
  }
  std::string out = std::string(ctx.arg(2)) + " - high " + std::to_string(hi) + " ms, low " +
                    std::to_string(lo) + " ms (all time high " + std::to_string(e.max_ms) +
                    " ms)\n" + std::string(80, '-') + "\n";
  for (int row = 4; row >= 1; row--) {
    for (const auto& s : e.samples) out += s.ms * 4 >= hi * row ? '#' : ' ';
    out += "\n";
  }
  ctx.reply.Verbatim(out);
}

void Doctor(CommandContext& ctx) {
  const auto& events = ctx.server.latency().events();
  std::string out;
  if (ctx.server.config().latency_monitor_threshold == 0 && events.empty()) {
    out =
        "I'm sorry, Dave, I can't do that. Latency monitoring is disabled in this Redis "
        "instance. You may use \"CONFIG SET latency-monitor-threshold <milliseconds>.\" in "
        "order to enable it. If we weren't in a deep space mission I'd suggest to take a look "
        "at https://redis.io/topics/latency-monitor.\n";
  } else if (events.empty()) {
    out =
        "Dave, no latency spike was observed during the lifetime of this Redis instance, not "
        "in the slightest bit. I honestly think you ought to sit down calmly, take a stress "
        "pill, and think things over.\n";
  } else {
    out =
        "Dave, I have observed latency spikes in this Redis instance. You don't mind talking "
        "about it, do you Dave?\n\n";
    int i = 1;
    for (const auto& [name, e] : events) {
      double sum = 0;
      for (const auto& s : e.samples) sum += s.ms;
      double avg = sum / e.samples.size(), dev = 0;
      for (const auto& s : e.samples) dev += std::fabs(s.ms - avg);
      dev /= e.samples.size();
      const int64_t span = e.samples.back().unix_s - e.samples.front().unix_s;
      double period = e.samples.size() > 1 ? static_cast<double>(span) / (e.samples.size() - 1)
                                           : 1.0;
      char line[256];
      snprintf(line, sizeof(line),
               "%d. %s: %zu latency spikes (average %.0fms, mean deviation %.0fms, period %.2f "
               "sec). Worst all time event %lldms.\n",
               i++, name.c_str(), e.samples.size(), avg, dev, period,
               static_cast<long long>(e.max_ms));
      out += line;
    }
    out +=
        "\nI have a few advices for you:\n\n- Check your Slow Log to understand what are the "
        "commands you are running which are too slow to execute. Please check "
        "https://redis.io/commands/slowlog for more information.\n";
  }
  ctx.reply.Verbatim(out);
}

// One command's histogram: {calls, histogram_usec: {bound: cumulative}}.
void HistogramReply(ReplyBuilder& r, const ServerStats::CommandStat& stat) {
  r.MapHeader(2);
  r.Bulk("calls");
  r.Integer(static_cast<int64_t>(stat.calls));
  r.Bulk("histogram_usec");
  size_t n = 0;
  for (uint64_t c : stat.latency.buckets) n += c != 0;
  r.MapHeader(n);
  uint64_t cumulative = 0;
  for (int k = 0; k < LatencyHistogram::kBuckets; k++) {
    if (!stat.latency.buckets[k]) continue;
    cumulative += stat.latency.buckets[k];
    r.Integer(int64_t{1} << k);
    r.Integer(static_cast<int64_t>(cumulative));
  }
}

void Histogram(CommandContext& ctx) {
  std::vector<const ServerStats::CommandStat*> stats;
  for (const auto& [spec, stat] : ctx.server.stats().per_command) {
    bool wanted = ctx.argc() == 2;
    for (size_t i = 2; i < ctx.argc() && !wanted; i++) {
      // A container's name also selects its subcommands ("client" -> "client|list").
      std::string want(ctx.arg(i));
      for (char& ch : want) ch = static_cast<char>(tolower(static_cast<unsigned char>(ch)));
      wanted = stat.name == want || stat.name.rfind(want + "|", 0) == 0;
    }
    if (wanted && stat.calls) stats.push_back(&stat);
  }
  ctx.reply.MapHeader(stats.size());
  for (const ServerStats::CommandStat* stat : stats) {
    ctx.reply.Bulk(stat->name);
    HistogramReply(ctx.reply, *stat);
  }
}

}  // namespace

void LatencyStatsSection(Server& server, InfoWriter& w) {
  w.Section("Latencystats");
  for (const auto& [spec, stat] : server.stats().per_command) {
    if (!stat.latency.count) continue;  // none tracked (latency-tracking no)
    std::string value;
    for (double p : server.config().latency_tracking_info_percentiles) {
      char buf[64];
      snprintf(buf, sizeof(buf), "%sp%s=%.3f", value.empty() ? "" : ",",
               FormatPercentile(p).c_str(), stat.latency.Percentile(p));
      value += buf;
    }
    w.Field("latency_percentiles_usec_" + stat.name, value);
  }
}

void LatencyCmd(CommandContext& ctx) {
  std::string_view sub = ctx.arg(1);
  const size_t argc = ctx.argc();
  if (EqualsIgnoreCase(sub, "LATEST") && argc == 2) return Latest(ctx);
  if (EqualsIgnoreCase(sub, "HISTORY") && argc == 3) return History(ctx);
  if (EqualsIgnoreCase(sub, "GRAPH") && argc == 3) return Graph(ctx);
  if (EqualsIgnoreCase(sub, "DOCTOR") && argc == 2) return Doctor(ctx);
  if (EqualsIgnoreCase(sub, "HISTOGRAM")) return Histogram(ctx);
  if (EqualsIgnoreCase(sub, "RESET")) {
    std::vector<std::string_view> names(ctx.args.begin() + 2, ctx.args.end());
    return ctx.reply.Integer(static_cast<int64_t>(ctx.server.latency().Reset(names)));
  }
  if (EqualsIgnoreCase(sub, "HELP") && argc == 2) {
    return ReplyHelp(
        ctx.reply, "latency",
        {"DOCTOR", "    Return a human readable latency analysis report.",
         "GRAPH <event>", "    Return an ASCII latency graph for the <event> class.",
         "HISTORY <event>", "    Return time-latency samples for the <event> class.",
         "LATEST", "    Return the latest latency samples for all events.",
         "RESET [<event> ...]", "    Reset latency data of one or more <event> classes.",
         "    (default: reset all data for all event classes)",
         "HISTOGRAM [COMMAND ...]",
         "    Return a cumulative distribution of latencies in the format of a histogram for "
         "the specified command names.",
         "    If no commands are specified then all histograms are replied."});
  }
  ctx.reply.Error(UnknownSubcommandError(sub, "LATENCY"));
}

}  // namespace rankd
