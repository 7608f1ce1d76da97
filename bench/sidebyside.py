#!/usr/bin/python3
"""Side-by-side load benchmarks: rankd and redis-server 7.0, alternately, in one run.

  bench/sidebyside.py basic        redis-benchmark PING_INLINE/PING_MBULK/SET/GET,
                                   pipeline 1 and 16, 50 clients
  bench/sidebyside.py leaderboard  a 1M-member sorted set (16-byte members), then ZADD,
                                   ZINCRBY, ZREVRANK, ZSCORE, ZREVRANGE 0 9 WITHSCORES and
                                   ZRANGEBYSCORE -inf +inf LIMIT 100000 10

Both suites also load 1,000,000 members of 16 bytes into one sorted set on each server
and print the resident-memory growth (VmRSS from /proc/PID/status) per element.

Every measurement runs ROUNDS times per server, servers alternating (rankd, redis, rankd,
redis, ...), so drift in the machine's speed hits both alike; the table shows medians
and the ratio rankd/redis. Environment knobs (defaults in brackets):

  RANKD_BIN [build/rankd]  REDIS_SERVER_BIN [/usr/bin/redis-server]
  RANKD_BASE_BIN [unset]   a second rankd binary (the "before" of an A/B): it runs
                           as a third server, alternating with the other two, and
                           the table gains its column and rankd / base
  BENCH_ONLY [all]         leaderboard: comma-separated test labels to run
                           (e.g. "ZSCORE,ZREVRANK")
  BENCH_PIPELINES [1,16]   leaderboard: the pipeline depths
  RANKD_ARGS ['']          extra rankd arguments (both servers get --save '' --appendonly no)
  BENCH_ROUNDS [3]  BENCH_CLIENTS [50]  BENCH_N1 / BENCH_N16 (requests per test at
  pipeline 1 / 16)  BENCH_SKIP_MEMORY=1 (no 1M load in the basic suite)
  BENCH_NO_SETTLE=1        leaderboard: start timing right after the load instead of
                           waiting for khugepaged to merge rankd's huge pages
"""

import os
import shlex
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
RANKD_BIN = os.environ.get("RANKD_BIN") or os.path.join(REPO, "build", "rankd")
REDIS_BIN = os.environ.get("REDIS_SERVER_BIN", "/usr/bin/redis-server")
BASE_BIN = os.environ.get("RANKD_BASE_BIN") or None
BENCHMARK = shutil.which("redis-benchmark") or "/usr/bin/redis-benchmark"
ROUNDS = int(os.environ.get("BENCH_ROUNDS", "3"))
CLIENTS = int(os.environ.get("BENCH_CLIENTS", "50"))

sys.path.insert(0, HERE)
from zset_loader import load_zset, member_name  # noqa: E402


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def resp(*args):
    """One command in RESP (bytes, str or numbers)."""
    parts = [b"*%d\r\n" % len(args)]
    for a in args:
        a = a if isinstance(a, bytes) else str(a).encode()
        parts.append(b"$%d\r\n%s\r\n" % (len(a), a))
    return b"".join(parts)


def rss(pid):
    """Resident memory of a process in bytes (VmRSS)."""
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    raise RuntimeError("no VmRSS")


class Server:
    def __init__(self, name, argv_prefix):
        self.name = name
        self.argv_prefix = argv_prefix
        self.proc = None
        self.dir = None
        self.port = None
        self.start_timeout = 10  # seconds to answer PING (more under valgrind)

    def start(self):
        self.port = free_port()
        self.dir = tempfile.mkdtemp(prefix="bench-%s-" % self.name)
        argv = self.argv_prefix + ["--port", str(self.port), "--bind", "127.0.0.1",
                                   "--dir", self.dir]
        # Same flags for both: no snapshots, no append-only log.
        argv += ["--save", "", "--appendonly", "no"]
        if self.name in ("rankd", "base"):
            argv += shlex.split(os.environ.get("RANKD_ARGS", ""))
        self.log = open(os.path.join(self.dir, "server.log"), "wb")
        self.proc = subprocess.Popen(argv, stdout=self.log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + self.start_timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError("%s exited during start-up: %s" % (self.name, " ".join(argv)))
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1) as s:
                    s.sendall(b"PING\r\n")
                    if s.recv(16).startswith(b"+PONG"):
                        return self
            except OSError:
                pass
            time.sleep(0.05)
        raise RuntimeError("%s did not answer PING" % self.name)

    def stop(self):
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        if self.dir:
            shutil.rmtree(self.dir, ignore_errors=True)

    def rss(self):
        return rss(self.proc.pid)

    def command(self, *args):
        """One command over a raw socket; returns the first reply line."""
        with socket.create_connection(("127.0.0.1", self.port), timeout=60) as s:
            s.sendall(resp(*args))
            data = b""
            while b"\r\n" not in data:
                chunk = s.recv(65536)
                if not chunk:
                    break
                data += chunk
            return data


