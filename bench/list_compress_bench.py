"""list-compress-depth 0 vs 1, rankd vs redis-server 7.0 (issue 15).

1. Memory: one list of BENCH_LIST_LEN (1,000,000) compressible JSON-ish elements of
   ~60 bytes, RPUSHed 100 at a time into a fresh server started with
   --list-compress-depth D; RSS growth per element once RSS settles, and MEMORY USAGE.
2. Throughput at each depth (fresh servers again, the same list preloaded):
   redis-benchmark's LPUSH and LRANGE_100 tests, and LINDEX of the middle element of
   the big list (a compressed chunk when D > 0), at pipeline 1 and 16, servers
   alternating, BENCH_ROUNDS rounds (median).

    /usr/bin/python3 bench/list_compress_bench.py        # uses build/rankd
Knobs: BENCH_ROUNDS [3] BENCH_CLIENTS [50] BENCH_N1 [100000] BENCH_N16 [500000]
(as types_bench.py) BENCH_LIST_LEN [1000000].
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sidebyside as sb  # noqa: E402
from types_bench import N1, N16, load_commands  # noqa: E402

LIST_LEN = int(os.environ.get("BENCH_LIST_LEN", "1000000"))
PER_PUSH = 100


def element(i):
    return (b'{"user":%d,"event":"login","region":"eu-west-1","client":"ios","ok":true}'
            % (i % 1000))


def push_command(j):
    args = [b"RPUSH", b"big"] + [element(j * PER_PUSH + k) for k in range(PER_PUSH)]
    return b"*%d\r\n" % len(args) + b"".join(b"$%d\r\n%s\r\n" % (len(a), a) for a in args)


def start_pair(depth):
    pair = {}
    for name, binary in (("rankd", sb.RANKD_BIN), ("redis", sb.REDIS_BIN)):
        srv = sb.Server(name, [binary, "--list-compress-depth", str(depth)])
        pair[name] = srv.start()
    return pair


def load_list(srv):
    before = srv.rss()
    load_commands(srv.port, push_command, LIST_LEN // PER_PUSH)
    growth = sb.settled_growth(srv, before)
    n = srv.command("LLEN", "big")
    if not n.startswith(b":%d" % LIST_LEN):
        raise SystemExit("%s: LLEN big %r after loading" % (srv.name, n))
    usage = int(srv.command("MEMORY", "USAGE", "big", "SAMPLES", "0").split(b"\r\n")[0][1:])
    return growth, usage


def main():
    mem = {}
    rates = {}
    mid = str(LIST_LEN // 2)
    for depth in (0, 1):
        servers = start_pair(depth)
        try:
            for name, srv in servers.items():
                sb.log("depth %d: loading %d elements into %s ..." % (depth, LIST_LEN, name))
                mem[(name, depth)] = load_list(srv)
            got = [servers[n].command("LINDEX", "big", mid) for n in ("rankd", "redis")]
            if got[0] != got[1]:
                raise SystemExit("LINDEX big %s differs: %r vs %r" % (mid, got[0], got[1]))
            for rnd in range(sb.ROUNDS):
                for name in ("rankd", "redis"):
                    for pipeline, n in ((1, N1), (16, N16)):
                        sb.log("depth %d round %d %s pipeline %d" % (depth, rnd + 1, name,
                                                                     pipeline))
                        got = sb.run_benchmark(servers[name], pipeline, n,
                                               tests="lpush,lrange_100")
                        got.update(sb.run_benchmark(servers[name], pipeline, n,
                                                    command=["LINDEX", "big", mid]))
                        for test, rps in got.items():
                            key = "LINDEX middle" if test.startswith("LINDEX") else test
                            rates.setdefault((name, "%s d%d" % (key, depth), pipeline),
                                             []).append(rps)
        finally:
            for srv in servers.values():
                srv.stop()
    print("\n### Memory: one list of %d JSON-ish elements (~70 bytes)\n" % LIST_LEN)
    print("| server | list-compress-depth | RSS growth per element (bytes) | MEMORY USAGE |")
    print("|---|---:|---:|---:|")
    for name in ("rankd", "redis"):
        for depth in (0, 1):
            growth, usage = mem[(name, depth)]
            print("| %s | %d | %.1f | %s |" % (name, depth, growth / LIST_LEN,
                                               "{:,}".format(usage)))
    rows = []
    for pipeline in (1, 16):
        for test in ("LPUSH", "LRANGE_100 (first 100 elements)", "LINDEX middle"):
            for depth in (0, 1):
                key = "%s d%d" % (test, depth)
                rows.append(("%s, depth %d" % (test, depth), pipeline, key))
    sb.print_table("Throughput at list-compress-depth 0 and 1", rows, rates)


if __name__ == "__main__":
    main()
