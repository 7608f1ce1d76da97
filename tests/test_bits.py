"""Bitmaps and string ranges: SETBIT GETBIT BITCOUNT BITPOS BITOP BITFIELD BITFIELD_RO LCS,
with Redis 7.0's exact replies and limits (proto-max-bulk-len, 512 MB offsets). Every
expected reply here was taken from redis-server 7.0.15. No test allocates more than a
megabyte: the limits are checked on their boundary with a small proto-max-bulk-len."""

import pytest

from resp_client import RespError
from util import NOT_INTEGER, SYNTAX, WRONGTYPE, arity, err

BIT_OFFSET = err("ERR bit offset is not an integer or out of range")
BIT_VALUE = err("ERR bit is not an integer or out of range")
TOO_LONG = err("ERR string exceeds maximum allowed size (proto-max-bulk-len)")
BF_TYPE = err("ERR Invalid bitfield type. Use something like i16 u8. Note that u64 is not "
              "supported but i64 is.")


@pytest.fixture
def small_bulk(raw):
    """proto-max-bulk-len at its minimum (1 MB) for the duration of a test."""
    assert raw.execute("CONFIG", "SET", "proto-max-bulk-len", "1048576") == b"OK"
    yield 1048576
    raw.execute("CONFIG", "SET", "proto-max-bulk-len", "536870912")


def test_setbit_getbit(raw):
    assert raw.execute("SETBIT", "k", "7", "1") == 0
    assert raw.execute("SETBIT", "k", "7", "1") == 1
    assert raw.execute("GET", "k") == b"\x01"
    assert raw.execute("SETBIT", "k", "100", "1") == 0
    assert raw.execute("STRLEN", "k") == 13
    assert raw.execute("GETBIT", "k", "100") == 1
    assert raw.execute("GETBIT", "k", "99") == 0
    assert raw.execute("GETBIT", "k", "1000000") == 0
    assert raw.execute("GETBIT", "missing", "5") == 0
    assert raw.execute("OBJECT", "ENCODING", "k") == b"raw"
    raw.execute("SET", "n", "10")
    assert raw.execute("SETBIT", "n", "3", "1") == 1
    assert raw.execute("GET", "n") == b"10"
    assert raw.execute("OBJECT", "ENCODING", "n") == b"raw"


def test_setbit_errors_and_limits(raw, small_bulk):
    # The 512 MB limit of the default configuration: 2^32 bits.
    raw.execute("CONFIG", "SET", "proto-max-bulk-len", "536870912")
    assert raw.execute("SETBIT", "k", "4294967296", "1") == BIT_OFFSET
    assert raw.execute("GETBIT", "k", "4294967296") == BIT_OFFSET
    raw.execute("CONFIG", "SET", "proto-max-bulk-len", str(small_bulk))
    assert raw.execute("SETBIT", "k", str(small_bulk * 8), "1") == BIT_OFFSET
    assert raw.execute("SETBIT", "k", str(small_bulk * 8 - 1), "1") == 0
    assert raw.execute("STRLEN", "k") == small_bulk
    for bad in ("-1", "abc", "1.5", ""):
        assert raw.execute("SETBIT", "k", bad, "1") == BIT_OFFSET
    for bad in ("2", "-1", "x", "1.0"):
        assert raw.execute("SETBIT", "k", "1", bad) == BIT_VALUE
    raw.execute("SADD", "s", "a")
    assert raw.execute("SETBIT", "s", "1", "1") == WRONGTYPE
    assert raw.execute("GETBIT", "s", "1") == WRONGTYPE
    assert raw.execute("SETBIT", "k", "1") == arity("setbit")
    assert raw.execute("GETBIT", "k") == arity("getbit")


def test_bitcount(raw):
    raw.execute("SET", "foobar", "foobar")
    assert raw.execute("BITCOUNT", "foobar") == 26
    assert raw.execute("BITCOUNT", "foobar", "0", "0") == 4
    assert raw.execute("BITCOUNT", "foobar", "1", "1", "BYTE") == 6
    assert raw.execute("BITCOUNT", "foobar", "5", "30", "BIT") == 17
    assert raw.execute("BITCOUNT", "foobar", "-3", "-1", "bit") == 1
    assert raw.execute("BITCOUNT", "foobar", "-100", "100") == 26
    assert raw.execute("BITCOUNT", "foobar", "5", "30", "FOO") == SYNTAX
    assert raw.execute("BITCOUNT", "foobar", "-1", "-2", "FOO") == 0  # empty range first
    assert raw.execute("BITCOUNT", "foobar", "1") == SYNTAX
    assert raw.execute("BITCOUNT", "foobar", "a", "1") == NOT_INTEGER
    assert raw.execute("BITCOUNT", "missing", "a", "b") == 0  # missing key first
    raw.execute("SET", "e", "")
    assert raw.execute("BITCOUNT", "e", "0", "-1", "bit") == 0
    raw.execute("SADD", "s", "a")
    assert raw.execute("BITCOUNT", "s") == WRONGTYPE
    assert raw.execute("BITCOUNT") == arity("bitcount")


