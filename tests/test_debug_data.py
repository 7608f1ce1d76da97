"""DEBUG subcommands Redis's own test suite calls about storage and replies (PROTOCOL,
QUICKLIST-PACKED-THRESHOLD, HTSTATS, HTSTATS-KEY, MALLCTL, MALLCTL-STR), INFO
latencystats with latency-tracking-info-percentiles, and BITFIELD's dirty count: each
compared with redis-server 7.0 where the reply is defined by Redis, checked against
rankd's own state where it reports rankd's internals."""

import re

import pytest

from resp_client import RespClient

PROTOCOL_TYPES = ["string", "integer", "double", "bignum", "null", "array", "set", "map",
                  "attrib", "push", "verbatim", "true", "false", "nosuchtype"]


def _hello(client, version):
    client.send_command("HELLO", str(version))
    client.read_reply_raw()


@pytest.mark.parametrize("version", [2, 3])
def test_debug_protocol_matches_redis_byte_for_byte(server, redis_ref, version):
    a = RespClient("127.0.0.1", server.port)
    b = RespClient("127.0.0.1", redis_ref.port)
    try:
        _hello(a, version)
        _hello(b, version)
        for t in PROTOCOL_TYPES:
            got, want = [], []
            for client, out in ((a, got), (b, want)):
                client.send_command("DEBUG", "PROTOCOL", t)
                out.append(client.read_reply_raw()[1])
                if version == 3 and t in ("push", "attrib") and out[0].startswith(b">"):
                    out.append(client.read_reply_raw()[1])  # the reply after the push
            assert got == want, "DEBUG PROTOCOL %s (RESP%d)" % (t, version)
    finally:
        a.close()
        b.close()


def _ql_nodes(pair_client, key):
    pair_client.send_command("DEBUG", "OBJECT", key)
    text = pair_client.read_reply_raw()[0].decode()
    return int(re.search(r"ql_nodes:(\d+)", text).group(1))


def test_quicklist_packed_threshold_stores_big_elements_alone(pair):
    for bad in ("5gb", "-1", "x"):
        pair.run("DEBUG", "QUICKLIST-PACKED-THRESHOLD", bad)
    try:
        pair.run("DEBUG", "QUICKLIST-PACKED-THRESHOLD", "100b")
        small, big = "s", "x" * 150
        for v in (small, big, small, small, big, small):
            pair.run("RPUSH", "l", v)
        pair.run("LINSERT", "l", "BEFORE", big, "y" * 200)
        pair.run("LINSERT", "l", "AFTER", small, "z" * 120)
        pair.run("LSET", "l", 3, "w" * 300)
        pair.run("LSET", "l", 1, "t")
        pair.run("LRANGE", "l", 0, -1)
        pair.run("LTRIM", "l", 1, -2)
        pair.run("LRANGE", "l", 0, -1)
        pair.run("LPOP", "l")
        pair.run("RPOP", "l")
        pair.run("LRANGE", "l", 0, -1)
        # A list of only big elements: one node each, on both servers.
        for i in range(5):
            pair.run("LPUSH", "big", "%d" % i + "b" * 200)
        assert _ql_nodes(pair.a, "big") == _ql_nodes(pair.b, "big") == 5
    finally:
        pair.run("DEBUG", "QUICKLIST-PACKED-THRESHOLD", "0")
    # Back at the default, small elements share a node again.
    for i in range(5):
        pair.run("RPUSH", "after", "x" * 200)
    assert _ql_nodes(pair.a, "after") == _ql_nodes(pair.b, "after") == 1


def test_htstats_reports_the_key_table_in_redis_layout(server, pair):
    pair.run("DEBUG", "HTSTATS", "0")  # empty: identical text
    pair.run("DEBUG", "HTSTATS", "99")
    pair.run("DEBUG", "HTSTATS", "x")
    pair.run("SADD", "ints", 1, 2, 3)
    pair.run("SET", "str", "v")
    pair.run("DEBUG", "HTSTATS-KEY", "ints")
    pair.run("DEBUG", "HTSTATS-KEY", "str")
    pair.run("DEBUG", "HTSTATS-KEY", "nokey")
    r = server.client()
    try:
        r.execute_command("SADD", "s", *["m%d" % i for i in range(100)])
        r.execute_command("HSET", "h", *[x for i in range(600) for x in ("f%d" % i, "v")])
        for key, n in (("s", 100), ("h", 600)):
            text = r.execute_command("DEBUG", "HTSTATS-KEY", key).decode()
            assert text.startswith("Hash table 0 stats (main hash table):\n")
            assert "rehashing target" not in text  # rankd resizes at once
            fields = dict(re.findall(r"^ ([a-z ()]+): ([0-9.]+)$", text, re.M))
            assert int(fields["number of elements"]) == n
            size, slots = int(fields["table size"]), int(fields["different slots"])
            assert 0 < slots <= min(size, n)
            dist = dict((int(k), int(v)) for k, v in re.findall(r"^   (\d+): (\d+) ", text, re.M))
            assert sum(dist.values()) == size
            assert sum(k * v for k, v in dist.items()) == n
            assert max(dist) == int(fields["max chain length"])
        text = r.execute_command("DEBUG", "HTSTATS", "0").decode()
        assert re.search(r"\[Dictionary HT\]\n.*\n table size: \d+\n number of elements: 4\n",
                         text)
    finally:
        r.close()


