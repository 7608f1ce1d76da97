"""Keyspace throughput at pipeline 16: two rankd builds and redis-server 7.0 (issue 15).

Checks that the compact keyspace entry costs no throughput: SET, GET, HSET, ZADD
(redis-benchmark's own tests, -r 100000) and HGETALL of random member profiles
(bench/types_bench.py's hashes, 100,000 loaded first), servers alternating, BENCH_ROUNDS
rounds, median.

    RANKD_BEFORE=/path/to/old/rankd /usr/bin/python3 bench/keyspace_tp_bench.py
Knobs: RANKD_BIN [build/rankd], RANKD_BEFORE [unset: skipped], BENCH_ROUNDS [3],
BENCH_N16 [400000], BENCH_PROFILES [100000].
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sidebyside as sb  # noqa: E402
from types_bench import load_profiles  # noqa: E402

N16 = int(os.environ.get("BENCH_N16", "400000"))
PROFILES = int(os.environ.get("BENCH_PROFILES", "100000"))
TESTS = ["SET", "GET", "HSET", "ZADD"]
HGETALL = "HGETALL user:__rand_int__"


def main():
    binaries = {"rankd": sb.RANKD_BIN}
    if os.environ.get("RANKD_BEFORE"):
        binaries = {"before": os.environ["RANKD_BEFORE"], "rankd": sb.RANKD_BIN}
    servers = {name: sb.Server(name, [path]).start() for name, path in binaries.items()}
    servers["redis"] = sb.Server("redis", [sb.REDIS_BIN]).start()
    rates = {}
    try:
        for srv in servers.values():
            load_profiles(srv.port, PROFILES)
        for rnd in range(sb.ROUNDS):
            for name, srv in servers.items():
                sb.log("round %d %s" % (rnd + 1, name))
                got = sb.run_benchmark(srv, 16, N16, tests=",".join(TESTS).lower(),
                                       keyspace=PROFILES)
                got.update(sb.run_benchmark(srv, 16, N16, command=HGETALL.split(),
                                            keyspace=PROFILES))
                for test, rps in got.items():
                    rates.setdefault((name, test), []).append(rps)
    finally:
        for srv in servers.values():
            srv.stop()
    names = list(servers)
    print("| test (pipeline 16) | " + " | ".join(names) + " | rankd / redis |")
    print("|---|" + "---:|" * (len(names) + 1))
    for test in TESTS + [HGETALL]:
        meds = {n: sb.median(rates.get((n, test), [])) for n in names}
        ratio = meds["rankd"] / meds["redis"] if meds["redis"] else float("nan")
        print("| %s | %s | %.2fx |" % (test, " | ".join(sb.fmt_rate(meds[n]) for n in names),
                                        ratio))


if __name__ == "__main__":
    main()
