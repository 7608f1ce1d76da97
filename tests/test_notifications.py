"""Keyspace notifications (notify-keyspace-events) compared with redis-server 7.0:
each scenario runs the same commands on rankd and on the reference server, with a
subscriber on __key*__:*, and the events each command caused (channel and payload,
in order) must be identical. Leaderboard events (rankd only) and expiry (lazy and
active) have their own tests."""

import time

import pytest

from resp_client import RespClient
from server_process import target_is_redis

SYNC = "__sync__"


class Recorder:
    """A client that runs commands and a subscriber that records their events."""

    def __init__(self, server, flags="KEAn"):
        self.cmd = RespClient(server.host, server.port)
        self.sub = RespClient(server.host, server.port)
        self.sync = RespClient(server.host, server.port)  # never inside MULTI
        assert self.cmd.execute("FLUSHALL") == b"OK"
        assert self.cmd.execute("CONFIG", "SET", "notify-keyspace-events", flags) == b"OK"
        self.sub.execute("PSUBSCRIBE", "__key*__:*")
        self.sub.execute("SUBSCRIBE", SYNC)

    def events(self):
        """Events up to a sync marker published after them."""
        self.sync.execute("PUBLISH", SYNC, "x")
        out = []
        while True:
            msg = self.sub.read_reply(timeout=5)
            if msg[0] == b"message" and msg[1] == SYNC.encode():
                return out
            out.append((msg[2].decode(), msg[3].decode()))

    def run(self, *cmd):
        reply = self.cmd.execute(*cmd)
        return reply, self.events()

    def close(self):
        self.cmd.execute("CONFIG", "SET", "notify-keyspace-events", "")
        self.cmd.close()
        self.sub.close()
        self.sync.close()


