"""Stable views of leaderboards (issue 17, docs/leaderboards.md "Stable views"):
LB.SNAPSHOT, LB.CREATE ... SNAPSHOT EVERY, the SNAPSHOT flag of the LB.* reads, while writes,
removals and member expiry go on; replicas, restarts and periodic boards.

Every read with SNAPSHOT is compared with the same read without it taken when the view was."""

import time

import pytest
import redis

from server_process import target_is_redis
from util import wait_until

pytestmark = pytest.mark.skipif(target_is_redis(), reason="leaderboards are rankd's own")

T0 = 1_700_000_000_000  # a multiple of 10 s


def info(c, key, *opts):
    reply = c.execute_command("LB.INFO", key, *opts)
    if isinstance(reply, list):
        reply = dict(zip(reply[::2], reply[1::2]))
    return {k.decode(): v for k, v in reply.items()}


def reads(c, key, *flag):
    """Every LB read of `key`, with `flag` (SNAPSHOT or nothing)."""
    out = [c.execute_command("LB.TOP", key, 100, "WITHMETA", *flag),
           c.execute_command("LB.TOP", key, 5, "OFFSET", 3, "MODE", "DENSE", *flag),
           c.execute_command("LB.RANKS", key, "m3", "m7", "nobody", "m11", *flag)]
    for mode in ("ORDINAL", "COMPETITION", "DENSE"):
        out += [c.execute_command("LB.RANGE", key, 2, 6, "MODE", mode, "WITHMETA", *flag),
                c.execute_command("LB.AROUND", key, "m5", 2, "MODE", mode, *flag),
                c.execute_command("LB.RANK", key, "m9", "MODE", mode, *flag),
                c.execute_command("LB.RANKFOR", key, 7, "MODE", mode, *flag),
                c.execute_command("LB.SCOREAT", key, 3, "MODE", mode, *flag)]
    out += [c.execute_command("LB.PERCENTILE", key, "m4", *flag),
            c.execute_command("LB.STAMP", key, "m2", *flag),
            c.execute_command("LB.RANK", key, "m1", *flag)]
    i = info(c, key, *flag)
    out.append((i["size"], i["distinct"], i["next-seq"]))
    return out


def fill(c, key="lb", n=20):
    for i in range(n):
        c.execute_command("LB.ADD", key, i % 7, "m%d" % i, "META", "name%d" % i)


def churn(c, key="lb"):
    """Every kind of write a board takes."""
    c.execute_command("LB.ADD", key, 100, "m1", 3, "m9", 50, "new1")
    c.execute_command("LB.ADD", key, "INCR", 4, "m5")
    c.zincrby(key, 2, "m2")
    c.zadd(key, {"m4": 6, "new2": 1})
    c.zrem(key, "m3", "m7")
    c.execute_command("ZREMRANGEBYRANK", key, 0, 1)
    c.zpopmax(key)
    c.execute_command("LB.SETMETA", key, "m12", "renamed", "m6", "")
    c.execute_command("LB.ADD", key, 5, "m3")  # back, with a new stamp


def test_reads_stay_fixed_while_writes_go_on(r):
    fill(r)
    live = reads(r, "lb")
    assert r.execute_command("LB.SNAPSHOT", "lb") == 20
    assert reads(r, "lb", "SNAPSHOT") == live
    churn(r)
    r.execute_command("ZPEXPIRE", "lb", 50, "MEMBERS", 2, "m8", "m10")
    time.sleep(0.1)
    assert r.zscore("lb", "m8") is None  # expired in the live board
    assert reads(r, "lb") != live
    assert reads(r, "lb", "SNAPSHOT") == live
    i = info(r, "lb")
    assert i["snapshot-every"] == 0 and i["snapshot-changes"] > 5 and i["snapshot-at"] > 0
    # LB.META is live; WITHMETA under SNAPSHOT shows the metadata of the view.
    assert r.execute_command("LB.META", "lb", "m12") == [b"renamed"]


def test_new_snapshot_moves_the_view(r):
    fill(r)
    r.execute_command("LB.SNAPSHOT", "lb")
    first = reads(r, "lb", "SNAPSHOT")
    churn(r)
    live = reads(r, "lb")
    assert r.execute_command("LB.SNAPSHOT", "lb") == r.zcard("lb")
    assert reads(r, "lb", "SNAPSHOT") == live != first
    assert info(r, "lb")["snapshot-changes"] == 0
    r.execute_command("LB.ADD", "lb", 1000, "top")
    assert reads(r, "lb", "SNAPSHOT") == live


