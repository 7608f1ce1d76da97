#!/usr/bin/python3
"""Delay queues (issue 17): BZPOPDUE on rankd against seed 004's Lua poll on Redis.

1. Wake-up delay (rankd): a consumer blocks in `BZPOPDUE q 0`; a producer adds one item
   due D ms ahead (D random in 20-120 ms); the delay is the time from the item's due
   time to the consumer holding it. p50 / p99 / max over SAMPLES items.
2. Drain: N items, all due, drained by 8 consumer processes:
   * rankd:        each consumer loops on `BZPOPDUE q 1`;
   * redis-server: each consumer loops on seed 004's atomic fetch-and-remove script
     (ZRANGEBYSCORE q -inf now LIMIT 0 1, then ZREM, in one EVALSHA), sleeping POLL_MS
     when the script finds nothing due.
   Wall time until every item is popped, each item popped exactly once (checked).

  bench/delay_queue_bench.py    BENCH_ITEMS [200000]  BENCH_SAMPLES [300]  POLL_MS [10]
"""

import multiprocessing
import os
import sys
import threading
import time

import redis

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sidebyside as sb  # noqa: E402

ITEMS = int(os.environ.get("BENCH_ITEMS", "200000"))
SAMPLES = int(os.environ.get("BENCH_SAMPLES", "300"))
POLL_MS = int(os.environ.get("POLL_MS", "10"))
CONSUMERS = 8

POLL_SCRIPT = """
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, 1)
if #due == 0 then return false end
redis.call('ZREM', KEYS[1], due[1])
return due[1]
"""


def now_ms():
    return int(time.time() * 1000)


def wake_delays(port):
    consumer = redis.Redis(port=port)
    producer = redis.Redis(port=port)
    got = []

    def consume():
        for _ in range(SAMPLES):
            _, member, _ = consumer.execute_command("BZPOPDUE", "wq", 0)
            got.append((time.time() * 1000, int(member)))

    t = threading.Thread(target=consume)
    t.start()
    import random
    rnd = random.Random(7)
    for i in range(SAMPLES):
        due = now_ms() + rnd.randint(20, 120)
        producer.zadd("wq", {str(due): due})
        while len(got) < i + 1:
            time.sleep(0.001)
    t.join()
    delays = sorted(at - due for at, due in got)
    return delays


def load_queue(port):
    r = redis.Redis(port=port)
    r.delete("q")
    base = now_ms() - ITEMS - 10_000  # every item already due
    for start in range(0, ITEMS, 10_000):
        r.zadd("q", {"job:%d" % i: base + i for i in range(start, min(ITEMS, start + 10_000))})


def rankd_consumer(port, out):
    r = redis.Redis(port=port)
    seen = []
    last = time.time()
    while True:
        reply = r.execute_command("BZPOPDUE", "q", 1)
        if reply is None:
            break
        seen.append(reply[1])
        last = time.time()
    out.put((seen, last))


def redis_consumer(port, out):
    r = redis.Redis(port=port)
    pop = r.register_script(POLL_SCRIPT)
    seen = []
    last = time.time()
    idle = 0
    while idle < 1000 // POLL_MS:  # stop after ~1 s of finding nothing
        member = pop(keys=["q"], args=[now_ms()])
        if member is None:
            idle += 1
            time.sleep(POLL_MS / 1000)
            continue
        idle = 0
        seen.append(member)
        last = time.time()
    out.put((seen, last))


def drain(port, consumer):
    load_queue(port)
    out = multiprocessing.Queue()
    procs = [multiprocessing.Process(target=consumer, args=(port, out)) for _ in range(CONSUMERS)]
    t0 = time.time()
    for p in procs:
        p.start()
    popped = []
    last = t0
    for _ in procs:
        seen, at = out.get()
        popped.extend(seen)
        last = max(last, at)
    for p in procs:
        p.join()
    wall = last - t0  # until the last item was popped (consumers idle out after ~1 s)
    assert len(popped) == ITEMS and len(set(popped)) == ITEMS, (len(popped), len(set(popped)))
    return wall


def pct(xs, p):
    return xs[min(len(xs) - 1, int(len(xs) * p))]


def main():
    print("load average before: %.1f" % os.getloadavg()[0])
    rankd = sb.Server("rankd", [sb.RANKD_BIN]).start()
    redis_srv = sb.Server("redis", [sb.REDIS_BIN]).start()
    try:
        d = wake_delays(rankd.port)
        print("BZPOPDUE wake-up delay over %d items: p50 %.1f ms, p99 %.1f ms, max %.1f ms"
              % (len(d), pct(d, 0.5), pct(d, 0.99), d[-1]))
        for name, srv, consumer in (("rankd BZPOPDUE", rankd, rankd_consumer),
                                    ("redis-server Lua poll", redis_srv, redis_consumer),
                                    ("rankd BZPOPDUE", rankd, rankd_consumer),
                                    ("redis-server Lua poll", redis_srv, redis_consumer)):
            wall = drain(srv.port, consumer)
            print("%-22s drained %d items with %d consumers in %.2f s (%.0f items/s)"
                  % (name, ITEMS, CONSUMERS, wall, ITEMS / wall))
    finally:
        rankd.stop()
        redis_srv.stop()
    print("load average after: %.1f" % os.getloadavg()[0])


if __name__ == "__main__":
    main()