SCENARIOS = {
    "strings": [
        ("SET", "s", "1"), ("SET", "s", "2", "EX", "100"), ("SET", "s", "3", "KEEPTTL"),
        ("SETNX", "s", "x"), ("SETNX", "s2", "x"), ("SETEX", "s3", "100", "v"),
        ("PSETEX", "s4", "100000", "v"), ("GETSET", "s", "4"), ("MSET", "a", "1", "b", "2"),
        ("MSETNX", "c", "1", "d", "2"), ("MSETNX", "c", "1", "e", "2"), ("INCR", "n"),
        ("INCRBY", "n", "5"), ("DECR", "n"), ("DECRBY", "n", "2"), ("INCRBYFLOAT", "f", "1.5"),
        ("APPEND", "s", "xyz"), ("APPEND", "new", "abc"), ("SETRANGE", "s", "1", "Q"),
        ("SETRANGE", "r", "2", "zz"), ("SETRANGE", "s", "0", ""), ("GETDEL", "a"),
        ("GETDEL", "nokey"), ("GETEX", "b", "EX", "100"), ("GETEX", "b", "PERSIST"),
        ("GETEX", "b", "PERSIST"), ("GETEX", "b", "PXAT", "1"), ("SET", "s", "v", "NX"),
        ("SET", "s", "v", "XX", "GET"), ("SET", "zz", "v", "XX"), ("INCR", "s"),
    ],
    "keys": [
        ("SET", "a", "1"), ("SET", "b", "2"), ("DEL", "a", "b", "c"), ("SET", "a", "1"),
        ("UNLINK", "a"), ("SET", "x", "1"), ("RENAME", "x", "y"), ("SET", "x", "2"),
        ("RENAME", "x", "y"), ("RENAMENX", "y", "z"), ("SET", "w", "1"), ("RENAMENX", "w", "z"),
        ("RENAME", "z", "z"), ("COPY", "y", "c1"), ("COPY", "y", "c1"), ("COPY", "y", "c1", "REPLACE"),
        ("COPY", "y", "c2", "DB", "1"), ("MOVE", "y", "2"), ("MOVE", "nokey", "2"),
        ("EXPIRE", "c1", "100"), ("PEXPIRE", "c1", "100000"), ("EXPIREAT", "c1", "4000000000"),
        ("PEXPIREAT", "c1", "4000000000000"), ("EXPIRE", "c1", "200", "NX"), ("PERSIST", "c1"),
        ("PERSIST", "c1"), ("EXPIRE", "c1", "-1"), ("SET", "t", "1"), ("PEXPIREAT", "t", "1"),
        ("FLUSHDB",), ("SWAPDB", "0", "1"), ("FLUSHALL",),
    ],
    "zsets": [
        ("ZADD", "z", "1", "a", "2", "b", "3", "c"), ("ZADD", "z", "1", "a"),
        ("ZADD", "z", "XX", "5", "nope"), ("ZADD", "zz", "XX", "5", "nope"),
        ("ZADD", "z", "INCR", "10", "a"), ("ZINCRBY", "z", "1", "b"), ("ZADD", "z", "CH", "9", "c"),
        ("ZADD", "z", "GT", "1", "c"), ("ZREM", "z", "a", "x"), ("ZREM", "z", "x"),
        ("ZADD", "z", "4", "d", "5", "e", "6", "f"), ("ZREMRANGEBYSCORE", "z", "4", "4"),
        ("ZREMRANGEBYRANK", "z", "0", "0"), ("ZREMRANGEBYRANK", "z", "50", "60"),
        ("ZADD", "lex", "0", "a", "0", "b", "0", "c"), ("ZREMRANGEBYLEX", "lex", "[a", "[b"),
        ("ZREMRANGEBYLEX", "lex", "-", "+"), ("ZPOPMIN", "z"), ("ZPOPMAX", "z", "2"),
        ("ZPOPMIN", "z", "10"), ("ZPOPMIN", "nokey"), ("ZADD", "p", "1", "a", "2", "b"),
        ("ZADD", "q", "2", "b", "3", "c"), ("ZUNIONSTORE", "u", "2", "p", "q"),
        ("ZINTERSTORE", "i", "2", "p", "q"), ("ZDIFFSTORE", "d", "2", "p", "q"),
        ("ZINTERSTORE", "i", "2", "p", "nokey"), ("ZINTERSTORE", "i2", "2", "p", "nokey"),
        ("ZRANGESTORE", "rs", "p", "0", "-1"), ("ZRANGESTORE", "rs", "p", "5", "6"),
        ("ZMPOP", "2", "nokey", "p", "MIN"), ("ZMPOP", "1", "q", "MAX", "COUNT", "5"),
        ("BZPOPMIN", "u", "0"), ("BZPOPMAX", "u", "0"), ("BZMPOP", "0", "1", "u", "MIN"),
        ("ZADD", "z", "nan", "x"), ("ZADD", "z", "1", "a"), ("ZREM", "z", "a"),
    ],
    "sets": [
        ("SADD", "s", "a", "b", "c"), ("SADD", "s", "a"), ("SREM", "s", "a", "x"),
        ("SREM", "s", "x"), ("SMOVE", "s", "t", "b"), ("SMOVE", "s", "t", "c"),
        ("SMOVE", "t", "t", "b"), ("SADD", "p", "1", "2", "3"), ("SPOP", "p"), ("SPOP", "p", "5"),
        ("SADD", "a1", "x", "y"), ("SADD", "a2", "y", "z"), ("SINTERSTORE", "i", "a1", "a2"),
        ("SUNIONSTORE", "u", "a1", "a2"), ("SDIFFSTORE", "d", "a1", "a2"),
        ("SINTERSTORE", "i", "a1", "nokey"), ("SINTERSTORE", "i", "a1", "nokey"),
    ],
    "hashes": [
        ("HSET", "h", "f", "1"), ("HSET", "h", "f", "2", "g", "3"), ("HMSET", "h", "a", "1"),
        ("HSETNX", "h", "f", "x"), ("HSETNX", "h", "n", "x"), ("HINCRBY", "h", "c", "5"),
        ("HINCRBY", "h", "f", "abc"), ("HINCRBYFLOAT", "h", "d", "1.5"), ("HDEL", "h", "zz"),
        ("HDEL", "h", "f", "g", "zz"), ("HSET", "h2", "x", "1"), ("HDEL", "h2", "x"),
        ("HINCRBYFLOAT", "h3", "x", "2"), ("HDEL", "nokey", "x"),
    ],
    "lists": [
        ("RPUSH", "l", "a", "b", "c"), ("LPUSH", "l", "z"), ("LPUSHX", "nokey", "a"),
        ("RPUSHX", "l", "d"), ("LPUSHX", "l", "y"), ("LINSERT", "l", "BEFORE", "b", "x"),
        ("LINSERT", "l", "AFTER", "nope", "x"), ("LINSERT", "nokey", "AFTER", "a", "x"),
        ("LSET", "l", "0", "q"), ("LREM", "l", "0", "x"), ("LREM", "l", "0", "nope"),
        ("LTRIM", "l", "0", "4"), ("LTRIM", "l", "0", "-1"), ("LPOP", "l"),
        ("RPOP", "l", "2"), ("LMOVE", "l", "m", "LEFT", "RIGHT"), ("LMOVE", "l", "l", "LEFT", "RIGHT"),
        ("RPOPLPUSH", "l", "m"), ("RPOPLPUSH", "m", "m"), ("LMOVE", "nokey", "m", "LEFT", "LEFT"),
        ("LPOP", "nokey"), ("RPUSH", "t", "1", "2", "3", "4", "5"), ("LMPOP", "2", "nokey", "t", "LEFT"),
        ("LMPOP", "1", "t", "RIGHT", "COUNT", "2"), ("BLPOP", "nokey", "t", "0"),
        ("BRPOP", "t", "0"), ("RPUSH", "u", "1", "2"), ("BLMOVE", "u", "v", "RIGHT", "LEFT", "0"),
        ("BRPOPLPUSH", "u", "v", "0"), ("BLMPOP", "0", "1", "v", "LEFT", "COUNT", "5"),
        ("RPUSH", "w", "1"), ("LTRIM", "w", "5", "6"), ("RPUSH", "w", "1"), ("LREM", "w", "0", "1"),
    ],
    "sort": [
        ("RPUSH", "l", "3", "1", "2"), ("SORT", "l", "STORE", "dst"), ("SORT", "l", "STORE", "dst"),
        ("SORT", "nokey", "STORE", "dst"), ("SORT", "nokey", "STORE", "dst"),
        ("SADD", "s", "b", "a"), ("SORT", "s", "ALPHA", "STORE", "dst2"), ("SORT", "l"),
    ],
    "bits": [
        ("SETBIT", "b", "7", "1"), ("SETBIT", "b", "7", "1"), ("SETBIT", "b", "100", "0"),
        ("SET", "c", "abc"), ("BITOP", "AND", "d", "b", "c"), ("BITOP", "OR", "d", "b", "c"),
        ("BITOP", "NOT", "e", "c"), ("BITOP", "AND", "d", "n1", "n2"),
        ("BITOP", "AND", "d", "n1", "n2"), ("BITFIELD", "f", "SET", "u8", "0", "255"),
        ("BITFIELD", "f", "INCRBY", "u8", "0", "1"), ("BITFIELD", "f", "GET", "u8", "0"),
        ("BITFIELD", "f", "OVERFLOW", "FAIL", "INCRBY", "u8", "0", "300"),
        ("BITFIELD_RO", "f", "GET", "u8", "0"), ("BITCOUNT", "f"), ("SETRANGE", "c", "1", "xy"),
    ],
    "geo": [
        ("GEOADD", "g", "13.361389", "38.115556", "Palermo", "15.087269", "37.502669", "Catania"),
        ("GEOADD", "g", "13.361389", "38.115556", "Palermo"),
        ("GEOADD", "g", "XX", "13.4", "38.1", "Palermo"),
        ("GEOSEARCHSTORE", "d", "g", "FROMLONLAT", "15", "37", "BYRADIUS", "200", "km", "ASC"),
        ("GEOSEARCHSTORE", "d", "g", "FROMLONLAT", "15", "37", "BYRADIUS", "200", "km",
         "STOREDIST"),
        ("GEOSEARCHSTORE", "d", "g", "FROMLONLAT", "0", "0", "BYRADIUS", "1", "km"),
        ("GEOSEARCHSTORE", "d", "g", "FROMLONLAT", "0", "0", "BYRADIUS", "1", "km"),
        ("GEORADIUS", "g", "15", "37", "200", "km", "STORE", "r"),
        ("GEORADIUS", "g", "15", "37", "200", "km", "STOREDIST", "r2"),
        ("GEORADIUSBYMEMBER", "g", "Palermo", "300", "km", "STORE", "r3"),
        ("GEORADIUS", "g", "0", "0", "1", "km", "STORE", "r"),
        ("ZREM", "g", "Palermo", "Catania"),
    ],
    "transactions": [
        ("MULTI",), ("SET", "a", "1"), ("ZADD", "z", "1", "m"), ("DEL", "a"), ("EXEC",),
        ("MULTI",), ("RPUSH", "tl", "a", "b"), ("LMOVE", "tl", "tl2", "LEFT", "LEFT"),
        ("HSET", "th", "f", "1"), ("LPOP", "tl"), ("EXEC",),
        ("EVAL", "redis.call('set', KEYS[1], 'v'); redis.call('zadd', KEYS[2], 1, 'm')", "2",
         "k", "z2"),
    ],
}


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_events_match_redis(name, server, redis_ref):
    ours, ref = Recorder(server), Recorder(redis_ref)
    try:
        for cmd in SCENARIOS[name]:
            got, want = ours.run(*cmd), ref.run(*cmd)
            assert got[1] == want[1], "events of %r: rankd %r, redis %r" % (cmd, got[1], want[1])
    finally:
        ours.close()
        ref.close()


