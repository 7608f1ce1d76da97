#!/usr/bin/python3
"""HyperLogLog memory and throughput, rankd vs redis-server 7.0 side by side (issue 31).

Memory: RSS growth per key (bench/sidebyside.py settled_growth) for
  sparse  BENCH_SPARSE_KEYS (200,000) keys, each PFADD hll:<i> of 10 elements (~40 bytes)
  dense   BENCH_DENSE_KEYS (20,000) keys, each PFADD then PFDEBUG TODENSE (12,304 bytes)
Throughput (redis-benchmark, 50 clients, pipeline 1 and 16, median of BENCH_ROUNDS
alternating rounds):
  PFADD sparse   PFADD s:__rand_int__ e:__rand_int__   (-r 10000: 10,000 sparse keys)
  PFADD dense    PFADD dense e:__rand_int__           (one dense key)
  PFCOUNT cached PFCOUNT dense                        (the header's cached estimate)
  PFCOUNT union  PFCOUNT dense dense2                 (two dense keys, computed each time)
  PFMERGE        PFMERGE m dense dense2

    /usr/bin/python3 bench/hll_bench.py          # uses build/rankd
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sidebyside as sb  # noqa: E402
from sidebyside import resp  # noqa: E402
from types_bench import load_commands  # noqa: E402

SPARSE_KEYS = int(os.environ.get("BENCH_SPARSE_KEYS", "200000"))
DENSE_KEYS = int(os.environ.get("BENCH_DENSE_KEYS", "20000"))
N1 = int(os.environ.get("BENCH_N1", "200000"))
N16 = int(os.environ.get("BENCH_N16", "1000000"))


def sparse_command(i):
    return resp(b"PFADD", b"hll:%d" % i, *[b"u%d-%d" % (i, j) for j in range(10)])


def dense_commands(i):
    return resp(b"PFADD", b"hll:%d" % i, b"a") + resp(b"PFDEBUG", b"TODENSE", b"hll:%d" % i)


def memory(servers):
    print("| HLL kind | keys | rankd B/key | redis-server B/key | rankd / redis |")
    print("|---|---:|---:|---:|---:|")
    for kind, make, keys, replies in (("sparse, 10 elements", sparse_command, SPARSE_KEYS, 1),
                                      ("dense", dense_commands, DENSE_KEYS, 2)):
        per_key = {}
        for name, srv in servers.items():
            srv.command("FLUSHALL")
            before = srv.rss()
            # load_commands waits for one reply per slot: a dense key takes two slots.
            load_commands(srv.port, lambda i: make(i // replies) if i % replies == 0 else b"",
                          keys * replies)
            per_key[name] = sb.settled_growth(srv, before) / keys
            srv.command("FLUSHALL")
        a, b = per_key["rankd"], per_key["redis"]
        print("| %s | %d | %.1f | %.1f | %.2fx |" % (kind, keys, a, b, a / b))
        sys.stdout.flush()


def prepare(srv):
    srv.command("FLUSHALL")
    srv.command("PFADD", "dense", *["d%d" % i for i in range(20000)])
    srv.command("PFADD", "dense2", *["x%d" % i for i in range(20000)])
    srv.command("PFCOUNT", "dense")


TESTS = [
    ("PFADD sparse", ["PFADD", "s:__rand_int__", "e:__rand_int__"], 10000),
    ("PFADD dense", ["PFADD", "dense", "e:__rand_int__"], 100000000),
    ("PFCOUNT cached", ["PFCOUNT", "dense"], None),
    ("PFCOUNT union of 2", ["PFCOUNT", "dense", "dense2"], None),
    ("PFMERGE 2 dense", ["PFMERGE", "m", "dense", "dense2"], None),
]


def main():
    servers = sb.start_pair()
    try:
        memory(servers)
        rates = {}
        for _ in range(sb.ROUNDS):
            for name, srv in servers.items():
                prepare(srv)
                for label, cmd, keyspace in TESTS:
                    for pipeline, n in ((1, N1), (16, N16)):
                        n = n // 10 if "union" in label or "MERGE" in label else n
                        got = sb.run_benchmark(srv, pipeline, n, command=cmd, keyspace=keyspace)
                        rates.setdefault((name, label, pipeline), []).append(
                            list(got.values())[0])
        rows = [(label, p, label) for label, _, _ in TESTS for p in (1, 16)]
        sb.print_table("HyperLogLog throughput", rows, rates)
    finally:
        for srv in servers.values():
            srv.stop()


if __name__ == "__main__":
    main()
