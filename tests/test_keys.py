"""Keyspace commands: DEL UNLINK EXISTS TYPE KEYS SCAN RANDOMKEY RENAME RENAMENX COPY
MOVE TOUCH OBJECT MEMORY USAGE, and databases: SELECT DBSIZE FLUSHDB FLUSHALL SWAPDB."""

import threading

import pytest

from resp_client import RespClient, SimpleString
from util import NOT_INTEGER, SYNTAX, arity, err


def keys_sorted(c, pattern="*"):
    return sorted(c.execute("KEYS", pattern))


# ---------------------------------------------------------------------------
# DEL UNLINK EXISTS TYPE TOUCH

@pytest.mark.parametrize("cmd", ["DEL", "UNLINK"])
def test_del_and_unlink(raw, cmd):
    raw.pipeline([("SET", "a", 1), ("SET", "b", 2), ("SET", "c", 3)])
    assert raw.execute(cmd, "a", "nokey") == 1
    assert raw.execute(cmd, "b", "c", "b") == 2
    assert raw.execute(cmd, "a") == 0
    assert raw.execute("DBSIZE") == 0
    assert raw.execute(cmd) == arity(cmd.lower())


def test_exists_counts_repeats(raw):
    raw.execute("SET", "a", "1")
    assert raw.execute("EXISTS", "a") == 1
    assert raw.execute("EXISTS", "nokey") == 0
    assert raw.execute("EXISTS", "a", "a", "nokey", "a") == 3
    assert raw.execute("EXISTS") == arity("exists")


def test_type(raw):
    raw.execute("SET", "s", "v")
    assert raw.execute_raw("TYPE", "s") == (b"string", b"+string\r\n")
    assert raw.execute_raw("TYPE", "nokey") == (b"none", b"+none\r\n")
    assert isinstance(raw.execute("TYPE", "s"), SimpleString)


def test_touch(raw):
    raw.pipeline([("SET", "a", 1), ("SET", "b", 2)])
    assert raw.execute("TOUCH", "a", "b", "nokey") == 2
    assert raw.execute("TOUCH", "a", "a") == 2
    assert raw.execute("TOUCH") == arity("touch")


# ---------------------------------------------------------------------------
# KEYS

GLOB_KEYS = [b"hello", b"hallo", b"hxllo", b"hllo", b"heeeello", b"h*llo", b"a[b",
             b"x?y", b"foo:1", b"foo:2", b"foo:10", b"bar"]


@pytest.mark.parametrize("pattern,expected", [
    (b"*", GLOB_KEYS),
    (b"h?llo", [b"hello", b"hallo", b"hxllo", b"h*llo"]),
    (b"h*llo", [b"hello", b"hallo", b"hxllo", b"hllo", b"heeeello", b"h*llo"]),
    (b"h[ae]llo", [b"hello", b"hallo"]),
    (b"h[^e]llo", [b"hallo", b"hxllo", b"h*llo"]),
    (b"h[a-e]llo", [b"hello", b"hallo"]),
    (b"h\\*llo", [b"h*llo"]),
    (b"a\\[b", [b"a[b"]),
    (b"x\\?y", [b"x?y"]),
    (b"foo:?", [b"foo:1", b"foo:2"]),
    (b"foo:*", [b"foo:1", b"foo:2", b"foo:10"]),
    (b"nomatch*", []),
    (b"bar", [b"bar"]),
    (b"*o", [b"hello", b"hallo", b"hxllo", b"hllo", b"heeeello", b"h*llo"]),
])
def test_keys_glob(raw, pattern, expected):
    raw.pipeline([("SET", k, "v") for k in GLOB_KEYS])
    assert keys_sorted(raw, pattern) == sorted(expected)


def test_keys_only_current_db(raw):
    raw.execute("SET", "in0", "v")
    raw.execute("SELECT", "1")
    raw.execute("SET", "in1", "v")
    assert raw.execute("KEYS", "*") == [b"in1"]
    raw.execute("SELECT", "0")
    assert raw.execute("KEYS", "*") == [b"in0"]


# ---------------------------------------------------------------------------
# SCAN

