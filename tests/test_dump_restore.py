"""DUMP and RESTORE in Redis's payload format (issue 13): values move rankd -> rankd,
redis-server 7.0 -> rankd and rankd -> redis-server 7.0 for every type in both of
Redis's encodings (test_migrate_from_redis.populate), with TTLs; RESTORE's options
(REPLACE, ABSTTL, IDLETIME, FREQ) and every error are compared with redis-server,
data unchanged after each error; the "restore" keyspace event; RESTORE reaching a
replica with its absolute deadline; a leaderboard DUMPed as a plain sorted set.

Valid with RANKD_TARGET_REDIS=1 (skips the rankd-only parts)."""

import time

import pytest
import redis

from server_process import target_is_redis
from test_migrate_from_redis import WEIRD_SCORES, assert_same, populate, snapshot
from test_notifications import Recorder
from test_replication import link_up, wait_for


def _crc64_table():
    poly = int("{:064b}".format(0xad93d23594c935a9)[::-1], 2)  # reflected Jones polynomial
    table = []
    for b in range(256):
        c = b
        for _ in range(8):
            c = (c >> 1) ^ poly if c & 1 else c >> 1
        table.append(c)
    return table


CRC_TABLE = _crc64_table()


def crc64(data, crc=0):
    for ch in data:
        crc = CRC_TABLE[(crc ^ ch) & 0xff] ^ (crc >> 8)
    return crc


def payload(body, version=10):
    """A DUMP payload: RDB value bytes, version and CRC64."""
    p = body + version.to_bytes(2, "little")
    return p + crc64(p).to_bytes(8, "little")


def move_all(src, dst):
    """DUMP every key of every database of src and RESTORE it into dst with its TTL."""
    for db in range(16):
        src.execute_command("SELECT", db)
        dst.execute_command("SELECT", db)
        for key in src.execute_command("KEYS", "*"):
            pttl = src.pttl(key)
            data = src.execute_command("DUMP", key)
            assert dst.execute_command("RESTORE", key, max(pttl, 0), data) == b"OK", key
    src.execute_command("SELECT", 0)
    dst.execute_command("SELECT", 0)


def encodings(r):
    out = {}
    for key in r.execute_command("KEYS", "*"):
        out[key] = r.object("encoding", key)
    return out


def test_rankd_to_rankd(r, server_factory):
    populate(r)
    other = server_factory().client()
    move_all(r, other)
    assert_same(r, other)
    assert encodings(other) == encodings(r)


@pytest.mark.parametrize("direction", ["redis-to-rankd", "rankd-to-redis"])
def test_exchange_with_redis_server(r, redis_ref, direction):
    ref = redis_ref.client()
    ref.flushall()
    src, dst = (ref, r) if direction == "redis-to-rankd" else (r, ref)
    populate(src)
    src.zadd("z:longmember", {"m" * 5000: 1.5, "n" * 70000: -0.5, "": 0})
    src.zadd("z:million-ish", {"k%d" % i: i / 3 for i in range(20000)})
    src.hset("h:longvalue", mapping={"f": "v" * 100000})
    src.rpush("l:huge", *["x" * 300] * 200)
    move_all(src, dst)
    assert_same(src, dst)
    assert encodings(dst) == encodings(src)
    got = dst.execute_command("ZRANGE", "z:small", 0, -1, "WITHSCORES")
    assert got == src.execute_command("ZRANGE", "z:small", 0, -1, "WITHSCORES")
    assert b"-inf" in got and b"inf" in got
    ref.flushall()


