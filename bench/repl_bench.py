#!/usr/bin/python3
"""Replication side by side with redis-server 7.0 (issue 13).

  RANKD_BIN=build/rankd /usr/bin/python3 bench/repl_bench.py fullsync [N] [rounds]
  RANKD_BIN=build/rankd /usr/bin/python3 bench/repl_bench.py throughput [rounds] [requests]

fullsync: one sorted set of N members (bench/zset_loader.py: 16-byte members) on a
primary; a fresh replica of the same kind runs REPLICAOF; prints the seconds until
master_link_status:up and the primary's stall meanwhile: p50 / p99 / max round trip of
a PING sent back to back by another client during the sync. Both primaries use their
default diskless sync with repl-diskless-sync-delay 0. rankd and redis-server rounds
alternate.

throughput: redis-benchmark -t zadd (50 clients, -r 1000000 members) against a primary
with 0 and 2 replicas of its own kind attached, pipeline 1 and 16; rankd and
redis-server alternate in each round; prints every round and the medians (requests/s).

Loopback ports 7721-7729; data directories under a temporary directory; no
persistence (--save "").
"""

import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time

import redis

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from zset_loader import load_zset  # noqa: E402

RANKD = os.environ.get("RANKD_BIN", "build/rankd")
REDIS = "/usr/bin/redis-server"


def start(binary, port, root, extra=()):
    # One directory per binary and port: a redis-server replica leaves its dump.rdb.
    d = os.path.join(root, "%s-%d" % (os.path.basename(binary), port))
    os.makedirs(d, exist_ok=True)
    p = subprocess.Popen([binary, "--port", str(port), "--bind", "127.0.0.1", "--dir", d,
                          "--save", "", "--appendonly", "no",
                          "--repl-diskless-sync-delay", "0"] + list(extra),
                         stdout=open(os.path.join(d, "log"), "a"), stderr=subprocess.STDOUT)
    c = redis.Redis(port=port)
    for _ in range(400):
        try:
            c.ping()
            break
        except redis.ConnectionError:
            time.sleep(0.05)
    return p, c


def stop(p):
    p.kill()
    p.wait()


def link_up(c):
    return c.info("replication").get("master_link_status") == "up"


class Pinger:
    """PINGs back to back from its own connection; keeps the round trips (ms)."""

    def __init__(self, port):
        self.c = redis.Redis(port=port)
        self.times = []
        self.stop_flag = threading.Event()
        self.t = threading.Thread(target=self.run)

    def run(self):
        while not self.stop_flag.is_set():
            t = time.perf_counter()
            self.c.ping()
            self.times.append((time.perf_counter() - t) * 1000)

    def __enter__(self):
        self.t.start()
        return self

    def __exit__(self, *exc):
        self.stop_flag.set()
        self.t.join()

    def summary(self):
        s = sorted(self.times)
        if not s:
            return "no pings"
        return "p50 %.2f / p99 %.2f / max %.1f ms (%d pings)" % (
            s[len(s) // 2], s[min(len(s) - 1, int(len(s) * 0.99))], s[-1], len(s))


def fullsync(n, rounds):
    kinds = (("rankd", RANKD, 7721, 7722), ("redis-server", REDIS, 7723, 7724))
    with tempfile.TemporaryDirectory() as root:
        prims = {}
        try:
            for name, binary, pport, _ in kinds:
                p, c = start(binary, pport, root)
                prims[name] = (p, c)
                t = time.time()
                load_zset("127.0.0.1", pport, "board", n)
                print("%s primary: %d members loaded in %.1f s, used_memory %s" % (
                    name, c.zcard("board"), time.time() - t,
                    c.info("memory")["used_memory_human"]), flush=True)
            for rnd in range(rounds):
                for name, binary, pport, rport in kinds:
                    rp, rc = start(binary, rport, root)
                    with Pinger(pport) as pinger:
                        t = time.time()
                        rc.execute_command("REPLICAOF", "127.0.0.1", pport)
                        while not link_up(rc):
                            time.sleep(0.005)
                        secs = time.time() - t
                    assert rc.zcard("board") == n
                    print("round %d %s: full sync of %d members %.2f s; primary PING %s" % (
                        rnd + 1, name, n, secs, pinger.summary()), flush=True)
                    stop(rp)
        finally:
            for p, _ in prims.values():
                stop(p)


def bench_zadd(port, pipeline, requests):
    out = subprocess.run(
        ["redis-benchmark", "-p", str(port), "-c", "50", "-n", str(requests), "-r", "1000000",
         "-P", str(pipeline), "-t", "zadd", "--csv", "-q"],
        capture_output=True, text=True, check=True).stdout
    for line in out.splitlines():
        if line.startswith('"ZADD'):
            return float(line.split(",")[1].strip('"'))
    raise RuntimeError("no ZADD line in: " + out)


def throughput(rounds, requests):
    results = {}
    with tempfile.TemporaryDirectory() as root:
        for rnd in range(rounds):
            for replicas in (0, 2):
                for name, binary in (("rankd", RANKD), ("redis-server", REDIS)):
                    procs = []
                    try:
                        p, c = start(binary, 7725, root)
                        procs.append(p)
                        for i in range(replicas):
                            rp, rc = start(binary, 7726 + i, root)
                            procs.append(rp)
                            rc.execute_command("REPLICAOF", "127.0.0.1", 7725)
                            while not link_up(rc):
                                time.sleep(0.01)
                        for pipeline in (1, 16):
                            c.delete("myzset")
                            rps = bench_zadd(7725, pipeline, requests * pipeline // 4
                                             if pipeline > 1 else requests)
                            results.setdefault((replicas, pipeline, name), []).append(rps)
                            print("round %d, %d replicas, pipeline %d, %s: %.0f ZADD/s" % (
                                rnd + 1, replicas, pipeline, name, rps), flush=True)
                        if replicas:
                            want = c.info("replication")["master_repl_offset"]
                            for i in range(replicas):
                                rc = redis.Redis(port=7726 + i)
                                while rc.info("replication")["master_repl_offset"] < want:
                                    time.sleep(0.01)
                                assert rc.zcard("myzset") == c.zcard("myzset")
                    finally:
                        for p in procs:
                            stop(p)
    print("\nmedians (requests/s):")
    print("| replicas | pipeline | rankd | redis-server | rankd / redis |")
    print("|---|---|---|---|---|")
    for replicas in (0, 2):
        for pipeline in (1, 16):
            a = statistics.median(results[(replicas, pipeline, "rankd")])
            b = statistics.median(results[(replicas, pipeline, "redis-server")])
            print("| %d | %d | %.0f | %.0f | %.2f |" % (replicas, pipeline, a, b, a / b))


def main():
    what = sys.argv[1] if len(sys.argv) > 1 else "fullsync"
    if what == "fullsync":
        fullsync(int(sys.argv[2]) if len(sys.argv) > 2 else 1_000_000,
                 int(sys.argv[3]) if len(sys.argv) > 3 else 3)
    elif what == "throughput":
        throughput(int(sys.argv[2]) if len(sys.argv) > 2 else 3,
                   int(sys.argv[3]) if len(sys.argv) > 3 else 200_000)
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