def run_benchmark(server, pipeline, n, tests=None, command=None, keyspace=None):
    """Runs redis-benchmark; returns {test name: requests per second}."""
    LOADS.append(os.getloadavg()[0])
    argv = [BENCHMARK, "-h", "127.0.0.1", "-p", str(server.port), "-c", str(CLIENTS),
            "-n", str(n), "-P", str(pipeline), "--csv"]
    if keyspace:
        argv += ["-r", str(keyspace)]
    if tests:
        argv += ["-t", tests]
    if command:
        argv += command
    out = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=900)
    rates = {}
    for line in out.stdout.decode(errors="replace").splitlines():
        cells = [c.strip('"') for c in line.split('","')]
        if len(cells) >= 2 and cells[0] != "test":
            try:
                rates[cells[0].strip('"')] = float(cells[1].strip('"'))
            except ValueError:
                pass
    if out.returncode != 0 or not rates:
        raise RuntimeError("redis-benchmark failed against %s:\n%s"
                           % (server.name, out.stdout.decode(errors="replace")[-2000:]))
    return rates


def supports(server, *cmd):
    reply = server.command(*cmd)
    return not reply.startswith(b"-ERR unknown command")


def measure_load(server, count=1_000_000):
    """Loads `count` 16-byte members into key "lb"; returns bytes of RSS growth per
    element once RSS has settled."""
    before = server.rss()
    load_zset("127.0.0.1", server.port, "lb", count)
    growth = settled_growth(server, before)
    card = server.command("ZCARD", "lb")
    if not card.startswith(b":%d" % count):
        raise RuntimeError("%s: ZCARD lb replied %r after loading" % (server.name, card))
    return growth / count


def settled_growth(server, before):
    """RSS growth since `before` at steady state: allocators return freed pages
    asynchronously (rankd's jemalloc purges dirty pages after ~1 s), so sample until RSS
    stops falling, for at most 15 s. Both servers are measured the same way."""
    after = server.rss()
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        time.sleep(1.0)
        now = server.rss()
        if now >= after - 64 * 1024:
            after = min(after, now)
            break
        after = now
    return after - before