def test_bitpos(raw):
    raw.execute("SET", "k", b"\xff\xf0\x00")
    assert raw.execute("BITPOS", "k", "0") == 12
    assert raw.execute("BITPOS", "k", "1", "2") == -1
    assert raw.execute("BITPOS", "k", "1", "7", "15", "BIT") == 7
    assert raw.execute("BITPOS", "k", "0", "0", "11", "BIT") == -1
    raw.execute("SET", "ones", b"\xff")
    assert raw.execute("BITPOS", "ones", "0") == 8        # zeros follow the string
    assert raw.execute("BITPOS", "ones", "0", "0") == 8
    assert raw.execute("BITPOS", "ones", "0", "0", "-1") == -1  # not with an end
    assert raw.execute("BITPOS", "missing", "1") == -1
    assert raw.execute("BITPOS", "missing", "0", "a", "b", "c", "d") == 0
    assert raw.execute("BITPOS", "k", "2") == err("ERR The bit argument must be 1 or 0.")
    assert raw.execute("BITPOS", "k", "x") == NOT_INTEGER
    assert raw.execute("BITPOS", "k", "1", "0", "a", "FOO") == SYNTAX  # unit before end
    assert raw.execute("BITPOS", "k", "1", "0", "1", "bit", "x") == SYNTAX
    raw.execute("SET", "e", "")
    assert raw.execute("BITPOS", "e", "0") == -1


def test_bitop(raw):
    raw.execute("MSET", "a", "abc", "b", "ab")
    assert raw.execute("BITOP", "AND", "d", "a", "b") == 3
    assert raw.execute("GET", "d") == b"ab\x00"
    assert raw.execute("BITOP", "or", "d", "a", "b", "missing") == 3
    assert raw.execute("GET", "d") == b"abc"
    assert raw.execute("BITOP", "XOR", "d", "a", "b") == 3
    assert raw.execute("GET", "d") == b"\x00\x00c"
    assert raw.execute("BITOP", "NOT", "d", "a") == 3
    assert raw.execute("GET", "d") == b"\x9e\x9d\x9c"
    assert raw.execute("OBJECT", "ENCODING", "d") == b"raw"
    assert raw.execute("BITOP", "NOT", "d", "a", "b") == \
        err("ERR BITOP NOT must be called with a single source key.")
    assert raw.execute("BITOP", "FOO", "d", "a") == SYNTAX
    assert raw.execute("BITOP", "AND", "d", "missing") == 0
    assert raw.execute("EXISTS", "d") == 0
    raw.execute("SADD", "s", "x")
    assert raw.execute("BITOP", "AND", "d", "a", "s") == WRONGTYPE
    assert raw.execute("BITOP", "AND", "s", "a") == 3  # the destination may be any type
    assert raw.execute("TYPE", "s") == b"string"
    raw.execute("EXPIRE", "a", "100")
    assert raw.execute("BITOP", "OR", "a", "a") == 3
    assert raw.execute("TTL", "a") == -1
    assert raw.execute("BITOP", "NOT", "d") == arity("bitop")


def test_bitfield(raw):
    assert raw.execute("BITFIELD", "k") == []
    assert raw.execute("BITFIELD", "k", "GET", "u8", "0") == [0]
    assert raw.execute("EXISTS", "k") == 0
    assert raw.execute("BITFIELD", "k", "SET", "i8", "0", "100", "GET", "i8", "0",
                       "INCRBY", "i8", "0", "100", "GET", "u8", "0") == [0, 100, -56, 200]
    assert raw.execute("BITFIELD", "k", "OVERFLOW", "SAT", "INCRBY", "i8", "0", "100",
                       "INCRBY", "i8", "0", "-1000", "OVERFLOW", "FAIL",
                       "INCRBY", "i8", "0", "-1") == [44, -128, None]
    assert raw.execute("BITFIELD", "k", "INCRBY", "u2", "100", "1", "INCRBY", "u2", "100",
                       "3") == [1, 0]
    assert raw.execute("BITFIELD", "k", "SET", "u8", "#1", "255", "GET", "u8", "8",
                       "GET", "i64", "#0") == [0, 255, -9151595917793558528]
    assert raw.execute("BITFIELD", "new", "OVERFLOW", "FAIL", "SET", "u8", "0",
                       "999") == [None]
    assert raw.execute("GET", "new") == b"\x00"  # created even though the write failed
    for bad_type in ("u64", "i65", "i0", "I8", "x8", "", "i08"):
        assert raw.execute("BITFIELD", "k", "GET", bad_type, "0") == BF_TYPE
    for bad_offset in ("-1", "4294967296", "#536870912", "#-1", "#"):
        assert raw.execute("BITFIELD", "k", "SET", "u8", bad_offset, "1") == BIT_OFFSET
    assert raw.execute("BITFIELD", "k", "SET", "u8", "0", "abc") == NOT_INTEGER
    assert raw.execute("BITFIELD", "k", "SET", "u8", "0") == SYNTAX
    assert raw.execute("BITFIELD", "k", "OVERFLOW", "foo", "GET", "u8", "0") == \
        err("ERR Invalid OVERFLOW type specified")
    raw.execute("SADD", "s", "a")
    assert raw.execute("BITFIELD", "s", "GET", "u8", "0") == WRONGTYPE