def _wait_blocked(rec, n):
    """Waits until `n` clients are blocked on the server `rec` talks to."""
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        info = rec.sync.execute("INFO", "clients").decode()
        if "blocked_clients:%d\r\n" % n in info:
            return
        time.sleep(0.01)
    raise AssertionError("client never blocked")


# (setup commands, blocking command, command that serves it)
BLOCKED = [
    ([], ("BLPOP", "bl", "0"), ("RPUSH", "bl", "a", "b")),
    ([], ("BRPOP", "bl2", "nokey", "0"), ("LPUSH", "bl2", "x")),
    ([], ("BLMOVE", "src", "dst", "RIGHT", "LEFT", "0"), ("RPUSH", "src", "v")),
    ([("RPUSH", "dst2", "old")], ("BLMOVE", "src2", "dst2", "LEFT", "RIGHT", "0"),
     ("LPUSH", "src2", "v", "w")),
    ([], ("BRPOPLPUSH", "same", "same", "0"), ("RPUSH", "same", "v")),
    ([], ("BLMPOP", "0", "2", "nokey", "k", "LEFT", "COUNT", "2"), ("RPUSH", "k", "1", "2", "3")),
    ([("RPUSH", "a1", "x")], ("BLPOP", "tgt", "0"), ("LMOVE", "a1", "tgt", "LEFT", "RIGHT")),
    ([("RPUSH", "a2", "x")], ("BLPOP", "tgt2", "0"), ("RPOPLPUSH", "a2", "tgt2")),
    ([("RPUSH", "n", "3", "1")], ("BLPOP", "srt", "0"), ("SORT", "n", "STORE", "srt")),
]


