"""Expiry: EXPIRE PEXPIRE EXPIREAT PEXPIREAT (NX XX GT LT), TTL PTTL EXPIRETIME
PEXPIRETIME PERSIST; expired keys are invisible; active expiry reclaims keys nobody reads.

No timing assertions: short TTLs are only ever waited out (sleep longer than the TTL),
and background reclaiming is polled with a generous deadline."""

import time

import pytest

from util import NOT_INTEGER, arity, err, info, wait_until

FAR = 4_000_000_000  # a unix time in 2096


def test_expire_and_ttl(raw):
    raw.execute("SET", "k", "v")
    assert raw.execute("TTL", "k") == -1
    assert raw.execute("PTTL", "k") == -1
    assert raw.execute("EXPIRE", "k", "1000") == 1
    assert 990 <= raw.execute("TTL", "k") <= 1000
    assert 990_000 <= raw.execute("PTTL", "k") <= 1_000_000
    assert raw.execute("PEXPIRE", "k", "500000") == 1
    assert 490 <= raw.execute("TTL", "k") <= 500
    assert 490_000 <= raw.execute("PTTL", "k") <= 500_000


def test_missing_key(raw):
    for cmd in ("TTL", "PTTL", "EXPIRETIME", "PEXPIRETIME"):
        assert raw.execute(cmd, "nokey") == -2
    for cmd in ("EXPIRE", "PEXPIRE", "EXPIREAT", "PEXPIREAT"):
        assert raw.execute(cmd, "nokey", "100") == 0
    assert raw.execute("PERSIST", "nokey") == 0
    assert raw.execute("EXISTS", "nokey") == 0


def test_expireat_and_expiretime(raw):
    raw.execute("SET", "k", "v")
    assert raw.execute("EXPIRETIME", "k") == -1
    assert raw.execute("PEXPIRETIME", "k") == -1
    assert raw.execute("EXPIREAT", "k", FAR) == 1
    assert raw.execute("EXPIRETIME", "k") == FAR
    assert raw.execute("PEXPIRETIME", "k") == FAR * 1000
    assert raw.execute("PEXPIREAT", "k", FAR * 1000 + 123) == 1
    assert raw.execute("PEXPIRETIME", "k") == FAR * 1000 + 123
    assert raw.execute("EXPIRETIME", "k") == FAR
    now = int(time.time())
    assert FAR - now - 10 <= raw.execute("TTL", "k") <= FAR - now + 10


@pytest.mark.parametrize("cmd,arg", [("EXPIRE", "0"), ("EXPIRE", "-5"), ("PEXPIRE", "0"),
                                     ("PEXPIRE", "-1"), ("EXPIREAT", "1"),
                                     ("PEXPIREAT", "1000"), ("PEXPIREAT", "-1")])
def test_expire_in_the_past_deletes(raw, cmd, arg):
    raw.execute("SET", "k", "v")
    assert raw.execute(cmd, "k", arg) == 1
    assert raw.execute("EXISTS", "k") == 0
    assert raw.execute("TTL", "k") == -2


def test_persist(raw):
    raw.execute("SET", "k", "v", "EX", "1000")
    assert raw.execute("PERSIST", "k") == 1
    assert raw.execute("TTL", "k") == -1
    assert raw.execute("PERSIST", "k") == 0
    assert raw.execute("GET", "k") == b"v"


def test_nx_xx_gt_lt(raw):
    raw.execute("SET", "a", "1")
    assert raw.execute("EXPIRE", "a", "100", "XX") == 0  # no TTL yet
    assert raw.execute("EXPIRE", "a", "100", "GT") == 0  # no TTL counts as infinite
    assert raw.execute("TTL", "a") == -1
    assert raw.execute("EXPIRE", "a", "100", "NX") == 1
    assert raw.execute("EXPIRE", "a", "200", "NX") == 0
    assert 90 <= raw.execute("TTL", "a") <= 100
    assert raw.execute("EXPIRE", "a", "50", "GT") == 0
    assert raw.execute("EXPIRE", "a", "500", "GT") == 1
    assert 490 <= raw.execute("TTL", "a") <= 500
    assert raw.execute("EXPIRE", "a", "1000", "LT") == 0
    assert raw.execute("EXPIRE", "a", "50", "LT") == 1
    assert raw.execute("EXPIRE", "a", "10", "XX") == 1
    assert 5 <= raw.execute("TTL", "a") <= 10
    assert raw.execute("EXPIRE", "a", "5", "XX", "GT") == 0
    assert raw.execute("EXPIRE", "a", "100", "XX", "GT") == 1
    assert raw.execute("EXPIRE", "a", "100", "LT", "LT") == 0
    raw.execute("SET", "b", "1")
    assert raw.execute("EXPIRE", "b", "100", "LT") == 1  # no TTL counts as infinite
    assert 90 <= raw.execute("TTL", "b") <= 100


