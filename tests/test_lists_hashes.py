"""Hashes and lists beyond the differential sequences (issue 15): blocking pops woken by
pushes (first come first served, across keys, BLMOVE chains), the blocking commands inside
MULTI and scripts, what a served blocking pop logs (replayed after a restart), and the
type-generic commands (TYPE, COPY, RENAME, SCAN TYPE, Lua conversions) on both types.
Every test runs against rankd and, for the exact replies, against redis-server 7.0."""

import threading
import time

import pytest

from resp_client import RespClient, RespError

TARGETS = ["rankd", "redis"]


@pytest.fixture(params=TARGETS)
def target(request, server, redis_ref):
    proc = server if request.param == "rankd" else redis_ref
    with RespClient(proc.host, proc.port) as c:
        c.execute("FLUSHALL")
    return proc


def conn(proc):
    return RespClient(proc.host, proc.port)


def wait_blocked(proc, n):
    with conn(proc) as c:
        for _ in range(500):
            info = c.execute("INFO", "clients").decode()
            line = [x for x in info.split("\r\n") if x.startswith("blocked_clients:")]
            if line and int(line[0].split(":")[1]) >= n:
                return
            time.sleep(0.01)
    raise AssertionError("clients never blocked")


def test_blpop_served_in_arrival_order(target):
    waiters = [conn(target) for _ in range(3)]
    try:
        for i, w in enumerate(waiters):
            w.send_raw(b"*3\r\n$5\r\nBLPOP\r\n$1\r\nq\r\n$1\r\n0\r\n")
            wait_blocked(target, i + 1)
        with conn(target) as c:
            assert c.execute("RPUSH", "q", "a", "b") == 2
            assert c.execute("LLEN", "q") == 0
        assert waiters[0].read_reply(timeout=5) == [b"q", b"a"]
        assert waiters[1].read_reply(timeout=5) == [b"q", b"b"]
        with conn(target) as c:
            c.execute("LPUSH", "q", "c")
        assert waiters[2].read_reply(timeout=5) == [b"q", b"c"]
    finally:
        for w in waiters:
            w.close()


def test_brpop_on_several_keys_and_timeout(target):
    with conn(target) as w, conn(target) as c:
        assert w.execute("BRPOP", "k1", "k2", "0.05") is None
        w.send_raw(b"*4\r\n$5\r\nBRPOP\r\n$2\r\nk1\r\n$2\r\nk2\r\n$1\r\n0\r\n")
        wait_blocked(target, 1)
        c.execute("RPUSH", "k2", "x", "y")
        assert w.read_reply(timeout=5) == [b"k2", b"y"]
        assert c.execute("LRANGE", "k2", 0, -1) == [b"x"]


def test_blmove_chain_wakes_the_next_waiter(target):
    with conn(target) as a, conn(target) as b, conn(target) as c:
        a.send_raw(b"*6\r\n$6\r\nBLMOVE\r\n$2\r\ns1\r\n$2\r\ns2\r\n$4\r\nLEFT\r\n$5\r\nRIGHT\r\n$1\r\n0\r\n")
        wait_blocked(target, 1)
        b.send_raw(b"*3\r\n$5\r\nBLPOP\r\n$2\r\ns2\r\n$1\r\n0\r\n")
        wait_blocked(target, 2)
        c.execute("LPUSH", "s1", "job")
        assert a.read_reply(timeout=5) == b"job"
        assert b.read_reply(timeout=5) == [b"s2", b"job"]
        assert c.execute("EXISTS", "s1", "s2") == 0


def test_blmpop_count_and_timeout_reply(target):
    with conn(target) as w, conn(target) as c:
        assert w.execute("BLMPOP", "0.02", "2", "a", "b", "LEFT") is None
        assert w.execute("BLMOVE", "a", "b", "LEFT", "LEFT", "0.02") is None
        w.send_raw(b"*7\r\n$6\r\nBLMPOP\r\n$1\r\n0\r\n$1\r\n1\r\n$1\r\nb\r\n$5\r\nRIGHT\r\n"
                   b"$5\r\nCOUNT\r\n$1\r\n5\r\n")
        wait_blocked(target, 1)
        c.execute("RPUSH", "b", "1", "2", "3")
        assert w.read_reply(timeout=5) == [b"b", [b"3", b"2", b"1"]]


def test_blocking_commands_do_not_block_in_multi(target):
    with conn(target) as c:
        c.execute("MULTI")
        c.execute("BLPOP", "none", "0")
        c.execute("BLMOVE", "none", "x", "LEFT", "LEFT", "0")
        c.execute("BRPOPLPUSH", "none", "x", "0")
        c.execute("BLMPOP", "0", "1", "none", "LEFT")
        _, raw = c.execute_raw("EXEC")
        assert raw == b"*4\r\n*-1\r\n$-1\r\n$-1\r\n*-1\r\n"


def test_blocking_commands_in_scripts(target):
    with conn(target) as c:
        e = c.execute("EVAL", "return redis.call('BLPOP', 'none', 0)", 0)
        assert isinstance(e, RespError) and "not allowed from script" in e.message
        assert c.execute("EVAL", "return redis.call('BLMPOP', 0, 1, 'none', 'LEFT')", 0) is None
        c.execute("RPUSH", "l", "a")
        assert c.execute("EVAL", "return redis.call('BLMPOP', 0, 1, 'l', 'LEFT')", 0) == \
            [b"l", [b"a"]]


