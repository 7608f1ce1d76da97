#!/usr/bin/python3
"""Per-request server cost, rankd against redis-server 7.0 (issues 15 and 16).

At pipeline 1 on a small machine the client (redis-benchmark) and the kernel's loopback
path take most of the CPU, so requests/s barely moves when the server gets cheaper.
This measures what the server itself spends per request, alternating the servers as
bench/sidebyside.py does (same Server class and knobs: RANKD_BIN, RANKD_BASE_BIN,
REDIS_SERVER_BIN, BENCH_ROUNDS, BENCH_CLIENTS):

  - requests/s (redis-benchmark, 50 clients)
  - server CPU microseconds per request: utime+stime of the server process from
    /proc/PID/stat, before and after the run, divided by the requests
  - syscalls per request, by name: a separate, shorter run under `strace -c -f -p PID`
    (strace slows everything down; only the counts matter), BENCH_STRACE=0 skips it

  bench/request_cost.py            PING_INLINE, PING_MBULK, GET, ZSCORE, at pipeline 1 and 16
  BENCH_TESTS=ping_mbulk,zscore    a subset (names: ping_inline ping_mbulk get set zscore
                                   zrevrange lpush hset, and zscore_big zincrby_big on a
                                   10,000-member key)
  BENCH_PIPELINES [1,16]  BENCH_N [200000]  BENCH_STRACE_N [20000]

  bench/request_cost.py callgrind  user-space instructions per request of each server,
                                   counted by valgrind's callgrind (zeroed before and
                                   dumped after each redis-benchmark run of BENCH_CG_N
                                   [20000] requests): exact and independent of the load
                                   on the machine, unlike CPU time; kernel work is not
                                   counted
"""

import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import sidebyside as sbs  # noqa: E402

TICK = os.sysconf("SC_CLK_TCK")

# ZADD big 0 m:00000000000000 1 m:00000000000001 ... (10,000 members)
BIG_ZADD = tuple(["ZADD", "big"] + [x for i in range(10000)
                                    for x in (str(i), "m:00%012d" % i)])

# name -> (redis-benchmark arguments, setup commands)
TESTS = {
    "ping_inline": (["-t", "ping_inline"], []),
    "ping_mbulk": (["-t", "ping_mbulk"], []),
    "get": (["-t", "get"], [("SET", "key:__rand_int__", "x")]),
    "set": (["-t", "set"], []),
    "lpush": (["-t", "lpush"], []),
    "hset": (["-t", "hset"], []),
    "zscore": (["ZSCORE", "zs", "m:5"], [("ZADD", "zs", "1", "m:1", "2", "m:5", "3", "m:9")]),
    "zrevrange": (["ZREVRANGE", "zs", "0", "9", "WITHSCORES"],
                  [("ZADD", "zs", "1", "m:1", "2", "m:5", "3", "m:9")]),
    # A 10,000-member key (past the listpack limits: the member index and the tree), hit
    # at random members of bench/zset_loader.py's 16-byte form.
    "zscore_big": (["-r", "10000", "ZSCORE", "big", "m:00__rand_int__"], [BIG_ZADD]),
    "zincrby_big": (["-r", "10000", "ZINCRBY", "big", "1", "m:00__rand_int__"], [BIG_ZADD]),
}


def cpu_seconds(pid):
    """(user, system) CPU seconds of every thread of `pid` (utime, stime in
    /proc/PID/stat, clock ticks) and their sum at nanosecond resolution (the run time in
    /proc/PID/task/*/schedstat)."""
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    total = 0
    for tid in os.listdir("/proc/%d/task" % pid):
        try:
            with open("/proc/%d/task/%s/schedstat" % (pid, tid)) as f:
                total += int(f.read().split()[0])
        except OSError:
            pass  # the thread exited
    return int(fields[11]) / TICK, int(fields[12]) / TICK, total / 1e9


def sleeps(pid):
    """Voluntary context switches of every thread of `pid`: how often it slept."""
    total = 0
    for tid in os.listdir("/proc/%d/task" % pid):
        try:
            with open("/proc/%d/task/%s/status" % (pid, tid)) as f:
                for line in f:
                    if line.startswith("voluntary_ctxt_switches:"):
                        total += int(line.split()[1])
        except OSError:
            pass
    return total


