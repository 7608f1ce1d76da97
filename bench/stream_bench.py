#!/usr/bin/python3
"""Streams (issue 31), rankd beside redis-server 7.0 in one run: memory per entry of a
stream of 1M entries of two small fields (used_memory delta), and throughput of XADD,
XRANGE (10 entries), XREAD (COUNT 10), XREADGROUP (COUNT 1) and XACK at pipeline 1 and 16,
measured with redis-benchmark (-c 8, 50k requests each).

    bench/stream_bench.py [path/to/rankd]     (default build/rankd)

Prints a Markdown table (bench/RESULTS.md "Streams")."""

import os
import re
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests"))
from server_process import reference_redis, server_under_test  # noqa: E402

N_MEM = 1_000_000
N_REQ = 50_000


def used_memory(c):
    return int(c.info("memory")["used_memory"])


def fill(c, key, n):
    pipe = c.pipeline(transaction=False)
    for i in range(n):
        pipe.execute_command("XADD", key, "%d-1" % (i + 1), "f1", "v%d" % (i % 1000), "f2", "x")
        if i % 10000 == 9999:
            pipe.execute()
    pipe.execute()


def bench(port, args, pipeline):
    out = subprocess.run(["redis-benchmark", "-p", str(port), "-n", str(N_REQ), "-c", "8",
                          "-P", str(pipeline), "-q", "--csv"] + args,
                         capture_output=True, text=True, check=True).stdout
    m = re.findall(r'"([0-9.]+)"', out.splitlines()[-1])
    return float(m[0])


def run(srv):
    c = srv.client()
    c.flushall()
    before = used_memory(c)
    fill(c, "mem", N_MEM)
    time.sleep(0.2)
    per_entry = (used_memory(c) - before) / N_MEM
    c.delete("mem")
    fill(c, "r", 10_000)
    c.execute_command("XGROUP", "CREATE", "r", "g", "0")
    rows = {}
    for p in (1, 16):
        rows[("XADD", p)] = bench(srv.port, ["XADD", "w", "*", "f1", "v1", "f2", "v2"], p)
        rows[("XRANGE 10", p)] = bench(srv.port, ["XRANGE", "r", "5000", "+", "COUNT", "10"], p)
        rows[("XREAD 10", p)] = bench(srv.port, ["XREAD", "COUNT", "10", "STREAMS", "r", "5000"], p)
        # XREADGROUP delivers one new entry a call (and adds it to the PEL), then XACK
        # of one id.
        rows[("XREADGROUP > COUNT 1", p)] = bench(
            srv.port, ["XREADGROUP", "GROUP", "g", "c", "COUNT", "1", "STREAMS", "r", ">"], p)
        rows[("XACK", p)] = bench(srv.port, ["XACK", "r", "g", "1-1"], p)
    c.close()
    return per_entry, rows


def main():
    rankd = sys.argv[1] if len(sys.argv) > 1 else os.path.join("build", "rankd")
    os.environ["RANKD_BIN"] = os.path.abspath(rankd)
    results = {}
    for name, make in (("rankd", server_under_test), ("redis-server 7.0", reference_redis)):
        srv = make()
        srv.start()
        try:
            results[name] = run(srv)
        finally:
            srv.stop()
    names = list(results)
    print("| measure | " + " | ".join(names) + " |")
    print("|---|" + "---|" * len(names))
    print("| bytes per entry (1M entries, 2 small fields) | " +
          " | ".join("%.1f" % results[n][0] for n in names) + " |")
    for key in results[names[0]][1]:
        print("| %s, pipeline %d (req/s) | " % key +
              " | ".join("%.0f" % results[n][1][key] for n in names) + " |")


if __name__ == "__main__":
    main()
