#!/usr/bin/python3
"""Memory of member expiry (issue 17): one sorted set of N 16-byte members,
then a deadline on half of them, read through INFO used_memory (the
allocator's own count). Usage: bench/member_ttl_memory.py PORT [N]"""

import os
import sys
import time

import redis


def used(c):
    return c.info("memory")["used_memory"]


def main():
    port = int(sys.argv[1])
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 1_000_000
    c = redis.Redis(port=port)
    c.flushall()
    base = used(c)
    members = [os.urandom(8).hex() for _ in range(n)]
    p = c.pipeline(transaction=False)
    for i in range(0, n, 1000):
        p.zadd("z", {m: j for j, m in enumerate(members[i:i + 1000], start=i)})
    p.execute()
    plain = used(c)
    deadline = int(time.time() * 1000) + 3_600_000
    for i in range(0, n // 2, 1000):
        chunk = members[i:i + 1000]
        p.execute_command("ZPEXPIREAT", "z", deadline + i, "MEMBERS", len(chunk), *chunk)
    p.execute()
    with_ttl = used(c)
    print(f"{n} members: {(plain - base) / n:.1f} B/element without TTLs; "
          f"+{(with_ttl - plain) / (n // 2):.1f} B per member given a TTL "
          f"({(with_ttl - base) / n:.1f} B/element overall with half of them timed)")


if __name__ == "__main__":
    main()
