"""HyperLogLog (issue 31) against redis-server 7.0.15, in RESP2 and RESP3: PFADD, PFCOUNT
(one key, several keys), PFMERGE, PFDEBUG, PFSELFTEST replies byte for byte, the stored
string byte-identical after the same commands (sparse, across the sparse -> dense
promotion, at several hll-sparse-max-bytes), HLLs moved between the servers by GET / SET
and DUMP / RESTORE, hostile strings (Redis's errors, never a crash), keyspace events,
WATCH, and the cache fill of PFCOUNT reaching a replica."""

import random
import time

import pytest

from resp_client import RespClient
from server_process import reference_redis, target_is_redis

PROTOS = [2, 3]
NOT_HLL = b"WRONGTYPE Key is not a valid HyperLogLog string value."
CORRUPT = b"INVALIDOBJ Corrupted HLL object detected"
HEADER = b"HYLL\x01" + b"\x00" * 11


class Pair:
    """One raw client on each server (RESP2 or RESP3); run() compares the raw bytes."""

    def __init__(self, server, redis_ref, proto=2):
        self.a = RespClient("127.0.0.1", server.port)
        self.b = RespClient("127.0.0.1", redis_ref.port)
        self.log = []
        if proto == 3:
            self.run("HELLO", "3", check=False)
        self.run("FLUSHALL")
        self.run("CONFIG", "SET", "hll-sparse-max-bytes", "3000")

    def _one(self, client, args):
        client.send_command(*args)
        return client.read_reply_raw(timeout=60)

    def run(self, *args, check=True):
        (va, ra), (vb, rb) = self._one(self.a, args), self._one(self.b, args)
        self.log.append(args if len(args) < 8 else args[:8] + ("...",))
        if check:
            assert ra == rb, "reply differs for %r\n rankd: %r\n redis: %r\n after: %r" % (
                self.log[-1], ra[:300], rb[:300], self.log[-6:])
        return va

    def same_value(self, key):
        """GET key is the same string on both (the HLL bytes, cached count included)."""
        return self.run("GET", key)

    def close(self):
        self.run("CONFIG", "SET", "hll-sparse-max-bytes", "3000")
        self.a.close()
        self.b.close()


@pytest.fixture(params=PROTOS, ids=["resp2", "resp3"])
def pair(server, redis_ref, request):
    p = Pair(server, redis_ref, request.param)
    yield p
    p.close()


def elements(rng, n, prefix="e"):
    return ["%s%d" % (prefix, rng.randrange(10 ** 9)) for _ in range(n)]


def test_basic_commands(pair):
    pair.run("PFADD", "h")
    pair.run("EXISTS", "h")
    pair.same_value("h")
    pair.run("PFCOUNT", "h")
    pair.run("PFADD", "h", "a", "b", "c")
    pair.run("PFADD", "h", "a", "b", "c")
    pair.run("PFADD", "h", "")
    pair.same_value("h")
    pair.run("PFCOUNT", "h")
    pair.same_value("h")  # the cached count is in the header now
    pair.run("PFCOUNT", "h")
    pair.run("PFCOUNT", "missing")
    pair.run("PFCOUNT", "missing", "h")
    pair.run("TYPE", "h")
    pair.run("OBJECT", "ENCODING", "h")
    pair.run("STRLEN", "h")
    for sub in ("ENCODING", "DECODE", "decode", "TODENSE", "TODENSE", "ENCODING", "DECODE"):
        pair.run("PFDEBUG", sub, "h")
    pair.same_value("h")
    pair.run("PFADD", "g", "x")
    for args in (["GETREG", "g"], ["ENCODING", "g"], ["FOO", "g"], ["FOO", "nokey"],
                 ["GETREG", "nokey"], ["GETREG"], ["GETREG", "g", "extra"]):
        pair.run("PFDEBUG", *args)
    pair.run("PFSELFTEST")
    pair.run("PFSELFTEST", "x")
    pair.run("PFADD")
    pair.run("PFCOUNT")
    pair.run("PFMERGE")
    pair.run("PFMERGE", "dest")
    pair.same_value("dest")
    pair.run("PFMERGE", "h", "g", "nothing")
    pair.same_value("h")
    pair.run("PFCOUNT", "h")


@pytest.mark.parametrize("limit", [0, 100, 3000, 20000])
def test_bytes_identical_across_promotion(server, redis_ref, limit):
    p = Pair(server, redis_ref)
    rng = random.Random(limit)
    print("seed", limit)
    p.run("CONFIG", "SET", "hll-sparse-max-bytes", str(limit))
    total = 0
    while total < 6000:
        n = rng.choice([1, 3, 10, 50, 200])
        total += n
        p.run("PFADD", "h", *elements(rng, n))
        p.same_value("h")
        if rng.random() < 0.3:
            p.run("PFCOUNT", "h")
            p.run("PFDEBUG", "ENCODING", "h")
    p.run("PFCOUNT", "h")
    p.same_value("h")
    p.close()


