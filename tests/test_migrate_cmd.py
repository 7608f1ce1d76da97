"""MIGRATE (issue 13): keys move from rankd to redis-server 7.0, to another rankd, and
from redis-server into rankd (rankd as MIGRATE's target: AUTH, SELECT, RESTORE), with
COPY, REPLACE, AUTH / AUTH2, KEYS and TTLs; the replies and errors of rankd as the
source are compared with redis-server's as the source, data unchanged on errors.

Valid with RANKD_TARGET_REDIS=1 (redis-server on both sides)."""

import pytest

from server_process import free_port, reference_redis, target_is_redis
from test_migrate_from_redis import assert_same, populate


@pytest.fixture
def target(server_factory):
    proc = server_factory(extra_args=["--requirepass", "pw"], password="pw")
    yield proc


def run(c, *cmd):
    try:
        return c.execute_command(*cmd)
    except Exception as e:  # noqa: BLE001
        return "error: %s" % e


def test_migrate_every_type_to_redis_and_back(r, redis_ref):
    ref = redis_ref.client()
    ref.flushall()
    populate(r)
    before = {}
    r.execute_command("SELECT", 0)
    keys = r.execute_command("KEYS", "*")
    copy_src = r.execute_command("KEYS", "*")
    assert run(r, "MIGRATE", "127.0.0.1", redis_ref.port, "", 0, 5000, "COPY",
               "KEYS", *copy_src) == b"OK"
    # COPY keeps the source; the target holds the same data (database 0).
    for k in keys:
        before[k] = r.dump(k)
        assert ref.exists(k) == 1, k
    assert run(r, "MIGRATE", "127.0.0.1", redis_ref.port, "z:small", 0, 5000) == \
        "error: Target instance replied with error: BUSYKEY Target key name already exists."
    assert r.exists("z:small") == 1
    assert run(r, "MIGRATE", "127.0.0.1", redis_ref.port, "z:small", 0, 5000, "REPLACE") == b"OK"
    assert r.exists("z:small") == 0
    # Back: redis-server MIGRATEs into rankd (rankd is the target).
    assert run(ref, "MIGRATE", "127.0.0.1", r.connection_pool.connection_kwargs["port"],
               "", 0, 5000, "REPLACE", "KEYS", "z:small", "ttl:s", "z:big") == b"OK"
    assert r.exists("z:small", "z:big", "ttl:s") == 3
    assert ref.exists("z:small", "z:big", "ttl:s") == 0
    assert 0 < r.pttl("ttl:s") <= 3_600_000
    ref.flushall()


def test_auth_db_and_copy_between_two_servers(r, target):
    dst = target.client()
    populate(r)
    r.execute_command("SELECT", 0)
    snap_keys = sorted(r.execute_command("KEYS", "*"))
    assert run(r, "MIGRATE", "127.0.0.1", target.port, "", 3, 5000, "AUTH", "pw",
               "KEYS", *snap_keys) == b"OK"
    assert r.execute_command("KEYS", "*") == []
    dst.execute_command("SELECT", 3)
    assert sorted(dst.execute_command("KEYS", "*")) == snap_keys
    assert run(r, "MIGRATE", "127.0.0.1", target.port, "nothing", 0, 5000, "AUTH", "pw") == \
        b"NOKEY"
    r.set("k", "v")
    assert run(r, "MIGRATE", "127.0.0.1", target.port, "k", 0, 5000, "AUTH", "bad") == \
        "error: Target instance replied with error: WRONGPASS invalid username-password " \
        "pair or user is disabled."
    # The cached connection (authenticated above) is reused, as by redis-server,
    # so the RESTORE behind the failed AUTH ran there.
    refusal = "BUSYKEY Target key name already exists."
    assert run(r, "MIGRATE", "127.0.0.1", target.port, "k", 0, 5000) == \
        "error: Target instance replied with error: " + refusal
    assert r.get("k") == b"v"
    assert run(r, "MIGRATE", "127.0.0.1", target.port, "k", 0, 5000, "AUTH2", "default",
               "pw", "COPY", "REPLACE") == b"OK"
    assert r.get("k") == b"v"
    dst.execute_command("SELECT", 0)
    assert dst.get("k") == b"v"


def test_errors_match_redis(r, redis_ref, server_factory):
    ref = redis_ref.client()
    ref.flushall()
    sink = reference_redis()
    sink.start()
    try:
        closed = free_port()
        for c in (r, ref):
            c.set("k", "v")
        cases = [
            ("MIGRATE", "127.0.0.1", sink.port, "k", 0, 1000, "KEYS", "k"),
            ("MIGRATE", "127.0.0.1", sink.port, "k", 0, 1000, "BOGUS"),
            ("MIGRATE", "127.0.0.1", sink.port, "k", 0, 1000, "AUTH"),
            ("MIGRATE", "127.0.0.1", sink.port, "k", 0, 1000, "AUTH2", "u"),
            ("MIGRATE", "127.0.0.1", sink.port, "k", "x", 1000),
            ("MIGRATE", "127.0.0.1", sink.port, "k", 0, "x"),
            ("MIGRATE", "127.0.0.1", sink.port, "missing", 0, 1000),
            ("MIGRATE", "127.0.0.1", sink.port, "", 0, 1000, "KEYS", "m1", "m2"),
            ("MIGRATE", "127.0.0.1", closed, "k", 0, 1000),
            ("MIGRATE", "127.0.0.1", sink.port, "k", 99, 1000, "COPY"),
            ("MIGRATE", "127.0.0.1", sink.port, "k", 0),
        ]
        for cmd in cases:
            got, want = run(r, *cmd), run(ref, *cmd)
            assert got == want, cmd
            assert r.get("k") == ref.get("k") == b"v", cmd
        # (a failed SELECT does not stop the pipelined RESTORE on the target, in
        # Redis too: "k" reached database 0 of the sink above)
        assert run(r, "MIGRATE", "127.0.0.1", sink.port, "k", 0, 1000, "REPLACE") == b"OK"
        assert r.exists("k") == 0
        assert sink.client().get("k") == b"v"
    finally:
        sink.stop()
        ref.flushall()


def test_migrated_keys_leave_replicas_too(server_factory, redis_ref):
    from test_replication import link_up, wait_for
    primary = server_factory()
    rep = server_factory().client()
    assert rep.execute_command("REPLICAOF", "127.0.0.1", primary.port) == b"OK"
    wait_for(lambda: link_up(rep), what="link up")
    p = primary.client()
    p.zadd("z", {"a": 1})
    p.set("s", "v")
    wait_for(lambda: rep.exists("z", "s") == 2, what="replicated")
    redis_ref.client().flushall()
    assert run(p, "MIGRATE", "127.0.0.1", redis_ref.port, "", 0, 5000, "KEYS", "z", "s") == b"OK"
    wait_for(lambda: rep.exists("z", "s") == 0, what="DEL on the replica")
    assert_same(p, rep)
    redis_ref.client().flushall()
