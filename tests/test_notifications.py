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
    "transactions": [
        ("MULTI",), ("SET", "a", "1"), ("ZADD", "z", "1", "m"), ("DEL", "a"), ("EXEC",),
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


@pytest.mark.parametrize("flags", ["", "K", "E", "KA", "Ez", "Kg$", "KEs", "Ex", "KEn", "KEA",
                                   "KEm"])
def test_classes_select_events(flags, server, redis_ref):
    cmds = [("SET", "a", "1", "EX", "100"), ("ZADD", "z", "1", "m"), ("SADD", "s", "m"),
            ("DEL", "a", "z"), ("SREM", "s", "m"), ("GET", "nokey"), ("ZSCORE", "nokey", "m"),
            ("ZRANGE", "nokey", "0", "-1"), ("SMEMBERS", "nokey"), ("EXISTS", "nokey"),
            ("TTL", "nokey"), ("TYPE", "nokey"), ("MGET", "n1", "n2"), ("ZCARD", "nokey"),
            ("SET", "nokey", "v"), ("INCR", "n3"), ("ZADD", "n4", "1", "m"), ("GETEX", "n5"),
            ("ZUNIONSTORE", "d", "2", "n6", "n7"), ("SINTER", "n8", "n9"), ("ZRANK", "n10", "m")]
    ours, ref = Recorder(server, flags), Recorder(redis_ref, flags)
    try:
        for cmd in cmds:
            assert ours.run(*cmd)[1] == ref.run(*cmd)[1], cmd
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
