"""Leaderboards (issue 7, docs/leaderboards.md) against a real rankd.

Seed 000's team leaderboard done natively (time tie-breaks, tied "1224"
ranks, the page), checked against the seed's own Lua scripts run over the
packed-score encoding; Z* commands on boards; errors; and restarts from the
log, a snapshot and a rewritten log keeping order, sequences and times.
"""

import random

import pytest
import redis

from server_process import target_is_redis
from util import seed_script, wait_until

pytestmark = pytest.mark.skipif(target_is_redis(), reason="LB.* is rankd's own family")

# Seed 000's scripts, verbatim apart from whitespace.
SEED_RANK = seed_script("seed000_rank.lua")
SEED_PAGE = seed_script("seed000_page.lua")
MAX = 2 ** 31 - 1  # the seed's Integer.MAX


def rows(reply):
    return [(int(r[0]), r[1].decode(), float(r[2])) for r in reply]


def test_seed_000_natively(r):
    assert r.execute_command("LB.CREATE", "teams") == b"OK"
    r.execute_command("LB.ADD", "teams", 5, "a", 6, "b", 1, "c", 2, "d", 10, "e")
    # The seed's increments, atomically, with the move reported.
    assert r.execute_command("LB.ADD", "teams", "INCR", 3, "d") == [[b"5", 4, 4]]
    assert r.zincrby("teams", 4, "c") == 5.0
    # Equal contribution: the team that got there first ranks first.
    assert r.zrevrange("teams", 0, -1) == [b"e", b"b", b"a", b"d", b"c"]
    assert r.execute_command("LB.RANK", "teams", "d", "MODE", "COMPETITION") == [3, b"5"]
    assert rows(r.execute_command("LB.TOP", "teams", 10, "MODE", "COMPETITION")) == [
        (1, "e", 10), (2, "b", 6), (3, "a", 5), (3, "d", 5), (3, "c", 5)]
    assert rows(r.execute_command("LB.TOP", "teams", 10, "MODE", "DENSE"))[-1] == (3, "c", 5)
    assert rows(r.execute_command("LB.RANGE", "teams", 1, 3)) == [
        (1, "e", 10), (2, "b", 6), (3, "a", 5)]


def test_matches_seed_scripts_over_packed_scores(r):
    """Random teams and increments: the board's answers are the seed's."""
    rng = random.Random(7)
    r.execute_command("LB.CREATE", "board")
    contrib = {}
    for step in range(400):
        team = "t%d" % rng.randrange(60)
        inc = rng.randrange(1, 4)
        contrib[team] = contrib.get(team, 0) + inc
        # Packed: contribution + (MAX - t) * 1e-13, t increasing (seconds).
        packed = contrib[team] + (MAX - (1_000_000 + step)) * 1e-13
        r.zadd("packed", {team: packed})
        r.execute_command("LB.ADD", "board", "INCR", inc, team)
    rank_sha = r.script_load(SEED_RANK)
    for team in contrib:
        score, rank0 = r.evalsha(rank_sha, 2, "packed", team)
        got = r.execute_command("LB.RANK", "board", team, "MODE", "COMPETITION")
        assert (int(got[0]), float(got[1])) == (rank0 + 1, score)
    import json
    page = json.loads(r.eval(SEED_PAGE, 1, "packed", 0, 9))
    top = rows(r.execute_command("LB.TOP", "board", 10, "MODE", "COMPETITION"))
    assert [(p["teamRank"], p["teamId"], p["contributionValue"]) for p in page] == top


def test_zset_commands_on_boards(r):
    r.execute_command("LB.CREATE", "asc", "ORDER", "ASC", "TIES", "LAST")
    r.execute_command("LB.ADD", "asc", 3, "x", 3, "y", 1, "z")
    assert r.type("asc") == b"zset"
    assert r.object("encoding", "asc") == b"skiplist"
    assert r.zrange("asc", 0, -1) == [b"z", b"y", b"x"]  # LAST: latest at 3 first
    assert r.zrank("asc", "x") == 2
    assert r.zscore("asc", "y") == 3.0
    assert r.zcard("asc") == 3
    assert r.zcount("asc", 2, 3) == 2
    r.zadd("asc", {"w": 3})  # ZADD takes a new sequence too
    assert r.zrange("asc", 0, 1) == [b"z", b"w"]
    assert r.zpopmin("asc") == [(b"z", 1.0)]
    r.copy("asc", "asc2")
    assert r.zrange("asc2", 0, -1) == r.zrange("asc", 0, -1)
    assert r.execute_command("LB.INFO", "asc2")[1::2][:4] == [1, b"asc", b"last", 3]


