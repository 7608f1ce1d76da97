#!/usr/bin/python3
"""Scale curve (issue 34): one sorted set of 10^3 .. 10^8 members on each server in turn.

For each size N (16-byte members m:00 + 12 digits, the form redis-benchmark's
m:00__rand_int__ produces, random integer scores in [0, 2^31)) and each server:

  - load time (a pipelined loader, ZADD of 1000 members per command) and RSS growth per
    element right after loading (VmRSS)
  - BGSAVE time (until INFO persistence says it is done) and the snapshot's size
  - restart time: the server restarted on that snapshot, until it answers DBSIZE
  Each time is wall-clock and, beside it, the server's CPU seconds for it (the load and
  the restart: schedstat; BGSAVE: the forked child's utime+stime once reaped), since on a
  shared machine wall-clock mostly measures the other processes.
  - server CPU per request (run time of all its threads from /proc/PID/task/*/schedstat,
    user + kernel, over a fixed number of requests; redis-benchmark, 50 clients,
    pipeline 16, random members) of ZINCRBY, ZADD (an existing member, a random score),
    ZSCORE, ZREVRANK, ZREVRANGE 0 9 WITHSCORES and a deep page (ZREVRANGE N/2 N/2+9
    WITHSCORES)

A size is skipped for a server when MemAvailable is under 2.5x its expected RSS at that
moment (the fork of BGSAVE and the restart need headroom; the machine is shared), and the
reason is recorded. Writes a JSON file per size as it goes, then a Markdown table and a
PNG plot (matplotlib) from everything in the output folder.

  bench/scale_curve.py [--out bench/scale] [--sizes 3,4,5,6,7,8] [--servers rankd,redis]
                       [--requests 200000]
  RANKD_BIN [build/rankd], REDIS_SERVER_BIN [/usr/bin/redis-server]
  bench/scale_curve.py --report-only --out bench/scale    (table and plot only)
  bench/scale_curve.py --from-rdb DIR --sizes 6,8 --servers rankd [--tests ZINCRBY,ZREVRANK]
      the board read from an RDB (bench/zset_rdb.py) instead of loaded, CPU per request
      only (and with --bgsave a BGSAVE's time and size), JSON lines on stdout; ROUNDS [1]
      alternating rounds, SETTLE [30]
"""

import argparse
import glob
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import request_cost  # noqa: E402  (cpu_seconds)
import zset_loader  # noqa: E402
from sidebyside import resp, rss  # noqa: E402
RANKD = os.environ.get("RANKD_BIN", os.path.join(HERE, "..", "build", "rankd"))
REDIS = os.environ.get("REDIS_SERVER_BIN", "/usr/bin/redis-server")
BYTES_PER_ELEM = {"rankd": 42, "redis": 135}  # RSS, for the headroom check


class Conn:
    def __init__(self, port):
        self.s = socket.create_connection(("127.0.0.1", port), timeout=3600)
        self.buf = b""

    def line(self):
        while b"\r\n" not in self.buf:
            chunk = self.s.recv(1 << 20)
            if not chunk:
                raise RuntimeError("connection closed")
            self.buf += chunk
        ln, self.buf = self.buf.split(b"\r\n", 1)
        return ln

    def call(self, *args):
        self.s.sendall(resp(*args))
        ln = self.line()
        if ln.startswith(b"$") and ln != b"$-1":
            n = int(ln[1:])
            while len(self.buf) < n + 2:
                self.buf += self.s.recv(1 << 20)
            data, self.buf = self.buf[:n], self.buf[n + 2:]
            return data
        return ln


def load(port, n, seed=7):
    """The board: ZADD lb of m:00 + 12 digits, random integer scores in [0, 2^31)."""
    zset_loader.load_zset("127.0.0.1", port, "lb", n, seed=seed, score_max=1 << 31)
    card = int(Conn(port).call("ZCARD", "lb")[1:])
    if card != n:
        raise RuntimeError("ZCARD %d, expected %d" % (card, n))


