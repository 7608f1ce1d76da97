#!/usr/bin/python3
"""Fork and copy-on-write at scale (issue 34): BGSAVE, then a replica's full sync, of one
large sorted set while writes go on, rankd against redis-server, servers alternating.

Per server and round: the server starts on an RDB written by bench/zset_rdb.py (key "lb",
16-byte members, random integer scores; the same file for both servers), waits SETTLE
seconds, then starts
  - a writer: redis-benchmark -c 2 ZINCRBY lb 1 m:00__rand_int__ (random members, no
    pipeline) for as long as the round lasts, and
  - a pinger: one connection sending PING every millisecond, timing each round trip;
and runs two phases, one after the other:
  1. BGSAVE, until INFO persistence says it is done;
  2. a full sync: a replica (the same server binary) started with --replicaof, until the
     replica reports master_link_status:up.
For each phase it records the wall time, the writes done, the worst and 99.9th percentile
PING round trip, and memory sampled every 20 ms: the primary's RSS plus its forked child's
private memory (smaps_rollup Private_Clean + Private_Dirty: the pages no longer shared,
that is the copy-on-write), the peak of that over the RSS before the phase ("COW peak"),
the rise of the machine's anonymous memory over the phase (AnonPages: what the copies
really cost; the child's private figure overstates for a process in huge pages, since once
a write splits a shared 2 MiB page the child's whole 2 MiB counts as private while only 4
KiB was copied; the replica's RSS is left out of it, other processes' memory moves it
too), and the peak RSS of the
primary itself; for the full sync also the replica's peak RSS and
the primary's sync_full count (1: the first sync held).

The primary's replica output limit is lifted (client-output-buffer-limit replica 0 0 0,
Redis's advice for large data sets) on both servers: at 10^8 members the writes made during
a sync of several minutes exceed the default 256 MB hard limit, and the bench measures the
sync, not that limit.

  bench/fork_cow_bench.py [--exp 7 | --count N] [--servers rankd,redis] [--rounds 2]
                          [--out FILE.json]
  RANKD_BIN [build/rankd], REDIS_SERVER_BIN [/usr/bin/redis-server], SETTLE [15],
  FORK_TMP [/tmp] (where the RDB and the servers' folders go)
"""

import argparse
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import scale_curve as sc  # noqa: E402  (Server, Conn, rss, bgsave; RANKD_BIN, REDIS_SERVER_BIN)
import zset_rdb  # noqa: E402

TMP = os.environ.get("FORK_TMP", "/tmp")


def child_private(pid):
    """Private bytes of `pid`'s forked children (the copy-on-write they hold)."""
    total = 0
    try:
        kids = open("/proc/%d/task/%d/children" % (pid, pid)).read().split()
    except OSError:
        return 0
    for k in kids:
        try:
            for line in open("/proc/%s/smaps_rollup" % k):
                if line.startswith(("Private_Clean:", "Private_Dirty:")):
                    total += int(line.split()[1]) * 1024
        except OSError:
            pass
    return total


class Pinger(threading.Thread):
    """PING every millisecond; keeps each round trip (s) while `window` is set."""

    def __init__(self, port):
        super().__init__(daemon=True)
        self.s = socket.create_connection(("127.0.0.1", port))
        self.s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.samples, self.window, self.done = [], False, False

    def run(self):
        while not self.done:
            t0 = time.perf_counter()
            self.s.sendall(b"PING\r\n")
            buf = b""
            while not buf.endswith(b"\r\n"):
                buf += self.s.recv(64)
            if self.window:
                self.samples.append(time.perf_counter() - t0)
            time.sleep(0.001)


def anon_pages():
    """The machine's anonymous memory in bytes (/proc/meminfo AnonPages): every page a
    copy-on-write fault copies adds to it, whatever its page size."""
    for line in open("/proc/meminfo"):
        if line.startswith("AnonPages:"):
            return int(line.split()[1]) * 1024
    return 0


class Sampler(threading.Thread):
    """Every 20 ms: the primary's RSS, RSS plus its child's private memory, the machine's
    anonymous memory, and (once `replica_pid` is set) the replica's RSS."""

    def __init__(self, pid):
        super().__init__(daemon=True)
        self.pid, self.done, self.replica_pid = pid, False, None
        self.peak_total = self.peak_rss = self.peak_replica = 0
        self.anon_base = self.peak_anon = anon_pages()

    def run(self):
        while not self.done:
            r = sc.rss(self.pid)
            self.peak_rss = max(self.peak_rss, r)
            self.peak_total = max(self.peak_total, r + child_private(self.pid))
            replica = 0
            if self.replica_pid:
                try:
                    replica = sc.rss(self.replica_pid)
                except OSError:
                    pass
            self.peak_replica = max(self.peak_replica, replica)
            # The replica's own data set is not copy-on-write: left out.
            self.peak_anon = max(self.peak_anon, anon_pages() - replica)
            time.sleep(0.02)


def calls(c, name):
    info = c.call("INFO", "commandstats").decode()
    for line in info.split("\r\n"):
        if line.startswith("cmdstat_%s:" % name):
            return int(line.split("calls=")[1].split(",")[0])
    return 0


def latency_latest(c):
    """LATENCY LATEST as {event: max ms} (RESP2 nested arrays, read by hand)."""
    c.s.sendall(b"LATENCY LATEST\r\n")
    out = {}
    n = int(c.line()[1:])
    for _ in range(n):
        c.line()  # *4
        c.line()  # $len
        name = c.line().decode()
        c.line()  # latest time
        c.line()  # latest ms
        out[name] = int(c.line()[1:])  # max ms
    return out


