"""FLUSHALL SYNC vs FLUSHALL ASYNC holding one 1,000,000-member sorted set, or one
1,000,000-member set, on rankd and redis-server 7.0: the round trip of the FLUSHALL
(the event loop is stalled for that long), two runs each.
Usage: /usr/bin/python3 bench/flush_bench.py build/rankd"""
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tests"))
import server_process as sp  # noqa: E402

N = 1_000_000


def fill(c, kind):
    for s in range(0, N, 10000):
        if kind == "zset":
            a = []
            for i in range(s, min(N, s + 10000)):
                a += [str(i), "member:%d:xxxxxxxxxxxxxxxxxxxx" % i]
            c.execute("ZADD", "big", *a)
        else:
            c.execute("SADD", "big", *["member:%d:xxxxxxxxxxxxxxxxxxxx" % i
                                       for i in range(s, min(N, s + 10000))])


for name, binary, is_redis in [("rankd", sys.argv[1], False),
                               ("redis-server 7.0", "/usr/bin/redis-server", True)]:
    srv = sp.ServerProcess(binary, is_redis=is_redis)
    srv.start()
    c = srv.raw()
    for kind in ("zset", "set"):
        for mode in ("SYNC", "ASYNC"):
            runs = []
            for _ in range(2):
                fill(c, kind)
                t = time.perf_counter()
                c.execute("FLUSHALL", mode)
                runs.append(time.perf_counter() - t)
                time.sleep(1.0)  # let the lazy-free thread finish
            print("%-17s %-4s FLUSHALL %-5s: %s ms" % (
                name, kind, mode, ", ".join("%.1f" % (x * 1000) for x in runs)), flush=True)
    srv.stop()
