#!/usr/bin/python3
"""LB.WATCH cost and delivery (issue 17), rankd only (Redis has no equivalent).

A board of 100,000 members; W watchers of its TOP 10 (RESP3, read continuously by one
drain thread). For W = 0 and 1,000:
  * below: redis-benchmark `LB.ADD board <rand> m:<rand>` (scores < 1e6, the top holds
    scores >= 1e12: no write reaches the top), pipeline 1 and 16;
  * top:   redis-benchmark `LB.ADD board INCR 1 hot` (the leader changes score on every
    write), pipeline 16; and the messages each watcher got per second;
then the delay from a write that changes the top (after a quiet interval) to the message
at one watcher: p50 / p99 over 200 samples.

  bench/lb_watch_bench.py        BENCH_ROUNDS [3]  BENCH_CLIENTS [50]
"""

import os
import socket
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pubsub_bench  # noqa: E402
import sidebyside as sb  # noqa: E402

MEMBERS = 100_000
WATCHERS = (0, 1000)


def load_board(srv):
    import redis
    r = redis.Redis(port=srv.port)
    for start in range(0, MEMBERS, 10_000):
        p = r.pipeline(transaction=False)
        for i in range(start, start + 10_000):
            p.execute_command("LB.ADD", "board", 1e12 + i if i < 10 else i % 1_000_000, "m%d" % i)
        p.execute()
    r.execute_command("LB.ADD", "board", 2e12, "hot")
    r.close()


def watchers_of(port, n):
    """`n` RESP3 watchers of board's TOP 10, read continuously; counts messages."""
    return pubsub_bench.Drain(port, n, handshake=b"HELLO 3\r\nLB.WATCH board TOP 10\r\n",
                              ready=b"lb.top", marker=b"$6\r\nlb.top")


def delivery_delays(srv, samples=200):
    w = socket.create_connection(("127.0.0.1", srv.port))
    w.sendall(b"HELLO 3\r\nLB.WATCH board TOP 10\r\n")
    time.sleep(0.5)
    w.recv(1 << 20)
    c = socket.create_connection(("127.0.0.1", srv.port))
    delays = []
    for i in range(samples):
        time.sleep(0.12)  # past lb-watch-interval (100 ms): the change is sent at once
        t0 = time.perf_counter()
        c.sendall(b"LB.ADD board INCR 1 hot\r\n")
        got = b""
        while b"lb.top" not in got:
            got += w.recv(1 << 20)
        delays.append((time.perf_counter() - t0) * 1000)
        c.recv(4096)
    w.close()
    c.close()
    delays.sort()
    return delays[len(delays) // 2], delays[int(len(delays) * 0.99) - 1]


def main():
    srv = sb.Server("rankd", [sb.RANKD_BIN]).start()
    try:
        srv.command("CONFIG", "SET", "client-output-buffer-limit", "pubsub 0 0 0")
        load_board(srv)
        rows = []
        for watchers in WATCHERS:
            drain = watchers_of(srv.port, watchers) if watchers else None
            try:
                for pipeline in (1, 16):
                    rates = []
                    for _ in range(sb.ROUNDS):
                        r = sb.run_benchmark(srv, pipeline, 100_000 if pipeline == 1 else 400_000,
                                             command=["LB.ADD", "board", "__rand_int__",
                                                      "m:__rand_int__"], keyspace=1_000_000)
                        rates.extend(r.values())
                    rows.append(("below the top", watchers, pipeline, statistics.median(rates), ""))
                # Top changes, the watchers read all along (their reading competes for
                # the CPUs), then not read during the run (the server's cost alone).
                for paused in ((False, True) if drain else (False,)):
                    rates, per_watcher = [], []
                    for _ in range(sb.ROUNDS):
                        before, t0 = drain.messages if drain else 0, time.monotonic()
                        if drain:
                            drain.paused = paused
                        r = sb.run_benchmark(srv, 16, 400_000,
                                             command=["LB.ADD", "board", "INCR", "1", "hot"])
                        secs = time.monotonic() - t0
                        rates.extend(r.values())
                        if drain:
                            drain.paused = False
                            time.sleep(1.0)
                            per_watcher.append((drain.messages - before) / watchers / secs)
                    note = ""
                    if drain:
                        note = "%.1f msgs/s per watcher%s" % (
                            statistics.median(per_watcher), ", read after the run" if paused else "")
                    rows.append(("top changes", watchers, 16, statistics.median(rates), note))
            finally:
                if drain:
                    drain.close()
        print("| writes | watchers | pipeline | LB.ADD/s | |")
        print("|---|---:|---:|---:|---|")
        for what, w, p, rate, note in rows:
            print("| %s | %d | %d | %s | %s |" % (what, w, p, "{:,.0f}".format(rate), note))
        p50, p99 = delivery_delays(srv)
        print("\nwrite -> message at a watcher (after a quiet interval): p50 %.3f ms, p99 %.3f ms"
              % (p50, p99))
    finally:
        srv.stop()


if __name__ == "__main__":
    main()
