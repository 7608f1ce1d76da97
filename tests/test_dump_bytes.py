"""DUMP payloads byte for byte redis-server 7.0.15's, wherever Redis's own are
deterministic: strings (LZF-compressed above 20 bytes when that saves 4, as
rdbSaveRawString, with rdbcompression yes; plain with no), members, fields, listpacks,
intsets and sorted sets in ZSET_2; lists pushed at the tail, with quicklist nodes closed
where Redis closes them for every list-max-listpack-size (negative sizes, counts, the
8 KB safety limit, elements bigger than a node). Each payload is also RESTOREd on the
other server and must read back the same value.

Not compared: plain sets and hashes (Redis writes them in hash-table order) and lists
Redis built otherwise (pushes at the head, inserts). Valid with RANKD_TARGET_REDIS=1."""

import random

import pytest


@pytest.fixture
def pair(r, redis_ref):
    ref = redis_ref.client()
    ref.flushall()
    yield r, ref
    for c in (r, ref):
        c.config_set("rdbcompression", "yes")
        c.config_set("list-max-listpack-size", -2)
    ref.flushall()


def both(pair, *cmd):
    return [c.execute_command(*cmd) for c in pair]


def assert_same_dump(pair, key):
    ours, theirs = both(pair, "DUMP", key)
    assert ours == theirs, (key, len(ours), len(theirs), ours[:48].hex(), theirs[:48].hex())
    # Each reads the other's payload back to the same value.
    for c, p in zip(pair, (theirs, ours)):
        assert c.execute_command("RESTORE", key + ":back", 0, p) == b"OK"
        assert c.execute_command("DUMP", key + ":back") == p
        c.delete(key + ":back")


RNG = random.Random(7)
STRINGS = (["a" * n for n in (19, 20, 21, 22, 24, 25, 100, 1000, 70000)] +
           ["abcd" * k for k in (5, 6, 7, 300)] +
           ["".join(RNG.choice("ab") for _ in range(n)) for n in (21, 24, 30, 64, 200, 5000)] +
           [bytes(RNG.randrange(256) for _ in range(n)) for n in (21, 25, 50, 300)] +
           ['{"user":%d,"name":"player","guild":"north"}' % i * 3 for i in range(5)] +
           ["12345678901234567890123", "-9223372036854775808", "12", "-1", "2147483648"])


@pytest.mark.parametrize("compression", ["yes", "no"])
def test_strings_members_fields_and_encodings(pair, compression):
    both(pair, "CONFIG", "SET", "rdbcompression", compression)
    for i, s in enumerate(STRINGS):
        both(pair, "SET", "s%d" % i, s)
        assert_same_dump(pair, "s%d" % i)
    both(pair, "ZADD", "z:listpack", *sum(([i, "member-%d-xxxxxxxxxxxxxx" % i] for i in range(10)), []))
    both(pair, "ZADD", "z:skiplist",
         *sum(([i * 1.5, "m%d" % i + "y" * (i % 40)] for i in range(300)), []))
    both(pair, "HSET", "h:listpack", *sum((["field%d" % i, "value" * i] for i in range(10)), []))
    both(pair, "SADD", "s:intset", *range(0, 1000, 7))
    both(pair, "SADD", "s:intset64", *[2 ** 40 + i for i in range(30)])
    for key in ("z:listpack", "z:skiplist", "h:listpack", "s:intset", "s:intset64"):
        assert_same_dump(pair, key)


LISTS = [
    (100, lambda i: "e%d" % i),
    (300, lambda i: "x" * 30 + str(i)),
    (1000, lambda i: str(i)),
    (600, lambda i: "y" * (i % 300)),
    (50, lambda i: "z" * (1000 * (i % 5))),  # elements near and past a node's limit
    (3000, lambda i: "v%05d" % i),
]


@pytest.mark.parametrize("fill", [-2, -1, -3, -4, -5, -6, 0, 1, 2, 5, 128, 1000, 40000])
def test_list_nodes_close_where_redis_closes_them(pair, fill):
    both(pair, "CONFIG", "SET", "list-max-listpack-size", fill)
    for n, make in LISTS:
        both(pair, "DEL", "l")
        items = [make(i) for i in range(n)]
        for j in range(0, n, 100):
            both(pair, "RPUSH", "l", *items[j:j + 100])
        assert_same_dump(pair, "l")


def test_list_node_boundary_at_8kb(pair):
    # Element sizes that land a node's listpack on every byte near 8192.
    for width in range(1, 40):
        both(pair, "DEL", "l")
        both(pair, "RPUSH", "l", *["q" * width + "%04d" % i for i in range(8192 // (width + 4) + 20)])
        assert_same_dump(pair, "l")
