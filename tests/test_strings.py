"""Strings: GET SET (EX PX EXAT PXAT NX XX KEEPTTL GET) SETNX SETEX PSETEX GETDEL GETEX
MGET MSET MSETNX INCR INCRBY INCRBYFLOAT DECR DECRBY APPEND STRLEN, with error replies."""

import pytest

from resp_client import RespError
from util import NOT_FLOAT, NOT_INTEGER, SYNTAX, WRONGTYPE, arity, err

FAR = 4_000_000_000


@pytest.fixture
def wrongtype_key(raw):
    """A key holding a non-string value (a set or a sorted set), or skip."""
    for cmd in (("SADD", "notstr", "m"), ("ZADD", "notstr", "1", "m")):
        reply = raw.execute(*cmd)
        if reply == 1:
            return b"notstr"
    pytest.skip("no non-string type implemented yet (SADD/ZADD unknown)")


def test_get_set_basic(raw):
    assert raw.execute("GET", "k") is None
    assert raw.execute_raw("GET", "k")[1] == b"$-1\r\n"
    assert raw.execute_raw("SET", "k", "v") == (b"OK", b"+OK\r\n")
    assert raw.execute("GET", "k") == b"v"
    assert raw.execute("SET", "k", "") == b"OK"
    assert raw.execute_raw("GET", "k")[1] == b"$0\r\n\r\n"
    binary = bytes(range(256)) * 4
    raw.execute("SET", "bin", binary)
    assert raw.execute("GET", "bin") == binary
    raw.execute("SET", b"key\x00with\r\nbytes", "x")
    assert raw.execute("GET", b"key\x00with\r\nbytes") == b"x"


def test_set_nx_xx(raw):
    assert raw.execute("SET", "k", "1", "XX") is None
    assert raw.execute("EXISTS", "k") == 0
    assert raw.execute("SET", "k", "1", "NX") == b"OK"
    assert raw.execute("SET", "k", "2", "NX") is None
    assert raw.execute("GET", "k") == b"1"
    assert raw.execute("SET", "k", "3", "XX") == b"OK"
    assert raw.execute("GET", "k") == b"3"
    assert raw.execute("SET", "k", "4", "nx") is None  # options are case-insensitive
    assert raw.execute("SET", "k", "4", "NX", "NX") is None


def test_set_get_option(raw):
    assert raw.execute_raw("SET", "k", "v", "GET")[1] == b"$-1\r\n"
    assert raw.execute("SET", "k", "w", "GET") == b"v"
    assert raw.execute("SET", "k", "x", "NX", "GET") == b"w"
    assert raw.execute("GET", "k") == b"w"
    assert raw.execute("SET", "k2", "x", "XX", "GET") is None
    assert raw.execute("EXISTS", "k2") == 0
    assert raw.execute("SET", "k", "y", "XX", "GET", "EX", "100") == b"w"
    assert 90 <= raw.execute("TTL", "k") <= 100
    assert raw.execute("SET", "k", "z", "GET", "GET") == b"y"


def test_set_expiry_options(raw):
    raw.execute("SET", "k", "v", "EX", "100")
    assert 90 <= raw.execute("TTL", "k") <= 100
    raw.execute("SET", "k", "v", "PX", "100000")
    assert 90_000 <= raw.execute("PTTL", "k") <= 100_000
    raw.execute("SET", "k", "v", "EXAT", FAR)
    assert raw.execute("EXPIRETIME", "k") == FAR
    raw.execute("SET", "k", "v", "PXAT", FAR * 1000 + 7)
    assert raw.execute("PEXPIRETIME", "k") == FAR * 1000 + 7
    raw.execute("SET", "k", "w", "KEEPTTL")
    assert raw.execute("PEXPIRETIME", "k") == FAR * 1000 + 7
    raw.execute("SET", "k", "w")
    assert raw.execute("TTL", "k") == -1
    raw.execute("SET", "k", "v", "ex", "100")  # lower case
    assert raw.execute("TTL", "k") > 0