def scan_all(c, *opts):
    cursor = b"0"
    seen = []
    rounds = 0
    while True:
        reply = c.execute("SCAN", cursor, *opts)
        assert isinstance(reply, list) and len(reply) == 2, reply
        cursor, keys = reply
        assert isinstance(cursor, bytes)
        seen.extend(keys)
        rounds += 1
        assert rounds < 100_000
        if cursor == b"0":
            return seen, rounds


def test_scan_full_iteration(raw):
    raw.pipeline([("SET", "key:%d" % i, i) for i in range(1000)])
    seen, rounds = scan_all(raw, "COUNT", 10)
    assert set(seen) == {b"key:%d" % i for i in range(1000)}
    assert rounds > 1, "COUNT 10 over 1000 keys must take several calls"


def test_scan_match_and_type(raw):
    raw.pipeline([("SET", "user:%d" % i, i) for i in range(200)]
                 + [("SET", "other:%d" % i, i) for i in range(200)])
    seen, _ = scan_all(raw, "MATCH", "user:1*", "COUNT", 7)
    assert set(seen) == {b"user:%d" % i for i in range(200) if str(i).startswith("1")}
    seen, _ = scan_all(raw, "TYPE", "string", "COUNT", 50)
    assert len(set(seen)) == 400
    seen, _ = scan_all(raw, "TYPE", "zset")
    assert seen == []
    seen, _ = scan_all(raw, "TYPE", "nosuchtype")
    assert seen == []


def test_scan_empty_db(raw):
    assert raw.execute("SCAN", "0") == [b"0", []]


def test_scan_errors(raw):
    assert raw.execute("SCAN", "x") == err("ERR invalid cursor")
    assert raw.execute("SCAN", "18446744073709551616") == err("ERR invalid cursor")
    assert raw.execute("SCAN", "0", "COUNT", "0") == SYNTAX
    assert raw.execute("SCAN", "0", "COUNT", "-1") == SYNTAX
    assert raw.execute("SCAN", "0", "COUNT", "a") == NOT_INTEGER
    assert raw.execute("SCAN", "0", "FOO") == SYNTAX
    assert raw.execute("SCAN", "0", "MATCH") == SYNTAX
    assert raw.execute("SCAN") == arity("scan")


def test_scan_guarantee_under_concurrent_writes(server, raw):
    """Every key present for the whole iteration is returned, while another client
    adds and removes other keys (forcing resizes)."""
    stable = {b"stable:%d" % i for i in range(2000)}
    raw.pipeline([("SET", k, "v") for k in stable])
    raw.pipeline([("SET", "tmp:%d" % i, "v") for i in range(2000)])
    stop = threading.Event()

    def churn():
        with RespClient(server.host, server.port) as c:
            i = 0
            while not stop.is_set() and i < 20_000:
                c.pipeline([("SET", "new:%d" % (i + j), "v") for j in range(100)]
                           + [("DEL", "tmp:%d" % ((i + j) % 2000)) for j in range(100)])
                i += 100

    t = threading.Thread(target=churn)
    t.start()
    try:
        seen, _ = scan_all(raw, "COUNT", 20)
    finally:
        stop.set()
        t.join(60)
    missing = stable - set(seen)
    assert not missing, "SCAN missed %d stable keys, e.g. %r" % (len(missing), sorted(missing)[:5])


# ---------------------------------------------------------------------------
# RANDOMKEY

def test_randomkey(raw):
    assert raw.execute_raw("RANDOMKEY")[1] == b"$-1\r\n"
    raw.execute("SET", "only", "v")
    assert raw.execute("RANDOMKEY") == b"only"
    raw.pipeline([("SET", "k%d" % i, i) for i in range(20)])
    keys = set(raw.execute("KEYS", "*"))
    got = {raw.execute("RANDOMKEY") for _ in range(200)}
    assert got <= keys
    assert len(got) > 1


# ---------------------------------------------------------------------------
# RENAME RENAMENX

