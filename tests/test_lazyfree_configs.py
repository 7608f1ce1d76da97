"""Lazy freeing by configuration, as Redis 7.0 (issue 14): lazyfree-lazy-expire (expired
keys), lazyfree-lazy-server-del (implicit deletes and overwrites: SET over a value,
RENAME, SORT STORE, ZUNIONSTORE and friends' destination, EXPIRE in the past is an
expiry), lazyfree-lazy-user-flush and FLUSHALL / FLUSHDB ASYNC | SYNC.

Side by side with redis-server 7.0 (`redis_ref`): replies, keyspace events and the INFO
counters lazyfreed_objects / lazyfree_pending_objects (counted as deltas, after the
background thread is idle) must be the same. Valid with RANKD_TARGET_REDIS=1.
"""

import pytest

from util import err, info, wait_until

LAZY_CONFIGS = ("lazyfree-lazy-expire", "lazyfree-lazy-server-del", "lazyfree-lazy-user-flush",
                "lazyfree-lazy-user-del")


@pytest.fixture
def both(server, redis_ref):
    cs = [server.raw(), redis_ref.raw()]
    for c in cs:
        c.execute("SELECT", "0")
        c.execute("FLUSHALL", "SYNC")
        for name in LAZY_CONFIGS:
            c.execute("CONFIG", "SET", name, "no")
    yield cs
    for c in cs:
        for name in LAZY_CONFIGS:
            c.execute("CONFIG", "SET", name, "no")
        c.execute("CONFIG", "SET", "notify-keyspace-events", "")
        c.execute("FLUSHALL", "SYNC")
        c.close()


def run_both(cs, *cmd):
    got = [c.execute(*cmd) for c in cs]
    assert got[0] == got[1], (cmd, got)
    return got[0]


def freed(c):
    """lazyfreed_objects once nothing is pending."""
    wait_until(lambda: int(info(c, "memory")["lazyfree_pending_objects"]) == 0)
    return int(info(c, "memory")["lazyfreed_objects"])


def freed_delta(cs, *cmd):
    """Runs `cmd` on both; returns how many objects each freed lazily (equal)."""
    before = [freed(c) for c in cs]
    run_both(cs, *cmd)
    after = [freed(c) for c in cs]
    delta = [a - b for a, b in zip(after, before)]
    assert delta[0] == delta[1], (cmd, delta)
    return delta[0]


def big_zset(cs, key, n=1000):
    args = []
    for i in range(n):
        args += [str(i), "m%d" % i]
    run_both(cs, "ZADD", key, *args)


def test_flush_async_and_sync(both):
    for c in both:
        c.execute("MSET", "a", "1", "b", "2", "c", "3")
        c.execute("SELECT", "1")
        c.execute("MSET", "d", "1", "e", "2")
        c.execute("SELECT", "0")
    # Redis emptyDbAsync counts each key of the flushed databases as one object.
    assert freed_delta(both, "FLUSHALL", "ASYNC") == 5
    assert run_both(both, "DBSIZE") == 0
    run_both(both, "MSET", "a", "1", "b", "2")
    assert freed_delta(both, "FLUSHDB", "async") == 2
    run_both(both, "MSET", "a", "1", "b", "2")
    assert freed_delta(both, "FLUSHALL", "SYNC") == 0
    run_both(both, "MSET", "a", "1", "b", "2")
    assert freed_delta(both, "FLUSHALL") == 0
    assert freed_delta(both, "FLUSHALL", "ASYNC") == 0  # nothing left to free
    for bad in (("FLUSHALL", "ASYNC", "SYNC"), ("FLUSHALL", "LAZY"), ("FLUSHDB", "1")):
        assert run_both(both, *bad) == err("ERR syntax error")
    assert run_both(both, "CONFIG", "SET", "lazyfree-lazy-user-flush", "yes") == b"OK"
    assert run_both(both, "CONFIG", "GET", "lazyfree-lazy-user-flush") == [
        b"lazyfree-lazy-user-flush", b"yes"]
    run_both(both, "MSET", "a", "1", "b", "2", "c", "3")
    big_zset(both, "z")
    assert freed_delta(both, "FLUSHDB") == 4
    run_both(both, "MSET", "a", "1")
    assert freed_delta(both, "FLUSHALL", "SYNC") == 0


def test_flush_async_keeps_watch_and_semantics(both):
    big_zset(both, "z", 5000)
    for c in both:
        c.execute("WATCH", "z")
    others = [c.__class__("127.0.0.1", c.port) for c in both]
    try:
        run_both(others, "FLUSHALL", "ASYNC")
        run_both(both, "MULTI")
        run_both(both, "PING")
        assert run_both(both, "EXEC") is None
        assert run_both(both, "EXISTS", "z") == 0
        assert run_both(both, "ZADD", "z", "1", "a") == 1
    finally:
        for o in others:
            o.close()