def test_ttl_absttl_and_past_deadlines(r):
    r.set("k", "v")
    p = r.dump("k")
    assert r.execute_command("RESTORE", "a", 5000, p) == b"OK"
    assert 4000 < r.pttl("a") <= 5000
    at = int(time.time() * 1000) + 60_000
    assert r.execute_command("RESTORE", "b", at, p, "ABSTTL") == b"OK"
    assert abs(r.execute_command("PEXPIRETIME", "b") - at) <= 1
    assert r.execute_command("RESTORE", "c", 0, p) == b"OK"
    assert r.pttl("c") == -1
    assert r.execute_command("RESTORE", "gone", 1, p, "ABSTTL") == b"OK"  # long past
    assert r.exists("gone") == 0
    assert r.execute_command("RESTORE", "k", 1, p, "ABSTTL", "REPLACE") == b"OK"
    assert r.exists("k") == 0  # the old key goes, the new one is born expired


def test_idletime_and_freq(r):
    r.set("k", "v")
    p = r.dump("k")
    assert r.execute_command("RESTORE", "idle", 0, p, "IDLETIME", 1000) == b"OK"
    assert 1000 <= r.object("idletime", "idle") <= 1010
    assert r.execute_command("RESTORE", "idle2", 0, p, "FREQ", 7) == b"OK"  # ignored under LRU
    assert r.object("idletime", "idle2") <= 10
    r.config_set("maxmemory-policy", "allkeys-lfu")
    try:
        assert r.execute_command("RESTORE", "hot", 0, p, "FREQ", 100) == b"OK"
        assert r.object("freq", "hot") == 100
        assert r.execute_command("RESTORE", "cold", 0, p, "IDLETIME", 5) == b"OK"
        assert r.object("freq", "cold") == 5  # a new key's counter: IDLETIME is ignored
    finally:
        r.config_set("maxmemory-policy", "noeviction")


def bad_restores(good, zset_good):
    body = good[:-10]
    bad_crc = good[:-1] + bytes([good[-1] ^ 1])
    return [
        ("RESTORE", "k", 0, good),                                  # BUSYKEY
        ("RESTORE", "k", -1, good),                                 # BUSYKEY before the TTL
        ("RESTORE", "new", -1, good),
        ("RESTORE", "new", "abc", good),
        ("RESTORE", "new", "1.5", good),
        ("RESTORE", "new", 0, b"garbage"),
        ("RESTORE", "new", 0, b""),
        ("RESTORE", "new", 0, bad_crc),
        ("RESTORE", "new", 0, payload(body, 12)),
        ("RESTORE", "new", 0, payload(b"\x00\x05hel")),   # reads on into the footer, as Redis
        ("RESTORE", "new2", 0, payload(b"\x00\x20hel")),            # past the end
        ("RESTORE", "new", 0, payload(b"\x03\x00")),                # empty sorted set
        ("RESTORE", "new", 0, payload(b"\x02\x02\x01a\x01a")),      # duplicate set member
        ("RESTORE", "new", 0, payload(b"\x63")),                    # no such type
        ("RESTORE", "new", 0, good, "IDLETIME", -1),
        ("RESTORE", "new", 0, good, "IDLETIME", "x"),
        ("RESTORE", "new", 0, good, "FREQ", 256),
        ("RESTORE", "new", 0, good, "FREQ", -1),
        ("RESTORE", "new", 0, good, "IDLETIME", 1, "FREQ", 1),
        ("RESTORE", "new", 0, good, "FREQ", 1, "IDLETIME", 1),
        ("RESTORE", "new", 0, good, "IDLETIME"),
        ("RESTORE", "new", 0, good, "BOGUS"),
        ("RESTORE", "k", 0, good, "BOGUS"),                         # syntax before BUSYKEY
        ("RESTORE", "k", 0, b"garbage", "REPLACE", "TTL"),
        ("RESTORE", "new", 0),
        ("RESTORE", "zs", 0, zset_good),
        ("DUMP",),
        ("DUMP", "k", "extra"),
    ]


