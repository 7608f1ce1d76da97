"""Migration from a running redis-server 7.0 (issue 13): rankd as its replica.

A real redis-server (Debian's 7.0) holds data of every type rankd has, in
both of Redis's encodings (listpack and skiplist/hashtable/intset/quicklist),
with TTLs and in several databases. rankd attaches with REPLICAOF, loads
Redis's RDB from the full sync (diskless "$EOF:" form, Redis 7.0's default,
and the disk form), must then hold exactly redis-server's data, follow its
command stream, and take writes after REPLICAOF NO ONE: the no-stop
migration. Streams come over with their consumer groups.

Valid with RANKD_TARGET_REDIS=1 too (redis-server replicating redis-server).
"""

import time

import pytest

from server_process import reference_redis, target_is_redis
from test_replication import link_up, wait_for

WEIRD_SCORES = {"inf": float("inf"), "ninf": float("-inf"), "nzero": -0.0, "tiny": 1e-300,
                "huge": 1.5e300, "neg": -2.5, "int": 42, "frac": 0.1}


LIBRARY = """#!lua name=migrated
redis.register_function('migrated_add',
  function(keys, args) return redis.call('ZADD', keys[1], 1, args[1]) end)
"""


def populate(r):
    """Every type in both encodings, TTLs, databases 0, 3 and 15."""
    r.zadd("z:small", WEIRD_SCORES)                                  # listpack
    r.zadd("z:big", {"m%04d" % i: i * 1.25 - 100 for i in range(300)})  # skiplist
    r.zadd("z:big", WEIRD_SCORES)
    r.zadd("z:bigmember", {"x" * 100: 1, "y": 2})                    # skiplist (member > 64 B)
    r.set("s:plain", "hello")
    r.set("s:int", 12345)
    r.set("s:neg", -7)
    r.set("s:int32", 2 ** 31 - 1)
    r.set("s:big", 2 ** 62)
    r.set("s:lzf", "abc" * 500)                                       # LZF-compressed
    r.set("s:bin", bytes(range(256)))
    r.set("s:empty", "")
    r.rpush("l:small", "a", 1, -5, 70000, "x" * 70)                  # one listpack node
    r.rpush("l:big", *["item-%d" % i for i in range(2000)])          # many nodes
    r.rpush("l:ints", *range(-300, 300, 7))
    r.sadd("set:ints", 1, 2, 3, -5, 2 ** 40)                          # intset
    r.sadd("set:strs", "a", "b", "c")                                 # listpack / hashtable
    r.sadd("set:big", *["m%d" % i for i in range(600)])               # hashtable
    r.sadd("set:bigints", *range(1000))                               # intset, 8 KB
    r.hset("h:small", mapping={"f1": "v1", "f2": 2, "f3": -3000, "n": 10 ** 15})
    r.hset("h:big", mapping={"f%d" % i: "v" * (i % 50) for i in range(300)})
    r.hset("h:big", "long", "x" * 100)                               # hashtable
    r.set("ttl:s", "v", px=3_600_000)
    r.zadd("ttl:z", {"a": 1})
    r.expire("ttl:z", 7200)
    r.hset("ttl:h", "f", "v")
    r.pexpireat("ttl:h", int(time.time() * 1000) + 86_400_000)
    r.select(3)
    r.zadd("z:db3", {"a": 1, "b": 2})
    r.set("s:db3", "three", ex=500)
    r.select(15)
    r.lpush("l:db15", "fifteen")
    r.select(0)


def snapshot(r):
    """Every key of every database: type, value and PTTL (None when none)."""
    out = {}
    for db in range(16):
        r.execute_command("SELECT", db)
        for key in sorted(r.execute_command("KEYS", "*")):
            t = r.type(key)
            if t == b"string":
                v = r.get(key)
            elif t == b"zset":  # raw score strings: -0 and inf exactly
                v = r.execute_command("ZRANGE", key, 0, -1, "WITHSCORES")
            elif t == b"list":
                v = r.lrange(key, 0, -1)
            elif t == b"set":
                v = sorted(r.smembers(key))
            elif t == b"hash":
                v = sorted(r.hgetall(key).items())
            else:
                v = "unsupported " + t.decode()
            pttl = r.pttl(key)
            out[(db, key)] = (t, v, None if pttl < 0 else pttl)
    r.execute_command("SELECT", 0)
    return out


def assert_same(primary, replica):
    a, b = snapshot(primary), snapshot(replica)
    assert sorted(a) == sorted(b)
    for k in a:
        ta, va, pa = a[k]
        tb, vb, pb = b[k]
        assert (ta, va) == (tb, vb), k
        assert (pa is None) == (pb is None), k
        if pa is not None:
            assert abs(pa - pb) < 5000, (k, pa, pb)


def caught_up(primary, replica):
    want = primary.info("replication")["master_repl_offset"]
    return replica.info("replication").get("master_repl_offset") == want


def start_redis(extra):
    proc = reference_redis(["--repl-diskless-sync-delay", "0"] + extra)
    proc.start()
    return proc


