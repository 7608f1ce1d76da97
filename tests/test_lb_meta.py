"""Member metadata on leaderboards (issue 17): LB.ADD ... META, WITHMETA on
LB.TOP / LB.RANGE / LB.AROUND, LB.SETMETA, LB.META (docs/leaderboards.md)."""

import pytest
import redis

from server_process import target_is_redis
from util import wait_until

pytestmark = pytest.mark.skipif(target_is_redis(), reason="leaderboards are rankd's own")

PROFILE = b'{"name": "Ana", "flag": "\xf0\x9f\x87\xa7\xf0\x9f\x87\xb7"}'


def test_add_meta_and_read_withmeta(r):
    assert len(r.execute_command("LB.ADD", "lb", 10, "a", "META", PROFILE, 7, "b",
                                 5, "c", "meta", "")) == 3
    assert r.execute_command("LB.TOP", "lb", 10, "WITHMETA") == [
        [1, b"a", b"10", PROFILE], [2, b"b", b"7", None], [3, b"c", b"5", None]]
    assert r.execute_command("LB.TOP", "lb", 1, "OFFSET", 1, "withmeta", "MODE", "DENSE") == [
        [2, b"b", b"7", None]]
    assert r.execute_command("LB.RANGE", "lb", 1, 1, "WITHMETA") == [[1, b"a", b"10", PROFILE]]
    assert r.execute_command("LB.AROUND", "lb", "b", 0, "WITHMETA") == [[2, b"b", b"7", None]]
    assert r.execute_command("LB.TOP", "lb", 1) == [[1, b"a", b"10"]]  # unchanged without it
    assert r.execute_command("LB.META", "lb", "a", "b", "nope") == [PROFILE, None, None]
    assert r.execute_command("LB.META", "missing", "a") == [None]


def test_meta_follows_the_member(r):
    r.execute_command("LB.ADD", "lb", 10, "a", "META", "x", 3, "b")
    r.execute_command("LB.ADD", "lb", "INCR", 5, "a")  # a score change keeps it
    assert r.execute_command("LB.META", "lb", "a") == [b"x"]
    r.execute_command("LB.ADD", "lb", "NX", 1, "a", "META", "nx")  # skipped: kept
    assert r.execute_command("LB.META", "lb", "a") == [b"x"]
    r.execute_command("LB.ADD", "lb", "BEST", 1, "a", "META", "y")  # no better score: meta set
    assert r.execute_command("LB.META", "lb", "a") == [b"y"]
    assert r.execute_command("LB.ADD", "lb", "XX", 1, "zz", "META", "q") == [None]
    assert r.execute_command("LB.META", "lb", "zz") == [None]
    r.zrem("lb", "a")
    r.execute_command("LB.ADD", "lb", 4, "a")
    assert r.execute_command("LB.META", "lb", "a") == [None]
    assert r.execute_command("LB.SETMETA", "lb", "a", "m1", "b", "m2", "nope", "m3") == 2
    assert r.execute_command("LB.META", "lb", "a", "b") == [b"m1", b"m2"]
    assert r.execute_command("LB.SETMETA", "lb", "a", "") == 1  # empty removes
    assert r.execute_command("LB.META", "lb", "a") == [None]
    r.copy("lb", "lb2")
    assert r.execute_command("LB.META", "lb2", "b") == [b"m2"]


def test_meta_errors(r):
    r.zadd("plain", {"a": 1})
    r.set("s", "x")
    r.execute_command("LB.ADD", "lb", 1, "a")
    cases = [
        (["LB.ADD", "lb", 1, "a", "META"], "syntax error"),
        (["LB.ADD", "lb", 1, "a", "META", "x", 2], "syntax error"),
        (["LB.ADD", "lb", "META", "x", 1, "a"], "value is not a valid float"),
        (["LB.TOP", "lb", 5, "WITHMETA", "MODE"], "syntax error"),
        (["LB.RANKS", "lb", "a", "WITHMETA"], None),  # a member named WITHMETA: fine
        (["LB.SETMETA", "lb", "a"], "wrong number of arguments for 'lb.setmeta' command"),
        (["LB.SETMETA", "lb", "a", "x", "b"], "syntax error"),
        (["LB.SETMETA", "plain", "a", "x"],
         "the key holds a plain sorted set, not a leaderboard (LB.CREATE a new key)"),
        (["LB.SETMETA", "s", "a", "x"], "WRONGTYPE"),
        (["LB.META", "s", "a"], "WRONGTYPE"),
    ]
    for args, error in cases:
        if error is None:
            r.execute_command(*args)
            continue
        with pytest.raises(redis.ResponseError) as e:
            r.execute_command(*args)
        assert str(e.value).startswith(error), (args, str(e.value))
    assert r.execute_command("LB.META", "lb", "a") == [None]


def start(server_factory, data_dir, appendonly=True):
    args = ["--dir", str(data_dir), "--appendonly", "yes" if appendonly else "no",
            "--appendfsync", "always"]
    return server_factory(extra_args=args)


@pytest.mark.parametrize("mode", ["log", "snapshot", "rewrite"])
def test_restart_keeps_meta(server_factory, tmp_path, mode):
    appendonly = mode != "snapshot"
    p = start(server_factory, tmp_path, appendonly)
    c = p.client()
    c.execute_command("LB.ADD", "lb", 10, "a", "META", PROFILE, 7, "b", "META", "bee", 1, "c")
    c.execute_command("LB.ADD", "lb", 11, "b", "META", "bee2")
    c.execute_command("LB.SETMETA", "lb", "c", "sea")
    c.execute_command("ZPEXPIRE", "lb", 3_600_000, "MEMBERS", 1, "c")  # both side tables
    if mode == "rewrite":
        assert c.bgrewriteaof()
        wait_until(lambda: c.info("persistence")["aof_rewrite_in_progress"] == 0
                   and c.info("persistence")["aof_rewrites"] == 1)
    if mode == "snapshot":
        assert c.save()
    before = c.execute_command("LB.TOP", "lb", 10, "WITHMETA")
    assert before[0] == [1, b"b", b"11", b"bee2"]
    p.proc.kill()
    p.proc.wait(10)
    d = start(server_factory, tmp_path, appendonly).client()
    assert d.execute_command("LB.TOP", "lb", 10, "WITHMETA") == before
    assert d.execute_command("ZTTL", "lb", "MEMBERS", 1, "c") != [-1]