def phase(primary, port, pinger, run_until_done):
    c = sc.Conn(port)
    base = sc.rss(primary.pid)
    w0 = calls(c, "zincrby")
    s = Sampler(primary.pid)
    s.start()
    pinger.samples = []
    pinger.window = True
    t0 = time.monotonic()
    run_until_done(c, s)
    dt = time.monotonic() - t0
    pinger.window = False
    s.done = True
    s.join()
    lat = sorted(pinger.samples) or [0.0]
    slow = latency_latest(c)
    c.call("LATENCY", "RESET")
    return {"s": dt, "writes": calls(c, "zincrby") - w0, "rss_before_mb": base / 1e6,
            "cow_peak_mb": max(0, s.peak_total - base) / 1e6, "peak_rss_mb": s.peak_rss / 1e6,
            "anon_rise_mb": (s.peak_anon - s.anon_base) / 1e6,
            "replica_peak_rss_mb": s.peak_replica / 1e6,
            "ping_max_ms": lat[-1] * 1e3, "ping_p999_ms": lat[int(len(lat) * 0.999)] * 1e3,
            "pings": len(pinger.samples), "latency_latest": slow}


def run_round(kind, n, rdb, port, settle):
    d = tempfile.mkdtemp(prefix="forkcow-%s-" % kind, dir=TMP)
    rd = tempfile.mkdtemp(prefix="forkcow-%s-replica-" % kind, dir=TMP)
    os.link(rdb, os.path.join(d, "dump.rdb")) if os.stat(rdb).st_dev == os.stat(d).st_dev \
        else shutil.copy(rdb, os.path.join(d, "dump.rdb"))
    primary = replica = writer = pinger = None
    r = {"server": kind, "n": n, "loadavg": os.getloadavg()[0]}
    try:
        t0 = time.monotonic()
        primary = sc.Server(kind, port, d)
        primary.start()
        r["start_s"] = time.monotonic() - t0
        r["rss_mb"] = sc.rss(primary.proc.pid) / 1e6
        os.unlink(os.path.join(d, "dump.rdb"))  # BGSAVE writes its own
        sc.Conn(port).call("CONFIG", "SET", "client-output-buffer-limit", "replica 0 0 0")
        # The server's own record of its slow events (fork, commands, ...), to tell a stall
        # of the server from a pinger that waited for a CPU.
        sc.Conn(port).call("CONFIG", "SET", "latency-monitor-threshold", "20")
        time.sleep(settle)
        writer = subprocess.Popen(["redis-benchmark", "-p", str(port), "-c", "2", "-n",
                                   "1000000000", "-r", str(n), "-q", "ZINCRBY", "lb", "1",
                                   "m:00__rand_int__"], stdout=subprocess.DEVNULL,
                                  stderr=subprocess.DEVNULL)
        pinger = Pinger(port)
        pinger.start()
        time.sleep(2)  # the writer warms up

        r["bgsave"] = phase(primary.proc, port, pinger, lambda c, s: sc.bgsave(port))
        time.sleep(1)

        def full_sync(c, sampler):
            nonlocal replica
            binary_port = port + 1
            replica = sc.Server(kind, binary_port, rd, ["--replicaof", "127.0.0.1", str(port)])
            replica.start()
            sampler.replica_pid = replica.proc.pid
            while True:
                time.sleep(0.05)
                try:
                    info = sc.Conn(binary_port).call("INFO", "replication").decode()
                except OSError:
                    continue
                if "master_link_status:up" in info:
                    return

        r["full_sync"] = phase(primary.proc, port, pinger, full_sync)
        r["full_sync"]["sync_full"] = int(sc.Conn(port).call("INFO", "stats").decode()
                                          .split("sync_full:")[1].split("\r\n")[0])
    finally:
        if pinger:
            pinger.done = True
        if writer and writer.poll() is None:
            writer.terminate()
            writer.wait()
        for s in (replica, primary):
            if s:
                s.stop()
        shutil.rmtree(d, ignore_errors=True)
        shutil.rmtree(rd, ignore_errors=True)
    return r


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--exp", type=int, default=7)
    ap.add_argument("--count", type=int, help="members (instead of 10^exp)")
    ap.add_argument("--servers", default="rankd,redis")
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--out")
    a = ap.parse_args()
    n = a.count or 10 ** a.exp
    rdb = os.path.join(TMP, "forkcow-n%d.rdb" % n)
    if not os.path.exists(rdb):
        t0 = time.monotonic()
        zset_rdb.write(rdb + ".tmp", n)
        os.rename(rdb + ".tmp", rdb)
        print("RDB of %d members written in %.0f s" % (n, time.monotonic() - t0), flush=True)
    results = []
    port = 27960
    for rnd in range(a.rounds):
        for kind in a.servers.split(","):
            port += 2
            r = run_round(kind, n, rdb, port, float(os.environ.get("SETTLE", "15")))
            print(json.dumps(r), flush=True)
            results.append(r)
    if a.out:
        json.dump(results, open(a.out, "w"), indent=1)
    keys = ["s", "writes", "cow_peak_mb", "anon_rise_mb", "peak_rss_mb", "replica_peak_rss_mb",
            "ping_max_ms", "ping_p999_ms"]
    print("\n| phase | server | RSS MB | " + " | ".join(keys) + " |")
    print("|---|---|---:|" + "---:|" * len(keys))
    for ph in ("bgsave", "full_sync"):
        for kind in a.servers.split(","):
            rs = [r for r in results if r["server"] == kind]
            med = {k: statistics.median(r[ph][k] for r in rs) for k in keys}
            print("| %s | %s | %.0f | %s |" % (
                ph, kind, statistics.median(r["rss_mb"] for r in rs),
                " | ".join("%.1f" % med[k] + (" (%s)" % " ".join("%.1f" % r[ph][k] for r in rs)
                                               if len(rs) > 1 else "") for k in keys)))


if __name__ == "__main__":
    main()
