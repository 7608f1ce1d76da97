"""DUMP and RESTORE of a 1,000,000-member sorted set (members "player:N", score N/2: a
skiplist in Redis, the tree in rankd) on rankd and on redis-server 7.0: the round trip
of DUMP key, of RESTORE key 0 payload REPLACE (the event loop is stalled for that
long), and the payload size; then each server RESTOREs the other's payload.
Usage: /usr/bin/python3 bench/dump_restore_bench.py build/rankd [members] [runs]"""
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tests"))
import server_process as sp  # noqa: E402

N = int(sys.argv[2]) if len(sys.argv) > 2 else 1_000_000
RUNS = int(sys.argv[3]) if len(sys.argv) > 3 else 3


def fill(c, key, n):
    for s in range(0, n, 10000):
        a = []
        for i in range(s, min(n, s + 10000)):
            a += [str(i / 2), "player:%d" % i]
        c.execute("ZADD", key, *a)


def timed(c, *cmd):
    t = time.perf_counter()
    reply = c.execute(*cmd)
    return reply, (time.perf_counter() - t) * 1000


servers = {}
payloads = {}
for name, binary, is_redis in [("rankd", sys.argv[1], False),
                               ("redis-server 7.0", "/usr/bin/redis-server", True)]:
    srv = sp.ServerProcess(binary, is_redis=is_redis)
    srv.start()
    servers[name] = srv
    c = srv.raw(timeout=120)
    fill(c, "big", N)
    dumps, restores = [], []
    for _ in range(RUNS):
        p, ms = timed(c, "DUMP", "big")
        dumps.append(ms)
        reply, ms = timed(c, "RESTORE", "big", "0", p, "REPLACE")
        assert reply == b"OK", reply
        restores.append(ms)
    payloads[name] = p
    assert c.execute("ZCARD", "big") == N
    print("%-17s %d members: DUMP %s ms, RESTORE %s ms, payload %.1f MB" % (
        name, N, " / ".join("%.0f" % x for x in dumps),
        " / ".join("%.0f" % x for x in restores), len(p) / 1e6))
    c.close()
for name, srv in servers.items():
    c = srv.raw(timeout=120)
    other = [n for n in payloads if n != name][0]
    times = []
    for _ in range(RUNS):
        reply, ms = timed(c, "RESTORE", "from-other", "0", payloads[other], "REPLACE")
        assert reply == b"OK", reply
        times.append(ms)
    assert c.execute("ZCARD", "from-other") == N
    print("%-17s RESTORE of %s's payload: %s ms" % (name, other,
                                                   " / ".join("%.0f" % x for x in times)))
    c.close()
for srv in servers.values():
    srv.stop()
