"""The request path's shortcuts (issue 16) keep every side effect.

A pipelined command the look-ahead already read is not parsed again; a write
skips its touch hooks when nobody watches, waits, tracks or subscribes; the
slow log is asked only past its threshold; ZINCRBY looks its member up once.
These tests drive pipelines through each shortcut while the thing it skips
is active (WATCH, a BZPOPMIN waiter, keyspace notifications, client
tracking, LB.WATCH-free boards, the slow log) and compare with redis-server
7.0 where the outcome is deterministic.
"""

import socket
import threading
import time

import pytest
import redis

from resp_client import Push, resp3_client
from test_pipeline_prefetch import compare, encode, preload, run_pipeline
from util import wait_until


def test_pipeline_with_odd_counts_matches_redis(server, redis_ref):
    # Counts written with a leading zero are not peeked (and so not taken as
    # read); the parser judges them: "$03" is a protocol error in Redis.
    good = b"".join(encode("ZSCORE", "lb", "m:%08d" % i) for i in range(40))
    for bad in (b"*3\r\n$06\r\nZSCORE\r\n$2\r\nlb\r\n$1\r\nx\r\n",
                b"*03\r\n$6\r\nZSCORE\r\n$2\r\nlb\r\n$1\r\nx\r\n"):
        replies = []
        for port in (server.port, redis_ref.port):
            with socket.create_connection(("127.0.0.1", port), timeout=30) as s:
                s.sendall(good + bad + good)
                data = b""
                while True:
                    got = s.recv(1 << 16)
                    if not got:
                        break
                    data += got
            replies.append(data)
        assert replies[0] == replies[1]


def test_zincrby_zero_and_signed_zeros_match_redis(server, redis_ref):
    # ZINCRBY's reply comes from Add's result (no second lookup): unchanged
    # scores, signed zeros, infinities, in a compact set and a large one.
    cmds = preload(300)
    for key in ("small", "lb"):
        for start in ("0", "-0", "5", "inf", "-inf"):
            for incr in ("0", "-0", "1", "-5", "inf", "1e308"):
                cmds.append(("ZADD", key, start, "z"))
                cmds.append(("ZINCRBY", key, incr, "z"))
                cmds.append(("ZSCORE", key, "z"))
                cmds.append(("ZADD", key, "INCR", incr, "fresh"))
                cmds.append(("ZREM", key, "fresh"))
        cmds.append(("ZINCRBY", key, "inf", "z"))
        cmds.append(("ZINCRBY", key, "-inf", "z"))  # NaN: an error, nothing changes
        cmds.append(("ZADD", key, "GT", "INCR", "-1", "z"))
        cmds.append(("ZADD", key, "NX", "INCR", "1", "z"))
    compare(server, redis_ref, cmds)


def pipeline_of_writes(key, n):
    return [("ZINCRBY", key, 1, "m:%08d" % (i % 50)) for i in range(n)]


@pytest.mark.parametrize("ref", [False, True])
def test_watch_sees_a_pipelined_write(server, redis_ref, ref):
    srv = redis_ref if ref else server
    run_pipeline(srv.port, [("FLUSHALL",)])
    w = srv.client()
    try:
        pipe = w.pipeline(transaction=True)
        pipe.watch("lb")
        run_pipeline(srv.port, preload(100) + [("ZSCORE", "lb", "m:00000001")] * 20 +
                     pipeline_of_writes("lb", 200))
        pipe.multi()
        pipe.zscore("lb", "m:00000001")
        with pytest.raises(redis.WatchError):
            pipe.execute()
    finally:
        w.close()


def test_watch_of_an_untouched_key_still_execs(server):
    run_pipeline(server.port, [("FLUSHALL",)])
    w = server.client()
    try:
        pipe = w.pipeline(transaction=True)
        pipe.watch("other")
        run_pipeline(server.port, preload(100) + pipeline_of_writes("lb", 200))
        pipe.multi()
        pipe.zscore("lb", "m:00000001")
        assert pipe.execute() == [5.0]  # preload's score 1 plus 4 of the 200 increments
    finally:
        w.close()


def test_blocked_client_is_served_by_a_pipelined_write(server):
    run_pipeline(server.port, [("FLUSHALL",)])
    waiter = server.client()
    got = []
    t = threading.Thread(target=lambda: got.append(waiter.bzpopmin("q", 10)))
    t.start()
    try:
        wait_until(lambda: int(server.client().info("clients")["blocked_clients"]) == 1)
        reads = [("ZSCORE", "lb", "m:%08d" % i) for i in range(30)]
        run_pipeline(server.port, reads + [("ZADD", "q", 7, "first")] + reads)
        t.join(10)
        assert got == [(b"q", b"first", 7.0)]
    finally:
        t.join(10)
        waiter.close()


def test_keyspace_events_of_pipelined_writes(server):
    run_pipeline(server.port, [("FLUSHALL",)])
    c = server.client()
    sub = c.pubsub()
    try:
        c.config_set("notify-keyspace-events", "Kz")
        sub.psubscribe("__keyspace@0__:*")
        sub.get_message(timeout=1)  # the psubscribe confirmation
        run_pipeline(server.port, [("ZSCORE", "lb", "x")] * 10 + pipeline_of_writes("lb", 5))
        events = []
        deadline = time.time() + 5
        while len(events) < 5 and time.time() < deadline:
            m = sub.get_message(timeout=0.5)
            if m and m["type"] == "pmessage":
                events.append(m["data"])
        assert events == [b"zincr"] * 5
        # Off again: the writes publish nothing.
        c.config_set("notify-keyspace-events", "")
        run_pipeline(server.port, pipeline_of_writes("lb", 5))
        assert sub.get_message(timeout=0.3) is None
    finally:
        c.config_set("notify-keyspace-events", "")
        sub.close()
        c.close()


def test_tracking_client_is_invalidated_by_a_pipelined_write(server):
    run_pipeline(server.port, [("FLUSHALL",)] + preload(10))
    t3 = resp3_client(server.port)
    try:
        assert t3.execute("CLIENT", "TRACKING", "ON") == b"OK"
        assert t3.execute("ZSCORE", "lb", "m:00000001") is not None
        run_pipeline(server.port, [("ZSCORE", "lb", "m:00000002")] * 10 +
                     [("ZINCRBY", "lb", 1, "m:00000001")])
        msg = t3.pushes.pop(0) if t3.pushes else t3.read_reply(timeout=5, keep_push=True)
        assert isinstance(msg, Push) and msg == [b"invalidate", [b"lb"]]
    finally:
        t3.close()


def test_slowlog_still_records_past_its_threshold(server):
    run_pipeline(server.port, [("FLUSHALL",)])
    c = server.client()
    try:
        c.slowlog_reset()
        c.config_set("slowlog-log-slower-than", 0)
        run_pipeline(server.port, [("ZSCORE", "lb", "a")] * 5)
        entries = c.slowlog_get(128)
        assert sum(1 for e in entries if e["command"] == b"ZSCORE lb a") == 5
        c.config_set("slowlog-log-slower-than", -1)
        c.slowlog_reset()
        run_pipeline(server.port, [("ZSCORE", "lb", "a")] * 5)
        assert not [e for e in c.slowlog_get(128) if e["command"] == b"ZSCORE lb a"]
    finally:
        c.config_set("slowlog-log-slower-than", 10000)
        c.close()