@pytest.mark.parametrize("args,reply", [
    (("EX",), SYNTAX),
    (("EX", "0"), err("ERR invalid expire time in 'set' command")),
    (("EX", "-1"), err("ERR invalid expire time in 'set' command")),
    (("PX", "0"), err("ERR invalid expire time in 'set' command")),
    (("EXAT", "0"), err("ERR invalid expire time in 'set' command")),
    (("PXAT", "-1"), err("ERR invalid expire time in 'set' command")),
    (("EX", "9223372036854775807"), err("ERR invalid expire time in 'set' command")),
    (("EX", "9223372036854775"), err("ERR invalid expire time in 'set' command")),
    (("PX", "9223372036854775807"), err("ERR invalid expire time in 'set' command")),
    (("EXAT", "9223372036854775807"), err("ERR invalid expire time in 'set' command")),
    (("EX", "a"), NOT_INTEGER),
    (("EX", "1.5"), NOT_INTEGER),
    (("NX", "XX"), SYNTAX),
    (("EX", "10", "PX", "100"), SYNTAX),
    (("KEEPTTL", "EX", "10"), SYNTAX),
    (("PXAT", "10", "KEEPTTL"), SYNTAX),
    (("FOO",), SYNTAX),
    (("GET", "FOO"), SYNTAX),
])
def test_set_errors(raw, args, reply):
    raw.execute("SET", "k", "old")
    assert raw.execute("SET", "k", "v", *args) == reply
    assert raw.execute("GET", "k") == b"old", "a failed SET changes nothing"
    assert raw.execute("TTL", "k") == -1


def test_set_repeated_option_last_wins(raw):
    assert raw.execute("SET", "k", "v", "EX", "10", "EX", "1000") == b"OK"
    assert 990 <= raw.execute("TTL", "k") <= 1000
    assert raw.execute("SET", "k", "v", "KEEPTTL", "KEEPTTL") == b"OK"
    assert raw.execute("TTL", "k") > 0


def test_set_arity(raw):
    assert raw.execute("SET", "k") == arity("set")
    assert raw.execute("GET") == arity("get")
    assert raw.execute("GET", "a", "b") == arity("get")


def test_setnx(raw):
    assert raw.execute("SETNX", "k", "1") == 1
    assert raw.execute("SETNX", "k", "2") == 0
    assert raw.execute("GET", "k") == b"1"
    assert raw.execute("SETNX", "k") == arity("setnx")


def test_setex_psetex(raw):
    assert raw.execute("SETEX", "k", "100", "v") == b"OK"
    assert raw.execute("GET", "k") == b"v"
    assert 90 <= raw.execute("TTL", "k") <= 100
    assert raw.execute("PSETEX", "p", "100000", "v") == b"OK"
    assert 90_000 <= raw.execute("PTTL", "p") <= 100_000
    assert raw.execute("SETEX", "k", "0", "v") == err("ERR invalid expire time in 'setex' command")
    assert raw.execute("SETEX", "k", "-5", "v") == err("ERR invalid expire time in 'setex' command")
    assert raw.execute("PSETEX", "k", "-5", "v") == err(
        "ERR invalid expire time in 'psetex' command")
    assert raw.execute("SETEX", "k", "9223372036854775807", "v") == err(
        "ERR invalid expire time in 'setex' command")
    assert raw.execute("SETEX", "k", "a", "v") == NOT_INTEGER
    assert raw.execute("SETEX", "k", "100") == arity("setex")
    assert raw.execute("PSETEX", "k", "100") == arity("psetex")


def test_getdel(raw):
    raw.execute("SET", "k", "v", "EX", "100")
    assert raw.execute("GETDEL", "k") == b"v"
    assert raw.execute("EXISTS", "k") == 0
    assert raw.execute("GETDEL", "k") is None
    assert raw.execute("GETDEL") == arity("getdel")


def test_getex(raw):
    raw.execute("SET", "k", "v")
    assert raw.execute("GETEX", "k") == b"v"
    assert raw.execute("TTL", "k") == -1
    assert raw.execute("GETEX", "k", "EX", "100") == b"v"
    assert 90 <= raw.execute("TTL", "k") <= 100
    assert raw.execute("GETEX", "k", "PX", "50000") == b"v"
    assert 40_000 <= raw.execute("PTTL", "k") <= 50_000
    assert raw.execute("GETEX", "k", "EXAT", FAR) == b"v"
    assert raw.execute("EXPIRETIME", "k") == FAR
    assert raw.execute("GETEX", "k", "PXAT", FAR * 1000 + 1) == b"v"
    assert raw.execute("PEXPIRETIME", "k") == FAR * 1000 + 1
    assert raw.execute("GETEX", "k", "PERSIST") == b"v"
    assert raw.execute("TTL", "k") == -1
    assert raw.execute("GETEX", "nokey", "EX", "10") is None
    assert raw.execute("GETEX", "k", "EX", "0") == err("ERR invalid expire time in 'getex' command")
    assert raw.execute("GETEX", "k", "EX", "10", "PX", "10") == SYNTAX
    assert raw.execute("GETEX", "k", "EX") == SYNTAX
    assert raw.execute("GETEX", "k", "PERSIST", "EX", "1") == SYNTAX
    assert raw.execute("GETEX", "k", "FOO") == SYNTAX
    assert raw.execute("GETEX", "k", "EX", "x") == NOT_INTEGER
    assert raw.execute("TTL", "k") == -1
    assert raw.execute("GETEX") == arity("getex")


