#!/usr/bin/env python3
"""A reshard under load, for bench/cluster_bench.sh.

Writers (redis-py RedisCluster, one thread each) INCR counters spread over every slot
while `redis-cli --cluster reshard` moves SLOTS slots from the first master to the
second. Prints one JSON line: the reshard's wall time, the writes acknowledged during
it, write errors (each a write the client saw fail), the longest gap between two
acknowledged writes of one writer during the reshard (how long a writer was stalled),
and the check afterwards: counters whose value is below the acknowledged increments
(lost) or above acknowledged + failed ones (applied twice).

    cluster_reshard_load.py PORT SLOTS [WRITERS]
"""

import json
import logging
import os
import subprocess
import sys
import threading
import time

import redis
from redis.cluster import RedisCluster


def masters(port):
    """Master ids and addresses in slot order, from CLUSTER NODES of 127.0.0.1:port."""
    text = subprocess.run(["redis-cli", "-p", str(port), "cluster", "nodes"],
                          capture_output=True, text=True, check=True).stdout
    out = []
    for line in text.splitlines():
        f = line.split()
        if "master" in f[2] and len(f) > 8:
            out.append((int(f[8].split("-")[0]), f[0], f[1].split("@")[0]))
    return [(nid, addr) for _, nid, addr in sorted(out)]


class Writer(threading.Thread):
    def __init__(self, port, index, keys):
        super().__init__(daemon=True)
        self.rc = RedisCluster(host="127.0.0.1", port=port, socket_timeout=30)
        self.keys = keys
        self.index = index
        self.acked = {}
        self.failed = {}
        self.errors = []
        self.stop = threading.Event()
        self.window = None           # (start, end) monotonic of the reshard
        self.max_gap = 0.0
        self.during = 0

    def run(self):
        i, last = self.index, time.monotonic()
        while not self.stop.is_set():
            key = self.keys[i % len(self.keys)]
            i += 7
            try:
                self.rc.incr(key)
                self.acked[key] = self.acked.get(key, 0) + 1
                now = time.monotonic()
                w = self.window
                if w and w[0] <= now and (w[1] is None or last <= w[1]):
                    self.during += 1
                    self.max_gap = max(self.max_gap, now - max(last, w[0]))
                last = now
            except redis.RedisError as e:
                self.failed[key] = self.failed.get(key, 0) + 1
                self.errors.append(repr(e)[:200])


def main():
    logging.disable(logging.CRITICAL)      # redis-py logs every MOVED it follows
    port, slots = int(sys.argv[1]), int(sys.argv[2])
    nwriters = int(sys.argv[3]) if len(sys.argv) > 3 else 2
    run = "%d.%d" % (os.getpid(), time.time())     # fresh counters on every run
    keys = ["rl:%s:%d" % (run, i) for i in range(5000)]
    (src, src_addr), (dst, _) = masters(port)[:2]
    writers = [Writer(port, i, keys) for i in range(nwriters)]
    for w in writers:
        w.start()
    time.sleep(1.0)
    start = time.monotonic()
    for w in writers:
        w.window = (start, None)
    p = subprocess.run(["redis-cli", "--cluster", "reshard", src_addr, "--cluster-from", src,
                        "--cluster-to", dst, "--cluster-slots", str(slots), "--cluster-yes"],
                       capture_output=True, text=True)
    end = time.monotonic()
    for w in writers:
        w.window = (start, end)
    time.sleep(1.0)
    for w in writers:
        w.stop.set()
        w.join(60)
    acked, failed = {}, {}
    for w in writers:
        for k, v in w.acked.items():
            acked[k] = acked.get(k, 0) + v
        for k, v in w.failed.items():
            failed[k] = failed.get(k, 0) + v
    rc = RedisCluster(host="127.0.0.1", port=port, socket_timeout=30)
    lost = doubled = 0
    for k in keys:
        got = int(rc.get(k) or 0)
        lost += got < acked.get(k, 0)
        doubled += got > acked.get(k, 0) + failed.get(k, 0)
    errors = [e for w in writers for e in w.errors]
    print(json.dumps({
        "reshard_ok": p.returncode == 0, "reshard_s": round(end - start, 2),
        "slots": slots, "writes_during": sum(w.during for w in writers),
        "writes_per_s_during": round(sum(w.during for w in writers) / (end - start)),
        "write_errors": len(errors), "first_error": errors[0] if errors else "",
        "max_stall_ms": round(max(w.max_gap for w in writers) * 1000, 1),
        "lost": lost, "doubled": doubled,
        "cli_tail": "" if p.returncode == 0 else (p.stdout + p.stderr)[-500:]}))


if __name__ == "__main__":
    main()