def test_nx_xx_gt_lt_on_other_forms(raw):
    raw.execute("SET", "k", "v")
    assert raw.execute("PEXPIRE", "k", "100000", "NX") == 1
    assert raw.execute("PEXPIRE", "k", "200000", "NX") == 0
    assert raw.execute("EXPIREAT", "k", FAR, "GT") == 1
    assert raw.execute("EXPIREAT", "k", FAR - 1, "GT") == 0
    assert raw.execute("PEXPIREAT", "k", FAR * 1000 - 1, "LT") == 1
    assert raw.execute("PEXPIRETIME", "k") == FAR * 1000 - 1
    assert raw.execute("PEXPIREAT", "k", FAR * 1000 + 5, "XX") == 1
    assert raw.execute("PEXPIRETIME", "k") == FAR * 1000 + 5


def test_lt_with_past_time_deletes(raw):
    raw.execute("SET", "b", "1")
    assert raw.execute("EXPIRE", "b", "-1", "LT") == 1
    assert raw.execute("EXISTS", "b") == 0


def test_option_errors(raw):
    raw.execute("SET", "a", "1")
    both = "ERR NX and XX, GT or LT options at the same time are not compatible"
    assert raw.execute("EXPIRE", "a", "10", "NX", "XX") == err(both)
    assert raw.execute("EXPIRE", "a", "10", "NX", "GT") == err(both)
    assert raw.execute("PEXPIRE", "a", "10", "LT", "NX") == err(both)
    assert raw.execute("EXPIRE", "a", "10", "GT", "LT") == err(
        "ERR GT and LT options at the same time are not compatible")
    assert raw.execute("EXPIRE", "a", "10", "FOO") == err("ERR Unsupported option FOO")
    assert raw.execute("EXPIRE", "a", "1", "2") == err("ERR Unsupported option 2")
    assert raw.execute("EXPIRE", "a", "x") == NOT_INTEGER
    assert raw.execute("PEXPIRE", "a", "1.5") == NOT_INTEGER
    assert raw.execute("EXPIRE", "a") == arity("expire")
    assert raw.execute("TTL") == arity("ttl")
    assert raw.execute("PERSIST", "a", "b") == arity("persist")
    assert raw.execute("TTL", "a") == -1, "failed commands change nothing"


@pytest.mark.parametrize("cmd,value", [
    ("expire", "9223372036854775807"), ("expire", "92233720368547758"),
    ("expire", "-9223372036854775808"), ("pexpire", "9223372036854775807"),
    ("expireat", "9223372036854775807"),
])
def test_invalid_expire_time(raw, cmd, value):
    raw.execute("SET", "a", "1")
    assert raw.execute(cmd.upper(), "a", value) == err(
        "ERR invalid expire time in '%s' command" % cmd)
    assert raw.execute("TTL", "a") == -1


def test_ttl_kept_and_cleared(raw):
    raw.execute("SET", "k", "1", "EX", "1000")
    raw.execute("INCR", "k")
    assert raw.execute("TTL", "k") > 0, "INCR keeps the TTL"
    raw.execute("APPEND", "k", "0")
    assert raw.execute("TTL", "k") > 0, "APPEND keeps the TTL"
    raw.execute("SET", "k", "2", "KEEPTTL")
    assert raw.execute("TTL", "k") > 0
    raw.execute("SET", "k", "3")
    assert raw.execute("TTL", "k") == -1, "SET clears the TTL"
    raw.execute("SET", "k", "1", "EX", "1000")
    raw.execute("GETDEL", "k")
    raw.execute("SET", "k", "1")
    assert raw.execute("TTL", "k") == -1, "a recreated key has no TTL"


