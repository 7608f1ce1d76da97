#!/usr/bin/python3
"""Writes an RDB snapshot (version 10, Redis 7.0's) holding one sorted set, so that a
benchmark can start rankd and redis-server on the same large board in minutes instead of
loading it through ZADD (10^8 members through the pipelined loader took 27 minutes of
wall time on this shared machine).

The board: key "lb", members m:00 + 12 digits (16 bytes, the form redis-benchmark's
m:00__rand_int__ produces, all of 0 .. COUNT-1), integer scores spread at random over
[0, 2^31) as in bench/scale_curve.py's load, written as a ZSET_2 value (binary doubles).
Entries go highest score first, as Redis writes a sorted set's snapshot, so both servers
load it at the pace of their own snapshots (rankd took 169 s for 10^7 members written in
member order with random scores: one random insert each; in score order it appends).
Scores descend by random gaps of 1 .. 2*2^31/COUNT, so they are distinct; members follow
a fixed pseudo-random permutation of 0 .. COUNT-1 (i -> (a*i + b) mod COUNT, a coprime).
No checksum (8 zero bytes, as `rdbchecksum no` writes): both servers then skip the check.

  bench/zset_rdb.py OUT.rdb COUNT [--seed 7]
"""

import argparse
import math
import random
import struct


def length(n):
    """RDB length encoding."""
    if n < 1 << 6:
        return bytes([n])
    if n < 1 << 14:
        return bytes([0x40 | (n >> 8), n & 0xFF])
    if n < 1 << 32:
        return b"\x80" + struct.pack(">I", n)
    return b"\x81" + struct.pack(">Q", n)


def write(path, count, seed=7, chunk=100000):
    rnd = random.Random(seed)
    pack = struct.Struct("<d").pack
    a = 2654435761 % count or 1  # Knuth's multiplier, made coprime with count
    while math.gcd(a, count) != 1:
        a += 1
    b = rnd.randrange(count)
    gap = max(1, 2 * (1 << 31) // count - 1)
    score = 1 << 31
    with open(path, "wb") as f:
        f.write(b"REDIS0010")
        f.write(b"\xfa" + length(9) + b"redis-ver" + length(6) + b"7.0.15")
        f.write(b"\xfe\x00")                      # SELECTDB 0
        f.write(b"\xfb" + length(1) + length(0))  # RESIZEDB: 1 key, none with expiry
        f.write(b"\x05" + length(2) + b"lb" + length(count))  # ZSET_2 "lb"
        for start in range(0, count, chunk):
            out = []
            for i in range(start, min(count, start + chunk)):
                score -= rnd.randint(1, gap)
                out.append(b"\x10m:00%012d%s" % ((a * i + b) % count, pack(float(score))))
            f.write(b"".join(out))
        f.write(b"\xff" + b"\x00" * 8)


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("count", type=int)
    ap.add_argument("--seed", type=int, default=7)
    a = ap.parse_args()
    write(a.out, a.count, a.seed)