def test_errors_match_redis_and_change_nothing(r, redis_ref):
    ref = redis_ref.client()
    ref.flushall()
    for c in (r, ref):
        c.set("k", "old")
        c.zadd("zs", {"a": 1})
    good, zset_good = ref.dump("k"), ref.dump("zs")
    for cmd in bad_restores(good, zset_good):
        replies = []
        for c in (r, ref):
            try:
                replies.append(c.execute_command(*cmd))
            except Exception as e:  # noqa: BLE001
                replies.append(str(e))
        assert replies[0] == replies[1], cmd
        for c in (r, ref):  # each case on its own (one of them creates "new")
            c.delete("new")
    for c in (r, ref):
        assert c.get("k") == b"old"
        assert c.execute_command("KEYS", "*") in ([b"k", b"zs"], [b"zs", b"k"])
        assert c.execute_command("DUMP", "missing") is None
    ref.flushall()


def ziplist(entries, tail=None):
    """A ziplist of 1-byte strings / small ints (0-12); tail: a zltail to write instead."""
    body, prev, last = b"", 0, 10
    for e in entries:
        last = 10 + len(body)
        enc = bytes([0xF1 + e]) if isinstance(e, int) else bytes([len(e)]) + e
        entry = bytes([prev]) + enc
        body, prev = body + entry, len(entry)
    size = 10 + len(body) + 1
    return (size.to_bytes(4, "little") + (last if tail is None else tail).to_bytes(4, "little")
            + len(entries).to_bytes(2, "little") + body + b"\xff")


def listpack(strings, backlen=None):
    """A listpack of short strings; backlen: a wrong back length for the first entry."""
    body = b""
    for i, v in enumerate(strings):
        body += bytes([0x80 | len(v)]) + v + bytes([backlen if i == 0 and backlen else 1 + len(v)])
    return (6 + len(body) + 1).to_bytes(4, "little") + len(strings).to_bytes(2, "little") + body + b"\xff"


def test_corrupt_encodings_refused_as_redis_does(r, redis_ref):
    """Payloads whose redundant bookkeeping lies (a ziplist's tail offset, a listpack
    entry's back length, an empty quicklist node) are refused by both servers; the
    same payloads with the bookkeeping right are accepted by both."""
    ref = redis_ref.client()
    for c in (r, ref):  # rankd always checks this deep
        c.config_set("sanitize-dump-payload", "yes")
    cases = [  # (type, good blob, bad blob)
        (12, ziplist([b"a", 1]), ziplist([b"a", 1], tail=10)),
        (16, listpack([b"f", b"v"]), listpack([b"f", b"v"], backlen=0xF7)),
    ]
    try:
        for kind, good, bad in cases:
            for blob, want in ((good, b"OK"), (bad, "Bad data format")):
                body = payload(bytes([kind, len(blob)]) + blob)
                for c in (r, ref):
                    c.delete("k")
                    try:
                        got = c.execute_command("RESTORE", "k", 0, body)
                    except redis.ResponseError as e:
                        got = str(e)
                    assert got == want, (kind, blob, c)
        for c in (r, ref):  # a quicklist (type 18) of one empty plain node
            with pytest.raises(redis.ResponseError, match="Bad data format"):
                c.execute_command("RESTORE", "k", 0, payload(b"\x12\x01\x01\x00"))
            assert c.exists("k") == 0
    finally:
        for c in (r, ref):
            c.config_set("sanitize-dump-payload", "no")
        ref.flushall()


@pytest.mark.skipif(target_is_redis(), reason="rankd reads RDB 11; redis-server 7.0 does not")
def test_rankd_reads_rdb_11_and_names_types_it_lacks(r):
    # Redis 7.2's set listpack (type 20, RDB 11): a listpack holding "a", "b".
    lp = bytes([13, 0, 0, 0, 2, 0, 0x81, ord("a"), 2, 0x81, ord("b"), 2, 0xFF])
    assert r.execute_command("RESTORE", "s", 0, payload(bytes([20, len(lp)]) + lp, 11)) == b"OK"
    assert sorted(r.smembers("s")) == [b"a", b"b"]
    with pytest.raises(Exception, match="Bad data format .*module"):
        r.execute_command("RESTORE", "st", 0, payload(b"\x07\x00"))