def test_rename(raw):
    raw.execute("SET", "a", "1")
    assert raw.execute("RENAME", "a", "b") == b"OK"
    assert raw.execute("EXISTS", "a") == 0
    assert raw.execute("GET", "b") == b"1"
    raw.execute("SET", "c", "3")
    assert raw.execute("RENAME", "b", "c") == b"OK"  # overwrites
    assert raw.execute("GET", "c") == b"1"
    assert raw.execute("RENAME", "c", "c") == b"OK"
    assert raw.execute("GET", "c") == b"1"
    assert raw.execute("RENAME", "nokey", "x") == err("ERR no such key")
    assert raw.execute("RENAME", "c") == arity("rename")


def test_rename_moves_ttl_and_overwrites_ttl(raw):
    raw.execute("SET", "a", "1", "EX", "1000")
    raw.execute("SET", "b", "2", "EX", "2000")
    raw.execute("RENAME", "a", "b")
    assert 900 < raw.execute("TTL", "b") <= 1000
    raw.execute("SET", "p", "persistent")
    raw.execute("SET", "e", "1", "EX", "1000")
    raw.execute("RENAME", "p", "e")
    assert raw.execute("TTL", "e") == -1


def test_renamenx(raw):
    raw.execute("SET", "a", "1")
    raw.execute("SET", "b", "2")
    assert raw.execute("RENAMENX", "a", "b") == 0
    assert raw.execute("GET", "a") == b"1"
    assert raw.execute("RENAMENX", "a", "c") == 1
    assert raw.execute("GET", "c") == b"1"
    assert raw.execute("RENAMENX", "c", "c") == 0
    assert raw.execute("RENAMENX", "nokey", "d") == err("ERR no such key")


# ---------------------------------------------------------------------------
# COPY MOVE

def test_copy(raw):
    raw.execute("SET", "src", "hello", "EX", "1000")
    assert raw.execute("COPY", "src", "dst") == 1
    assert raw.execute("GET", "dst") == b"hello"
    assert 900 < raw.execute("TTL", "dst") <= 1000
    raw.execute("APPEND", "src", " world")
    assert raw.execute("GET", "dst") == b"hello", "the copy is independent"
    assert raw.execute("COPY", "src", "dst") == 0
    assert raw.execute("GET", "dst") == b"hello"
    assert raw.execute("COPY", "src", "dst", "REPLACE") == 1
    assert raw.execute("GET", "dst") == b"hello world"
    assert raw.execute("COPY", "nokey", "x") == 0
    assert raw.execute("EXISTS", "x") == 0


def test_copy_db(raw):
    raw.execute("SET", "k", "v")
    assert raw.execute("COPY", "k", "k", "DB", "2") == 1
    assert raw.execute("GET", "k") == b"v"
    raw.execute("SELECT", "2")
    assert raw.execute("GET", "k") == b"v"
    raw.execute("SELECT", "0")
    assert raw.execute("COPY", "k", "k", "DB", "2") == 0
    assert raw.execute("COPY", "k", "k", "DB", "2", "REPLACE") == 1


def test_copy_errors(raw):
    raw.execute("SET", "a", "1")
    assert raw.execute("COPY", "a", "a") == err("ERR source and destination objects are the same")
    assert raw.execute("COPY", "a", "b", "DB", "x") == NOT_INTEGER
    assert raw.execute("COPY", "a", "b", "DB", "16") == err("ERR DB index is out of range")
    assert raw.execute("COPY", "a", "b", "FOO") == SYNTAX
    assert raw.execute("COPY", "a") == arity("copy")


def test_move(raw):
    raw.execute("SET", "a", "1", "EX", "1000")
    assert raw.execute("MOVE", "a", "1") == 1
    assert raw.execute("EXISTS", "a") == 0
    raw.execute("SELECT", "1")
    assert raw.execute("GET", "a") == b"1"
    assert 900 < raw.execute("TTL", "a") <= 1000
    raw.execute("SELECT", "0")
    raw.execute("SET", "a", "0")
    assert raw.execute("MOVE", "a", "1") == 0, "target exists: nothing moves"
    assert raw.execute("GET", "a") == b"0"
    assert raw.execute("MOVE", "nokey", "1") == 0
    assert raw.execute("MOVE", "a", "0") == err("ERR source and destination objects are the same")
    assert raw.execute("MOVE", "a", "16") == err("ERR DB index is out of range")
    assert raw.execute("MOVE", "a", "x") == NOT_INTEGER


