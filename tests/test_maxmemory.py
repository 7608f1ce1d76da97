"""maxmemory as Redis 7.0: -OOM for deny-oom commands under noeviction (MULTI included),
eviction by every policy, the memory configs' errors, INFO fields, OBJECT FREQ/IDLETIME.

Error texts and deterministic replies are compared with redis-server 7.0 (`redis_ref`);
eviction itself is checked by its effects (keys left, used_memory, evicted_keys), never
by timing.
"""

import pytest

from resp_client import RespClient
from server_process import target_is_redis
from util import err, info, wait_until

OOM = err("OOM command not allowed when used memory > 'maxmemory'.")


def both(server, redis_ref):
    return [server.raw(), redis_ref.raw()]


def run_both(clients, *cmd):
    got = [c.execute(*cmd) for c in clients]
    assert got[0] == got[1], (cmd, got)
    return got[0]


@pytest.fixture
def pair(server, redis_ref):
    clients = both(server, redis_ref)
    for c in clients:
        c.execute("FLUSHALL")
    yield clients
    for c in clients:
        c.execute("CONFIG", "SET", "maxmemory", "0")
        c.execute("CONFIG", "SET", "maxmemory-policy", "noeviction")
        c.execute("FLUSHALL")
        c.close()


def test_oom_replies_match_redis(pair):
    run_both(pair, "SET", "a", "1")
    run_both(pair, "ZADD", "z", "1", "m")
    assert run_both(pair, "CONFIG", "SET", "maxmemory", "1") == b"OK"
    assert run_both(pair, "SET", "b", "1") == OOM
    assert run_both(pair, "ZADD", "z", "2", "n") == OOM
    assert run_both(pair, "ZINCRBY", "z", "1", "m") == OOM
    assert run_both(pair, "SADD", "s", "x") == OOM
    assert run_both(pair, "APPEND", "a", "x") == OOM
    # Reads, deletes and commands that cannot grow memory still run.
    assert run_both(pair, "GET", "a") == b"1"
    assert run_both(pair, "ZSCORE", "z", "m") == b"1"
    assert run_both(pair, "ZREM", "z", "m") == 1
    assert run_both(pair, "EXPIRE", "a", "100") == 1
    assert run_both(pair, "DEL", "a") == 1
    assert run_both(pair, "PING") == b"PONG"
    assert run_both(pair, "DBSIZE") == 0
    # MULTI: every queued command is refused, so EXEC aborts.
    assert run_both(pair, "MULTI") == b"OK"
    assert run_both(pair, "SET", "x", "1") == OOM
    assert run_both(pair, "GET", "x") == OOM
    assert run_both(pair, "EXEC") == err(
        "EXECABORT Transaction discarded because of previous errors.")
    assert run_both(pair, "MULTI") == b"OK"
    assert run_both(pair, "DISCARD") == b"OK"


def test_exec_with_deny_oom_command_queued_before_oom(pair):
    assert run_both(pair, "MULTI") == b"OK"
    assert run_both(pair, "SET", "x", "1") == b"QUEUED"
    assert run_both(pair, "GET", "x") == b"QUEUED"
    # A second connection lowers the limit while the transaction is open.
    for c in pair:
        other = RespClient("127.0.0.1", c.port)
        assert other.execute("CONFIG", "SET", "maxmemory", "1") == b"OK"
        other.close()
    assert run_both(pair, "EXEC") == err(
        "EXECABORT Transaction discarded because of: "
        "OOM command not allowed when used memory > 'maxmemory'.")
    assert run_both(pair, "EXISTS", "x") == 0


@pytest.mark.parametrize("name,value", [
    ("maxmemory-samples", "0"), ("maxmemory-samples", "65"), ("maxmemory-samples", "x"),
    ("maxmemory-eviction-tenacity", "101"), ("maxmemory-eviction-tenacity", "-1"),
    ("lfu-log-factor", "-1"), ("lfu-decay-time", "-1"), ("maxmemory-policy", "lru"),
    ("lazyfree-lazy-eviction", "maybe"), ("maxmemory", "-1"), ("maxmemory", "1xb"),
])
def test_memory_config_errors_match_redis(pair, name, value):
    run_both(pair, "CONFIG", "SET", name, value)


def test_memory_configs_round_trip(pair):
    for name, value in (("maxmemory-samples", b"10"), ("maxmemory-eviction-tenacity", b"50"),
                        ("lfu-log-factor", b"20"), ("lfu-decay-time", b"3"),
                        ("lazyfree-lazy-eviction", b"yes"), ("maxmemory", b"104857600"),
                        ("maxmemory-policy", b"volatile-ttl")):
        assert run_both(pair, "CONFIG", "SET", name, value) == b"OK"
        assert run_both(pair, "CONFIG", "GET", name) == [name.encode(), value]
    for name, value in (("maxmemory-samples", "5"), ("maxmemory-eviction-tenacity", "10"),
                        ("lfu-log-factor", "10"), ("lfu-decay-time", "1"),
                        ("lazyfree-lazy-eviction", "no")):
        run_both(pair, "CONFIG", "SET", name, value)