def test_resp3_and_many_changes(r3):
    r3.execute("LB.CREATE", "big", "ORDER", "ASC", "TIES", "LAST")
    for i in range(0, 3000, 500):
        r3.execute("LB.ADD", "big", *sum(([j % 97, "p%d" % j] for j in range(i, i + 500)), []))
    before = r3.execute("LB.TOP", "big", 3000)
    r3.execute("LB.SNAPSHOT", "big")
    for i in range(0, 3000, 3):
        r3.execute("LB.ADD", "big", "INCR", 1, "p%d" % i)
    r3.execute("ZREMRANGEBYSCORE", "big", 0, 10)
    assert r3.execute("LB.TOP", "big", 3000, "SNAPSHOT") == before
    assert r3.execute("LB.TOP", "big", 3000) != before


def test_snapshot_every(r):
    assert r.execute_command("LB.CREATE", "s", "SNAPSHOT", "EVERY", 1) == b"OK"
    assert info(r, "s")["snapshot-every"] == 1
    r.execute_command("LB.ADD", "s", 1, "a")
    # The view follows the board within a second or so, without LB.SNAPSHOT.
    r.execute_command("LB.ADD", "s", 2, "b")
    wait_until(lambda: r.execute_command("LB.TOP", "s", 10, "SNAPSHOT")
               == r.execute_command("LB.TOP", "s", 10), timeout=5)
    at = info(r, "s")["snapshot-at"]
    wait_until(lambda: info(r, "s")["snapshot-at"] >= at + 1000, timeout=5)
    # Nobody reads the board: the cron still takes views.
    r.execute_command("LB.ADD", "s", 3, "c")
    time.sleep(2.2)
    assert r.execute_command("LB.RANK", "s", "c", "SNAPSHOT") == [1, b"3"]
    # On an existing board: change and stop the schedule.
    assert r.execute_command("LB.CREATE", "s", "SNAPSHOT", "EVERY", 0) == b"OK"
    assert info(r, "s")["snapshot-every"] == 0
    r.execute_command("LB.ADD", "s", 4, "d")
    time.sleep(1.2)
    assert r.execute_command("LB.RANK", "s", "d", "SNAPSHOT") is None
    r.execute_command("LB.ADD", "p", 1, "x")
    assert r.execute_command("LB.CREATE", "p", "SNAPSHOT", "EVERY", 1) == b"OK"
    wait_until(lambda: r.execute_command("LB.RANK", "p", "x", "SNAPSHOT") == [1, b"1"], timeout=5)