@pytest.mark.parametrize("case", range(len(BLOCKED)))
def test_blocked_pops_served_later_match_redis(case, server, redis_ref):
    setup, blocking, serve = BLOCKED[case]
    got = []
    for srv in (server, redis_ref):
        rec = Recorder(srv)
        waiter = RespClient(srv.host, srv.port)
        try:
            for cmd in setup:
                rec.run(*cmd)
            waiter.send_command(*blocking)
            _wait_blocked(rec, 1)
            events = rec.run(*serve)[1]
            assert waiter.read_reply(timeout=5) is not None
            got.append(events + rec.events())
        finally:
            waiter.close()
            rec.close()
    assert got[0] == got[1], "rankd %r, redis %r" % (got[0], got[1])
    assert got[0], "the serving command published nothing"


@pytest.mark.parametrize("flags", ["", "K", "E", "KA", "Ez", "Kg$", "KEs", "Ex", "KEn", "KEA",
                                   "KEm", "Kl", "Eh", "Klh"])
def test_classes_select_events(flags, server, redis_ref):
    cmds = [("SET", "a", "1", "EX", "100"), ("ZADD", "z", "1", "m"), ("SADD", "s", "m"),
            ("DEL", "a", "z"), ("SREM", "s", "m"), ("GET", "nokey"), ("ZSCORE", "nokey", "m"),
            ("ZRANGE", "nokey", "0", "-1"), ("SMEMBERS", "nokey"), ("EXISTS", "nokey"),
            ("TTL", "nokey"), ("TYPE", "nokey"), ("MGET", "n1", "n2"), ("ZCARD", "nokey"),
            ("SET", "nokey", "v"), ("INCR", "n3"), ("ZADD", "n4", "1", "m"), ("GETEX", "n5"),
            ("ZUNIONSTORE", "d", "2", "n6", "n7"), ("SINTER", "n8", "n9"), ("ZRANK", "n10", "m"),
            ("HSET", "h", "f", "v"), ("HDEL", "h", "f"), ("RPUSH", "l", "a"), ("LPOP", "l"),
            ("SETBIT", "b", "1", "1"), ("GEOADD", "g", "1", "1", "m")]
    ours, ref = Recorder(server, flags), Recorder(redis_ref, flags)
    try:
        for cmd in cmds:
            assert ours.run(*cmd)[1] == ref.run(*cmd)[1], cmd
    finally:
        ours.close()
        ref.close()