def test_object_freq_and_idletime_follow_the_policy(pair):
    run_both(pair, "SET", "foo", "bar")
    run_both(pair, "OBJECT", "FREQ", "foo")  # error: no LFU policy
    assert run_both(pair, "OBJECT", "IDLETIME", "foo") == 0
    run_both(pair, "CONFIG", "SET", "maxmemory-policy", "allkeys-lfu")
    run_both(pair, "OBJECT", "IDLETIME", "foo")  # error: LFU policy
    run_both(pair, "SET", "new", "v")
    assert run_both(pair, "OBJECT", "FREQ", "new") == 5
    run_both(pair, "GET", "new")  # from 5 the first hit always counts
    assert run_both(pair, "OBJECT", "FREQ", "new") == 6
    for c in pair:
        for _ in range(300):
            c.execute("GET", "new")
        assert 7 <= c.execute("OBJECT", "FREQ", "new") <= 40


def test_info_memory_fields(raw):
    fields = info(raw, "memory")
    for name in ("used_memory", "maxmemory", "maxmemory_human", "maxmemory_policy",
                 "mem_not_counted_for_evict"):
        assert name in fields, name
    assert "evicted_keys" in info(raw, "stats")


# ---------------------------------------------------------------------------
# eviction (rankd and redis alike; checked by effect)

def _fill(c, prefix, n, ttl=None, size=200):
    value = "x" * size
    for start in range(0, n, 500):
        cmds = []
        for i in range(start, min(n, start + 500)):
            if ttl:
                cmds.append(("SET", "%s%d" % (prefix, i), value, "EX", str(ttl + i)))
            else:
                cmds.append(("SET", "%s%d" % (prefix, i), value))
        c.pipeline(cmds)


def _used(c):
    return int(info(c, "memory")["used_memory"])


def _limit_below_current(c, drop=600_000):
    used = _used(c)
    limit = used - drop
    assert c.execute("CONFIG", "SET", "maxmemory", str(limit)) == b"OK"
    return limit


@pytest.mark.parametrize("policy", ["allkeys-lru", "allkeys-lfu", "allkeys-random"])
def test_allkeys_policies_keep_memory_at_the_limit(server_factory, policy):
    srv = server_factory(["--maxmemory-policy", policy])
    with srv.raw() as c:
        _fill(c, "k", 20000)
        keys_before = c.execute("DBSIZE")
        limit = _limit_below_current(c)
        # Writes keep succeeding: older keys make room.
        _fill(c, "n", 3000)
        wait_until(lambda: _used(c) <= limit * 1.02, message="used_memory above maxmemory")
        assert c.execute("DBSIZE") < keys_before + 3000
        assert int(info(c, "stats")["evicted_keys"]) > 0
        assert c.execute("SET", "last", "v") == b"OK"


@pytest.mark.parametrize("policy", ["volatile-lru", "volatile-lfu", "volatile-random",
                                    "volatile-ttl"])
def test_volatile_policies_evict_only_keys_with_a_ttl(server_factory, policy):
    srv = server_factory(["--maxmemory-policy", policy])
    with srv.raw() as c:
        _fill(c, "keep", 3000)
        _fill(c, "tmp", 6000, ttl=100000)
        _limit_below_current(c)
        wait_until(lambda: int(info(c, "stats")["evicted_keys"]) > 0)
        assert all(c.pipeline([("EXISTS", "keep%d" % i) for i in range(3000)]))
        if policy == "volatile-ttl":
            # The nearest deadlines go first (sampled, so mostly the low ones).
            low = sum(c.pipeline([("EXISTS", "tmp%d" % i) for i in range(1000)]))
            high = sum(c.pipeline([("EXISTS", "tmp%d" % i) for i in range(5000, 6000)]))
            assert low < high
        # Once no volatile key is left, writes get -OOM.
        c.execute("CONFIG", "SET", "maxmemory", "1")
        wait_until(lambda: c.execute("SET", "x", "y") == OOM)
        assert c.pipeline([("EXISTS", "keep%d" % i) for i in range(3000)]) == [1] * 3000


def test_noeviction_refuses_writes_over_the_limit(server_factory):
    srv = server_factory()
    with srv.raw() as c:
        _fill(c, "k", 5000)
        _limit_below_current(c, drop=100_000)
        assert c.execute("SET", "x", "y") == OOM
        assert c.execute("ZADD", "z", "1", "a") == OOM
        assert c.execute("DBSIZE") == 5000
        assert int(info(c, "stats")["evicted_keys"]) == 0
        assert c.execute("DEL", *["k%d" % i for i in range(2500)]) == 2500
        wait_until(lambda: c.execute("SET", "x", "y") == b"OK")