def test_errors(r):
    r.set("str", "x")
    r.zadd("plain", {"a": 1})
    fill(r, "lb", 3)
    with pytest.raises(redis.ResponseError, match="wrong number of arguments"):
        r.execute_command("LB.SNAPSHOT")
    with pytest.raises(redis.ResponseError, match="wrong number of arguments"):
        r.execute_command("LB.SNAPSHOT", "lb", "extra")
    with pytest.raises(redis.ResponseError, match="WRONGTYPE"):
        r.execute_command("LB.SNAPSHOT", "str")
    with pytest.raises(redis.ResponseError, match="WRONGTYPE"):
        r.execute_command("LB.TOP", "str", 10, "SNAPSHOT")
    with pytest.raises(redis.ResponseError, match="plain sorted set"):
        r.execute_command("LB.SNAPSHOT", "plain")
    for cmd in (["LB.TOP", "lb", 10, "SNAPSHOT"], ["LB.RANK", "lb", "m1", "SNAPSHOT"],
                ["LB.RANKS", "lb", "m1", "SNAPSHOT"], ["LB.INFO", "lb", "SNAPSHOT"],
                ["LB.TOP", "plain", 10, "SNAPSHOT"]):
        with pytest.raises(redis.ResponseError, match="no snapshot view"):
            r.execute_command(*cmd)
    assert r.execute_command("LB.SNAPSHOT", "missing") == 0
    assert r.exists("missing") == 0
    assert r.execute_command("LB.TOP", "missing", 10, "SNAPSHOT") == []
    assert r.execute_command("LB.RANK", "missing", "a", "SNAPSHOT") is None
    r.execute_command("LB.SNAPSHOT", "lb")
    for bad in (["LB.TOP", "lb", 10, "SNAPSHOTS"], ["LB.TOP", "lb", 10, "SNAPSHOT", "1"],
                ["LB.STAMP", "lb", "m1", "SNAPSHOT", "x"]):
        with pytest.raises(redis.ResponseError, match="syntax error"):
            r.execute_command(*bad)
    with pytest.raises(redis.ResponseError, match="cannot be combined with PERIOD"):
        r.execute_command("LB.TOP", "lb", 10, "SNAPSHOT", "PERIOD", 0)
    for every in ("-1", "x", "315360001", "1.5"):
        with pytest.raises(redis.ResponseError, match="SNAPSHOT EVERY must be"):
            r.execute_command("LB.CREATE", "e", "SNAPSHOT", "EVERY", every)
    for bad in (["SNAPSHOT"], ["SNAPSHOT", "EVERY"], ["SNAPSHOT", "EACH", 1]):
        with pytest.raises(redis.ResponseError, match="syntax error"):
            r.execute_command("LB.CREATE", "e", *bad)
    assert r.exists("e") == 0
    # A view goes with its key.
    r.delete("lb")
    fill(r, "lb", 3)
    with pytest.raises(redis.ResponseError, match="no snapshot view"):
        r.execute_command("LB.TOP", "lb", 10, "SNAPSHOT")


def test_ranks_member_named_snapshot(r):
    """LB.RANKS reads options from its end: a trailing SNAPSHOT is the flag, one anywhere
    else (or the only member) is a member (docs/leaderboards.md, LB.RANKS)."""
    r.execute_command("LB.ADD", "lb", 5, "SNAPSHOT", 3, "m1")
    assert r.execute_command("LB.RANKS", "lb", "SNAPSHOT") == [[1, b"SNAPSHOT", b"5", 1]]
    with pytest.raises(redis.ResponseError, match="no snapshot view"):
        r.execute_command("LB.RANKS", "lb", "m1", "SNAPSHOT")
    r.execute_command("LB.SNAPSHOT", "lb")
    r.execute_command("LB.ADD", "lb", 9, "m1")
    # First SNAPSHOT a member, last the flag: the view's scores.
    assert r.execute_command("LB.RANKS", "lb", "SNAPSHOT", "m1", "SNAPSHOT") == \
        [[1, b"SNAPSHOT", b"5", 1], [2, b"m1", b"3", 2]]
    assert r.execute_command("LB.RANKS", "lb", "SNAPSHOT", "m1", "MODE", "DENSE") == \
        [[1, b"m1", b"9", 1], [2, b"SNAPSHOT", b"5", 2]]


def test_snapshot_is_not_a_modification(r):
    fill(r, "lb", 3)
    w = r.pipeline()
    w.watch("lb")
    r.execute_command("LB.SNAPSHOT", "lb")
    w.multi()
    w.zcard("lb")
    assert w.execute() == [3]


def test_replica_serves_the_same_view(server_factory):
    primary, replica = server_factory(), server_factory()
    p, rep = primary.client(), replica.client()
    assert rep.execute_command("REPLICAOF", "127.0.0.1", primary.port) == b"OK"
    wait_until(lambda: rep.info("replication").get("master_link_status") == "up", timeout=15)
    fill(p)
    p.execute_command("LB.SNAPSHOT", "lb")
    view = reads(p, "lb", "SNAPSHOT")
    churn(p)
    p.execute_command("LB.CREATE", "auto", "SNAPSHOT", "EVERY", 1)
    p.execute_command("LB.ADD", "auto", 1, "a")
    assert p.execute_command("WAIT", 1, 10000) >= 1
    assert reads(rep, "lb", "SNAPSHOT") == view
    assert reads(rep, "lb") == reads(p, "lb")
    with pytest.raises(redis.ResponseError, match="read only replica"):
        rep.execute_command("LB.SNAPSHOT", "lb")
    # The primary's scheduled views reach the replica as LB.SNAPSHOT.
    p.execute_command("LB.ADD", "auto", 2, "b")
    wait_until(lambda: rep.execute_command("LB.TOP", "auto", 10, "SNAPSHOT")
               == p.execute_command("LB.TOP", "auto", 10), timeout=5)


