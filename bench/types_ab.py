#!/usr/bin/python3
"""A/B/C of redis-benchmark tests: a base rankd (RANKD_BASE_BIN), this build (MINE, default
build/rankd) and redis-server, fresh servers each round, alternating; requests/s and the
server's CPU per request (utime+stime / requests). Knobs: T [lpush,rpush,hset] P [16]
N [500000] R [3].

    RANKD_BASE_BIN=/tmp/rankd-main /usr/bin/python3 bench/types_ab.py
"""
import os, sys, statistics
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sidebyside as sb
tests = os.environ.get("T", "lpush,rpush,hset")
P = int(os.environ.get("P", "16")); N = int(os.environ.get("N", "500000"))
rounds = int(os.environ.get("R", "3"))
bins = [("main", os.environ["RANKD_BASE_BIN"]),
        ("mine", os.environ.get("MINE", os.path.join(sb.REPO, "build", "rankd"))),
        ("redis", sb.REDIS_BIN)]
rates = {}; loads = []; cpus = {}
def cpu(pid):
    f = open("/proc/%d/stat" % pid).read().rsplit(")", 1)[1].split()
    return (int(f[11]) + int(f[12])) / os.sysconf("SC_CLK_TCK")
for r in range(rounds):
    for name, b in bins:
        s = sb.Server("rankd" if name != "redis" else "redis", [b]).start()
        try:
            loads.append(os.getloadavg()[0])
            for t in tests.split(","):
                c0 = cpu(s.proc.pid)
                got = sb.run_benchmark(s, P, N, tests=t)
                us = (cpu(s.proc.pid) - c0) * 1e6 / N
                for tt, v in got.items():
                    rates.setdefault((tt, name), []).append(v)
                    cpus.setdefault((tt, name), []).append(us)
        finally:
            s.stop()
print("load avg during runs: min %.2f median %.2f max %.2f" % (min(loads), statistics.median(loads), max(loads)))
print("| test P%d | main | branch | redis | branch/redis | main/redis | branch/main | server CPU us/req main / branch / redis |" % P)
print("|---|---:|---:|---:|---:|---:|---:|---|")
for t in dict.fromkeys(k[0] for k in rates):
    m = {n: statistics.median(rates[(t, n)]) for n, _ in bins}
    c = {n: statistics.median(cpus[(t, n)]) for n, _ in bins}
    print("| %s | %.0f | %.0f | %.0f | %.2fx | %.2fx | %.2fx | %.2f / %.2f / %.2f |" % (t, m["main"], m["mine"], m["redis"], m["mine"]/m["redis"], m["main"]/m["redis"], m["mine"]/m["main"], c["main"], c["mine"], c["redis"]))