def test_scripts_under_oom_match_redis(pair):
    run_both(pair, "SET", "a", "1")
    assert run_both(pair, "CONFIG", "SET", "maxmemory", "1") == b"OK"
    # A script that only reads runs; a deny-oom call fails as in Redis.
    assert run_both(pair, "EVAL", "return redis.call('GET', KEYS[1])", "1", "a") == b"1"
    run_both(pair, "EVAL", "return redis.call('SET', KEYS[1], 'x')", "1", "b")
    run_both(pair, "EVAL", "return redis.pcall('SET', KEYS[1], 'x')", "1", "b")
    run_both(pair, "EVAL", "redis.call('DEL', KEYS[1]); return redis.call('SET', KEYS[1], 'y')",
             "1", "a")
    assert run_both(pair, "GET", "a") == b"y"


def test_no_eviction_while_clients_are_paused(pair):
    # Redis 7.0 (isSafeToPerformEvictions): while clients are paused the dataset
    # stays still, so reads run over the limit without evicting; UNPAUSE resumes.
    for c in pair:
        for i in range(200):
            c.execute("SET", "k%d" % i, "x" * 100)
    run_both(pair, "CONFIG", "SET", "maxmemory-policy", "allkeys-random")
    run_both(pair, "CLIENT", "PAUSE", "60000", "WRITE")
    run_both(pair, "CONFIG", "SET", "maxmemory", "1")
    run_both(pair, "GET", "k1")
    assert run_both(pair, "DBSIZE") == 200
    run_both(pair, "CLIENT", "UNPAUSE")
    run_both(pair, "GET", "k1")
    for c in pair:
        assert c.execute("DBSIZE") < 200


@pytest.mark.skipif(target_is_redis(), reason="starts two rankd servers")
def test_a_replica_ignores_maxmemory_by_default(server_factory):
    primary, replica = server_factory(), server_factory()
    p, r = primary.raw(), replica.raw()
    for i in range(200):
        p.execute("SET", "k%d" % i, "x" * 100)
    r.execute("REPLICAOF", "127.0.0.1", str(primary.port))
    wait_until(lambda: r.execute("DBSIZE") == 200, message="the replica to sync")
    r.execute("CONFIG", "SET", "maxmemory-policy", "allkeys-random")
    r.execute("CONFIG", "SET", "maxmemory", "1")
    assert r.execute("GET", "k1") == b"x" * 100
    assert r.execute("DBSIZE") == 200  # the replica stays its primary's copy
    assert info(r, "stats")["evicted_keys"] == "0"
    r.execute("CONFIG", "SET", "replica-ignore-maxmemory", "no")
    r.execute("GET", "k1")
    assert r.execute("DBSIZE") < 200
    p.close()
    r.close()


def test_used_memory_stays_within_4k_of_the_limit(raw):
    # Redis's own check: fill to just under a limit 100 KB above the current use, write as
    # many keys again, and used_memory (the figure eviction works by) stays within 4 KB.
    try:
        used = _used(raw)
        limit = used + 100 * 1024
        raw.execute("CONFIG", "SET", "maxmemory", str(limit))
        raw.execute("CONFIG", "SET", "maxmemory-policy", "allkeys-random")
        n = 0
        while True:
            raw.execute("SETEX", "key:%d" % n, "10000", "x")
            n += 1
            if _used(raw) + 4096 > limit:
                break
        assert n > 10
        for i in range(n):
            raw.execute("SETEX", "more:%d" % i, "10000", "x")
        assert _used(raw) < limit + 4096
    finally:
        raw.execute("CONFIG", "SET", "maxmemory", "0")
        raw.execute("CONFIG", "SET", "maxmemory-policy", "noeviction")


def test_maxmemory_lowered_inside_multi_evicts_after_exec(raw):
    # As Redis 7.0: no eviction while EXEC runs; the key goes once it has ended.
    try:
        raw.execute("CONFIG", "SET", "maxmemory-policy", "allkeys-lru")
        assert raw.execute("MULTI") == b"OK"
        raw.execute("INCR", "x")
        raw.execute("CONFIG", "SET", "maxmemory", "1")
        raw.execute("INCR", "x")
        assert raw.execute("EXEC") == [1, b"OK", 2]
        wait_until(lambda: raw.execute("DBSIZE") == 0, message="x not evicted after EXEC")
    finally:
        raw.execute("CONFIG", "SET", "maxmemory", "0")
        raw.execute("CONFIG", "SET", "maxmemory-policy", "noeviction")