# ---------------------------------------------------------------------------
# OBJECT MEMORY

@pytest.mark.parametrize("value,encoding", [
    (b"1", b"int"), (b"12345678901", b"int"), (b"-9223372036854775808", b"int"),
    (b"9223372036854775808", b"embstr"), (b"007", b"embstr"), (b"+1", b"embstr"),
    (b" 1", b"embstr"), (b"hello", b"embstr"), (b"x" * 44, b"embstr"), (b"x" * 45, b"raw"),
])
def test_object_encoding_strings(raw, value, encoding):
    raw.execute("SET", "k", value)
    assert raw.execute("OBJECT", "ENCODING", "k") == encoding


def test_object_encoding_after_append_and_incr(raw):
    raw.execute("SET", "k", "hi")
    raw.execute("APPEND", "k", "x")
    assert raw.execute("OBJECT", "ENCODING", "k") == b"raw"
    raw.execute("SET", "n", "10")
    raw.execute("INCR", "n")
    assert raw.execute("OBJECT", "ENCODING", "n") == b"int"
    raw.execute("INCRBYFLOAT", "f", "1.5")
    assert raw.execute("OBJECT", "ENCODING", "f") == b"embstr"


def test_object_misc(raw):
    raw.execute("SET", "k", "some value")
    assert raw.execute_raw("OBJECT", "ENCODING", "nokey")[1] == b"$-1\r\n"
    assert raw.execute_raw("OBJECT", "REFCOUNT", "nokey")[1] == b"$-1\r\n"
    assert raw.execute_raw("OBJECT", "IDLETIME", "nokey")[1] == b"$-1\r\n"
    refcount = raw.execute("OBJECT", "REFCOUNT", "k")
    assert isinstance(refcount, int) and refcount >= 1
    idle = raw.execute("OBJECT", "IDLETIME", "k")
    assert isinstance(idle, int) and idle >= 0
    assert raw.execute("OBJECT", "FOO", "k") == err("ERR unknown subcommand 'FOO'. Try OBJECT HELP.")
    assert raw.execute("OBJECT", "ENCODING", "k", "x") == arity("object|encoding")
    assert raw.execute("OBJECT") == arity("object")


def test_object_freq_requires_lfu(raw):
    raw.execute("SET", "k", "v")
    assert raw.execute("OBJECT", "FREQ", "k") == err(
        "ERR An LFU maxmemory policy is not selected, access frequency not tracked. Please "
        "note that when switching between policies at runtime LRU and LFU data will take "
        "some time to adjust.")


def test_object_help(raw):
    reply = raw.execute("OBJECT", "HELP")
    assert isinstance(reply, list) and all(isinstance(x, SimpleString) for x in reply)
    assert reply[0] == b"OBJECT <subcommand> [<arg> [value] [opt] ...]. Subcommands are:"
    text = b"\n".join(reply)
    for sub in (b"ENCODING <key>", b"FREQ <key>", b"IDLETIME <key>", b"REFCOUNT <key>", b"HELP"):
        assert sub in text


def test_memory_usage(raw):
    raw.execute("SET", "k", "x" * 1000)
    usage = raw.execute("MEMORY", "USAGE", "k")
    assert isinstance(usage, int) and usage >= 1000
    assert raw.execute_raw("MEMORY", "USAGE", "nokey")[1] == b"$-1\r\n"


# ---------------------------------------------------------------------------
# Databases

def test_select_isolates_databases(raw):
    raw.execute("SET", "k", "db0")
    assert raw.execute("SELECT", "5") == b"OK"
    assert raw.execute_raw("GET", "k")[1] == b"$-1\r\n"
    raw.execute("SET", "k", "db5")
    assert raw.execute("SELECT", "15") == b"OK"
    assert raw.execute("DBSIZE") == 0
    raw.execute("SELECT", "0")
    assert raw.execute("GET", "k") == b"db0"
    raw.execute("SELECT", "5")
    assert raw.execute("GET", "k") == b"db5"