def test_mallctl_reads_jemalloc_as_redis_does(pair):
    pair.run("DEBUG", "MALLCTL", "arenas.page")
    pair.run("DEBUG", "MALLCTL", "no.such.control")
    pair.run("DEBUG", "MALLCTL-STR", "version")
    pair.run("DEBUG", "MALLCTL-STR", "thread.tcache.flush", "VOID")
    pair.run("DEBUG", "MALLCTL", "arenas.page", "x")


def _latency_line(client, cmd):
    client.send_command("INFO", "latencystats")
    info = client.read_reply_raw()[0].decode()
    m = re.search(r"^latency_percentiles_usec_%s:(.*)$" % re.escape(cmd), info, re.M)
    return m.group(1).strip() if m else ""


def test_latencystats_percentiles_setting_matches_redis(pair, server):
    pair.run("CONFIG", "SET", "latency-tracking-info-percentiles", "0.0 50.0 100.0")
    pair.run("CONFIG", "GET", "latency-tracking-info-percentiles")
    pair.run("CONFIG", "SET", "latency-tracking-info-percentiles", "10.0 50.0 a")
    pair.run("CONFIG", "SET", "latency-tracking-info-percentiles", "10 101")
    pair.run("CONFIG", "GET", "latency-tracking-info-percentiles")
    pair.run("CONFIG", "SET", "latency-tracking-info-percentiles", "50 99 99.9")
    pair.run("CONFIG", "GET", "latency-tracking-info-percentiles")
    r = RespClient("127.0.0.1", server.port)
    try:
        r.execute("CONFIG", "RESETSTAT")
        r.execute("CONFIG", "SET", "latency-tracking", "no")
        r.execute("SET", "a", "b")
        assert _latency_line(r, "set") == ""
        r.execute("CONFIG", "SET", "latency-tracking", "yes")
        r.execute("CONFIG", "SET", "latency-tracking-info-percentiles", "50")
        r.execute("DEBUG", "SLEEP", "0.05")
        r.execute("SET", "a", "b")
        line = _latency_line(r, "debug")
        p50 = float(re.fullmatch(r"p50=(\d+\.\d{3})", line).group(1))
        # The sleep's own duration, to within the histogram's 1/32 bucket width.
        assert 50000 <= p50 < 50000 * 1.1, line
        assert re.fullmatch(r"p50=\d+\.\d{3}", _latency_line(r, "set"))
        r.execute("CONFIG", "RESETSTAT")
        assert _latency_line(r, "debug") == ""
    finally:
        r.execute("CONFIG", "SET", "latency-tracking-info-percentiles", "50 99 99.9")
        r.close()


def _dirty(client):
    client.send_command("INFO", "persistence")
    info = client.read_reply_raw()[0].decode()
    return int(re.search(r"rdb_changes_since_last_save:(\d+)", info).group(1))


def test_setbit_and_bitfield_count_a_change_only_when_the_value_changes(pair):
    steps = [("SETBIT", "foo", 0, 0), ("BITFIELD", "foo2", "SET", "i5", 0, 0),
             ("SETBIT", "foo", 0, 0), ("BITFIELD", "foo2", "SET", "i5", 0, 0),
             ("BITFIELD", "foo2", "SET", "i5", 0, 3), ("BITFIELD", "foo2", "INCRBY", "u2", 100, 0),
             ("BITFIELD", "foo2", "OVERFLOW", "FAIL", "INCRBY", "u2", 0, 9),
             ("SETBIT", "foo", 0, 1)]
    for step in steps:
        before = (_dirty(pair.a), _dirty(pair.b))
        pair.run(*step)
        after = (_dirty(pair.a), _dirty(pair.b))
        assert after[0] - before[0] == after[1] - before[1], step
