"""Hash field expiry (Redis 7.4's HEXPIRE family, issue 15). There is no 7.0 oracle, so
these run against rankd only and check the return codes and semantics Redis 7.4
documents: expired fields are never visible, are reclaimed actively, and persist and
replicate as deletions."""

import time

import pytest

from resp_client import RespClient, RespError
from server_process import target_is_redis
from util import wait_until

pytestmark = pytest.mark.skipif(target_is_redis(), reason="Redis 7.4 commands; the oracle is 7.0")

FAR = 4_000_000_000  # a unix time in 2096


def test_return_codes_and_conditions(raw):
    c = raw
    c.execute("HSET", "h", "a", "1", "b", "2", "c", "3")
    assert c.execute("HEXPIRE", "h", "1000", "FIELDS", "2", "a", "nope") == [1, -2]
    assert c.execute("HEXPIRE", "h", "2000", "NX", "FIELDS", "2", "a", "b") == [0, 1]
    assert c.execute("HEXPIRE", "h", "500", "XX", "FIELDS", "2", "a", "c") == [1, 0]
    assert c.execute("HEXPIRE", "h", "100", "GT", "FIELDS", "2", "a", "c") == [0, 0]
    assert c.execute("HEXPIRE", "h", "100", "LT", "FIELDS", "2", "a", "c") == [1, 1]
    assert c.execute("HPEXPIREAT", "h", str(FAR * 1000), "FIELDS", "1", "b") == [1]
    assert c.execute("HEXPIRETIME", "h", "FIELDS", "3", "b", "a", "x") == [FAR, c.execute(
        "HEXPIRETIME", "h", "FIELDS", "1", "a")[0], -2]
    assert c.execute("HPEXPIRETIME", "h", "FIELDS", "1", "b") == [FAR * 1000]
    ttl = c.execute("HTTL", "h", "FIELDS", "1", "a")[0]
    assert 0 < ttl <= 100
    assert 0 < c.execute("HPTTL", "h", "FIELDS", "1", "a")[0] <= 100_000
    assert c.execute("HPERSIST", "h", "FIELDS", "3", "a", "a", "zz") == [1, -1, -2]
    assert c.execute("HTTL", "h", "FIELDS", "1", "a") == [-1]
    assert c.execute("HTTL", "missing", "FIELDS", "2", "a", "b") == [-2, -2]
    assert c.execute("HEXPIRE", "missing", "10", "FIELDS", "1", "a") == [-2]
    # A time already past deletes the field; the last one deletes the key.
    assert c.execute("HEXPIREAT", "h", "1", "FIELDS", "2", "a", "c") == [2, 2]
    assert c.execute("HGETALL", "h") == [b"b", b"2"]
    assert c.execute("HPEXPIRE", "h", "0", "FIELDS", "1", "b") == [2]
    assert c.execute("EXISTS", "h") == 0


def test_errors(raw):
    c = raw
    c.execute("HSET", "h", "a", "1")
    c.execute("SET", "s", "x")
    assert c.execute("HEXPIRE", "h", "10", "FIELDS", "2", "a") == RespError(
        "ERR The `numfields` parameter must match the number of arguments")
    assert c.execute("HEXPIRE", "h", "10", "FOO", "1", "a") == RespError(
        "ERR Mandatory argument FIELDS is missing or not at the right position")
    assert c.execute("HEXPIRE", "h", "10", "FIELDS", "0", "a") == RespError(
        "ERR Number of fields must be a positive integer")
    assert c.execute("HEXPIRE", "h", "-1", "FIELDS", "1", "a") == RespError(
        "ERR invalid expire time, must be >= 0")
    assert c.execute("HEXPIRE", "h", "x", "FIELDS", "1", "a") == RespError(
        "ERR value is not an integer or out of range")
    assert c.execute("HEXPIRE", "h", str(2**48), "FIELDS", "1", "a") == RespError(
        "ERR invalid expire time in 'hexpire' command")
    assert c.execute("HTTL", "s", "FIELDS", "1", "a") == RespError(
        "WRONGTYPE Operation against a key holding the wrong kind of value")
    assert c.execute("HEXPIRE", "h", "10", "FIELDS", "1") == RespError(
        "ERR wrong number of arguments for 'hexpire' command")


def test_expired_fields_are_never_visible_and_reclaimed(raw):
    c = raw
    c.execute("HSET", "h", "a", "1", "b", "2")
    c.execute("HSET", "gone", "x", "1")
    assert c.execute("HPEXPIRE", "h", "30", "FIELDS", "1", "a") == [1]
    assert c.execute("HPEXPIRE", "gone", "30", "FIELDS", "1", "x") == [1]
    time.sleep(0.05)
    assert c.execute("HGET", "h", "a") is None
    assert c.execute("HLEN", "h") == 1
    assert c.execute("HGETALL", "h") == [b"b", b"2"]
    # Nobody reads "gone": the cron removes its last field, then the key.
    wait_until(lambda: c.execute("EXISTS", "gone") == 0, timeout=5)


def test_hset_clears_and_hincrby_keeps_the_deadline(raw):
    c = raw
    c.execute("HSET", "h", "n", "1", "m", "1")
    c.execute("HEXPIRE", "h", "1000", "FIELDS", "2", "n", "m")
    assert c.execute("HINCRBY", "h", "n", "5") == 6
    assert c.execute("HINCRBYFLOAT", "h", "m", "0.5") == b"1.5"
    assert c.execute("HTTL", "h", "FIELDS", "2", "n", "m")[0] > 0
    assert c.execute("HTTL", "h", "FIELDS", "1", "m")[0] > 0
    c.execute("HSET", "h", "n", "7")
    assert c.execute("HTTL", "h", "FIELDS", "1", "n") == [-1]


def test_deadlines_persist_and_expired_fields_stay_gone(server_factory, tmp_path):
    args = ["--dir", str(tmp_path), "--appendonly", "yes", "--appendfsync", "always"]
    p = server_factory(extra_args=args)
    with RespClient(p.host, p.port) as c:
        c.execute("HSET", "h", "keep", "1", "ttl", "2", "short", "3")
        c.execute("HEXPIREAT", "h", str(FAR), "FIELDS", "1", "ttl")
        c.execute("HPEXPIRE", "h", "30", "FIELDS", "1", "short")
        c.execute("HSET", "m", "f", "1")
        c.execute("HINCRBYFLOAT", "m", "f", "1")
        c.execute("HEXPIREAT", "m", str(FAR), "FIELDS", "1", "f")
        c.execute("HINCRBYFLOAT", "m", "f", "1")
        wait_until(lambda: c.execute("HLEN", "h") == 2, timeout=5)
        assert c.execute("DEBUG", "RELOAD") == b"OK"
        assert c.execute("HEXPIRETIME", "h", "FIELDS", "3", "keep", "ttl", "short") == [-1, FAR, -2]
    p.stop()
    q = server_factory(extra_args=args)
    with RespClient(q.host, q.port) as c:
        assert sorted(c.execute("HKEYS", "h")) == [b"keep", b"ttl"]
        assert c.execute("HEXPIRETIME", "h", "FIELDS", "2", "ttl", "keep") == [FAR, -1]
        assert c.execute("HGET", "m", "f") == b"3"
        assert c.execute("HEXPIRETIME", "m", "FIELDS", "1", "f") == [FAR]
        assert c.execute("BGREWRITEAOF") is not None