def cpu_s(pid):
    """CPU seconds of all the threads of `pid` (schedstat run time)."""
    return request_cost.cpu_seconds(pid)[2]


def child_cpu_s(pid):
    """CPU seconds of the reaped children of `pid` (a BGSAVE's forked child)."""
    f = open("/proc/%d/stat" % pid).read().rsplit(")", 1)[1].split()
    return (int(f[13]) + int(f[14])) / os.sysconf("SC_CLK_TCK")


def mem_available():
    for line in open("/proc/meminfo"):
        if line.startswith("MemAvailable:"):
            return int(line.split()[1]) * 1024
    return 0


class Server:
    def __init__(self, kind, port, d, extra=()):
        self.kind, self.port, self.dir, self.extra = kind, port, d, list(extra)
        self.proc = None

    def start(self):
        binary = RANKD if self.kind == "rankd" else REDIS
        argv = [binary, "--port", str(self.port), "--dir", self.dir, "--dbfilename", "dump.rdb",
                "--save", "", "--appendonly", "no"] + self.extra
        self.proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        t0 = time.monotonic()
        while True:  # until it answers (and is not loading)
            try:
                reply = Conn(self.port).call("DBSIZE")
                if reply.startswith(b":"):
                    return time.monotonic() - t0
            except OSError:
                pass
            if self.proc.poll() is not None:
                raise RuntimeError("%s exited" % self.kind)
            time.sleep(0.01)

    def stop(self):
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(600)


def bgsave(port):
    """Seconds from BGSAVE until the save is done. Its reply comes once the child is
    forked, so the save is done when INFO no longer shows it in progress (LASTSAVE, the
    second of the last save, would not change for a save ending in the second the
    server started, as on a small board)."""
    c = Conn(port)
    t0 = time.monotonic()
    reply = c.call("BGSAVE")
    if reply != b"+Background saving started":
        raise RuntimeError("BGSAVE: %r" % reply)
    while True:
        time.sleep(0.02)
        info = c.call("INFO", "persistence").decode()
        if "rdb_bgsave_in_progress:0" in info:
            dt = time.monotonic() - t0
            if "rdb_last_bgsave_status:ok" not in info:
                raise RuntimeError("BGSAVE failed")
            return dt


def tests(n):
    half = n // 2
    return [
        ("ZINCRBY", ["ZINCRBY", "lb", "1", "m:00__rand_int__"]),
        ("ZADD", ["ZADD", "lb", "__rand_int__", "m:00__rand_int__"]),
        ("ZSCORE", ["ZSCORE", "lb", "m:00__rand_int__"]),
        ("ZREVRANK", ["ZREVRANK", "lb", "m:00__rand_int__"]),
        ("ZREVRANGE 0 9", ["ZREVRANGE", "lb", "0", "9", "WITHSCORES"]),
        ("deep page", ["ZREVRANGE", "lb", str(half), str(half + 9), "WITHSCORES"]),
    ]


def cpu_per_request(server, n, requests, only=None):
    """{test: server CPU microseconds per request} for tests(n), or those named in `only`."""
    out = {}
    for name, cmd in tests(n):
        if only is not None and name not in only:
            continue
        c0 = cpu_s(server.proc.pid)
        subprocess.run(["redis-benchmark", "-p", str(server.port), "-c", "50", "-n",
                        str(requests), "-P", "16", "-r", str(n), "-q"] + cmd,
                       stdout=subprocess.DEVNULL, check=True)
        out[name] = (cpu_s(server.proc.pid) - c0) / requests * 1e6
    return out