def test_byte_identical_random_adds_many_keys(pair):
    rng = random.Random(31)
    for key in ("k1", "k2", "k3"):
        for _ in range(30):
            pair.run("PFADD", key, *elements(rng, rng.randint(0, 120), prefix=key))
            pair.same_value(key)
        pair.run("PFCOUNT", key)
        pair.same_value(key)
    pair.run("PFCOUNT", "k1", "k2", "k3")
    pair.run("PFCOUNT", "k1", "k2", "k3", "none")


def test_pfmerge_mixed_encodings(pair):
    rng = random.Random(7)
    pair.run("PFADD", "sparse1", *elements(rng, 40))
    pair.run("PFADD", "sparse2", *elements(rng, 300))
    pair.run("PFADD", "dense1", *elements(rng, 3000))
    pair.run("PFADD", "dense2", *elements(rng, 20))
    pair.run("PFDEBUG", "TODENSE", "dense2")
    pair.run("PFMERGE", "m1", "sparse1", "sparse2")
    pair.same_value("m1")
    pair.run("PFDEBUG", "ENCODING", "m1")
    pair.run("PFMERGE", "m2", "sparse1", "dense2")
    pair.same_value("m2")
    pair.run("PFMERGE", "sparse1", "sparse2", "dense1")
    pair.same_value("sparse1")
    pair.run("PFMERGE", "dense2", "sparse2")
    pair.same_value("dense2")
    pair.run("PFMERGE", "m3", "m3")
    pair.same_value("m3")
    for keys in (["m1"], ["m1", "m2"], ["sparse2", "dense1", "m2", "nope"], ["nope", "nope2"]):
        pair.run("PFCOUNT", *keys)
    for key in ("m1", "m2", "sparse1", "dense2"):
        pair.run("PFCOUNT", key)
        pair.same_value(key)
    # A union past the sparse limit becomes dense while it is written.
    pair.run("CONFIG", "SET", "hll-sparse-max-bytes", "200")
    pair.run("PFMERGE", "m4", "sparse2")
    pair.run("PFDEBUG", "ENCODING", "m4")
    pair.same_value("m4")


def test_errors_and_types(pair):
    pair.run("SET", "str", "hello")
    pair.run("SET", "int", "12345")
    pair.run("SET", "long", "x" * 40)
    pair.run("RPUSH", "list", "a")
    pair.run("PFADD", "h", "a")
    for key in ("str", "int", "long", "list"):
        pair.run("PFADD", key, "a")
        pair.run("PFADD", key)
        pair.run("PFCOUNT", key)
        pair.run("PFCOUNT", "h", key)
        pair.run("PFMERGE", key, "h")
        pair.run("PFMERGE", "h", key)
        pair.run("PFDEBUG", "ENCODING", key)
    pair.same_value("h")


def hostile_strings():
    fresh = HEADER + b"\x7f\xff"
    return {
        "short": b"HYLL",
        "header-only": HEADER,
        "bad-magic": b"HYLX" + fresh[4:],
        "bad-encoding": b"HYLL\x02" + fresh[5:],
        "encoding-255": b"HYLL\xff" + fresh[5:],
        "dense-short": b"HYLL\x00" + fresh[5:],
        "dense-long": b"HYLL\x00" + b"\x00" * 11 + b"\x00" * 12289,
        "xzero-cut": HEADER + b"\x7f",
        "one-short": HEADER + b"\x7f\xfe",
        "one-extra": HEADER + b"\x7f\xff\x00",
        "val-overrun": HEADER + b"\x7f\xfe\x83",
        "val-after-full": fresh + b"\x80",
        "val-then-zeros-over": HEADER + b"\x7f\xfd\x80\x01",
        "vals-overrun": HEADER + b"\xff" * 300,
        "tail-garbage": fresh + b"hello",
        "zeros-short": HEADER + b"\x3f" * 10,
        "stale-cache-ok": HEADER[:15] + b"\x80" + b"\x7f\xff",
    }


@pytest.mark.parametrize("name", sorted(hostile_strings()))
def test_hostile_strings(server, redis_ref, name):
    p = Pair(server, redis_ref)
    value = hostile_strings()[name]
    for cmd in (["PFCOUNT", "x"], ["PFCOUNT", "x", "ok"], ["PFADD", "x", "a", "b", "zz"],
                ["PFADD", "x"], ["PFMERGE", "d", "x"], ["PFMERGE", "x", "ok"],
                ["PFDEBUG", "DECODE", "x"], ["PFDEBUG", "ENCODING", "x"],
                ["PFDEBUG", "TODENSE", "x"], ["PFDEBUG", "GETREG", "x"]):
        p.run("FLUSHALL")
        p.run("PFADD", "ok", "1", "2")
        p.run("SET", "x", value)
        p.run(*cmd)
        p.run("EXISTS", "d")
        p.same_value("x")
    p.close()


