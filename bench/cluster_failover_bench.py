#!/usr/bin/env python3
"""Cluster failover after SIGKILL (issue 30), rankd against redis-server with the same
node timeout: how long from the SIGKILL of a master until its replica answers a write
for the master's slots, and how many acknowledged writes the kill lost.

Per kind, a cluster of 3 masters with a replica each (all rankd, or all redis-server);
each round kills the masters in turn, each under two writers on their own connection to
it: one counting every SET answered OK (lost: those missing on the new master), one
counting only SETs that a following `WAIT 1 1000` confirmed. The killed node is then
restarted and comes back as a replica before the next round. Prints per kind the median
and worst promotion time and the lost writes (total, and worst per kill).

    /usr/bin/python3 bench/cluster_failover_bench.py [--rounds 20] [--node-timeout 1500]
        [--kinds rankd,redis] [--rankd build/rankd]
"""

import argparse
import json
import os
import statistics
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests"))

os.environ.pop("RANKD_TARGET_REDIS", None)           # kinds are chosen here

from cluster_failover_util import (DirectWriter, failover_cluster,  # noqa: E402
                                   kill_and_wait_promotion, missing, return_as_replica,
                                   slot_tag, wait_owner_everywhere)


def one_kill(cluster, rnd):
    victim = cluster.masters()[rnd % 3]
    replica = cluster.replicas_of(victim)[0]
    slots = cluster.slots_of(victim)
    plain = DirectWriter(victim, slot_tag(cluster, victim, "a%d" % rnd))
    waited = DirectWriter(victim, slot_tag(cluster, victim, "b%d" % rnd), wait_replicas=1)
    plain.start()
    waited.start()
    plain.wait_for(200)
    waited.wait_for(100)
    _, elapsed = kill_and_wait_promotion(cluster, victim, replica,
                                         "{%s}:probe" % plain.tag)
    plain.finish()
    waited.finish()
    wait_owner_everywhere(cluster, slots, replica)
    lost_plain = len(missing(replica, [plain.key(n) for n in plain.acked]))
    lost_waited = len(missing(replica, [waited.key(n) for n in waited.durable]))
    return_as_replica(cluster, victim, replica)
    return dict(seconds=elapsed, acked=len(plain.acked), lost=lost_plain,
                confirmed=len(waited.durable), lost_confirmed=lost_waited)


def run(kind, rounds, node_timeout):
    with failover_cluster(kinds=[kind] * 6, node_timeout=node_timeout) as cluster:
        results = []
        for rnd in range(rounds):
            r = one_kill(cluster, rnd)
            results.append(r)
            print("  %s round %2d: serving writes after %.2fs; lost %d of %d acked, "
                  "%d of %d WAIT-confirmed" % (kind, rnd, r["seconds"], r["lost"], r["acked"],
                                              r["lost_confirmed"], r["confirmed"]),
                  file=sys.stderr, flush=True)
        return results


def summary(kind, results, node_timeout):
    secs = [r["seconds"] for r in results]
    return dict(kind=kind, kills=len(results), node_timeout_ms=node_timeout,
                median_s=round(statistics.median(secs), 3), worst_s=round(max(secs), 3),
                lost=sum(r["lost"] for r in results),
                lost_worst=max(r["lost"] for r in results),
                acked=sum(r["acked"] for r in results),
                lost_confirmed=sum(r["lost_confirmed"] for r in results),
                confirmed=sum(r["confirmed"] for r in results))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=20, help="kills per kind (default 20)")
    ap.add_argument("--node-timeout", type=int, default=1500, help="ms (default 1500)")
    ap.add_argument("--kinds", default="rankd,redis")
    ap.add_argument("--rankd", help="rankd binary (default build/rankd or RANKD_BIN)")
    args = ap.parse_args()
    if args.rankd:
        os.environ["RANKD_BIN"] = os.path.abspath(args.rankd)
    rows = []
    for kind in args.kinds.split(","):
        t = time.monotonic()
        rows.append(summary(kind, run(kind, args.rounds, args.node_timeout),
                            args.node_timeout))
        rows[-1]["wall_s"] = round(time.monotonic() - t, 1)
    print("| server | kills | node timeout | SIGKILL -> writes served: median | worst "
          "| acked writes lost (no WAIT) | WAIT-confirmed writes lost |")
    print("|---|---|---|---|---|---|---|")
    for r in rows:
        print("| %s | %d | %d ms | %.2f s | %.2f s | %d of %d (worst kill %d) | %d of %d |"
              % (r["kind"], r["kills"], r["node_timeout_ms"], r["median_s"], r["worst_s"],
                 r["lost"], r["acked"], r["lost_worst"], r["lost_confirmed"],
                 r["confirmed"]))
    print(json.dumps(rows))


if __name__ == "__main__":
    main()