def test_bitfield_ro(raw):
    raw.execute("SET", "k", "\x05")
    assert raw.execute("BITFIELD_RO", "k", "GET", "u8", "0", "GET", "i4", "#1") == [5, 5]
    assert raw.execute("BITFIELD_RO", "k", "OVERFLOW", "SAT", "GET", "u8", "0") == [5]
    assert raw.execute("BITFIELD_RO", "k", "SET", "u8", "0", "1") == \
        err("ERR BITFIELD_RO only supports the GET subcommand")
    assert raw.execute("BITFIELD_RO", "missing", "GET", "u8", "0") == [0]
    assert raw.execute("BITFIELD_RO") == arity("bitfield_ro")


def test_range_limits(raw, small_bulk):
    assert raw.execute("SETRANGE", "k", str(small_bulk - 1), "x") == small_bulk
    assert raw.execute("SETRANGE", "k", str(small_bulk), "x") == TOO_LONG
    assert raw.execute("SETRANGE", "k2", str(small_bulk), "") == 0
    assert raw.execute("EXISTS", "k2") == 0
    assert raw.execute("BITFIELD", "k", "SET", "u8", "#%d" % small_bulk, "1") == BIT_OFFSET
    assert raw.execute("GETRANGE", "k", "-1", "-1") == b"x"
    assert raw.execute("SUBSTR", "k", "0", "0") == b"\x00"


def test_lcs(raw):
    raw.execute("MSET", "key1", "ohmytext", "key2", "mynewtext")
    assert raw.execute("LCS", "key1", "key2") == b"mytext"
    assert raw.execute("LCS", "key1", "key2", "LEN") == 6
    assert raw.execute("LCS", "key1", "key2", "IDX") == \
        [b"matches", [[[4, 7], [5, 8]], [[2, 3], [0, 1]]], b"len", 6]
    assert raw.execute("LCS", "key1", "key2", "IDX", "MINMATCHLEN", "4", "WITHMATCHLEN") == \
        [b"matches", [[[4, 7], [5, 8], 4]], b"len", 6]
    assert raw.execute("LCS", "key1", "key2", "IDX", "LEN") == \
        err("ERR If you want both the length and indexes, please just use IDX.")
    assert raw.execute("LCS", "key1", "key2", "MINMATCHLEN") == SYNTAX
    assert raw.execute("LCS", "key1", "key2", "MINMATCHLEN", "a") == NOT_INTEGER
    assert raw.execute("LCS", "key1", "missing") == b""
    raw.execute("SADD", "s", "a")
    assert raw.execute("LCS", "key1", "s", "FOO") == \
        err("ERR The specified keys must contain string values")
    assert raw.execute("LCS", "key1") == arity("lcs")


def test_lcs_resp3_map(raw):
    raw.execute("HELLO", "3")
    raw.execute("MSET", "key1", "ohmytext", "key2", "mynewtext")
    _, data = raw.execute_raw("LCS", "key1", "key2", "IDX", "MINMATCHLEN", "4")
    assert data == (b"%2\r\n$7\r\nmatches\r\n*1\r\n*2\r\n*2\r\n:4\r\n:7\r\n*2\r\n:5\r\n:8\r\n"
                    b"$3\r\nlen\r\n:6\r\n")


def test_lcs_transient_memory_limit(raw, small_bulk):
    # (601 * 601) 32-bit cells need more than 1 MB: refused without allocating.
    raw.execute("MSET", "a", "ab" * 300, "b", "ba" * 300)
    assert raw.execute("LCS", "a", "b", "LEN") == \
        err("ERR Insufficient memory, transient memory for LCS exceeds proto-max-bulk-len")
    raw.execute("MSET", "a", "abc" * 130, "b", "bca" * 130)
    assert raw.execute("LCS", "a", "b", "LEN") == 389