@pytest.mark.parametrize("diskless", ["yes", "no"])
def test_replicate_from_redis_then_promote(server_factory, diskless):
    redis_proc = start_redis(["--repl-diskless-sync", diskless])
    try:
        src = redis_proc.client()
        populate(src)
        encodings = {k: src.object("encoding", k) for k in
                     ("z:small", "z:big", "set:ints", "set:strs", "set:big", "h:small", "h:big",
                      "l:big", "s:int", "s:lzf")}
        assert encodings == {"z:small": b"listpack", "z:big": b"skiplist", "set:ints": b"intset",
                             "set:strs": b"hashtable", "set:big": b"hashtable",
                             "h:small": b"listpack", "h:big": b"hashtable", "l:big": b"quicklist",
                             "s:int": b"int", "s:lzf": b"raw"}
        src.function_load(LIBRARY)
        dst_proc = server_factory()
        dst = dst_proc.client()
        assert dst.execute_command("REPLICAOF", "127.0.0.1", redis_proc.port) == b"OK"
        wait_for(lambda: link_up(dst), what="master_link_status:up")
        wait_for(lambda: caught_up(src, dst), what="replica offset")
        assert_same(src, dst)
        with open(redis_proc.log_path, "rb") as f:  # the transfer form asked for
            target = b"replicas sockets" if diskless == "yes" else b"target: disk"
            assert target in f.read()

        # The command stream: writes of every kind, in several databases.
        src.zadd("z:small", {"new": 7})
        src.zincrby("z:big", 2.5, "m0001")
        src.zrem("z:big", "m0002")
        src.zadd("z:fresh", {"a": float("inf"), "b": -0.0})
        src.delete("s:plain")
        src.set("s:px", "v", px=600_000)
        src.incrby("s:int", 5)
        src.rpush("l:big", "tail")
        src.lpop("l:small")
        src.sadd("set:ints", 99)
        src.srem("set:strs", "a")
        src.hset("h:small", "f9", "v9")
        src.hdel("h:big", "f1")
        src.expire("z:bigmember", 1000)
        src.persist("ttl:s")
        src.set("gone-soon", "v", px=50)
        src.eval("redis.call('ZADD', KEYS[1], 5, 'lua'); return 1", 1, "z:lua")
        with src.pipeline(transaction=True) as p:
            p.zadd("z:multi", {"a": 1})
            p.hset("h:multi", "f", "v")
            p.execute()
        src.select(3)
        src.zadd("z:db3", {"c": 3})
        src.select(0)
        wait_for(lambda: src.exists("gone-soon") == 0, what="expiry on redis-server")
        wait_for(lambda: caught_up(src, dst), what="replica offset after writes")
        assert_same(src, dst)
        # rankd's REPLCONF ACKs (periodic and GETACK) reach redis-server.
        assert src.wait(1, 10000) == 1
        wait_for(lambda: src.info("replication")["slave0"]["offset"] ==
                 src.info("replication")["master_repl_offset"], what="ACKed offset")
        # A dropped link continues with PSYNC (+CONTINUE), no second full sync.
        partial = src.info("stats")["sync_partial_ok"]
        src.execute_command("CLIENT", "KILL", "TYPE", "replica")
        src.zadd("z:after-drop", {"x": 1})
        wait_for(lambda: src.info("stats")["sync_partial_ok"] == partial + 1, what="partial sync")
        wait_for(lambda: caught_up(src, dst), what="replica offset after the drop")
        assert_same(src, dst)
        assert src.info("stats")["sync_full"] == 1
        fresh = ("ZRANGE", "z:fresh", 0, -1, "WITHSCORES")
        assert dst.execute_command(*fresh) == src.execute_command(*fresh) == [b"b", b"0", b"a",
                                                                              b"inf"]

        # Promotion: rankd takes the writes now.
        assert dst.execute_command("REPLICAOF", "NO", "ONE") == b"OK"
        assert dst.info("replication")["role"] == "master"
        dst.zadd("z:small", {"after": 1})
        assert dst.fcall("migrated_add", 1, "z:fn", "m") == 1
        assert dst.function_list()[0][1] == b"migrated"
        assert dst.zscore("z:small", "after") == 1.0
        assert dst.zscore("z:small", "new") == 7.0
        assert dst.execute_command("ZRANGE", "z:small", 0, 0, "WITHSCORES") == [b"ninf", b"-inf"]
    finally:
        redis_proc.stop()


def test_streams_migrate_from_redis(server_factory):
    """Streams with consumer groups come over in the full sync (RDB type 19) and their
    changes follow in the command stream (XADD with its id, XREADGROUP as XCLAIM)."""
    from test_stream import describe, make_rich_stream
    redis_proc = start_redis([])
    try:
        src = redis_proc.client()
        make_rich_stream(src)
        src.xgroup_create("empty", "g", id="$", mkstream=True)
        dst_proc = server_factory()
        dst = dst_proc.client()
        dst.execute_command("REPLICAOF", "127.0.0.1", redis_proc.port)
        wait_for(lambda: link_up(dst), what="master_link_status:up")
        wait_for(lambda: caught_up(src, dst), what="replica offset after the sync")
        assert describe(dst) == describe(src)
        assert describe(dst, "empty") == describe(src, "empty")
        src.xadd("st", {"later": "1"})
        src.xreadgroup("g2", "dave", {"st": ">"})
        src.xadd("st", {"x": "y"}, maxlen=100, approximate=True)
        wait_for(lambda: caught_up(src, dst), what="replica offset after writes")
        assert dst.xrange("st") == src.xrange("st")
        assert dst.xpending("st", "g2") == src.xpending("st", "g2")
    finally:
        redis_proc.stop()