IMPLICIT = [
    # (setup on "dst" as a big sorted set, the command that replaces or deletes it)
    ("SET", "dst", "x"),
    ("RENAME", "src", "dst"),
    ("SORT", "lst", "STORE", "dst"),
    ("ZUNIONSTORE", "dst", "1", "small"),
    ("ZRANGESTORE", "dst", "small", "0", "-1"),
    ("SUNIONSTORE", "dst", "sset"),
    ("COPY", "src", "dst", "REPLACE"),
    ("MSET", "dst", "1"),
    ("ZINTERSTORE", "dst", "1", "nosuch"),  # empty result: the destination is deleted
    ("GEORADIUS", "nosuch", "0", "0", "1", "km", "STORE", "dst"),
]


@pytest.mark.parametrize("cmd", IMPLICIT, ids=[" ".join(c) for c in IMPLICIT])
def test_lazy_server_del(both, cmd):
    def setup():
        run_both(both, "DEL", "dst", "src", "lst", "small", "sset")
        big_zset(both, "dst")
        run_both(both, "SET", "src", "v")
        run_both(both, "RPUSH", "lst", "3", "1", "2")
        run_both(both, "ZADD", "small", "1", "a")
        run_both(both, "SADD", "sset", "a")

    setup()
    before = [freed(c) for c in both]
    r1 = [c.execute(*cmd) for c in both]
    assert r1[0] == r1[1], r1
    after_sync = [freed(c) for c in both]
    assert after_sync == before, (cmd, before, after_sync)  # synchronous: nothing lazy
    assert run_both(both, "CONFIG", "SET", "lazyfree-lazy-server-del", "yes") == b"OK"
    setup()
    delta = freed_delta(both, *cmd)
    assert delta == 1, (cmd, after_sync)
    run_both(both, "TYPE", "dst")
    run_both(both, "EXISTS", "dst")


def test_lazy_server_del_leaves_del_and_small_values(both):
    run_both(both, "CONFIG", "SET", "lazyfree-lazy-server-del", "yes")
    big_zset(both, "z")
    assert freed_delta(both, "DEL", "z") == 0  # DEL follows lazyfree-lazy-user-del
    run_both(both, "ZADD", "z", "1", "a")
    assert freed_delta(both, "SET", "z", "x") == 0  # small values are freed at once
    big_zset(both, "h")
    assert freed_delta(both, "UNLINK", "h") == 1


def test_lazy_expire(both):
    big_zset(both, "z")
    assert freed_delta(both, "EXPIRE", "z", "-1") == 0
    run_both(both, "CONFIG", "SET", "lazyfree-lazy-expire", "yes")
    big_zset(both, "z")
    # A deadline in the past deletes at once, as an expiry.
    assert freed_delta(both, "PEXPIRE", "z", "0") == 1
    # A key that expires is freed lazily when it is found expired (here by EXISTS).
    big_zset(both, "z")
    before = [freed(c) for c in both]
    run_both(both, "PEXPIRE", "z", "1")
    wait_until(lambda: all(c.execute("EXISTS", "z") == 0 for c in both))
    assert [freed(c) - b for c, b in zip(both, before)] == [1, 1]
    # Small values are freed at once.
    run_both(both, "SET", "s", "x")
    assert freed_delta(both, "PEXPIRE", "s", "0") == 0


def test_events_are_the_same_lazy_or_not(both):
    """Keyspace events of deletes, overwrites, expiries and flushes do not depend on
    how the values are freed."""
    script = [
        ("ZADD", "z", "1", "a"), ("SET", "z", "x"), ("RENAME", "z", "y"), ("DEL", "y"),
        ("EXPIRE", "a", "-1"), ("SET", "a", "1"), ("EXPIRE", "a", "-1"),
        ("SET", "b", "1"), ("FLUSHALL", "ASYNC"), ("SET", "c", "1"), ("FLUSHDB", "SYNC"),
        ("SET", "d", "1"), ("FLUSHDB"), ("SET", "e", "1", "PX", "1"),
    ]
    for lazy in ("no", "yes"):
        subs = []
        for c in both:
            for name in LAZY_CONFIGS:
                c.execute("CONFIG", "SET", name, lazy)
            c.execute("CONFIG", "SET", "notify-keyspace-events", "KEA")
            s = c.__class__("127.0.0.1", c.port)
            s.execute("PSUBSCRIBE", "__key*__:*")
            subs.append(s)
        for cmd in script:
            if isinstance(cmd, str):
                cmd = (cmd,)
            big_zset(both, "big", 100)
            run_both(both, *cmd)
        wait_until(lambda: all(c.execute("EXISTS", "e") == 0 for c in both))
        run_both(both, "SET", "end", "1")
        streams = []
        for s in subs:
            got = []
            while True:
                m = s.read_reply(timeout=5)
                got.append(m)
                if m[2] == b"__keyevent@0__:set" and m[3] == b"end":
                    break
            streams.append(got)
            s.close()
        assert streams[0] == streams[1], lazy
