#!/usr/bin/python3
"""Size of dump.rdb for one key of COUNT members written as a plain sorted set
(ZADD) and as a leaderboard (LB.CREATE + LB.ADD), under persist-format redis
(an RDB; a board's key is followed by a "rankd-entry" AUX field holding the
whole key again, docs/file-formats.md section 5) and persist-format rankd
(rankd's own snapshot). Members "member:" + 10 digits, 5,000 distinct scores.

  bench/board_rdb_size.py [--count 200000] [--port 17950] [--bin build/rankd]
"""

import argparse
import os
import subprocess
import tempfile
import time

import redis


def measure(binary, port, fmt, kind, count):
    with tempfile.TemporaryDirectory() as d:
        p = subprocess.Popen([binary, "--port", str(port), "--dir", d, "--save", "",
                              "--persist-format", fmt],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            r = redis.Redis(port=port)
            for _ in range(200):
                try:
                    r.ping()
                    break
                except redis.ConnectionError:
                    time.sleep(0.05)
            if kind == "board":
                r.execute_command("LB.CREATE", "lb")
            pipe = r.pipeline(transaction=False)
            for i in range(count):
                member, score = "member:%010d" % i, i % 5000
                if kind == "board":
                    pipe.execute_command("LB.ADD", "lb", score, member)
                else:
                    pipe.zadd("lb", {member: score})
                if i % 10000 == 9999:
                    pipe.execute()
            pipe.execute()
            r.save()
            return os.path.getsize(os.path.join(d, "dump.rdb"))
        finally:
            p.terminate()
            p.wait()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--count", type=int, default=200000)
    ap.add_argument("--port", type=int, default=17950)
    ap.add_argument("--bin", default="build/rankd")
    a = ap.parse_args()
    print("| persist-format | sorted set | leaderboard |")
    print("|---|---|---|")
    for fmt in ("redis", "rankd"):
        z, b = (measure(a.bin, a.port, fmt, k, a.count) for k in ("zset", "board"))
        print("| %s | %.2f MB | %.2f MB |" % (fmt, z / 1e6, b / 1e6))


if __name__ == "__main__":
    main()
