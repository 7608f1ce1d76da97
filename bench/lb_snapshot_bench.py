#!/usr/bin/python3
"""Stable views (issue 17, LB.SNAPSHOT / SNAPSHOT reads), rankd only.

A board of 1,000,000 members m000000000000.. (redis-benchmark's __rand_int__ names, so its
writes update existing members; scores 0..99,999: ties), then:
  * memory (MEMORY USAGE of the key) before a view, right after LB.SNAPSHOT, and after
    10k and 100k members changed since (LB.ADD INCR on distinct members);
  * latency of LB.TOP 10 / LB.RANK (a mid-board member) with and without SNAPSHOT at
    0, 10k and 100k changes pending: p50 / p99 of 2,000 sequential calls (redis-py
    round trips on loopback, so the client's ~40 us is in every number);
  * write rate: redis-benchmark -P 16 `LB.ADD key INCR 1 m<rand>` and `ZINCRBY key 1
    m<rand>` over the 1M members (and LB.ADD over 10k of them), on a copy that never has a
    view and on the board with a view taken just before each run, alternating, 3 rounds.

  RANKD_BIN=build/rankd bench/lb_snapshot_bench.py     BENCH_PORT [7931]
"""

import os
import re
import statistics
import subprocess
import sys
import time

import redis

PORT = int(os.environ.get("BENCH_PORT", "7931"))
BIN = os.environ.get("RANKD_BIN", "build/rankd")
MEMBERS = 1_000_000


def start():
    p = subprocess.Popen([BIN, "--port", str(PORT), "--bind", "127.0.0.1", "--save", "",
                          "--appendonly", "no"], stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL)
    r = redis.Redis(port=PORT)
    for _ in range(100):
        try:
            r.ping()
            return p, r
        except redis.ConnectionError:
            time.sleep(0.1)
    raise SystemExit("rankd did not start")


def load(r, key="board"):
    pipe = r.pipeline(transaction=False)
    for start_i in range(0, MEMBERS, 1000):
        args = []
        for i in range(start_i, start_i + 1000):
            args += [i % 100_000, "m%012d" % i]
        pipe.execute_command("LB.ADD", key, *args)
        if start_i % 50_000 == 0:
            pipe.execute()
    pipe.execute()


def change(r, first, n):
    """n distinct members (m<first>.. stepping 7) get INCR 1."""
    pipe = r.pipeline(transaction=False)
    for k in range(n):
        pipe.execute_command("LB.ADD", "board", "INCR", 1, "m%012d" % ((first + 7 * k) % MEMBERS))
        if k % 5000 == 4999:
            pipe.execute()
    pipe.execute()


def lat(r, *cmd, n=2000):
    t = []
    for _ in range(n):
        t0 = time.perf_counter()
        r.execute_command(*cmd)
        t.append((time.perf_counter() - t0) * 1e6)
    t.sort()
    return "%.0f / %.0f" % (statistics.median(t), t[int(len(t) * 0.99)])


def mem(r):
    return r.execute_command("MEMORY", "USAGE", "board") / 1e6


def rps(cmd, keyspace=MEMBERS):
    out = subprocess.run(["redis-benchmark", "-p", str(PORT), "-n", "400000", "-c", "20",
                          "-P", "16", "-r", str(keyspace), "--csv"] + cmd,
                         capture_output=True, text=True).stdout
    m = re.findall(r'^"[^"]*","([0-9.]+)"', out, re.M)
    return float(m[-1]) if m else float("nan")


WRITES = (["LB.ADD", "{key}", "INCR", "1", "m__rand_int__"],
          ["ZINCRBY", "{key}", "1", "m__rand_int__"])
ROUNDS = 3


def main():
    p, r = start()
    try:
        print("load:", os.getloadavg())
        load(r)
        rows = [("no view", mem(r))]
        mid = "m%012d" % 123457
        reads = {"no view": (lat(r, "LB.TOP", "board", 10), lat(r, "LB.RANK", "board", mid))}
        r.execute_command("LB.SNAPSHOT", "board")
        for n, label in ((0, "0"), (10_000, "10k"), (90_000, "100k")):
            if n:
                change(r, 0 if label == "10k" else 70_000, n)
            rows.append(("view, %s changes" % label, mem(r)))
            reads["view, %s changes" % label] = (lat(r, "LB.TOP", "board", 10, "SNAPSHOT"),
                                                 lat(r, "LB.RANK", "board", mid, "SNAPSHOT"))
        reads["live, 100k changes"] = (lat(r, "LB.TOP", "board", 10),
                                       lat(r, "LB.RANK", "board", mid))
        # Writes: "nv", a copy never viewed, and "board" with a view taken just before
        # each run (so most writes of a run are first changes), alternating.
        load(r, "nv")
        no_view_rps, view_rps = [[], [], []], [[], [], []]
        for _ in range(ROUNDS):
            for i, (cmd, keyspace) in enumerate(zip(WRITES + (WRITES[0],),
                                                    (MEMBERS, MEMBERS, 10_000))):
                no_view_rps[i].append(rps([a.format(key="nv") for a in cmd], keyspace))
                r.execute_command("LB.SNAPSHOT", "board")
                view_rps[i].append(rps([a.format(key="board") for a in cmd], keyspace))
                info = r.execute_command("LB.INFO", "board")
                print("changes in the view after %s over %d: %s" % (
                    cmd[0], keyspace, info[info.index(b"snapshot-changes") + 1]))
        print("| state | MEMORY USAGE board (MB) |\n|---|---|")
        for name, mb in rows:
            print("| %s | %.1f |" % (name, mb))
        print("\n| state | LB.TOP 10 p50 / p99 (us) | LB.RANK p50 / p99 (us) |\n|---|---|---|")
        for name, (a, b) in reads.items():
            print("| %s | %s | %s |" % (name, a, b))
        print("\n| write (P16, 20 clients, 400k) | no view (rps, %d rounds) | with a view (rps) |"
              "\n|---|---|---|" % ROUNDS)
        names = ("LB.ADD INCR, 1M members", "ZINCRBY, 1M members", "LB.ADD INCR, 10k hot members")
        for name, a, b in zip(names, no_view_rps, view_rps):
            print("| %s | %s | %s |" % (name, " / ".join("%.0f" % x for x in a),
                                        " / ".join("%.0f" % x for x in b)))
        print("load:", os.getloadavg())
    finally:
        p.terminate()
        p.wait()


if __name__ == "__main__":
    sys.exit(main())