def test_select_errors(raw):
    assert raw.execute("SELECT", "16") == err("ERR DB index is out of range")
    assert raw.execute("SELECT", "-1") == err("ERR DB index is out of range")
    assert raw.execute("SELECT", "a") == NOT_INTEGER
    assert raw.execute("SELECT", "0", "1") == arity("select")


def test_databases_option(server_factory):
    srv = server_factory(["--databases", "4"])
    with srv.raw() as c:
        assert c.execute("SELECT", "3") == b"OK"
        assert c.execute("SELECT", "4") == err("ERR DB index is out of range")


def test_dbsize_flushdb_flushall(raw):
    raw.pipeline([("SET", "k%d" % i, i) for i in range(10)])
    assert raw.execute("DBSIZE") == 10
    raw.execute("SELECT", "1")
    raw.pipeline([("SET", "k%d" % i, i) for i in range(5)])
    assert raw.execute("DBSIZE") == 5
    assert raw.execute("FLUSHDB") == b"OK"
    assert raw.execute("DBSIZE") == 0
    raw.execute("SELECT", "0")
    assert raw.execute("DBSIZE") == 10
    raw.execute("SELECT", "2")
    raw.execute("SET", "x", "1")
    assert raw.execute("FLUSHALL") == b"OK"
    assert raw.execute("DBSIZE") == 0
    raw.execute("SELECT", "0")
    assert raw.execute("DBSIZE") == 0


def test_flush_async_sync_options(raw):
    raw.execute("SET", "a", "1")
    assert raw.execute("FLUSHDB", "ASYNC") == b"OK"
    raw.execute("SET", "a", "1")
    assert raw.execute("FLUSHDB", "SYNC") == b"OK"
    assert raw.execute("FLUSHALL", "SYNC") == b"OK"
    assert raw.execute("FLUSHALL", "ASYNC") == b"OK"
    assert raw.execute("DBSIZE") == 0
    assert raw.execute("FLUSHDB", "FOO") == SYNTAX
    assert raw.execute("FLUSHALL", "FOO") == SYNTAX
    assert raw.execute("DBSIZE", "x") == arity("dbsize")


def test_swapdb(server, raw):
    raw.execute("SET", "k", "zero")
    raw.execute("SELECT", "1")
    raw.execute("SET", "k", "one")
    raw.execute("SET", "only1", "x")
    with RespClient(server.host, server.port) as other:
        other.execute("SELECT", "1")
        assert raw.execute("SWAPDB", "0", "1") == b"OK"
        # Connections stay on their db number and see the swapped data.
        assert other.execute("GET", "k") == b"zero"
        assert raw.execute("GET", "k") == b"zero"
        assert raw.execute("DBSIZE") == 1
        raw.execute("SELECT", "0")
        assert raw.execute("GET", "k") == b"one"
        assert raw.execute("DBSIZE") == 2
    assert raw.execute("SWAPDB", "0", "0") == b"OK"
    assert raw.execute("GET", "k") == b"one"


def test_swapdb_errors(raw):
    assert raw.execute("SWAPDB", "0", "16") == err("ERR DB index is out of range")
    assert raw.execute("SWAPDB", "a", "1") == err("ERR invalid first DB index")
    assert raw.execute("SWAPDB", "1", "b") == err("ERR invalid second DB index")
    assert raw.execute("SWAPDB", "0") == arity("swapdb")


def test_redis_py_basics(r):
    """The same through redis-py, as applications use it."""
    r.mset({"a": 1, "b": 2})
    assert r.exists("a", "b", "c") == 2
    assert sorted(r.keys("*")) == [b"a", b"b"]
    assert r.type("a") == b"string"
    assert r.rename("a", "c") is True
    assert r.get("c") == b"1"
    assert sorted(r.scan_iter(match="*")) == [b"b", b"c"]
    assert r.dbsize() == 2
    assert r.delete("b", "c") == 2