def bench(server, args, pipeline, n):
    argv = [sbs.BENCHMARK, "-h", "127.0.0.1", "-p", str(server.port), "-c", str(sbs.CLIENTS),
            "-n", str(n), "-P", str(pipeline), "--csv"] + args
    sbs.LOADS.append(os.getloadavg()[0])
    out = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=900)
    for line in out.stdout.decode(errors="replace").splitlines():
        cells = [c.strip('"') for c in line.split('","')]
        if len(cells) >= 2 and cells[0].strip('"') != "test":
            try:
                return float(cells[1].strip('"'))
            except ValueError:
                pass
    raise RuntimeError("redis-benchmark failed against %s:\n%s"
                       % (server.name, out.stdout.decode(errors="replace")[-2000:]))


def strace_counts(server, args, pipeline, n):
    """{syscall: calls per request} from strace -c over one run of n requests."""
    out_path = os.path.join(server.dir, "strace.txt")
    st = subprocess.Popen(["strace", "-c", "-f", "-o", out_path, "-p", str(server.proc.pid)],
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(0.5)
    try:
        bench(server, args, pipeline, n)
    finally:
        st.send_signal(signal.SIGINT)
        st.wait(30)
    counts = {}
    with open(out_path) as f:
        for line in f:
            m = re.match(r"\s*[\d.]+\s+[\d.]+\s+\d+\s+(\d+)\s+(?:(\d+)\s+)?(\w+)\s*$", line)
            if m and m.group(3) != "total":
                counts[m.group(3)] = int(m.group(1)) / n
    return counts


def main():
    names = [t for t in os.environ.get("BENCH_TESTS", "ping_inline,ping_mbulk,get,zscore")
             .split(",") if t]
    pipelines = [int(p) for p in os.environ.get("BENCH_PIPELINES", "1,16").split(",")]
    n = int(os.environ.get("BENCH_N", "200000"))
    n_strace = int(os.environ.get("BENCH_STRACE_N", "20000"))
    servers = sbs.start_pair()
    rps, cpu, sysc, waits = {}, {}, {}, {}
    try:
        for srv in servers.values():
            for name in names:
                for cmd in TESTS[name][1]:
                    srv.command(*cmd)
        for rnd in range(sbs.ROUNDS):
            for name in names:
                for p in pipelines:
                    for sname, srv in servers.items():
                        sbs.log("round %d/%d %s %s p%d" % (rnd + 1, sbs.ROUNDS, sname, name, p))
                        u0, s0, t0 = cpu_seconds(srv.proc.pid)
                        w0 = sleeps(srv.proc.pid)
                        r = bench(srv, TESTS[name][0], p, n)
                        u1, s1, t1 = cpu_seconds(srv.proc.pid)
                        waits.setdefault((sname, name, p), []).append(
                            (sleeps(srv.proc.pid) - w0) / n)
                        rps.setdefault((sname, name, p), []).append(r)
                        cpu.setdefault((sname, name, p), []).append(
                            ((t1 - t0) / n * 1e6, (u1 - u0) / n * 1e6, (s1 - s0) / n * 1e6))
        if os.environ.get("BENCH_STRACE", "1") != "0":
            for name in names:
                for p in pipelines:
                    for sname, srv in servers.items():
                        sysc[(sname, name, p)] = strace_counts(srv, TESTS[name][0], p,
                                                               n_strace)
    finally:
        for srv in servers.values():
            srv.stop()
    report(servers, names, pipelines, rps, cpu, sysc, waits)


def report(servers, names, pipelines, rps, cpu, sysc, waits):
    med = sbs.median
    print("\n### Per-request server cost, %d clients, median of %d alternating rounds"
          % (sbs.CLIENTS, sbs.ROUNDS))
    if sbs.LOADS:
        print("\nload average (1 min) during the runs: median %.1f, range %.1f-%.1f"
              % (med(sbs.LOADS), min(sbs.LOADS), max(sbs.LOADS)))
    cols = list(servers)
    print("\nCPU us/req: total (user + system); the split comes from clock ticks, "
          "the total from schedstat, so the parts need not add up exactly")
    print("sleeps/req: voluntary context switches of the server per request")
    print("\n| test | P | " + " | ".join("%s req/s | %s CPU us/req | %s sleeps/req | "
                                         "%s syscalls/req" % (c, c, c, c) for c in cols)
          + " | rankd/redis req/s | rankd/redis CPU | rankd/redis user CPU |"
          + (" rankd/base CPU |" if "base" in cols else ""))
    print("|---|---:|" + "---:|" * (4 * len(cols) + 3 + ("base" in cols)))
    for name in names:
        for p in pipelines:
            row = []
            for c in cols:
                calls = sysc.get((c, name, p))
                cu = cpu[(c, name, p)]
                row += [sbs.fmt_rate(med(rps[(c, name, p)])),
                        "%.2f (%.2f + %.2f)" % (med([x[0] for x in cu]),
                                                med([x[1] for x in cu]), med([x[2] for x in cu])),
                        "%.3f" % med(waits[(c, name, p)]),
                        "%.2f" % sum(calls.values()) if calls else "-"]
            a, b = med(rps[("rankd", name, p)]), med(rps[("redis", name, p)])
            ca = med([x[0] for x in cpu[("rankd", name, p)]])
            cb = med([x[0] for x in cpu[("redis", name, p)]])
            ua = med([x[1] for x in cpu[("rankd", name, p)]])
            ub = med([x[1] for x in cpu[("redis", name, p)]])
            line = "| %s | %d | %s | %s | %s | %s |" % (name, p, " | ".join(row), sbs.ratio(a, b),
                                                       sbs.ratio(ca, cb), sbs.ratio(ua, ub))
            if "base" in cols:
                line += " %s |" % sbs.ratio(ca, med([x[0] for x in cpu[("base", name, p)]]))
            print(line)
    if sysc:
        print("\nsyscalls per request by name (strace -c -f, one run each)\n")
        for (c, name, p), calls in sorted(sysc.items()):
            top = sorted(calls.items(), key=lambda kv: -kv[1])
            print("- %s %s P%d: %s" % (c, name, p,
                                       ", ".join("%s %.3f" % kv for kv in top if kv[1] >= 0.001)))
    sys.stdout.flush()


def callgrind_server(name, binary):
    """Starts `binary` under callgrind; returns (Server, output dir)."""
    cg_dir = tempfile.mkdtemp(prefix="cg-%s-" % name)
    srv = sbs.Server(name, ["valgrind", "--tool=callgrind",
                            "--callgrind-out-file=%s/cg.%%p" % cg_dir, binary])
    srv.start_timeout = 120
    return srv.start(), cg_dir


def callgrind_main():
    names = [t for t in os.environ.get("BENCH_TESTS", "ping_mbulk,get,zscore").split(",") if t]
    pipelines = [int(p) for p in os.environ.get("BENCH_PIPELINES", "1,16").split(",")]
    n = int(os.environ.get("BENCH_CG_N", "20000"))
    bins = {"rankd": sbs.RANKD_BIN}
    if sbs.BASE_BIN:
        bins["base"] = sbs.BASE_BIN
    bins["redis"] = sbs.REDIS_BIN
    ir = {}
    for sname, binary in bins.items():
        srv, cg_dir = callgrind_server(sname, binary)
        try:
            for name in names:
                for cmd in TESTS[name][1]:
                    srv.command(*cmd)
            for name in names:
                for p in pipelines:
                    sbs.log("callgrind %s %s p%d" % (sname, name, p))
                    ctl = ["callgrind_control"]
                    subprocess.run(ctl + ["-z", str(srv.proc.pid)], stdout=subprocess.DEVNULL,
                                   check=True)
                    bench(srv, TESTS[name][0], p, n)
                    label = "%s_p%d" % (name, p)
                    subprocess.run(ctl + ["-d", label, str(srv.proc.pid)],
                                   stdout=subprocess.DEVNULL, check=True)
                    ir[(sname, name, p)] = dumped_instructions(cg_dir, label) / n
        finally:
            srv.stop()
            shutil.rmtree(cg_dir, ignore_errors=True)
    cols = list(bins)
    print("\n### User-space instructions per request (callgrind), %d clients, %d requests"
          % (sbs.CLIENTS, n))
    print("\n| test | P | " + " | ".join(cols) + " | rankd/redis |"
          + (" rankd/base |" if "base" in cols else ""))
    print("|---|---:|" + "---:|" * (len(cols) + 1 + ("base" in cols)))
    for name in names:
        for p in pipelines:
            line = "| %s | %d | %s | %s |" % (
                name, p, " | ".join("%.0f" % ir[(c, name, p)] for c in cols),
                sbs.ratio(ir[("rankd", name, p)], ir[("redis", name, p)]))
            if "base" in cols:
                line += " %s |" % sbs.ratio(ir[("rankd", name, p)], ir[("base", name, p)])
            print(line)


def dumped_instructions(cg_dir, label):
    """The instruction total of the callgrind dump triggered with `label`."""
    for fname in os.listdir(cg_dir):
        with open(os.path.join(cg_dir, fname)) as f:
            text = f.read()
        if ("dump " + label + "\n") not in text:
            continue
        m = re.search(r"^(?:summary|totals): (\d+)", text, re.M)
        if m:
            return int(m.group(1))
    raise RuntimeError("no callgrind dump for %s in %s" % (label, cg_dir))


if __name__ == "__main__":
    if sys.argv[1:] == ["callgrind"]:
        callgrind_main()
    else:
        main()