def huge_bytes(server):
    try:
        with open("/proc/%d/smaps_rollup" % server.proc.pid) as f:
            for line in f:
                if line.startswith("AnonHugePages:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def settle_huge_pages(servers):
    """rankd asks for huge pages on a big set's arena and index once filled, and the
    kernel's khugepaged merges them in the background at its own pace (~16 MB per 10 s
    over all processes; docs/engine.md). Timed runs start once no server's huge-page
    total has grown for longer than khugepaged's sleep between scans (at most 120 s), so
    every server is measured as a long-lived one, not half-merged. BENCH_NO_SETTLE=1
    skips the wait."""
    if os.environ.get("BENCH_NO_SETTLE") == "1":
        return
    try:
        with open("/sys/kernel/mm/transparent_hugepage/khugepaged/scan_sleep_millisecs") as f:
            quiet = int(f.read()) / 1000.0 + 3
    except (OSError, ValueError):
        return
    last = [huge_bytes(s) for s in servers.values()]
    still_since = time.monotonic()
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and time.monotonic() - still_since < quiet:
        time.sleep(1.0)
        now = [huge_bytes(s) for s in servers.values()]
        if now != last:
            still_since = time.monotonic()
        last = now
    log("huge pages settled: %s" % ", ".join(
        "%s %d MB" % (name, huge_bytes(s) >> 20) for name, s in servers.items()))


SANITY = [
    ("ZCARD", "lb"),
    ("ZRANGEBYSCORE", "lb", "-inf", "+inf", "LIMIT", "100000", "10", "WITHSCORES"),
    ("ZREVRANGE", "lb", "0", "9", "WITHSCORES"),
    ("ZRANGE", "lb", "500000", "500005", "WITHSCORES"),
    ("ZREVRANK", "lb", "m:00000000012345"),
    ("ZSCORE", "lb", "m:00000000999999"),
    ("ZCOUNT", "lb", "1000", "(2000"),
]


def sanity_check(servers):
    """Both servers hold the same 1M-member set: a few replies must be byte-identical,
    so the benchmark never times a wrong answer."""
    sys.path.insert(0, os.path.join(REPO, "tests"))
    from resp_client import RespClient
    for cmd in SANITY:
        raws = []
        for name in servers:
            with RespClient("127.0.0.1", servers[name].port, timeout=120) as c:
                raws.append(c.execute_raw(*cmd)[1])
        if any(r != raws[-1] for r in raws):
            raise SystemExit("sanity check failed: %s\n  rankd: %r\n  redis: %r"
                             % (" ".join(cmd), raws[0][:300], raws[1][:300]))
    log("sanity: %d replies on the 1M-member set identical on both servers" % len(SANITY))


def median(xs):
    return statistics.median(xs) if xs else float("nan")


def fmt_rate(x):
    return "n/a" if x != x else "{:,.0f}".format(x)


def ratio(a, b):
    return "n/a" if a != a or b != b or b == 0 else "%.2fx" % (a / b)


LOADS = []  # the 1-minute load average at the start of each timed run


def print_table(title, rows, rates):
    """rows: [(label, pipeline, key)]; rates[(server, key, pipeline)] = [rps...]."""
    base = BASE_BIN is not None
    print("\n### %s\n" % title)
    print("median of %d alternating rounds, %d clients (requests/s)" % (ROUNDS, CLIENTS))
    if LOADS:
        print("; load average (1 min) during the runs: median %.1f, range %.1f-%.1f"
              % (median(LOADS), min(LOADS), max(LOADS)))
    print()
    if base:
        print("| test | pipeline | rankd | rankd base | redis-server | rankd / base "
              "| rankd / redis | base / redis |")
        print("|---|---:|---:|---:|---:|---:|---:|---:|")
    else:
        print("| test | pipeline | rankd | redis-server | rankd / redis |")
        print("|---|---:|---:|---:|---:|")
    for label, pipeline, key in rows:
        a = median(rates.get(("rankd", key, pipeline), []))
        b = median(rates.get(("redis", key, pipeline), []))
        if base:
            c = median(rates.get(("base", key, pipeline), []))
            print("| %s | %d | %s | %s | %s | %s | %s | %s |"
                  % (label, pipeline, fmt_rate(a), fmt_rate(c), fmt_rate(b), ratio(a, c),
                     ratio(a, b), ratio(c, b)))
        else:
            print("| %s | %d | %s | %s | %s |" % (label, pipeline, fmt_rate(a), fmt_rate(b),
                                                  ratio(a, b)))
    sys.stdout.flush()


def print_memory(mem):
    print("\n### Memory: 1,000,000 members of 16 bytes in one sorted set\n")
    print("| server | RSS growth per element (bytes) |")
    print("|---|---:|")
    for name in mem:
        v = mem.get(name)
        print("| %s | %s |" % ({"redis": "redis-server", "base": "rankd base"}.get(name, name),
                                "n/a (%s)" % v if isinstance(v, str) else "%.1f" % v))
    sys.stdout.flush()


def start_pair():
    if not os.path.exists(RANKD_BIN):
        raise SystemExit("rankd binary not found: %s (build it or set RANKD_BIN)" % RANKD_BIN)
    servers = {"rankd": Server("rankd", [RANKD_BIN]).start()}
    if BASE_BIN:
        servers["base"] = Server("base", [BASE_BIN]).start()
    servers["redis"] = Server("redis", [REDIS_BIN]).start()
    return servers


def memory_pass(servers):
    mem = {}
    for name, srv in servers.items():
        if not supports(srv, "ZCARD", "lb"):
            mem[name] = "no ZADD yet"
            continue
        log("loading 1M members into %s ..." % name)
        mem[name] = measure_load(srv)
    return mem


def suite_basic():
    n1 = int(os.environ.get("BENCH_N1", "150000"))
    n16 = int(os.environ.get("BENCH_N16", "1500000"))
    servers = start_pair()
    rates = {}
    mem = None
    try:
        if os.environ.get("BENCH_SKIP_MEMORY") != "1":
            mem = memory_pass(servers)       # on fresh servers, before anything else
            for srv in servers.values():
                srv.command("FLUSHALL")
        for rnd in range(ROUNDS):
            for name in servers:
                for pipeline, n in ((1, n1), (16, n16)):
                    log("round %d/%d %s pipeline %d ..." % (rnd + 1, ROUNDS, name, pipeline))
                    got = run_benchmark(servers[name], pipeline, n, tests="ping,set,get",
                                        keyspace=100000)
                    for test, rps in got.items():
                        rates.setdefault((name, test, pipeline), []).append(rps)
        rows = [(t, p, t) for p in (1, 16) for t in ("PING_INLINE", "PING_MBULK", "SET", "GET")]
        print_table("redis-benchmark: PING, SET, GET", rows, rates)
        if mem is not None:
            print_memory(mem)
    finally:
        for srv in servers.values():
            srv.stop()


# (label, command, requests at pipeline 1, requests at pipeline 16)
LEADERBOARD = [
    ("ZADD new member", ["ZADD", "lb", "__rand_int__", "n:00__rand_int__"], 100000, 500000),
    ("ZINCRBY", ["ZINCRBY", "lb", "1", "m:00__rand_int__"], 100000, 500000),
    ("ZREVRANK", ["ZREVRANK", "lb", "m:00__rand_int__"], 100000, 500000),
    ("ZSCORE", ["ZSCORE", "lb", "m:00__rand_int__"], 100000, 500000),
    ("ZREVRANGE 0 9 WITHSCORES", ["ZREVRANGE", "lb", "0", "9", "WITHSCORES"], 100000, 500000),
    # Redis walks the 100,000 offset node by node: tens of requests/s on a small machine.
    ("ZRANGEBYSCORE LIMIT 100000 10",
     ["ZRANGEBYSCORE", "lb", "-inf", "+inf", "LIMIT", "100000", "10"], 300, 600),
]


def suite_leaderboard():
    scale = float(os.environ.get("BENCH_SCALE", "1"))
    only = [t for t in os.environ.get("BENCH_ONLY", "").split(",") if t]
    tests = [t for t in LEADERBOARD if not only or t[0] in only]
    pipelines = [int(p) for p in os.environ.get("BENCH_PIPELINES", "1,16").split(",")]
    servers = start_pair()
    rates = {}
    try:
        mem = memory_pass(servers)
        if isinstance(mem.get("rankd"), str):
            print_memory(mem)
            raise SystemExit("rankd has no sorted sets yet: leaderboard benchmark skipped")
        sanity_check(servers)
        settle_huge_pages(servers)
        for rnd in range(ROUNDS):
            for name in servers:
                for label, cmd, n1, n16 in tests:
                    for pipeline, n in ((1, n1), (16, n16)):
                        if pipeline not in pipelines:
                            continue
                        n = max(100, int(n * scale))
                        log("round %d/%d %s %s pipeline %d ..." % (rnd + 1, ROUNDS, name,
                                                                     label, pipeline))
                        got = run_benchmark(servers[name], pipeline, n, command=cmd,
                                            keyspace=1_000_000)
                        rps = list(got.values())[0]
                        rates.setdefault((name, label, pipeline), []).append(rps)
        rows = [(label, p, label) for p in pipelines for label, _, _, _ in tests]
        print_table("Leaderboard workload on a 1M-member sorted set", rows, rates)
        print_memory(mem)
    finally:
        for srv in servers.values():
            srv.stop()


if __name__ == "__main__":
    suite = sys.argv[1] if len(sys.argv) > 1 else "basic"
    if suite == "basic":
        suite_basic()
    elif suite == "leaderboard":
        suite_leaderboard()
    else:
        raise SystemExit("usage: sidebyside.py basic|leaderboard")