def test_random_corruption_is_detected(server, redis_ref):
    """Redis's own fuzz test, compared: corrupt a few bytes of random HLLs, then PFCOUNT."""
    p = Pair(server, redis_ref)
    rng = random.Random(2031)
    print("seed 2031")
    for _ in range(150):
        p.run("DEL", "h")
        p.run("PFADD", "h", *elements(rng, rng.randrange(3000)))
        for _ in range(rng.randint(1, 5)):
            length = p.run("STRLEN", "h")
            p.run("SETRANGE", "h", str(rng.randrange(length)), bytes([rng.randrange(256)]))
        p.run("PFCOUNT", "h")
        p.run("PFCOUNT", "h", "h")
        p.same_value("h")
    p.close()


def test_transfer_between_servers(server, redis_ref):
    rankd, redis_c = server.client(), redis_ref.client()
    rankd.flushall()
    redis_c.flushall()
    rng = random.Random(5)
    for n in (0, 5, 300, 5000):
        items = elements(rng, n)
        for src, dst in ((rankd, redis_c), (redis_c, rankd)):
            src.delete("h")
            if items:
                src.pfadd("h", *items)
            else:
                src.pfadd("h")
            before = src.pfcount("h")
            dst.set("copy", src.get("h"))
            assert dst.pfcount("copy") == before
            dst.restore("restored", 0, src.dump("h"), replace=True)
            assert dst.pfcount("restored") == before
            assert dst.get("restored") == src.get("h")
            dst.pfadd("copy", "one-more")
            src.pfadd("h", "one-more")
            assert dst.get("copy") == src.get("h")
    rankd.close()
    redis_c.close()


def test_keyspace_events(server, redis_ref):
    subs, clients = [], []
    for s in (server, redis_ref):
        c = s.client()
        c.flushall()
        c.config_set("notify-keyspace-events", "KEA")
        ps = c.pubsub()
        ps.psubscribe("__key*__:*")
        ps.get_message(timeout=2)
        subs.append(ps)
        clients.append(c)
    for c in clients:
        c.pfadd("h", "a")
        c.pfadd("h", "a")      # no change: no event
        c.pfcount("h")         # cache fill: no event
        c.pfmerge("m", "h")
        c.execute_command("PFDEBUG", "TODENSE", "m")
        c.set("done", "1")
    got = []
    for ps in subs:
        events = []
        while True:
            m = ps.get_message(timeout=2)
            if m is None:
                break
            events.append((m["channel"], m["data"]))
            if m["channel"] == b"__keyevent@0__:set":
                break
        got.append(events)
    assert got[0] == got[1]
    assert (b"__keyevent@0__:pfadd", b"m") in got[1]
    for c, ps in zip(clients, subs):
        ps.close()
        c.config_set("notify-keyspace-events", "")
        c.close()


def test_pfcount_cache_fill_counts_as_write(pair):
    """A PFCOUNT that fills the cache changes the value: WATCH sees it (Redis
    signalModifiedKey); one served from the cache does not."""
    pair.run("PFADD", "h", "a", "b")
    pair.run("WATCH", "h")
    pair.run("PFCOUNT", "h")
    pair.run("MULTI")
    pair.run("PING")
    pair.run("EXEC")
    pair.run("WATCH", "h")
    pair.run("PFCOUNT", "h")
    pair.run("MULTI")
    pair.run("PING")
    pair.run("EXEC")


@pytest.mark.skipif(target_is_redis(), reason="rankd replication between rankd processes")
def test_pfcount_cache_fill_reaches_replica(server_factory):
    primary = server_factory()
    replica = server_factory(["--replicaof", "127.0.0.1", str(primary.port)])
    p, r = primary.client(), replica.client()
    deadline = time.time() + 15
    while r.info("replication").get("master_link_status") != "up":
        assert time.time() < deadline, "replica link never came up"
        time.sleep(0.05)
    p.pfadd("h", *["x%d" % i for i in range(100)])
    p.pfcount("h")
    p.pfadd("d", "a")
    p.execute_command("PFDEBUG", "TODENSE", "d")
    p.set("marker", "1")
    while r.get("marker") != b"1":
        assert time.time() < deadline, "replica never caught up"
        time.sleep(0.05)
    assert r.get("h") == p.get("h")   # cached count included
    assert r.get("d") == p.get("d")   # dense there too
    assert r.get("d")[4] == 0         # the dense encoding byte
    p.close()
    r.close()


