"""Empty leaderboards (issue 18): a board made by LB.CREATE has no members, a
state Redis never has (it deletes a sorted set with its last member).

Every Z* command reads an empty board exactly as Redis reads a missing key:
each reader below gets the same raw bytes, in RESP2 and RESP3, for the empty
board and for a key that does not exist. Writes that change nothing leave the
board (and its policy) alone; LB.* reads see the board; a board emptied by a
removal is deleted, as docs/leaderboards.md says. (Restarts keeping empty
boards: test_leaderboard.py.)
"""

import pytest

from resp_client import RespClient, resp3_client
from server_process import target_is_redis

pytestmark = pytest.mark.skipif(target_is_redis(), reason="LB.* is rankd's own family")

# "K" stands for the key under test: the empty board, then a missing key.
READERS = [
    "ZRANDMEMBER K", "ZRANDMEMBER K 1", "ZRANDMEMBER K 3", "ZRANDMEMBER K -3",
    "ZRANDMEMBER K 3 WITHSCORES", "ZRANDMEMBER K -3 WITHSCORES", "ZRANDMEMBER K 0",
    "ZCARD K", "ZSCORE K a", "ZMSCORE K a b", "ZRANK K a", "ZREVRANK K a",
    "ZRANK K a WITHSCORE", "ZCOUNT K -inf +inf", "ZLEXCOUNT K - +",
    "ZRANGE K 0 -1", "ZRANGE K 0 -1 WITHSCORES", "ZRANGE K (1 +inf BYSCORE LIMIT 0 5",
    "ZRANGE K - + BYLEX REV", "ZREVRANGE K 0 -1", "ZRANGEBYSCORE K -inf +inf",
    "ZREVRANGEBYSCORE K +inf -inf WITHSCORES", "ZRANGEBYLEX K - +", "ZREVRANGEBYLEX K + -",
    "ZSCAN K 0", "ZSCAN K 0 MATCH * COUNT 5", "ZUNION 1 K", "ZUNION 2 K K WITHSCORES",
    "ZINTER 1 K", "ZDIFF 1 K", "ZINTERCARD 1 K", "ZINTERCARD 1 K LIMIT 3",
    "ZPOPMIN K", "ZPOPMAX K 3", "ZMPOP 1 K MIN", "ZMPOP 1 K MAX COUNT 2",
    "BZPOPMIN K 0.01", "BZPOPMAX K 0.01", "BZMPOP 0.01 1 K MIN",
    "ZREM K a", "ZREMRANGEBYRANK K 0 -1", "ZREMRANGEBYSCORE K -inf +inf",
    "ZREMRANGEBYLEX K - +", "ZADD K XX 1 a", "ZADD K XX INCR 1 a",
    "ZUNIONSTORE out 1 K", "ZINTERSTORE out 2 K K", "ZDIFFSTORE out 1 K",
    "ZRANGESTORE out K 0 -1", "EVAL \"return redis.call('ZRANDMEMBER', KEYS[1], -2)\" 1 K",
    "EVAL \"return redis.call('ZRANGE', KEYS[1], 0, -1)\" 1 K",
]


def _run(client, line, key):
    import shlex
    client.send_command(*[key if a == "K" else a for a in shlex.split(line)])
    return client.read_reply_raw()[1]


@pytest.mark.parametrize("resp", [2, 3])
def test_readers_see_empty_board_as_missing_key(server, resp):
    c = RespClient(port=server.port) if resp == 2 else resp3_client(server.port)
    with c:
        _run(c, "FLUSHALL", "")
        for line in READERS:
            assert _run(c, "LB.CREATE K", "board") == b"+OK\r\n"
            on_board = _run(c, line, "board")
            on_missing = _run(c, line, "missing")
            assert on_board == on_missing, line
            # Nothing above adds a member, so the board is still there, empty.
            assert _run(c, "EXISTS K", "board") == b":1\r\n", line
            assert _run(c, "ZCARD K", "board") == b":0\r\n", line
            assert _run(c, "EXISTS K", "missing") == b":0\r\n", line
            assert _run(c, "PING", "") == b"+PONG\r\n"