def measure(kind, n, port, requests):
    d = tempfile.mkdtemp(prefix="scale-%s-" % kind, dir=os.environ.get("SCALE_TMP", "/tmp"))
    s = Server(kind, port, d)
    r = {"server": kind, "n": n, "loadavg": os.getloadavg()[0]}
    try:
        s.start()
        base = rss(s.proc.pid)
        t0, c0 = time.monotonic(), cpu_s(s.proc.pid)
        load(port, n)
        r["load_s"] = time.monotonic() - t0
        r["load_cpu_s"] = cpu_s(s.proc.pid) - c0
        r["rss_per_elem"] = (rss(s.proc.pid) - base) / n
        print("partial:", json.dumps(r), file=sys.stderr, flush=True)
        r["cpu_us"] = cpu_per_request(s, n, requests)
        print("partial:", json.dumps(r), file=sys.stderr, flush=True)
        c0 = child_cpu_s(s.proc.pid)
        r["bgsave_s"] = bgsave(port)
        time.sleep(0.2)  # the child is reaped on the server's next cron tick
        r["bgsave_child_cpu_s"] = child_cpu_s(s.proc.pid) - c0
        r["rdb_bytes"] = os.path.getsize(os.path.join(d, "dump.rdb"))
        print("partial:", json.dumps(r), file=sys.stderr, flush=True)
        s.stop()
        r["restart_s"] = s.start()
        r["restart_cpu_s"] = cpu_s(s.proc.pid)
        card = Conn(port).call("ZCARD", "lb")
        if not card.startswith(b":"):
            raise RuntimeError("ZCARD after restart: %r" % card)
    finally:
        s.stop()
        shutil.rmtree(d, ignore_errors=True)
    return r


def measure_from_rdb(kind, n, port, requests, rdb_dir, only, settle, with_bgsave=False):
    """CPU per request only, on a board read from an RDB that bench/zset_rdb.py wrote (the
    same board as load(); minutes instead of the ZADD load's half hour at 10^8)."""
    import zset_rdb
    e = len(str(n)) - 1
    rdb = os.path.join(rdb_dir, "zset-%d.rdb" % e)
    if not os.path.exists(rdb):
        zset_rdb.write(rdb + ".tmp", n)
        os.rename(rdb + ".tmp", rdb)
    d = tempfile.mkdtemp(prefix="scale-%s-" % kind, dir=os.environ.get("SCALE_TMP", "/tmp"))
    os.symlink(rdb, os.path.join(d, "dump.rdb"))
    s = Server(kind, port, d)
    r = {"server": kind, "n": n, "loadavg": os.getloadavg()[0], "from_rdb": True}
    try:
        r["restart_s"] = s.start()
        r["restart_cpu_s"] = cpu_s(s.proc.pid)
        time.sleep(settle)  # rankd merges its huge pages in the background meanwhile
        r["rss_per_elem"] = rss(s.proc.pid) / n
        r["cpu_us"] = cpu_per_request(s, n, requests, only)
        if with_bgsave:
            os.unlink(os.path.join(d, "dump.rdb"))  # the link to the shared RDB
            c0 = child_cpu_s(s.proc.pid)
            r["bgsave_s"] = bgsave(port)
            time.sleep(0.2)  # the child is reaped on the server's next cron tick
            r["bgsave_child_cpu_s"] = child_cpu_s(s.proc.pid) - c0
            r["rdb_bytes"] = os.path.getsize(os.path.join(d, "dump.rdb"))
    finally:
        s.stop()
        shutil.rmtree(d, ignore_errors=True)
    return r


