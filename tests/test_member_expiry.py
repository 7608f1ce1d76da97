"""Member expiry on sorted sets and leaderboards (issue 17): ZEXPIRE and
friends, shaped as Redis 7.4's hash-field expiry (docs/commands.md, "Beyond
Redis: member expiry"). Short TTLs (50-100 ms) and waits past them; nothing
asserts on speed."""

import time

import pytest
import redis

from server_process import target_is_redis
from util import wait_until

pytestmark = pytest.mark.skipif(target_is_redis(), reason="member expiry is rankd's own")


def now_ms():
    return int(time.time() * 1000)


def zexpire(c, cmd, key, t, *members, flag=None):
    extra = [flag] if flag else []
    return c.execute_command(cmd, key, t, *extra, "MEMBERS", len(members), *members)


def ask(c, cmd, key, *members):
    return c.execute_command(cmd, key, "MEMBERS", len(members), *members)


def test_set_and_read_deadlines(r):
    r.zadd("z", {"a": 1, "b": 2, "c": 3})
    assert zexpire(r, "ZEXPIRE", "z", 100, "a", "nope") == [1, -2]
    assert ask(r, "ZTTL", "z", "a", "b", "nope") == [100, -1, -2]
    pttl = ask(r, "ZPTTL", "z", "a")[0]
    assert 99_000 < pttl <= 100_000
    t = now_ms() + 50_000
    assert zexpire(r, "ZPEXPIREAT", "z", t, "b") == [1]
    assert ask(r, "ZPEXPIRETIME", "z", "b") == [t]
    assert ask(r, "ZEXPIRETIME", "z", "b") == [(t + 999) // 1000]
    assert zexpire(r, "ZEXPIREAT", "z", t // 1000 + 100, "c") == [1]
    assert ask(r, "ZEXPIRETIME", "z", "c") == [t // 1000 + 100]
    assert zexpire(r, "ZPEXPIRE", "z", 70_000, "c") == [1]
    assert 69_000 < ask(r, "ZPTTL", "z", "c")[0] <= 70_000
    assert ask(r, "ZTTL", "missing", "a", "b") == [-2, -2]
    assert zexpire(r, "ZEXPIRE", "missing", 10, "a") == [-2]
    assert ask(r, "ZPERSIST", "z", "a", "a", "nope") == [1, -1, -2]
    assert ask(r, "ZTTL", "z", "a") == [-1]
    assert ask(r, "ZPERSIST", "missing", "a") == [-2]


def test_conditions(r):
    r.zadd("z", {"a": 1, "b": 2})
    assert zexpire(r, "ZEXPIRE", "z", 100, "a", "b", flag="XX") == [0, 0]
    assert zexpire(r, "ZEXPIRE", "z", 100, "a", flag="NX") == [1]
    assert zexpire(r, "ZEXPIRE", "z", 200, "a", "b", flag="NX") == [0, 1]
    assert zexpire(r, "ZEXPIRE", "z", 50, "a", flag="GT") == [0]
    assert zexpire(r, "ZEXPIRE", "z", 150, "a", flag="gt") == [1]
    assert zexpire(r, "ZEXPIRE", "z", 300, "b", flag="LT") == [0]
    assert zexpire(r, "ZEXPIRE", "z", 120, "b", flag="lt") == [1]
    assert ask(r, "ZTTL", "z", "a", "b") == [150, 120]
    r.zadd("z", {"c": 3})  # no deadline: infinite, so GT fails and LT succeeds
    assert zexpire(r, "ZEXPIRE", "z", 999, "c", flag="GT") == [0]
    assert zexpire(r, "ZEXPIRE", "z", 999, "c", flag="LT") == [1]
    assert zexpire(r, "ZEXPIRE", "z", 5, "c", flag="xx") == [1]


def test_past_time_deletes_and_empties_the_key(r):
    r.zadd("z", {"a": 1, "b": 2})
    assert zexpire(r, "ZEXPIRE", "z", 0, "a", "nope") == [2, -2]
    assert r.zrange("z", 0, -1) == [b"b"]
    assert zexpire(r, "ZPEXPIREAT", "z", 1, "b") == [2]
    assert not r.exists("z")
    r.zadd("z", {"a": 1})
    assert zexpire(r, "ZEXPIRE", "z", 0, "a", flag="XX") == [0]  # condition first
    assert r.zcard("z") == 1


@pytest.mark.parametrize("args, error", [
    (["ZEXPIRE", "z", "x", "MEMBERS", 1, "a"], "value is not an integer or out of range"),
    (["ZEXPIRE", "z", -1, "MEMBERS", 1, "a"], "invalid expire time, must be >= 0"),
    (["ZEXPIRE", "z", 2 ** 60, "MEMBERS", 1, "a"], "invalid expire time in 'zexpire' command"),
    (["ZPEXPIREAT", "z", 2 ** 48, "MEMBERS", 1, "a"],
     "invalid expire time in 'zpexpireat' command"),
    (["ZEXPIRE", "z", 10, "FIELDS", 1, "a"],
     "Mandatory argument MEMBERS is missing or not at the right position"),
    (["ZEXPIRE", "z", 10, "NX", "XX", "MEMBERS", 1, "a"],
     "Mandatory argument MEMBERS is missing or not at the right position"),
    (["ZEXPIRE", "z", 10, "MEMBERS", 0, "a"], "Parameter `nummembers` should be greater than 0"),
    (["ZEXPIRE", "z", 10, "MEMBERS", "x", "a"], "Parameter `nummembers` should be greater than 0"),
    (["ZEXPIRE", "z", 10, "MEMBERS", 2, "a"],
     "The `nummembers` parameter must match the number of arguments"),
    (["ZTTL", "z", "MEMBERS", 1, "a", "b"],
     "The `nummembers` parameter must match the number of arguments"),
    (["ZPERSIST", "z", "MEMBER", 1, "a"],
     "Mandatory argument MEMBERS is missing or not at the right position"),
    (["ZEXPIRE", "z", 10, "MEMBERS"], "wrong number of arguments for 'zexpire' command"),
    (["ZTTL", "z", "MEMBERS", 1], "wrong number of arguments for 'zttl' command"),
])
def test_errors_change_nothing(r, args, error):
    r.zadd("z", {"a": 1})
    with pytest.raises(redis.ResponseError) as e:
        r.execute_command(*args)
    assert str(e.value) == error
    assert ask(r, "ZTTL", "z", "a") == [-1]


def test_wrong_type(r):
    r.set("s", "x")
    for cmd in (["ZEXPIRE", "s", 10], ["ZTTL", "s"], ["ZPERSIST", "s"]):
        with pytest.raises(redis.ResponseError, match="^WRONGTYPE"):
            r.execute_command(*cmd, "MEMBERS", 1, "a")


def test_expired_member_is_invisible_everywhere(r):
    r.zadd("z", {"a": 1, "b": 2, "c": 3})
    r.zadd("other", {"a": 10, "x": 1})
    r.execute_command("LB.ADD", "lb", 5, "a", 7, "b")
    assert zexpire(r, "ZPEXPIRE", "z", 60, "a") == [1]
    assert zexpire(r, "ZPEXPIRE", "lb", 60, "b") == [1]
    time.sleep(0.15)
    # The first read after the deadline already misses it, whichever it is.
    assert r.zscore("z", "a") is None
    assert r.zcard("z") == 2
    assert r.zrange("z", 0, -1, withscores=True) == [(b"b", 2.0), (b"c", 3.0)]
    assert r.zrank("z", "b") == 0
    assert r.zunion(["z", "other"]) == [b"x", b"b", b"c", b"a"]
    assert r.eval("return redis.call('ZCARD', KEYS[1])", 1, "z") == 2
    assert r.execute_command("LB.TOP", "lb", 10) == [[1, b"a", b"5"]]
    assert r.zcard("lb") == 1
    assert ask(r, "ZTTL", "z", "a") == [-2]


def test_each_read_hides_expired_members_immediately(r):
    # Every read command on its own key, each right after the deadline, so
    # the lazy reclaim on lookup is what hides the member.
    reads = {
        "zcard": lambda k: r.zcard(k) == 1,
        "zrange": lambda k: r.zrange(k, 0, -1) == [b"keep"],
        "zrank": lambda k: r.zrank(k, "gone") is None,
        "zscore": lambda k: r.zscore(k, "gone") is None,
        "zunion": lambda k: r.zunion([k]) == [b"keep"],
        "lbtop": lambda k: r.execute_command("LB.TOP", k, 5) == [[1, b"keep", b"1"]],
        "eval": lambda k: r.eval("return redis.call('ZRANGE', KEYS[1], 0, -1)", 1, k)
        == [b"keep"],
    }
    for name in reads:
        if name == "lbtop":
            r.execute_command("LB.ADD", name, 1, "keep", 2, "gone")
        else:
            r.zadd(name, {"keep": 1, "gone": 2})
        zexpire(r, "ZPEXPIRE", name, 50, "gone")
    time.sleep(0.12)
    for name, check in reads.items():
        assert check(name), name


def expired_members(r):
    return r.info("stats")["expired_members"]


def test_last_member_expiring_deletes_the_key_actively(r):
    before = expired_members(r)
    r.zadd("z", {"a": 1, "b": 2})
    zexpire(r, "ZPEXPIRE", "z", 50, "a", "b")
    # Nobody reads z: the active timer reclaims it, and the key disappears.
    wait_until(lambda: r.dbsize() == 0)
    assert expired_members(r) == before + 2
    assert r.keys("*") == []


def test_active_reclaim_of_many_keys(r):
    before = expired_members(r)
    for i in range(50):
        r.zadd(f"k{i}", {"a": 1, "b": 2})
        zexpire(r, "ZPEXPIRE", f"k{i}", 50 + i, "a")
    wait_until(lambda: expired_members(r) == before + 50)
    assert r.dbsize() == 50
    assert all(r.zrange(f"k{i}", 0, -1) == [b"b"] for i in range(50))


def test_score_updates_keep_the_deadline_and_removal_drops_it(r):
    r.zadd("z", {"a": 1, "b": 2})
    zexpire(r, "ZEXPIRE", "z", 100, "a", "b")
    r.zadd("z", {"a": 5})
    r.zincrby("z", 1, "a")
    assert ask(r, "ZTTL", "z", "a") == [100]
    r.zrem("z", "b")
    r.zadd("z", {"b": 2})
    assert ask(r, "ZTTL", "z", "b") == [-1]
    r.zpopmax("z")  # a (score 6)
    r.zadd("z", {"a": 1})
    assert ask(r, "ZTTL", "z", "a") == [-1]


def test_copy_rename_move_keep_deadlines_store_commands_drop_them(r):
    r.zadd("z", {"a": 1, "b": 2})
    zexpire(r, "ZEXPIRE", "z", 100, "a")
    r.copy("z", "z2")
    assert ask(r, "ZTTL", "z2", "a", "b") == [100, -1]
    r.rename("z2", "z3")
    assert ask(r, "ZTTL", "z3", "a") == [100]
    r.move("z3", 1)
    r.execute_command("SELECT", 1)
    assert ask(r, "ZTTL", "z3", "a") == [100]
    zexpire(r, "ZPEXPIRE", "z3", 50, "a")
    time.sleep(0.1)
    assert r.zrange("z3", 0, -1) == [b"b"]
    r.execute_command("SELECT", 0)
    r.zunionstore("u", ["z"])
    assert ask(r, "ZTTL", "u", "a", "b") == [-1, -1]
    r.zrangestore("rs", "z", 0, -1)
    assert ask(r, "ZTTL", "rs", "a") == [-1]


def test_watch_sees_expiry_as_a_change(r):
    r.zadd("z", {"a": 1, "b": 2})
    zexpire(r, "ZPEXPIRE", "z", 50, "a")
    with r.pipeline() as p:
        p.watch("z")
        time.sleep(0.1)
        p.multi()
        p.zcard("z")
        with pytest.raises(redis.WatchError):
            p.execute()


def start(server_factory, data_dir, appendonly=True):
    args = ["--dir", str(data_dir), "--appendonly", "yes" if appendonly else "no",
            "--appendfsync", "always"]
    return server_factory(extra_args=args)


def restart(server_factory, tmp_path, p, appendonly):
    p.proc.kill()
    p.proc.wait(10)
    return start(server_factory, tmp_path, appendonly)


@pytest.mark.parametrize("mode", ["log", "snapshot", "rewrite"])
def test_restart_keeps_deadlines(server_factory, tmp_path, mode):
    appendonly = mode != "snapshot"
    p = start(server_factory, tmp_path, appendonly)
    c = p.client()
    c.zadd("z", {"long": 1, "short": 2, "none": 3, "gone": 4})
    c.execute_command("LB.ADD", "lb", 5, "x", 6, "y")
    c.zadd("alldue", {"a": 1})
    t = now_ms() + 3_600_000
    zexpire(c, "ZPEXPIREAT", "z", t, "long")
    zexpire(c, "ZPEXPIRE", "z", 300, "short")
    zexpire(c, "ZEXPIRE", "z", 0, "gone")
    zexpire(c, "ZPEXPIREAT", "lb", t + 1, "y")
    zexpire(c, "ZPEXPIRE", "alldue", 300, "a")
    if mode == "rewrite":
        assert c.bgrewriteaof()
        wait_until(lambda: c.info("persistence")["aof_rewrite_in_progress"] == 0
                   and c.info("persistence")["aof_rewrites"] == 1)
    if mode == "snapshot":
        assert c.save()
    time.sleep(0.4)  # "short" and alldue's "a" are due by the restart
    q = restart(server_factory, tmp_path, p, appendonly)
    d = q.client()
    assert d.zrange("z", 0, -1) == [b"long", b"none"]
    assert ask(d, "ZPEXPIRETIME", "z", "long", "none") == [t, -1]
    assert ask(d, "ZPEXPIRETIME", "lb", "y", "x") == [t + 1, -1]
    assert d.execute_command("LB.TOP", "lb", 1) == [[1, b"y", b"6"]]
    assert not d.exists("alldue")
    # What is reclaimed after the restart is logged too.
    zexpire(d, "ZPEXPIRE", "z", 50, "none")
    time.sleep(0.1)
    assert d.zrange("z", 0, -1) == [b"long"]
    e = restart(server_factory, tmp_path, q, appendonly).client() if appendonly else d
    assert e.zrange("z", 0, -1) == [b"long"]