def test_lb_reads_on_empty_board(r):
    r.execute_command("LB.CREATE", "lb", "ORDER", "ASC", "TIES", "LAST")
    info = r.execute_command("LB.INFO", "lb")
    assert info[:6] == [b"board", 1, b"order", b"asc", b"ties", b"last"]
    assert info[6:8] == [b"size", 0]
    assert r.execute_command("LB.TOP", "lb", 3) == []
    assert r.execute_command("LB.TOP", "lb", 3, "MODE", "DENSE") == []
    assert r.execute_command("LB.RANGE", "lb", 1, 5) == []
    assert r.execute_command("LB.RANK", "lb", "a") is None
    assert r.execute_command("LB.AROUND", "lb", "a", 2) == []
    assert r.execute_command("LB.RANKS", "lb", "a", "b") in ([None, None], [])
    assert r.execute_command("LB.PERCENTILE", "lb", "a") is None
    assert r.execute_command("LB.SCOREAT", "lb", 1) is None
    assert r.execute_command("LB.SCOREAT", "lb", 1, "MODE", "DENSE") is None
    assert r.execute_command("LB.RANKFOR", "lb", 5, "MODE", "COMPETITION") == 1
    assert r.execute_command("LB.STAMP", "lb", "a") is None
    assert r.ping()


def test_key_commands_on_empty_board(r):
    r.execute_command("LB.CREATE", "lb", "ORDER", "ASC")
    assert r.type("lb") == b"zset"
    assert r.object("encoding", "lb") == b"skiplist"
    assert r.copy("lb", "copy")
    assert r.rename("copy", "copy2")
    for k in ("lb", "copy2"):
        assert r.execute_command("LB.INFO", k)[1:4:2] == [1, b"asc"]
    assert r.execute_command("DEBUG", "RELOAD") == b"OK"
    assert r.execute_command("LB.INFO", "lb")[1:4:2] == [1, b"asc"]


def test_first_write_keeps_the_policy(r):
    r.execute_command("LB.CREATE", "lb", "ORDER", "ASC", "TIES", "LAST")
    assert r.zadd("lb", {"a": 5, "b": 5}) == 2
    # ASC + LAST: the later arrival ranks first among ties.
    assert r.zrange("lb", 0, -1) == [b"b", b"a"]
    r.execute_command("LB.CREATE", "lb2")
    assert r.zincrby("lb2", 3, "x") == 3.0
    assert r.execute_command("LB.INFO", "lb2")[1] == 1


def test_blocked_pop_on_empty_board_wakes_on_add(server, r):
    r.execute_command("LB.CREATE", "lb")
    with RespClient(port=server.port) as blocked:
        blocked.send_command("BZPOPMIN", "lb", "5")
        import time
        time.sleep(0.1)
        r.zadd("lb", {"a": 1})
        assert blocked.read_reply() == [b"lb", b"a", b"1"]
    assert not r.exists("lb")  # emptied by the pop: deleted


@pytest.mark.parametrize("removal", [
    ["ZREM", "lb", "a", "b"], ["ZPOPMIN", "lb", "5"], ["ZREMRANGEBYRANK", "lb", "0", "-1"],
    ["ZREMRANGEBYSCORE", "lb", "-inf", "+inf"], ["ZMPOP", "1", "lb", "MAX", "COUNT", "9"],
])
def test_board_emptied_by_removal_is_deleted(r, removal):
    r.execute_command("LB.CREATE", "lb")
    r.execute_command("LB.ADD", "lb", 1, "a", 2, "b")
    r.execute_command(*removal)
    assert not r.exists("lb")
    assert r.execute_command("ZRANDMEMBER", "lb") is None
    assert r.execute_command("ZRANDMEMBER", "lb", -3) == []


def test_board_emptied_by_expiry(r):
    r.execute_command("LB.CREATE", "lb")
    r.pexpire("lb", 20)
    import time
    time.sleep(0.1)
    assert r.execute_command("ZRANDMEMBER", "lb", -2, "WITHSCORES") == []
    assert not r.exists("lb")