def test_errors(r):
    r.set("str", "v")
    with pytest.raises(redis.ResponseError, match="WRONGTYPE"):
        r.execute_command("LB.RANK", "str", "a")
    with pytest.raises(redis.ResponseError, match="syntax error"):
        r.execute_command("LB.TOP", "k", 1, "MODE", "FAST")
    with pytest.raises(redis.ResponseError, match="not a valid float"):
        r.execute_command("LB.ADD", "k", "ten", "a")
    with pytest.raises(redis.ResponseError, match="wrong number of arguments"):
        r.execute_command("LB.RANK", "k")
    r.zadd("plain", {"a": 1, "b": 2})
    assert r.execute_command("LB.RANK", "plain", "a") == [2, b"1"]
    with pytest.raises(redis.ResponseError, match="DENSE ranks need a leaderboard"):
        r.execute_command("LB.RANK", "plain", "a", "MODE", "DENSE")
    with pytest.raises(redis.ResponseError, match="plain sorted set"):
        r.execute_command("LB.ADD", "plain", 1, "a")


# ------------------------------------------------------------ restarts ---

def start(server_factory, data_dir, appendonly=True):
    args = ["--dir", str(data_dir), "--appendonly", "yes" if appendonly else "no",
            "--appendfsync", "always"]
    return server_factory(extra_args=args)


def board_state(c, key):
    members = c.zrevrange(key, 0, -1, withscores=True)
    return (c.execute_command("LB.INFO", key),
            [(m, s, tuple(c.execute_command("LB.STAMP", key, m))) for m, s in members])


def write_boards(c, rng, n):
    for _ in range(n):
        key = rng.choice(["desc", "asc"])
        m = "p%d" % rng.randrange(50)
        op = rng.randrange(4)
        if op == 0:
            c.execute_command("LB.ADD", key, "INCR", rng.randrange(-2, 3), m)
        elif op == 1:
            c.execute_command("LB.ADD", key, "BEST", "AT", 1_700_000_000_000 + rng.randrange(10**6),
                              rng.randrange(10), m)
        elif op == 2:
            c.zadd(key, {m: rng.randrange(10)})
        else:
            c.zrem(key, m)


@pytest.mark.parametrize("mode", ["log", "snapshot", "rewrite"])
def test_restart_keeps_order_and_stamps(server_factory, tmp_path, mode):
    rng = random.Random(len(mode))
    p = start(server_factory, tmp_path, appendonly=mode != "snapshot")
    c = p.client()
    c.execute_command("LB.CREATE", "desc")
    c.execute_command("LB.CREATE", "asc", "ORDER", "ASC", "TIES", "LAST")
    c.execute_command("LB.CREATE", "empty", "TIES", "LAST")
    write_boards(c, rng, 600)
    if mode == "rewrite":
        assert c.bgrewriteaof()
        wait_until(lambda: c.info("persistence")["aof_rewrite_in_progress"] == 0
                   and c.info("persistence")["aof_rewrites"] == 1)
        write_boards(c, rng, 200)
    if mode == "snapshot":
        assert c.save()
    before = {k: board_state(c, k) for k in ("desc", "asc", "empty")}
    p.proc.kill()
    p.proc.wait(10)
    q = start(server_factory, tmp_path, appendonly=mode != "snapshot")
    d = q.client()
    assert {k: board_state(d, k) for k in ("desc", "asc", "empty")} == before
    # The sequence continues after the restart.
    seq = d.execute_command("LB.INFO", "desc")[-1]
    d.execute_command("LB.ADD", "desc", 99, "late")
    assert d.execute_command("LB.STAMP", "desc", "late")[0] == seq


@pytest.mark.parametrize("mode", ["log", "rewrite"])
def test_store_into_board_survives_restart(server_factory, tmp_path, mode):
    # Store commands into a board keep it a board (unchanged members keep
    # their stamps, the rest take new sequences); the log replays it exactly.
    p = start(server_factory, tmp_path)
    c = p.client()
    c.execute_command("LB.CREATE", "lb", "ORDER", "ASC", "TIES", "LAST")
    c.execute_command("LB.ADD", "lb", "AT", 1_700_000_000_000, 5, "a", 5, "b", 1, "c", 3, "d")
    c.zadd("in", {"a": 5, "b": 2, "e": 4, "f": 4})
    assert c.zunionstore("lb", ["lb", "in"], aggregate="MIN") == 6
    assert c.execute_command("LB.STAMP", "lb", "a") == [1, 1_700_000_000_000]
    assert [c.execute_command("LB.STAMP", "lb", m)[0] for m in "bef"] == [5, 6, 7]
    assert c.zrangestore("lb", "lb", 1, -1) == 5
    assert c.zinterstore("lb", {"lb": 1, "in": 0}) == 4  # b d e f a -> b e f a
    if mode == "rewrite":
        assert c.bgrewriteaof()
        wait_until(lambda: c.info("persistence")["aof_rewrite_in_progress"] == 0
                   and c.info("persistence")["aof_rewrites"] == 1)
        assert c.zdiffstore("lb", ["lb", "nothing"]) == 4
        c.zunionstore("lb", {"lb": 2})
    c.execute_command("LB.CREATE", "gone")
    c.execute_command("LB.ADD", "gone", 1, "x")
    assert c.zinterstore("gone", ["gone", "in"]) == 0
    before = board_state(c, "lb")
    assert before[0][1] == 1  # still a board
    p.proc.kill()
    p.proc.wait(10)
    d = start(server_factory, tmp_path).client()
    assert board_state(d, "lb") == before
    assert d.exists("gone") == 0