@pytest.mark.parametrize("appendonly", [True, False])
def test_views_do_not_survive_a_restart(server_factory, tmp_path, appendonly):
    args = ["--dir", str(tmp_path), "--appendonly", "yes" if appendonly else "no",
            "--appendfsync", "always"]
    s = server_factory(extra_args=args)
    c = s.client()
    fill(c)
    c.execute_command("LB.SNAPSHOT", "lb")
    c.execute_command("LB.CREATE", "auto", "SNAPSHOT", "EVERY", 3600)
    c.execute_command("LB.ADD", "auto", 1, "a")  # its lookup took the first view: empty
    assert c.execute_command("LB.TOP", "auto", 10, "SNAPSHOT") == []
    churn(c)
    if not appendonly:
        assert c.save()
    live = reads(c, "lb")
    s.proc.kill()
    s.proc.wait(10)
    d = server_factory(extra_args=args).client()
    assert reads(d, "lb") == live
    with pytest.raises(redis.ResponseError, match="no snapshot view"):
        d.execute_command("LB.TOP", "lb", 10, "SNAPSHOT")
    # The schedule survives; the first lookup takes a new view.
    assert info(d, "auto")["snapshot-every"] == 3600
    assert d.execute_command("LB.TOP", "auto", 10, "SNAPSHOT") == [[1, b"a", b"1"]]


def test_periodic_board_views_the_current_period(r):
    try:
        r.execute_command("DEBUG", "SET-PERIOD-CLOCK", T0 + 1000)
        r.execute_command("LB.CREATE", "pd", "PERIOD", 10)
        r.execute_command("LB.ADD", "pd", 5, "a", 3, "b")
        r.execute_command("LB.SNAPSHOT", "pd")
        r.execute_command("LB.ADD", "pd", 9, "c")
        assert r.execute_command("LB.TOP", "pd", 10, "SNAPSHOT") == \
            [[1, b"a", b"5"], [2, b"b", b"3"]]
        r.execute_command("DEBUG", "SET-PERIOD-CLOCK", T0 + 11000)
        with pytest.raises(redis.ResponseError, match="no snapshot view"):
            r.execute_command("LB.TOP", "pd", 10, "SNAPSHOT")
        assert len(r.execute_command("LB.TOP", "pd", 10, "PERIOD", -1)) == 3
        r.execute_command("LB.ADD", "pd", 1, "d")
        r.execute_command("LB.SNAPSHOT", "pd")
        assert r.execute_command("LB.TOP", "pd", 10, "SNAPSHOT") == [[1, b"d", b"1"]]
    finally:
        r.execute_command("DEBUG", "SET-PERIOD-CLOCK", 0)


def test_rename_move_copy_and_stores(r):
    fill(r, "lb", 6)
    r.execute_command("LB.SNAPSHOT", "lb")
    view = r.execute_command("LB.TOP", "lb", 10, "SNAPSHOT")
    r.execute_command("LB.ADD", "lb", 99, "x")
    r.rename("lb", "lb2")
    assert r.execute_command("LB.TOP", "lb2", 10, "SNAPSHOT") == view
    assert r.move("lb2", 1)
    r.execute_command("SELECT", 1)
    assert r.execute_command("LB.TOP", "lb2", 10, "SNAPSHOT") == view
    assert r.execute_command("COPY", "lb2", "c") == 1
    with pytest.raises(redis.ResponseError, match="no snapshot view"):
        r.execute_command("LB.TOP", "c", 10, "SNAPSHOT")
    r.execute_command("SELECT", 0)
    # A store into a scheduled board keeps the schedule (and the log keeps it too).
    r.execute_command("LB.CREATE", "s", "ORDER", "ASC", "SNAPSHOT", "EVERY", 60)
    r.execute_command("LB.ADD", "s", 1, "a")
    r.zadd("in", {"b": 2})
    assert r.zunionstore("s", ["s", "in"]) == 2
    i = info(r, "s")
    assert i["order"] == b"asc" and i["snapshot-every"] == 60
    assert r.execute_command("LB.TOP", "s", 10, "SNAPSHOT") == [[1, b"a", b"1"], [2, b"b", b"2"]]