def _misses(rec):
    info = rec.sync.execute("INFO", "stats").decode()
    return int(info.split("keyspace_misses:")[1].split("\r\n")[0])


# Lookups of a missing key: which publish "keymiss" (Redis 7.0 skips it for OBJECT,
# LOOKUP_NONOTIFY) and which count in keyspace_misses.
MISS_LOOKUPS = [
    ("OBJECT", "ENCODING", "nokey"), ("OBJECT", "FREQ", "nokey"), ("OBJECT", "IDLETIME", "nokey"),
    ("OBJECT", "REFCOUNT", "nokey"), ("TYPE", "nokey"), ("EXISTS", "nokey", "n2"),
    ("TOUCH", "nokey"), ("TTL", "nokey"), ("PTTL", "nokey"), ("EXPIRETIME", "nokey"),
    ("PEXPIRETIME", "nokey"), ("DUMP", "nokey"), ("MEMORY", "USAGE", "nokey"), ("GET", "nokey"),
    ("STRLEN", "nokey"), ("ZSCORE", "nokey", "m"), ("ZCARD", "nokey"), ("SORT", "nokey"),
    ("SRANDMEMBER", "nokey"), ("HGETALL", "nokey"), ("LRANGE", "nokey", "0", "-1"),
]


def test_keymiss_lookups_match_redis(server, redis_ref):
    ours, ref = Recorder(server, "KEm"), Recorder(redis_ref, "KEm")
    try:
        for cmd in MISS_LOOKUPS:
            before = _misses(ours), _misses(ref)
            got, want = ours.run(*cmd), ref.run(*cmd)
            assert got == want, cmd
            assert (_misses(ours) - before[0]) == (_misses(ref) - before[1]), cmd
    finally:
        ours.close()
        ref.close()

def test_config_round_trip(r, redis_ref):
    ref = redis_ref.client()
    try:
        for value in ["KEA", "KEAn", "A", "Kn", "g$lshzxetdn", "Kg$lshzxetd", "KEm", "E", "",
                      "zK", "xeKE"]:
            r.config_set("notify-keyspace-events", value)
            ref.config_set("notify-keyspace-events", value)
            assert (r.config_get("notify-keyspace-events") ==
                    ref.config_get("notify-keyspace-events")), value
        for c in (r, ref):
            with pytest.raises(Exception, match="Invalid event class character"):
                c.config_set("notify-keyspace-events", "KEQ")
    finally:
        r.config_set("notify-keyspace-events", "")
        ref.config_set("notify-keyspace-events", "")
        ref.close()


def test_expired_events_lazy_and_active(server):
    rec = Recorder(server, "KEA")
    try:
        rec.run("SET", "lazy", "1", "PX", "20")
        rec.run("SET", "active", "1", "PX", "20")
        time.sleep(0.03)
        # Reading a key reclaims it (unless the active cycle was first): its
        # "expired" event comes before the reply.
        reply, got = rec.run("GET", "lazy")
        assert reply is None
        assert [("__keyspace@0__:lazy", "expired"), ("__keyevent@0__:expired", "lazy")] == [
            e for e in got if e[0].endswith("lazy") or e[1] == "lazy"]
        # Nobody reads the other: the active cycle reclaims it.
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and ("__keyevent@0__:expired", "active") not in got:
            got += rec.events()
            time.sleep(0.05)
        assert [e for e in got if "active" in e[0] + e[1]] == [
            ("__keyspace@0__:active", "expired"), ("__keyevent@0__:expired", "active")]
    finally:
        rec.close()


