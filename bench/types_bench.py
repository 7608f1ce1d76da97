"""rankd vs redis-server 7.0 on hashes and lists (issue 15).

1. redis-benchmark's own LPUSH, RPUSH, LPOP, RPOP, LRANGE_100, HSET tests at pipeline 1
   and 16, servers alternating, BENCH_ROUNDS rounds (median).
2. Member profiles: BENCH_HASHES (1,000,000) hashes of 5 fields loaded pipelined into
   each fresh server; RSS growth per hash and per field once RSS settles; then
   redis-benchmark HSET (one field of a random profile) and HGETALL of random profiles.

    /usr/bin/python3 bench/types_bench.py          # uses build/rankd
Knobs: BENCH_ROUNDS [3] BENCH_CLIENTS [50] BENCH_N1 [100000] BENCH_N16 [500000]
BENCH_HASHES [1000000] (0: skip part 2), RANKD_BASE_BIN (a second rankd, the "before" of
an A/B, alternating with the other two; see sidebyside.py).
"""

import os
import socket
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sidebyside as sb  # noqa: E402

N1 = int(os.environ.get("BENCH_N1", "100000"))
N16 = int(os.environ.get("BENCH_N16", "500000"))
HASHES = int(os.environ.get("BENCH_HASHES", "1000000"))
LIST_TESTS = ["LPUSH", "RPUSH", "LPOP", "RPOP", "LRANGE_100 (first 100 elements)", "HSET"]


def profile_command(i):
    key = b"user:%d" % i
    fields = [b"name", b"user%d" % i, b"email", b"user%d@example.com" % i, b"country", b"FR",
              b"level", b"%d" % (i % 100), b"joined", b"2026-01-%02d" % (i % 28 + 1)]
    args = [b"HSET", key] + fields
    return b"*%d\r\n" % len(args) + b"".join(b"$%d\r\n%s\r\n" % (len(a), a) for a in args)


def load_profiles(port, count):
    load_commands(port, profile_command, count)


def load_commands(port, make, count):
    """Sends make(0) .. make(count - 1) pipelined, 10,000 per batch, each answered by
    one reply line (integer or simple string)."""
    with socket.create_connection(("127.0.0.1", port), timeout=120) as s:
        batch = 10000
        for start in range(0, count, batch):
            n = min(batch, count - start)
            s.sendall(b"".join(make(i) for i in range(start, start + n)))
            got = 0
            while got < n:
                chunk = s.recv(1 << 20)
                if not chunk:
                    raise RuntimeError("connection closed while loading")
                got += chunk.count(b"\n")  # one line per integer reply


def main():
    servers = sb.start_pair()
    rates = {}
    try:
        mem = {}
        for name, srv in (servers.items() if HASHES else ()):
            sb.log("loading %d profiles into %s ..." % (HASHES, name))
            before = srv.rss()
            load_profiles(srv.port, HASHES)
            mem[name] = sb.settled_growth(srv, before)
            dbsize = srv.command("DBSIZE")
            if not dbsize.startswith(b":%d" % HASHES):
                raise SystemExit("%s: DBSIZE %r after loading" % (name, dbsize))
        profile_cmds = [("HSET profile field", ["HSET", "user:__rand_int__", "level", "7"]),
                        ("HGETALL profile", ["HGETALL", "user:__rand_int__"])]
        for rnd in range(sb.ROUNDS if HASHES else 0):
            for name in servers:
                for label, cmd in profile_cmds:
                    for pipeline, n in ((1, N1), (16, N16)):
                        sb.log("round %d %s %s pipeline %d" % (rnd + 1, name, label, pipeline))
                        got = sb.run_benchmark(servers[name], pipeline, n, command=cmd,
                                               keyspace=HASHES)
                        rates.setdefault((name, label, pipeline), []).append(
                            list(got.values())[0])
        for srv in servers.values():
            srv.command("FLUSHALL")
        for rnd in range(sb.ROUNDS):
            for name in servers:
                for pipeline, n in ((1, N1), (16, N16)):
                    sb.log("round %d %s lists/hset pipeline %d" % (rnd + 1, name, pipeline))
                    got = sb.run_benchmark(servers[name], pipeline, n,
                                           tests="lpush,rpush,lpop,rpop,lrange_100,hset")
                    for test, rps in got.items():
                        rates.setdefault((name, test, pipeline), []).append(rps)
        rows = [(t, p, t) for p in (1, 16) for t in LIST_TESTS]
        sb.print_table("redis-benchmark: lists and HSET", rows, rates)
        if not HASHES:
            return
        rows = [(label, p, label) for p in (1, 16) for label, _ in profile_cmds]
        sb.print_table("Member profiles: %d hashes of 5 fields" % HASHES, rows, rates)
        print("\n### Memory: %d hashes of 5 fields\n" % HASHES)
        print("| server | RSS growth per hash (bytes) | per field (bytes) |")
        print("|---|---:|---:|")
        for name in servers:
            print("| %s | %.1f | %.1f |" % (name, mem[name] / HASHES, mem[name] / HASHES / 5))
    finally:
        for srv in servers.values():
            srv.stop()


if __name__ == "__main__":
    main()
