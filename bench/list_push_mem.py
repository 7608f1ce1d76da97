#!/usr/bin/python3
"""RSS growth per element and MEMORY USAGE of one list of 1,000,000 ~70-byte elements built
by RPUSH and by LPUSH (100 per command), for a base rankd (RANKD_BASE_BIN), build/rankd
and redis-server, each fresh.

    RANKD_BASE_BIN=/tmp/rankd-main /usr/bin/python3 bench/list_push_mem.py
"""
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sidebyside as sb
from types_bench import load_commands
N = 1000000; PER = 100
def element(i):
    return (b'{"user":%d,"event":"login","region":"eu-west-1","client":"ios","ok":true}' % (i % 1000))
def push(cmd):
    def make(j):
        args = [cmd, b"big"] + [element(j * PER + k) for k in range(PER)]
        return b"*%d\r\n" % len(args) + b"".join(b"$%d\r\n%s\r\n" % (len(a), a) for a in args)
    return make
bins = [("main", os.environ["RANKD_BASE_BIN"]), ("branch", os.path.join(sb.REPO, "build", "rankd")),
        ("redis", sb.REDIS_BIN)]
print("| server | push | RSS growth per element | MEMORY USAGE |")
print("|---|---|---:|---:|")
for cmd in (b"RPUSH", b"LPUSH"):
    for name, b in bins:
        s = sb.Server("rankd" if name != "redis" else "redis", [b]).start()
        try:
            before = s.rss()
            load_commands(s.port, push(cmd), N // PER)
            g = sb.settled_growth(s, before)
            mu = s.command("MEMORY", "USAGE", "big", "SAMPLES", "0").strip().decode()
            print("| %s | %s | %.1f | %s |" % (name, cmd.decode(), g / N, mu), flush=True)
        finally:
            s.stop()
