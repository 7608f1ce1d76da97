#!/usr/bin/python3
"""Pipelined loader: puts COUNT members of exactly 16 bytes ("m:00" + 12 digits, the
form redis-benchmark's m:00__rand_int__ produces) into one sorted set, with
deterministic integer scores.

  bench/zset_loader.py [--host H] [--port P] [--key lb] [--count 1000000]
"""

import argparse
import random
import socket

BATCH = 1000        # members per ZADD
IN_FLIGHT = 32      # ZADD commands sent before reading their replies


def member_name(i):
    return b"m:00%012d" % i


def _encode(args):
    out = [b"*%d\r\n" % len(args)]
    for a in args:
        out.append(b"$%d\r\n%s\r\n" % (len(a), a))
    return b"".join(out)


def _read_replies(sock, buf, n):
    """Reads n single-line replies (ZADD answers :N); raises on an error reply."""
    got = 0
    while got < n:
        while b"\r\n" not in buf:
            chunk = sock.recv(1 << 16)
            if not chunk:
                raise RuntimeError("server closed the connection during the load")
            buf += chunk
        line, buf = buf.split(b"\r\n", 1)
        if not line.startswith(b":"):
            raise RuntimeError("ZADD failed: %r" % line)
        got += 1
    return buf


def load_zset(host, port, key, count, seed=42, score_max=1_000_000):
    """Members 0 .. count-1, integer scores drawn from [0, score_max)."""
    rng = random.Random(seed)
    key = key.encode() if isinstance(key, str) else key
    with socket.create_connection((host, port), timeout=120) as sock:
        buf = b""
        pending = 0
        batch = []
        for start in range(0, count, BATCH):
            args = [b"ZADD", key]
            for i in range(start, min(count, start + BATCH)):
                args += [b"%d" % rng.randrange(score_max), member_name(i)]
            batch.append(_encode(args))
            if len(batch) == IN_FLIGHT:
                sock.sendall(b"".join(batch))
                pending += len(batch)
                batch = []
                buf = _read_replies(sock, buf, pending)
                pending = 0
        if batch:
            sock.sendall(b"".join(batch))
            buf = _read_replies(sock, buf, len(batch))


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--host", default="127.0.0.1")
    ap.add_argument("--port", type=int, default=6379)
    ap.add_argument("--key", default="lb")
    ap.add_argument("--count", type=int, default=1_000_000)
    a = ap.parse_args()
    load_zset(a.host, a.port, a.key, a.count)