def test_restore_event(server, redis_ref):
    for srv in (server, redis_ref):
        rec = Recorder(srv)
        try:
            rec.run("SET", "k", "v")
            good = rec.cmd.execute("DUMP", "k")
            _, events = rec.run("RESTORE", "k2", "0", good)
            assert events == [("__keyspace@0__:k2", "restore"), ("__keyevent@0__:restore", "k2"),
                              ("__keyspace@0__:k2", "new"), ("__keyevent@0__:new", "k2")] or \
                events == [("__keyspace@0__:k2", "new"), ("__keyevent@0__:new", "k2"),
                           ("__keyspace@0__:k2", "restore"), ("__keyevent@0__:restore", "k2")]
            _, events = rec.run("RESTORE", "k2", "1", good, "ABSTTL", "REPLACE")
            assert ("__keyevent@0__:del", "k2") in events
        finally:
            rec.close()


def test_restore_reaches_a_replica_with_its_deadline(server_factory):
    primary = server_factory().client()
    rep_proc = server_factory()
    rep = rep_proc.client()
    assert rep.execute_command("REPLICAOF", "127.0.0.1", server_factory_port(primary)) == b"OK"
    wait_for(lambda: link_up(rep), what="link up")
    primary.zadd("z", WEIRD_SCORES)
    p = primary.dump("z")
    assert primary.execute_command("RESTORE", "z2", 100_000, p) == b"OK"
    assert primary.execute_command("RESTORE", "z", 0, p, "REPLACE") == b"OK"
    wait_for(lambda: rep.exists("z2") == 1, what="RESTORE on the replica")
    assert_same(primary, rep)
    assert abs(primary.execute_command("PEXPIRETIME", "z2") -
               rep.execute_command("PEXPIRETIME", "z2")) <= 1


def server_factory_port(client):
    return client.connection_pool.connection_kwargs["port"]


@pytest.mark.skipif(target_is_redis(), reason="leaderboards are rankd's")
def test_leaderboard_dumps_as_a_plain_sorted_set(r, redis_ref):
    r.execute_command("LB.CREATE", "board")
    r.execute_command("LB.ADD", "board", 10, "alice")
    r.execute_command("LB.ADD", "board", 20, "bob")
    r.execute_command("LB.ADD", "board", 10, "carol")
    p = r.dump("board")
    ref = redis_ref.client()
    ref.delete("board")
    assert ref.execute_command("RESTORE", "board", 0, p) == b"OK"
    assert ref.zrange("board", 0, -1, withscores=True) == \
        [(b"alice", 10.0), (b"carol", 10.0), (b"bob", 20.0)]
    assert r.execute_command("RESTORE", "copy", 0, p) == b"OK"
    assert r.type("copy") == b"zset"
    assert r.zrange("copy", 0, -1, withscores=True) == ref.zrange("board", 0, -1, withscores=True)
    ref.delete("board")


@pytest.mark.skipif(target_is_redis(), reason="leaderboards are rankd's")
def test_empty_leaderboard_dumps(r, redis_ref):
    """DUMP of a board with no members (LB.CREATE alone) aborted the server: the
    writer asked the set for ranks 0..size-1 with size 0. It dumps as an empty sorted
    set, which RESTORE refuses as redis-server does."""
    r.execute_command("LB.CREATE", "board")
    p = r.dump("board")
    assert p is not None
    assert r.ping()
    ref = redis_ref.client()
    with pytest.raises(redis.ResponseError) as want:
        ref.execute_command("RESTORE", "fz:empty", 0, p)
    with pytest.raises(redis.ResponseError) as got:
        r.execute_command("RESTORE", "copy", 0, p)
    assert str(got.value) == str(want.value)
    assert r.exists("copy") == 0 and r.zcard("board") == 0
