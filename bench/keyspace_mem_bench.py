"""Per-key memory of small keys, rankd vs redis-server 7.0 (issue 15).

Loads BENCH_KEYS (1,000,000) keys of one kind into a fresh server (pipelined, one
connection, 10,000 commands per batch) and reports the RSS growth per key once RSS
settles (bench/sidebyside.py settled_growth), for each kind:

  hash     HSET user:<i> name user<i> email user<i>@example.com country FR level <i%100>
           joined 2026-01-<dd>       (the bench/types_bench.py member profile: 5 fields)
  string   SET key:<i> <16 bytes>
  string32 SET key:<i> <32 bytes>      (past rankd's 22-byte inline strings: embstr role)
  ttl      SET key:<i> <16 bytes> EX 100000   (the string case with a deadline)
  zset     ZADD board:<i> 1 alice 2 bob 3 carol 4 dave 5 erin   (5 members)

Each kind gets a fresh pair of servers (both `--save '' --appendonly no`).

    /usr/bin/python3 bench/keyspace_mem_bench.py          # uses build/rankd
Knobs: BENCH_KEYS [1000000], BENCH_KINDS [hash,string,string32,zset,ttl].
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sidebyside as sb  # noqa: E402
from sidebyside import resp  # noqa: E402
from types_bench import load_commands, profile_command  # noqa: E402

KEYS = int(os.environ.get("BENCH_KEYS", "1000000"))
KINDS = os.environ.get("BENCH_KINDS", "hash,string,string32,zset,ttl").split(",")


def string_command(i):
    return resp(b"SET", b"key:%d" % i, b"v%015d" % i)  # 16 bytes


def string32_command(i):
    return resp(b"SET", b"key:%d" % i, b"v%031d" % i)  # 32 bytes


def ttl_command(i):
    return resp(b"SET", b"key:%d" % i, b"v%015d" % i, b"EX", b"100000")


def zset_command(i):
    return resp(b"ZADD", b"board:%d" % i, b"1", b"alice", b"2", b"bob", b"3", b"carol",
                b"4", b"dave", b"5", b"erin")


COMMANDS = {"hash": profile_command, "string": string_command, "string32": string32_command,
            "zset": zset_command, "ttl": ttl_command}


def main():
    print("| kind | rankd B/key | redis-server B/key | rankd / redis |")
    print("|---|---:|---:|---:|")
    for kind in KINDS:
        servers = sb.start_pair()
        try:
            per_key = {}
            for name, srv in servers.items():
                sb.log("loading %d %s keys into %s ..." % (KEYS, kind, name))
                before = srv.rss()
                load_commands(srv.port, COMMANDS[kind], KEYS)
                per_key[name] = sb.settled_growth(srv, before) / KEYS
                if not srv.command("DBSIZE").startswith(b":%d" % KEYS):
                    raise SystemExit("%s: wrong DBSIZE after loading %s" % (name, kind))
            a, b = per_key["rankd"], per_key["redis"]
            print("| %s | %.1f | %.1f | %.2fx |" % (kind, a, b, a / b))
            sys.stdout.flush()
        finally:
            for srv in servers.values():
                srv.stop()


if __name__ == "__main__":
    main()