@pytest.mark.skipif(target_is_redis(), reason="rankd's append-only log")
def test_append_only_log_replays_hll_bytes(server_factory, tmp_path):
    """The log replays PFADD, PFMERGE, the cache fill of PFCOUNT and PFDEBUG TODENSE to
    the same bytes."""
    args = ["--dir", str(tmp_path), "--appendonly", "yes", "--appendfsync", "always"]
    p = server_factory(extra_args=args)
    c = p.client()
    c.pfadd("s", *["s%d" % i for i in range(50)])
    c.pfcount("s")
    c.pfadd("d", *["d%d" % i for i in range(5000)])
    c.pfmerge("m", "s", "d")
    c.pfcount("m")
    c.pfadd("t", "x")
    c.execute_command("PFDEBUG", "TODENSE", "t")
    before = {k: c.get(k) for k in ("s", "d", "m", "t")}
    c.close()
    p.stop()
    q = server_factory(extra_args=args)
    c = q.client()
    assert {k: c.get(k) for k in before} == before
    c.close()


@pytest.mark.skipif(target_is_redis(), reason="a redis-server primary and a rankd replica")
def test_redis_primary_stream_builds_same_bytes_on_rankd(server_factory):
    """redis-server propagates PFADD, PFMERGE, PFCOUNT's cache fill and PFDEBUG TODENSE as
    commands; rankd as its replica runs them to the same bytes."""
    primary = reference_redis(["--repl-diskless-sync-delay", "0"]).start()
    try:
        replica = server_factory()
        p, r = primary.client(), replica.client()
        p.pfadd("before", *["b%d" % i for i in range(100)])  # arrives in the snapshot
        assert r.execute_command("REPLICAOF", "127.0.0.1", primary.port) == b"OK"
        deadline = time.time() + 15
        while r.info("replication").get("master_link_status") != "up":
            assert time.time() < deadline, "replica link never came up"
            time.sleep(0.05)
        p.pfcount("before")
        p.pfadd("s", *["s%d" % i for i in range(200)])
        p.pfcount("s")
        p.pfadd("d", *["d%d" % i for i in range(4000)])
        p.pfmerge("m", "s", "d", "before")
        p.pfadd("t", "x")
        p.execute_command("PFDEBUG", "TODENSE", "t")
        assert p.execute_command("WAIT", 1, 10000) == 1
        for key in ("before", "s", "d", "m", "t"):
            assert r.get(key) == p.get(key), key
        p.close()
        r.close()
    finally:
        primary.stop()


def test_pfcount_is_may_replicate(pair):
    """PFCOUNT may write (the cache), so Redis flags it may-replicate: read-only scripts
    refuse it, as they refuse PFADD."""
    pair.run("PFADD", "h", "a")
    for cmd in ("pfcount", "pfadd"):
        pair.run("EVAL_RO", "return redis.call('%s', KEYS[1])" % cmd, "1", "h")
    pair.run("EVAL", "return redis.call('pfcount', KEYS[1])", "1", "h")
    pair.same_value("h")


def test_client_pause_write_holds_pfcount(server, redis_ref):
    for s in (server, redis_ref):
        admin = s.client()
        admin.flushall()
        admin.pfadd("h", "a", "b")
        admin.execute_command("CLIENT", "PAUSE", "100000", "WRITE")
        c = RespClient("127.0.0.1", s.port)
        c.send_command("PFCOUNT", "h")
        deadline = time.time() + 10
        while admin.info("clients")["blocked_clients"] != 1:
            assert time.time() < deadline, "PFCOUNT was not held by CLIENT PAUSE WRITE"
            time.sleep(0.02)
        admin.execute_command("CLIENT", "UNPAUSE")
        assert c.read_reply_raw(timeout=10)[1] == b":2\r\n"
        c.close()
        admin.close()


@pytest.mark.parametrize("body", [b"\x7f", b"\x40", b"\x7f\xfe\x40", b"\x00\x40", b"\x30\x7f",
                                  b"\x7f\xff\x40"], ids=lambda b: b.hex())
def test_updates_of_odd_sparse_bodies(server, redis_ref, body):
    """PFADDs into sparse bodies that end in a cut-off XZERO (its missing byte read as 0)
    or cover too many registers: the same replies and the same bytes as Redis."""
    p = Pair(server, redis_ref)
    p.run("SET", "k", HEADER + body)
    for element in ("a", "b", "c", "hello", "x", "y"):
        p.run("PFADD", "k", element)
        p.same_value("k")
    p.close()
