"""Board channels (issue 33, docs/leaderboards.md "Board channels"): a plain SUBSCRIBE
to __lbtop@<db>[:<n>[:<mode>]]__:<key> follows a board's top rows as standard pub/sub
"message" frames whose payload is JSON, so redis-py's PubSub and ioredis's "message"
handler receive them as they are, in RESP2 and RESP3.

Every payload is compared with LB.TOP at that moment. No timing assertions: a test
waits for the message it expects.
"""

import json
import time

import pytest

from resp_client import RespClient, resp3_client
from server_process import target_is_redis
from test_pubsub import read_push

pytestmark = pytest.mark.skipif(target_is_redis(), reason="board channels are rankd's own")


def rows_of(c, key, n, *opts):
    """LB.TOP's rows as the JSON payload shows them: [rank, member, score]."""
    return [[rank, m.decode(), float(s)] for rank, m, s in c.execute("LB.TOP", key, n, *opts)]


def next_message(ps, timeout=5.0):
    """The next "message" a redis-py PubSub receives (confirmations skipped)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        m = ps.get_message(ignore_subscribe_messages=True, timeout=0.2)
        if m:
            return m
    raise AssertionError("no message within %.1f s" % timeout)


@pytest.fixture
def board(raw):
    raw.execute("LB.CREATE", "players")
    raw.execute("LB.ADD", "players", "120", "p1", "90", "p2", "70", "p3")
    return raw


def test_redis_py_pubsub_receives_snapshot_and_updates(server, board):
    r = server.client()
    ps = r.pubsub()
    try:
        ps.subscribe("__lbtop@0:2__:players")
        m = next_message(ps)
        assert m["type"] == "message" and m["channel"] == b"__lbtop@0:2__:players"
        assert json.loads(m["data"]) == [[1, "p1", 120], [2, "p2", 90]]
        board.execute("LB.ADD", "players", "100", "p3")
        m = next_message(ps)
        assert json.loads(m["data"]) == rows_of(board, "players", 2) == [[1, "p1", 120],
                                                                         [2, "p3", 100]]
        # A write below the top sends nothing: the next message is the next change.
        board.execute("LB.ADD", "players", "1", "low")
        board.execute("LB.ADD", "players", "500", "p2")
        m = next_message(ps)
        assert json.loads(m["data"]) == rows_of(board, "players", 2)
        # Deleting the key empties the top.
        board.execute("DEL", "players")
        assert json.loads(next_message(ps)["data"]) == []
    finally:
        ps.close()
        r.close()


def test_defaults_modes_and_resp3_push(server, board):
    board.execute("LB.ADD", "players", "90", "p4")
    w = resp3_client(server.port)
    try:
        w.send_command("SUBSCRIBE", "__lbtop@0__:players", "__lbtop@0:3:competition__:players")
        assert read_push(w) == [b"subscribe", b"__lbtop@0__:players", 1]
        assert read_push(w) == [b"subscribe", b"__lbtop@0:3:competition__:players", 2]
        got = {}
        for _ in range(2):
            kind, ch, payload = read_push(w)
            assert kind == b"message"
            got[ch] = json.loads(payload)
        assert got[b"__lbtop@0__:players"] == rows_of(board, "players", 10)
        assert got[b"__lbtop@0:3:competition__:players"] == \
            [[1, "p1", 120], [2, "p2", 90], [2, "p4", 90]]
        # A RESP3 subscriber runs any command between messages.
        assert w.execute("LB.ADD", "players", "95", "p4") == [[95.0, 2, 3]]
        msgs = {}
        while len(msgs) < 2:
            kind, ch, payload = read_push(w)
            msgs[ch] = json.loads(payload)
        assert msgs[b"__lbtop@0:3:competition__:players"] == \
            rows_of(board, "players", 3, "MODE", "COMPETITION")
    finally:
        w.close()


def test_pattern_subscribers_and_many_subscribers_share_one_watch(server, board):
    a, b, p = server.raw(), server.raw(), server.raw()
    try:
        for c in (a, b):
            c.send_command("SUBSCRIBE", "__lbtop@0:1__:players")
            assert read_push(c)[0] == b"subscribe"
            assert json.loads(read_push(c)[2]) == [[1, "p1", 120]]
        p.send_command("PSUBSCRIBE", "__lbtop@*")
        assert read_push(p)[0] == b"psubscribe"
        info = board.execute("INFO", "leaderboards").decode()
        assert "watched_boards:1" in info and "watchers:1" in info
        board.execute("LB.ADD", "players", "200", "p9")
        for c in (a, b):
            assert json.loads(read_push(c)[2]) == [[1, "p9", 200]]
        kind, pattern, ch, payload = read_push(p)
        assert (kind, ch, json.loads(payload)) == (b"pmessage", b"__lbtop@0:1__:players",
                                                   [[1, "p9", 200]])
        # The watch ends with the channel's last subscriber.
        a.execute("UNSUBSCRIBE")
        b.close()
        deadline = time.monotonic() + 5
        while "watchers:0" not in board.execute("INFO", "leaderboards").decode():
            assert time.monotonic() < deadline
            time.sleep(0.02)
    finally:
        for c in (a, b, p):
            c.close()


def test_json_escapes_and_infinite_scores(server, raw):
    raw.execute("ZADD", "z", "+inf", 'q"uo\\te', "-inf", "tab\tnl\n", "1.5", "é")
    s = server.raw()
    try:
        s.send_command("SUBSCRIBE", "__lbtop@0:5__:z")
        read_push(s)
        payload = read_push(s)[2]
        assert payload == (b'[[1,"q\\"uo\\\\te",1e999],[2,"\xc3\xa9",1.5],'
                           b'[3,"tab\\u0009nl\\u000a",-1e999]]')
        assert json.loads(payload)[0][2] == float("inf")
    finally:
        s.close()


@pytest.mark.parametrize("name", [
    "__lbtop@16__:k",          # no such database
    "__lbtop@0:0__:k",         # n out of range
    "__lbtop@0:1001__:k",
    "__lbtop@0:5:bogus__:k",   # unknown mode
    "__lbtop@0:5:dense:x__:k",  # too many parts
    "__lbtop@0",               # no key mark
    "lbtop@0__:k",
])
def test_other_names_are_plain_channels(server, raw, name):
    raw.execute("LB.ADD", "k", "1", "m")
    s = server.raw()
    try:
        s.send_command("SUBSCRIBE", name)
        assert read_push(s)[0] == b"subscribe"
        assert raw.execute("PUBLISH", name, "hello") == 1
        assert read_push(s) == [b"message", name.encode(), b"hello"]
        assert "watchers:0" in raw.execute("INFO", "leaderboards").decode()
    finally:
        s.close()


def test_other_database_and_missing_key(server, raw):
    s = server.raw()
    try:
        s.send_command("SUBSCRIBE", "__lbtop@3:2__:later")
        read_push(s)
        assert read_push(s)[2] == b"[]"
        raw.execute("SELECT", "3")
        raw.execute("LB.ADD", "later", "7", "x")
        assert json.loads(read_push(s)[2]) == [[1, "x", 7]]
    finally:
        raw.execute("FLUSHALL")
        s.close()
