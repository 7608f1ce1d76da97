"""list-compress-depth (issue 15): every list command on lists whose interior chunks are
LZF-compressed, reply for reply against redis-server 7.0; the depth fixed when a list is
created (CONFIG SET affects new lists, a reload takes the depth then in force, COPY keeps
the source's); compressed lists cost less memory; DEBUG OBJECT's quicklist fields.
The random sequences are in test_differential_types.py (scenarios depth1, depth2)."""

import random

import pytest

from resp_client import RespClient

TARGETS = ["rankd", "redis"]


def json(i):
    return '{"user":%d,"name":"player","state":"waiting","n":%d}' % (i % 7, i % 3)


@pytest.fixture(params=TARGETS)
def target(request, server, redis_ref):
    proc = server if request.param == "rankd" else redis_ref
    with RespClient(proc.host, proc.port) as c:
        c.execute("FLUSHALL")
    yield proc
    with RespClient(proc.host, proc.port) as c:
        c.execute("CONFIG", "SET", "list-compress-depth", "0")
        c.execute("CONFIG", "SET", "list-max-listpack-size", "-2")


def debug_fields(c, key):
    line = c.execute("DEBUG", "OBJECT", key).decode()
    return dict(f.split(":", 1) for f in line.split(" ") if ":" in f)


def test_depth_is_fixed_when_the_list_is_created(target):
    with RespClient(target.host, target.port) as c:
        c.execute("CONFIG", "SET", "list-max-listpack-size", "4")
        c.execute("RPUSH", "plain", *[json(i) for i in range(400)])
        c.execute("CONFIG", "SET", "list-compress-depth", "1")
        c.execute("RPUSH", "packed", *[json(i) for i in range(400)])
        c.execute("RPUSH", "plain", json(400))  # an old list stays uncompressed
        c.execute("RPUSH", "packed", json(400))
        assert debug_fields(c, "plain")["ql_compressed"] == "0"
        packed = debug_fields(c, "packed")
        assert packed["ql_compressed"] == "1"
        assert packed["ql_listpack_max"] == "4"
        assert packed["encoding"] == "quicklist"
        assert c.execute("LRANGE", "plain", 0, -1) == c.execute("LRANGE", "packed", 0, -1)
        small = c.execute("MEMORY", "USAGE", "packed", "SAMPLES", "0")
        big = c.execute("MEMORY", "USAGE", "plain", "SAMPLES", "0")
        assert small * 3 < big * 2, (small, big)


def test_reload_takes_the_depth_then_in_force_and_copy_keeps_it(target):
    with RespClient(target.host, target.port) as c:
        c.execute("CONFIG", "SET", "list-max-listpack-size", "4")
        c.execute("CONFIG", "SET", "list-compress-depth", "2")
        c.execute("RPUSH", "l", *[json(i) for i in range(200)])
        before = c.execute("LRANGE", "l", 0, -1)
        c.execute("CONFIG", "SET", "list-compress-depth", "0")
        assert c.execute("COPY", "l", "l2") == 1
        assert debug_fields(c, "l2")["ql_compressed"] == "1"
        assert c.execute("DEBUG", "RELOAD") == b"OK"
        assert debug_fields(c, "l")["ql_compressed"] == "0"
        assert c.execute("LRANGE", "l", 0, -1) == before
        c.execute("CONFIG", "SET", "list-compress-depth", "3")
        assert c.execute("DEBUG", "RELOAD") == b"OK"
        assert debug_fields(c, "l2")["ql_compressed"] == "1"
        assert c.execute("LRANGE", "l2", 0, -1) == before


def script(depth, fill, seed):
    """A fixed sequence reaching the compressed middle of two lists with every list
    command."""
    rng = random.Random(seed)
    n = 300
    cmds = [("CONFIG", "SET", "list-compress-depth", str(depth)),
            ("CONFIG", "SET", "list-max-listpack-size", fill),
            ("RPUSH", "a", *[json(i) for i in range(n)]),
            ("LPUSH", "b", *[json(i) for i in range(n // 2)])]
    for _ in range(400):
        i = str(rng.randint(-n, n))
        j = str(rng.randint(-n, n))
        e = json(rng.randint(0, 20)) if rng.random() < 0.8 else "x"
        k = rng.choice(["a", "b"])
        cmds.append(rng.choice([
            ("LINDEX", k, i), ("LRANGE", k, i, j), ("LSET", k, i, e),
            ("LINSERT", k, rng.choice(["BEFORE", "AFTER"]), e, json(99)),
            ("LREM", k, str(rng.randint(-3, 3)), e), ("LPOS", k, e, "RANK", "-2", "COUNT", "0"),
            ("LPOS", k, e, "MAXLEN", "50"), ("LTRIM", k, "0", str(rng.randint(n, 2 * n))),
            ("LPOP", k, "3"), ("RPOP", k), ("LPUSH", k, e), ("RPUSHX", k, e, e),
            ("LMOVE", k, rng.choice(["a", "b"]), "LEFT", "RIGHT"), ("RPOPLPUSH", k, "c"),
            ("LMPOP", "2", "c", k, "RIGHT", "COUNT", "2"), ("LLEN", k),
            ("SORT", k, "ALPHA", "LIMIT", "0", "5"), ("SORT", k, "ALPHA", "STORE", "d"),
        ]))
    cmds += [("LRANGE", "a", "0", "-1"), ("LRANGE", "b", "0", "-1"), ("LRANGE", "c", "0", "-1"),
             ("LRANGE", "d", "0", "-1")]
    return cmds


@pytest.mark.parametrize("depth,fill", [(1, "4"), (2, "4"), (1, "-1"), (3, "2")])
def test_every_list_command_matches_redis(server, redis_ref, depth, fill):
    with RespClient(server.host, server.port) as a, \
            RespClient(redis_ref.host, redis_ref.port) as b:
        a.execute("FLUSHALL")
        b.execute("FLUSHALL")
        try:
            for cmd in script(depth, fill, depth * 10 + len(fill)):
                ra, rb = a.execute(*cmd), b.execute(*cmd)
                assert ra == rb, cmd
            assert debug_fields(a, "b")["ql_compressed"] == "1"
        finally:
            for c in (a, b):
                c.execute("CONFIG", "SET", "list-compress-depth", "0")
                c.execute("CONFIG", "SET", "list-max-listpack-size", "-2")