def test_getex_past_time_deletes(raw):
    raw.execute("SET", "k", "v")
    assert raw.execute("GETEX", "k", "EXAT", "1") == b"v"
    assert raw.execute("EXISTS", "k") == 0


def test_mget_mset_msetnx(raw):
    assert raw.execute("MSET", "a", "1", "b", "2") == b"OK"
    assert raw.execute("MGET", "a", "nokey", "b") == [b"1", None, b"2"]
    assert raw.execute_raw("MGET", "a", "nokey")[1] == b"*2\r\n$1\r\n1\r\n$-1\r\n"
    assert raw.execute("MSET", "a", "x", "a", "y") == b"OK"
    assert raw.execute("GET", "a") == b"y", "the last value wins"
    assert raw.execute("MSETNX", "a", "1", "c", "3") == 0
    assert raw.execute("EXISTS", "c") == 0
    assert raw.execute("MSETNX", "c", "3", "d", "4") == 1
    assert raw.execute("MGET", "c", "d") == [b"3", b"4"]
    assert raw.execute("MSET", "a") == arity("mset")
    assert raw.execute("MSET", "a", "1", "b") == arity("mset")
    assert raw.execute("MSETNX", "a", "1", "b") == arity("msetnx")
    assert raw.execute("MGET") == arity("mget")


def test_mset_clears_ttl(raw):
    raw.execute("SET", "a", "1", "EX", "100")
    raw.execute("MSET", "a", "2")
    assert raw.execute("TTL", "a") == -1


def test_incr_decr(raw):
    assert raw.execute("INCR", "n") == 1
    assert raw.execute("INCRBY", "n", "10") == 11
    assert raw.execute("DECR", "n") == 10
    assert raw.execute("DECRBY", "n", "20") == -10
    assert raw.execute("INCRBY", "n", "-5") == -15
    assert raw.execute("GET", "n") == b"-15"
    raw.execute("SET", "n", "  ")
    assert raw.execute("INCR", "n") == NOT_INTEGER


@pytest.mark.parametrize("value", [b" 1", b"1 ", b"1.0", b"abc", b"99999999999999999999",
                                   b"", b"0x10", b"1e3"])
def test_incr_not_integer(raw, value):
    raw.execute("SET", "n", value)
    assert raw.execute("INCR", "n") == NOT_INTEGER
    assert raw.execute("GET", "n") == value


def test_incr_overflow(raw):
    assert raw.execute("INCRBY", "n", "9223372036854775807") == 9223372036854775807
    assert raw.execute("INCRBY", "n", "1") == err("ERR increment or decrement would overflow")
    assert raw.execute("INCR", "n") == err("ERR increment or decrement would overflow")
    assert raw.execute("DECRBY", "n", "-1") == err("ERR increment or decrement would overflow")
    assert raw.execute("INCRBY", "m", "-9223372036854775808") == -9223372036854775808
    assert raw.execute("DECR", "m") == err("ERR increment or decrement would overflow")
    assert raw.execute("DECRBY", "x", "-9223372036854775808") == err(
        "ERR decrement would overflow")
    assert raw.execute("INCRBY", "x", "9223372036854775808") == NOT_INTEGER
    assert raw.execute("INCRBY", "x", "1.5") == NOT_INTEGER
    assert raw.execute("INCRBY", "x", "abc") == NOT_INTEGER
    assert raw.execute("EXISTS", "x") == 0


def test_incr_arity(raw):
    assert raw.execute("INCR") == arity("incr")
    assert raw.execute("INCRBY", "n") == arity("incrby")
    assert raw.execute("DECRBY", "n") == arity("decrby")
    assert raw.execute("INCRBYFLOAT", "n") == arity("incrbyfloat")