def test_events_in_other_databases(server):
    rec = Recorder(server, "KEA")
    try:
        rec.cmd.execute("SELECT", "3")
        assert rec.run("SET", "k", "v")[1] == [("__keyspace@3__:k", "set"),
                                               ("__keyevent@3__:set", "k")]
    finally:
        rec.cmd.execute("SELECT", "0")
        rec.close()


@pytest.mark.skipif(target_is_redis(), reason="leaderboards are rankd's own")
def test_leaderboard_events(server):
    rec = Recorder(server, "KEzn")
    try:
        assert rec.run("LB.CREATE", "b", "ORDER", "DESC")[1] == [
            ("__keyspace@0__:b", "new"), ("__keyevent@0__:new", "b"),
            ("__keyspace@0__:b", "lb.create"), ("__keyevent@0__:lb.create", "b")]
        assert rec.run("LB.ADD", "b", "10", "alice")[1] == [
            ("__keyspace@0__:b", "lb.add"), ("__keyevent@0__:lb.add", "b")]
        # Board members removed with ZREM emit the sorted-set events.
        assert rec.run("ZREM", "b", "alice")[1] == [
            ("__keyspace@0__:b", "zrem"), ("__keyevent@0__:zrem", "b")]
    finally:
        rec.close()


def _keyspace(events):
    return [(ch.split(":", 1)[1], ev) for ch, ev in events if ch.startswith("__keyspace")]


def _events_until(rec, want):
    """Events (waiting up to 10 s) until keyspace event `want` = (key, event)."""
    got = []
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and want not in _keyspace(got):
        time.sleep(0.05)
        got += rec.events()
    return got


@pytest.mark.skipif(target_is_redis(), reason="hash field expiry is Redis 7.4 (no 7.0 oracle)")
def test_hash_field_expiry_events(server):
    # Redis 7.4's documented names: hexpire, hpersist, hexpired (+ del when
    # the last field goes); a deadline in the past deletes the field: hdel.
    rec = Recorder(server, "KEA")
    try:
        rec.run("HSET", "h", "a", "1", "b", "2", "c", "3")
        assert _keyspace(rec.run("HEXPIRE", "h", "100", "FIELDS", "1", "a")[1]) == [
            ("h", "hexpire")]
        assert _keyspace(rec.run("HPEXPIRE", "h", "100000", "NX", "FIELDS", "1", "a")[1]) == []
        assert _keyspace(rec.run("HPERSIST", "h", "FIELDS", "2", "a", "b")[1]) == [
            ("h", "hpersist")]
        assert _keyspace(rec.run("HPERSIST", "h", "FIELDS", "1", "a")[1]) == []
        assert _keyspace(rec.run("HEXPIREAT", "h", "1", "FIELDS", "1", "c")[1]) == [
            ("h", "hdel")]
        rec.run("HSET", "g", "x", "1")
        assert _keyspace(rec.run("HPEXPIREAT", "g", "1", "FIELDS", "1", "x")[1]) == [
            ("g", "hdel"), ("g", "del")]
        # Fields reaching their deadline: hexpired (lazily or actively).
        rec.run("HSET", "e", "x", "1", "y", "2")
        rec.run("HPEXPIRE", "e", "20", "FIELDS", "1", "x")
        assert _keyspace(_events_until(rec, ("e", "hexpired"))) == [("e", "hexpired")]
        rec.run("HPEXPIRE", "e", "20", "FIELDS", "1", "y")
        got = _events_until(rec, ("e", "del"))
        assert _keyspace(got) == [("e", "hexpired"), ("e", "del")]
        assert ("__keyevent@0__:hexpired", "e") in got
    finally:
        rec.close()


@pytest.mark.skipif(target_is_redis(), reason="ZPOPDUE is rankd's own")
def test_zpopdue_events(server):
    rec = Recorder(server, "KEA")
    try:
        rec.run("ZADD", "q", "1", "a", "2", "b", "99999999999999", "later")
        assert _keyspace(rec.run("ZPOPDUE", "q")[1]) == [("q", "zpopdue")]
        assert _keyspace(rec.run("ZPOPDUE", "q", "COUNT", "5")[1]) == [("q", "zpopdue")]
        assert _keyspace(rec.run("ZPOPDUE", "q")[1]) == []
        rec.run("ZADD", "q2", "1", "a")
        assert _keyspace(rec.run("ZPOPDUE", "q2")[1]) == [("q2", "zpopdue"), ("q2", "del")]
    finally:
        rec.close()
