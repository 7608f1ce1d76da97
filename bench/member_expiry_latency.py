#!/usr/bin/python3
"""Latency while 100k members expire in the same millisecond (issue 17): one
sorted set of N members all given the same deadline, and a client timing
ZSCORE on another key from 0.5 s before to 1.5 s after it. Prints p50 / p99 /
max of those round trips (client-side, loopback).
Usage: bench/member_expiry_latency.py PORT [N]"""

import os
import sys
import time

import redis


def main():
    port = int(sys.argv[1])
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 100_000
    c = redis.Redis(port=port)
    c.flushall()
    c.zadd("probe", {"m": 1})
    members = [os.urandom(8).hex() for _ in range(n)]
    p = c.pipeline(transaction=False)
    for i in range(0, n, 1000):
        p.zadd("z", {m: j for j, m in enumerate(members[i:i + 1000], start=i)})
    p.execute()
    deadline = int(time.time() * 1000) + 2000
    for i in range(0, n, 1000):
        chunk = members[i:i + 1000]
        p.execute_command("ZPEXPIREAT", "z", deadline, "MEMBERS", len(chunk), *chunk)
    p.execute()
    while time.time() * 1000 < deadline - 500:
        time.sleep(0.01)
    lat = []
    while time.time() * 1000 < deadline + 1500:
        t0 = time.perf_counter()
        c.zscore("probe", "m")
        lat.append((time.perf_counter() - t0) * 1000)
    lat.sort()
    left = c.exists("z")
    print(f"{n} members due at once: ZSCORE round trip p50 {lat[len(lat) // 2]:.3f} ms, "
          f"p99 {lat[len(lat) * 99 // 100]:.3f} ms, max {lat[-1]:.3f} ms over {len(lat)} calls; "
          f"key left: {left}")


if __name__ == "__main__":
    main()
