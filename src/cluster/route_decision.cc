// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "cluster/route_decision.h"


namespace rankd {
namespace {

constexpr std::string_view kCrossSlot = "CROSSSLOT Keys in request don't hash to the same slot";
constexpr std::string_view kUnstable = "TRYAGAIN Multiple keys request during rehashing of slot";

std::string Redirect(std::string_view kind, int slot, const ClusterNode& n,
                     const std::function<RouteSettings()>& settings) {
  return std::string(kind) + " " + std::to_string(slot) + " " +
         RedirectAddress(n, settings().endpoint_type);
}

}  // namespace

std::string RedirectAddress(const ClusterNode& n, std::string_view endpoint_type) {
  std::string_view host = "?";
  if (endpoint_type == "ip") {
    host = n.ip;
  } else if (endpoint_type == "hostname" && !n.hostname.empty()) {
    host = n.hostname;
  }
  return std::string(host) + ":" + std::to_string(n.port);
}

std::string DecideRoute(const ClusterState& state, const RouteInput& in,
                        const std::function<RouteSettings()>& settings, const KeyExists& exists,
                        RouteVerdict* verdict, int* slot_out) {
  RouteVerdict ignored;
  RouteVerdict& v = verdict ? *verdict : ignored;
  v = RouteVerdict::kHere;
  const ClusterNode* myself = state.myself();
  const ClusterNode* n = nullptr;
  std::string_view first;
  int slot = -1;
  bool migrating = false, importing = false, multiple_keys = false;
  int missing = 0, existing = 0;
  for (std::string_view key : in.keys) {
    const int this_slot = KeySlot(key);
    if (slot < 0) {
      first = key;
      slot = this_slot;
      n = state.owner(slot);
      if (n == nullptr) {
        v = RouteVerdict::kUnbound;
        return "CLUSTERDOWN Hash slot not served";
      }
      if (n == myself && state.migrating_to(slot) != nullptr) {
        migrating = true;
      } else if (state.importing_from(slot) != nullptr) {
        importing = true;
      }
    } else if (key != first) {
      if (this_slot != slot) {
        v = RouteVerdict::kCrossSlot;
        return std::string(kCrossSlot);
      }
      multiple_keys = true;
    }
    // A shard channel stays served by the source until the slot moves.
    if ((migrating || importing) && !in.shard_pubsub) {
      if (exists(key)) {
        existing++;
      } else {
        missing++;
      }
    }
  }
  if (n == nullptr) return {};  // no keys: runs anywhere

  if (!state.ok()) {
    if (in.shard_pubsub) {
      if (!settings().allow_pubsubshard_when_down) {
        v = RouteVerdict::kDown;
        return "CLUSTERDOWN The cluster is down";
      }
    } else if (!settings().allow_reads_when_down) {
      v = RouteVerdict::kDown;
      return "CLUSTERDOWN The cluster is down";
    } else if (in.write) {
      v = RouteVerdict::kDownReadOnly;
      return "CLUSTERDOWN The cluster is down and only accepts read commands";
    }
  }
  if (slot_out) *slot_out = slot;
  if ((migrating || importing) && in.migrate) return {};
  if (migrating && missing > 0) {
    v = existing > 0 ? RouteVerdict::kTryAgain : RouteVerdict::kAsk;
    if (existing > 0) return std::string(kUnstable);
    return Redirect("ASK", slot, *state.migrating_to(slot), settings);
  }
  if (importing && in.asking) {
    if (multiple_keys && missing > 0) {
      v = RouteVerdict::kTryAgain;
      return std::string(kUnstable);
    }
    return {};
  }
  if ((in.readonly || in.shard_pubsub) && !in.write && myself->is_replica() &&
      myself->primary == n) {
    return {};
  }
  if (n == myself) return {};
  v = RouteVerdict::kMoved;
  return Redirect("MOVED", slot, *n, settings);
}

}  // namespace rankd