def test_lua_conversions(target):
    with conn(target) as c:
        c.execute("HSET", "h", "f", "1")
        c.execute("RPUSH", "l", "a", "b")
        assert c.execute("EVAL", "return redis.call('HGETALL', KEYS[1])", 1, "h") == [b"f", b"1"]
        assert c.execute("EVAL", "return redis.call('LRANGE', KEYS[1], 0, -1)", 1, "l") == \
            [b"a", b"b"]
        assert c.execute("EVAL", "return redis.call('HGET', KEYS[1], 'nope')", 1, "h") is None
        assert c.execute("EVAL", "return redis.call('LPOS', KEYS[1], 'b')", 1, "l") == 1


def test_type_generic_commands(target):
    with conn(target) as c:
        c.execute("HSET", "h", "f", "v")
        c.execute("RPUSH", "l", "a")
        assert c.execute("TYPE", "h") == b"hash"
        assert c.execute("TYPE", "l") == b"list"
        assert c.execute("SCAN", "0", "TYPE", "list") == [b"0", [b"l"]]
        assert c.execute("COPY", "h", "h2") == 1
        assert c.execute("HGETALL", "h2") == [b"f", b"v"]
        assert c.execute("RENAME", "l", "l2") == b"OK"
        assert c.execute("LRANGE", "l2", 0, -1) == [b"a"]
        assert c.execute("OBJECT", "ENCODING", "l2") == b"quicklist"
        assert c.execute("OBJECT", "ENCODING", "h2") == b"listpack"
        assert isinstance(c.execute("MEMORY", "USAGE", "h2"), int)
        assert c.execute("MOVE", "h2", "1") == 1
        assert c.execute("GET", "l2") == RespError(
            "WRONGTYPE Operation against a key holding the wrong kind of value")


def test_served_blocking_pop_is_logged_as_a_pop(server_factory, tmp_path):
    """A BLPOP served after blocking replays as the LPOP it was, never as a BLPOP."""
    args = ["--dir", str(tmp_path), "--appendonly", "yes", "--appendfsync", "always"]
    p = server_factory(extra_args=args)
    with RespClient(p.host, p.port) as w, RespClient(p.host, p.port) as c:
        w.send_raw(b"*3\r\n$5\r\nBLPOP\r\n$1\r\nq\r\n$1\r\n0\r\n")
        wait_blocked(p, 1)
        c.execute("RPUSH", "q", "a", "b")
        assert w.read_reply(timeout=5) == [b"q", b"a"]
        c.execute("BLMOVE", "q", "d", "RIGHT", "LEFT", "0")
        c.execute("HSET", "h", "x", "1")
        c.execute("HINCRBYFLOAT", "h", "x", "0.1")
    p.stop()
    q = server_factory(extra_args=args)
    with RespClient(q.host, q.port) as c:
        assert c.execute("EXISTS", "q") == 0
        assert c.execute("LRANGE", "d", 0, -1) == [b"b"]
        assert c.execute("HGET", "h", "x") == b"1.1"


def test_sort_by_hash_fields_get_and_store(target):
    with conn(target) as c:
        c.execute("RPUSH", "ids", "3", "1", "2", "10")
        c.execute("SADD", "tags", "b", "a", "c")
        c.execute("ZADD", "zs", "1", "x", "2", "y")
        for i, (name, pts) in {"1": ("ann", "30"), "2": ("bob", "10"), "3": ("cat", "20")}.items():
            c.execute("HSET", "user:" + i, "name", name, "pts", pts)
            c.execute("SET", "w_" + i, str(100 - int(pts)))
        assert c.execute("SORT", "ids") == [b"1", b"2", b"3", b"10"]
        assert c.execute("SORT", "ids", "DESC", "LIMIT", "1", "2") == [b"3", b"2"]
        assert c.execute("SORT", "ids", "BY", "user:*->pts", "GET", "#", "GET", "user:*->name") == \
            [b"10", None, b"2", b"bob", b"3", b"cat", b"1", b"ann"]
        assert c.execute("SORT", "ids", "BY", "w_*", "DESC", "GET", "user:*->name") == \
            [b"bob", b"cat", b"ann", None]
        assert c.execute("SORT", "ids", "BY", "nosort", "DESC", "LIMIT", "0", "2") == [b"10", b"2"]
        assert c.execute("SORT", "tags", "ALPHA") == [b"a", b"b", b"c"]
        assert c.execute("SORT", "tags", "BY", "nosort", "STORE", "out") == 3
        assert c.execute("LRANGE", "out", 0, -1) == [b"a", b"b", b"c"]
        assert c.execute("SORT", "zs", "BY", "nosort", "DESC") == [b"y", b"x"]
        assert c.execute("OBJECT", "ENCODING", "zs") == b"skiplist"
        assert c.execute("SORT", "tags") == RespError(
            "ERR One or more scores can't be converted into double")
        assert c.execute("SORT_RO", "ids", "STORE", "x") == RespError("ERR syntax error")
        assert c.execute("SORT", "ids", "LIMIT", "0", "x") == RespError(
            "ERR value is not an integer or out of range")
        assert c.execute("SORT", "user:1") == RespError(
            "WRONGTYPE Operation against a key holding the wrong kind of value")
        assert c.execute("SORT", "nothing", "STORE", "out") == 0
        assert c.execute("EXISTS", "out") == 0


def test_client_is_served_from_the_key_signalled_first(target):
    with conn(target) as w, conn(target) as c:
        w.send_raw(b"*4\r\n$5\r\nBLPOP\r\n$1\r\na\r\n$1\r\nb\r\n$1\r\n0\r\n")
        wait_blocked(target, 1)
        c.execute("MULTI")
        c.execute("LPUSH", "b", "x")
        c.execute("LPUSH", "a", "y")
        assert c.execute("EXEC") == [1, 1]
        assert w.read_reply(timeout=5) == [b"b", b"x"]
        assert c.execute("LRANGE", "a", 0, -1) == [b"y"]