@pytest.mark.parametrize("start,incr,result", [
    (None, b"1.5", b"1.5"),
    (b"10.5", b"0.1", b"10.6"),
    (b"1", b"2", b"3"),
    (b"1.0", b"1e3", b"1001"),
    (b"0.1", b"0.2", b"0.3"),
    (b"3", b"-3.0", b"0"),
    (None, b"-0", b"0"),
    (None, b"5.0e-10", b"0.0000000005"),
    (None, b"3.0e3", b"3000"),
    (b"3000", b"1.23456789012345678901", b"3001.23456789012345669"),
    (None, b".5", b"0.5"),
    (None, b"5.", b"5"),
    (b"0x10", b"1", b"17"),
    (None, b"0x10", b"16"),
    (None, b"1e20", b"100000000000000000000"),
    (b"5", b"-10.25", b"-5.25"),
])
def test_incrbyfloat(raw, start, incr, result):
    if start is not None:
        raw.execute("SET", "f", start)
    assert raw.execute("INCRBYFLOAT", "f", incr) == result
    assert raw.execute("GET", "f") == result


def test_incrbyfloat_long_double_range(raw):
    """Redis computes INCRBYFLOAT in long double: 1e308 + 1e308 does not overflow."""
    reply = raw.execute("INCRBYFLOAT", "f", "1e308")
    assert reply.startswith(b"999999999999999999966858796558456") and len(reply) == 308
    reply = raw.execute("INCRBYFLOAT", "f", "1e308")
    assert reply.startswith(b"199999999999999999993371759311691") and len(reply) == 309


@pytest.mark.parametrize("start,incr,reply", [
    (None, b"abc", NOT_FLOAT),
    (None, b" 1", NOT_FLOAT),
    (None, b"1 ", NOT_FLOAT),
    (None, b"1e", NOT_FLOAT),
    (None, b"", NOT_FLOAT),
    (None, b"nan", NOT_FLOAT),
    (None, b"inf", err("ERR increment would produce NaN or Infinity")),
    (None, b"-inf", err("ERR increment would produce NaN or Infinity")),
    (b"abc", b"1", NOT_FLOAT),
    (b"1 ", b"1", NOT_FLOAT),
])
def test_incrbyfloat_errors(raw, start, incr, reply):
    if start is not None:
        raw.execute("SET", "f", start)
    assert raw.execute("INCRBYFLOAT", "f", incr) == reply
    assert raw.execute("GET", "f") == start


def test_incrbyfloat_keeps_ttl(raw):
    raw.execute("SET", "f", "1", "EX", "100")
    raw.execute("INCRBYFLOAT", "f", "1")
    assert raw.execute("TTL", "f") > 0


def test_append_strlen(raw):
    assert raw.execute("STRLEN", "k") == 0
    assert raw.execute("APPEND", "k", "hello") == 5
    assert raw.execute("APPEND", "k", " world") == 11
    assert raw.execute("APPEND", "k", "") == 11
    assert raw.execute("GET", "k") == b"hello world"
    assert raw.execute("STRLEN", "k") == 11
    raw.execute("SET", "n", "123")
    assert raw.execute("APPEND", "n", "4") == 4
    assert raw.execute("INCR", "n") == 1235
    assert raw.execute("STRLEN", "n") == 4
    assert raw.execute("APPEND", "k") == arity("append")
    assert raw.execute("STRLEN") == arity("strlen")


def test_wrongtype_errors(raw, wrongtype_key):
    k = wrongtype_key
    for cmd in [("GET", k), ("SET", k, "v", "GET"), ("GETDEL", k), ("GETEX", k),
                ("GETEX", k, "EX", "10"), ("APPEND", k, "x"), ("STRLEN", k), ("INCR", k),
                ("INCRBY", k, "1"), ("DECR", k), ("DECRBY", k, "1"), ("INCRBYFLOAT", k, "1")]:
        assert raw.execute(*cmd) == WRONGTYPE, cmd
    assert raw.execute("TTL", k) == -1, "GETEX on a wrong type must not set a TTL"
    assert raw.execute("MGET", k, "nokey") == [None, None]
    assert raw.execute("MSETNX", k, "1", "other", "2") == 0
    assert raw.execute("SETNX", k, "v") == 0
    assert raw.execute("SET", k, "v", "NX") is None
    # SET without GET overwrites any type.
    assert raw.execute("SET", k, "v") == b"OK"
    assert raw.execute("GET", k) == b"v"


def test_redis_py_strings(r):
    assert r.set("k", "v", ex=100, nx=True) is True
    assert r.set("k", "v", nx=True) is None
    assert r.get("k") == b"v"
    assert r.incr("n", 5) == 5
    assert r.incrbyfloat("f", 0.5) == 0.5
    assert r.mget(["k", "n", "nokey"]) == [b"v", b"5", None]
    assert r.getdel("k") == b"v"
    assert r.getex("n", px=100000) == b"5"
    assert r.pttl("n") > 0
