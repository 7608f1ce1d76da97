#!/usr/bin/python3
"""Full sync of one N-member sorted set from a redis-server 7.0 primary (diskless, its
default), into rankd (the migration path) and into a redis-server replica, side by side.

  RANKD_BIN=build/rankd /usr/bin/python3 bench/migrate_sync_bench.py [N] [rounds]

Prints the seconds from REPLICAOF until master_link_status:up, per round. Loopback ports
7711-7713; data directories under a temporary directory.
"""

import os
import subprocess
import sys
import tempfile
import time

import redis


def start(binary, port, root, extra=()):
    d = os.path.join(root, str(port))
    os.makedirs(d, exist_ok=True)
    p = subprocess.Popen([binary, "--port", str(port), "--bind", "127.0.0.1", "--dir", d,
                          "--save", ""] + list(extra),
                         stdout=open(os.path.join(d, "log"), "w"), stderr=subprocess.STDOUT)
    c = redis.Redis(port=port)
    for _ in range(200):
        try:
            c.ping()
            break
        except redis.ConnectionError:
            time.sleep(0.05)
    return p, c


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    rankd = os.environ.get("RANKD_BIN", "build/rankd")
    with tempfile.TemporaryDirectory() as root:
        src_p, src = start("/usr/bin/redis-server", 7711, root, ["--repl-diskless-sync-delay", "0"])
        try:
            for i in range(0, n, 10000):
                src.zadd("board", {"player:%d" % j: j * 0.5 for j in range(i, min(n, i + 10000))})
            for name, binary, port in (("rankd", rankd, 7712),
                                       ("redis-server", "/usr/bin/redis-server", 7713)):
                times = []
                for _ in range(rounds):
                    p, r = start(binary, port, root)
                    t = time.time()
                    r.execute_command("REPLICAOF", "127.0.0.1", 7711)
                    while r.info("replication").get("master_link_status") != "up":
                        time.sleep(0.01)
                    times.append(time.time() - t)
                    assert r.zcard("board") == n
                    p.kill()
                    p.wait()
                print("%s: full sync of %d members: %s s" %
                      (name, n, " / ".join("%.2f" % x for x in times)))
        finally:
            src_p.kill()


if __name__ == "__main__":
    main()