def test_expired_keys_are_invisible(raw):
    raw.execute("SET", "live", "v")
    for k in ("e1", "e2", "e3", "e4", "e5", "e6", "e7", "e8"):
        raw.execute("SET", k, "5", "PX", "10")
    time.sleep(0.2)  # longer than the TTL: they are expired now
    assert raw.execute("GET", "e1") is None
    assert raw.execute("EXISTS", "e2", "e3") == 0
    assert raw.execute("TTL", "e4") == -2
    assert raw.execute("PTTL", "e4") == -2
    assert raw.execute("TYPE", "e5") == b"none"
    assert raw.execute("STRLEN", "e6") == 0
    assert raw.execute("INCR", "e7") == 1
    assert raw.execute("TTL", "e7") == -1
    assert raw.execute("SET", "e8", "new", "NX") == b"OK"
    assert sorted(raw.execute("KEYS", "*")) == [b"e7", b"e8", b"live"]
    cursor, keys = raw.execute("SCAN", "0", "COUNT", "1000")
    assert cursor == b"0" and sorted(keys) == [b"e7", b"e8", b"live"]


def test_expired_key_invisible_to_key_commands(raw):
    for k in ("a", "b", "c", "d", "e"):
        raw.execute("SET", k, "v", "PX", "10")
    time.sleep(0.2)
    assert raw.execute("RENAME", "a", "x") == err("ERR no such key")
    assert raw.execute("COPY", "b", "x") == 0
    assert raw.execute("MOVE", "c", "1") == 0
    assert raw.execute("PERSIST", "d") == 0
    assert raw.execute("EXPIRE", "e", "100") == 0
    assert raw.execute("RANDOMKEY") is None
    assert raw.execute("MGET", "a", "b", "c") == [None, None, None]
    assert raw.execute("DEL", "a", "b", "c", "d", "e") == 0
    assert raw.execute("EXISTS", "x") == 0


def test_set_with_past_exat_pxat_deletes(raw):
    raw.execute("SET", "k", "old")
    assert raw.execute("SET", "k", "v", "EXAT", "1") == b"OK"
    assert raw.execute("EXISTS", "k") == 0
    assert raw.execute("SET", "k", "v", "PXAT", "1") == b"OK"
    assert raw.execute("EXISTS", "k") == 0


def test_active_expiry_reclaims_unread_keys(raw):
    raw.pipeline([("SET", "tmp:%d" % i, "x" * 20, "PX", "100") for i in range(1000)])
    raw.pipeline([("SET", "keep:%d" % i, "v") for i in range(10)])
    time.sleep(0.2)
    # Only DBSIZE and INFO from now on: nothing reads the keys themselves.
    wait_until(lambda: raw.execute("DBSIZE") == 10, timeout=15,
               message="active expiry did not reclaim 1000 expired keys")
    ks = info(raw, "keyspace")
    assert ks["db0"]["keys"] == "10"
    assert ks["db0"]["expires"] == "0"


def test_active_expiry_in_other_databases(raw):
    raw.execute("SELECT", "3")
    raw.pipeline([("SET", "t:%d" % i, "v", "PX", "50") for i in range(200)])
    time.sleep(0.1)
    wait_until(lambda: raw.execute("DBSIZE") == 0, timeout=15,
               message="active expiry did not reclaim keys in db 3")


def test_keyspace_info_counts_expires(raw):
    raw.pipeline([("SET", "p:%d" % i, "v") for i in range(7)]
                 + [("SET", "e:%d" % i, "v", "EX", "1000") for i in range(3)])
    ks = info(raw, "keyspace")
    assert ks["db0"]["keys"] == "10"
    assert ks["db0"]["expires"] == "3"
    raw.execute("PERSIST", "e:0")
    assert info(raw, "keyspace")["db0"]["expires"] == "2"