def report(out_dir):
    rows = [json.load(open(f)) for f in sorted(glob.glob(os.path.join(out_dir, "*.json")))]
    rows.sort(key=lambda r: (r["n"], r["server"]))
    names = [t[0] for t in tests(1000)]
    lines = ["| members | server | load s (CPU) | RSS B/elem | BGSAVE s (child CPU) | RDB MB | "
             "restart s (CPU) | " + " | ".join("%s us" % x for x in names) + " |",
             "|" + "---:|" * (7 + len(names))]
    for r in rows:
        if "skipped" in r:
            lines.append("| %d | %s | skipped: %s |" % (r["n"], r["server"], r["skipped"]))
            continue
        def cpu(key):  # older rows have wall time only
            return " (%.2f)" % r[key] if key in r else ""
        lines.append("| %d | %s | %.2f%s | %.1f | %.2f%s | %.1f | %.2f%s | %s |" % (
            r["n"], r["server"], r["load_s"], cpu("load_cpu_s"), r["rss_per_elem"],
            r["bgsave_s"], cpu("bgsave_child_cpu_s"), r["rdb_bytes"] / 1e6, r["restart_s"],
            cpu("restart_cpu_s"),
            " | ".join("%.2f" % r["cpu_us"][x] for x in names)))
    table = "\n".join(lines)
    open(os.path.join(out_dir, "table.md"), "w").write(table + "\n")
    print(table)
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("no matplotlib: no plot")
        return
    ok = [r for r in rows if "skipped" not in r]
    fig, axes = plt.subplots(2, 4, figsize=(18, 8))
    panels = [("cpu_us", x, "%s: server CPU us/request" % x) for x in names] + [
        ("rss_per_elem", None, "RSS bytes per element"), ("load_s", None, "load s (per 10^6)")]
    for ax, (key, sub, title) in zip(axes.flat, panels):
        for kind, style in (("rankd", "o-"), ("redis", "s--")):
            pts = [(r["n"], r[key][sub] if sub else r[key]) for r in ok if r["server"] == kind]
            if key == "load_s":
                pts = [(n, v / n * 1e6) for n, v in pts]
            if pts:
                ax.plot([p[0] for p in pts], [p[1] for p in pts], style,
                        label="rankd" if kind == "rankd" else "redis-server 7.0")
        ax.set_xscale("log")
        ax.set_title(title, fontsize=9)
        ax.grid(True, alpha=0.3)
        ax.set_ylim(bottom=0)
    axes.flat[0].legend()
    fig.suptitle("One sorted set, 10^3..10^8 members of 16 bytes, random scores "
                 "(redis-benchmark -c 50 -P 16; CPU from schedstat)")
    fig.tight_layout()
    fig.savefig(os.path.join(out_dir, "scale_curve.png"), dpi=80)
    print("plot: %s" % os.path.join(out_dir, "scale_curve.png"))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=os.path.join(HERE, "scale"))
    ap.add_argument("--sizes", default="3,4,5,6,7,8")
    ap.add_argument("--servers", default="rankd,redis")
    ap.add_argument("--requests", type=int, default=200000)
    ap.add_argument("--report-only", action="store_true")
    ap.add_argument("--from-rdb", metavar="DIR",
                    help="start each server on DIR/zset-E.rdb (written if missing) and "
                         "measure only --tests' CPU per request, SETTLE s [30] after start")
    ap.add_argument("--tests", default="ZINCRBY,ZREVRANK",
                    help="comma-separated names from tests(), e.g. 'ZREVRANGE 0 9,deep page'")
    ap.add_argument("--bgsave", action="store_true",
                    help="with --from-rdb: also time a BGSAVE after the requests")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    if a.from_rdb:
        port = 27940
        for rnd in range(int(os.environ.get("ROUNDS", "1"))):
            for e in [int(x) for x in a.sizes.split(",")]:
                for kind in a.servers.split(","):
                    port += 1
                    r = measure_from_rdb(kind, 10 ** e, port, a.requests, a.from_rdb,
                                         a.tests.split(","), float(os.environ.get("SETTLE", "30")),
                                         a.bgsave)
                    r["round"] = rnd
                    print(json.dumps(r), flush=True)
        return
    if not a.report_only:
        port = 27900
        for e in [int(x) for x in a.sizes.split(",")]:
            n = 10 ** e
            for kind in a.servers.split(","):
                port += 1
                need = 2.5 * BYTES_PER_ELEM[kind] * n
                if mem_available() < need:
                    r = {"server": kind, "n": n, "skipped": "MemAvailable %.1f GB < %.1f GB "
                         "needed (2.5x the expected RSS)" % (mem_available() / 1e9, need / 1e9)}
                else:
                    r = measure(kind, n, port, a.requests)
                print(json.dumps(r), flush=True)
                json.dump(r, open(os.path.join(a.out, "%s-%d.json" % (kind, e)), "w"))
    report(a.out)


if __name__ == "__main__":
    main()
