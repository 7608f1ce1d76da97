"""Periodic leaderboards (issue 17, docs/leaderboards.md "Periodic leaderboards"):
LB.CREATE ... PERIOD / TZ / WEEKSTART / RETAIN / NOW, PERIOD on the LB.* reads, LB.PERIODS,
LB.ROLL, rollover by the period clock (DEBUG SET-PERIOD-CLOCK pins it, so no test waits for
a boundary except the one that checks the wall clock), restart and replication.

Expected boundaries come from Python's zoneinfo over the same tzdata, not from rankd."""

import time
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
import redis

from server_process import target_is_redis
from util import wait_until

pytestmark = pytest.mark.skipif(target_is_redis(), reason="leaderboards are rankd's own")


def ms(day, zone="UTC", hour=0, minute=0):
    """Unix ms of `day` ("2026-03-08") at hour:minute in `zone`."""
    d = datetime.fromisoformat(day).replace(hour=hour, minute=minute, tzinfo=ZoneInfo(zone))
    return int(d.timestamp() * 1000)


def clock(c, unix_ms):
    assert c.execute_command("DEBUG", "SET-PERIOD-CLOCK", unix_ms) == b"OK"


@pytest.fixture
def lb(r):
    """redis-py client with the period clock given back to the wall clock afterwards."""
    yield r
    clock(r, 0)


def top(c, key, *opts):
    return [(row[1], row[2]) for row in c.execute_command("LB.TOP", key, 100, *opts)]


def periods(c, key):
    return [[x.decode() if isinstance(x, bytes) else x for x in row]
            for row in c.execute_command("LB.PERIODS", key)]


def info(c, key, *opts):
    reply = c.execute_command("LB.INFO", key, *opts)
    if isinstance(reply, list):
        reply = dict(zip(reply[::2], reply[1::2]))
    return {k.decode(): v for k, v in reply.items()}


T0 = 1_700_000_000_000  # a multiple of 10 s in the past: 2023-11-14T22:13:20Z


def test_seconds_periods_roll_on_writes_and_reads(lb):
    clock(lb, T0 + 3000)
    assert lb.execute_command("LB.CREATE", "s", "PERIOD", 10) == b"OK"
    lb.execute_command("LB.ADD", "s", 5, "a", 3, "b")
    clock(lb, T0 + 9999)
    lb.execute_command("LB.ADD", "s", "INCR", 1, "b")  # last ms of the period
    clock(lb, T0 + 10000)  # the first of the next: nothing written yet
    assert top(lb, "s") == []
    assert lb.zcard("s") == 0 and lb.exists("s") == 1
    assert top(lb, "s", "PERIOD", -1) == [(b"a", b"5"), (b"b", b"4")]
    lb.execute_command("LB.ADD", "s", 7, "c")
    assert top(lb, "s") == [(b"c", b"7")]
    assert lb.zscore("s", "a") is None and lb.zscore("s", "c") == 7
    assert top(lb, "s", "PERIOD", str(T0)) == top(lb, "s", "PERIOD", -1)
    assert top(lb, "s", "PERIOD", str(T0 + 5000)) == top(lb, "s", "PERIOD", -1)  # holds it
    assert periods(lb, "s") == [[str(T0 + 10000), T0 + 10000, T0 + 20000, 1, 0],
                                [str(T0), T0, T0 + 10000, 2, -1]]
    # Periods nobody wrote are empty but kept (no RETAIN: all of them).
    clock(lb, T0 + 35000)
    assert top(lb, "s", "PERIOD", -1) == [] and top(lb, "s", "PERIOD", -2) == [(b"c", b"7")]
    assert [p[0] for p in periods(lb, "s")] == [str(T0 + 30000), str(T0 + 10000), str(T0)]


def test_wall_clock_rollover_without_writes(lb):
    lb.execute_command("LB.CREATE", "w", "PERIOD", 1)
    lb.execute_command("LB.ADD", "w", 1, "x")
    first = info(lb, "w")["period-id"]
    # The first read after the boundary sees an empty current period and the
    # write in the previous one, though nothing was written since.
    wait_until(lambda: info(lb, "w")["period-id"] != first, timeout=5)
    assert lb.execute_command("LB.PERIODS", "w")[-1][0] == first
    assert any(top(lb, "w", "PERIOD", p) == [(b"x", b"1")] for p in (-1, -2))
    assert lb.zcard("w") == 0


def test_retain_drops_the_oldest(lb):
    clock(lb, T0)
    lb.execute_command("LB.CREATE", "k", "PERIOD", 10, "RETAIN", 2)
    for i in range(5):
        clock(lb, T0 + i * 10000)
        lb.execute_command("LB.ADD", "k", i, "m%d" % i)
    assert [p[4] for p in periods(lb, "k")] == [0, -1, -2]
    assert top(lb, "k", "PERIOD", -2) == [(b"m2", b"2")]
    for gone in (-3, str(T0 + 10000)):
        with pytest.raises(redis.ResponseError, match="no such period"):
            lb.execute_command("LB.TOP", "k", 10, "PERIOD", gone)
    assert info(lb, "k")["retain"] == 2
    # RETAIN 0: only the current period.
    lb.execute_command("LB.CREATE", "z", "PERIOD", 10, "RETAIN", 0)
    lb.execute_command("LB.ADD", "z", 1, "a")
    clock(lb, T0 + 60000)
    assert periods(lb, "z") == [[str(T0 + 60000), T0 + 60000, T0 + 70000, 0, 0]]


def test_boundary_is_exact_in_new_york(lb):
    # 2026-03-08 lasts 23 hours in New York; a write 1 ms before midnight
    # and one at midnight land in different days.
    day = ms("2026-03-08", "America/New_York")
    nxt = ms("2026-03-09", "America/New_York")
    assert nxt - day == 23 * 3600 * 1000
    clock(lb, day)
    lb.execute_command("LB.CREATE", "ny", "PERIOD", "DAILY", "TZ", "America/New_York")
    clock(lb, nxt - 1)
    lb.execute_command("LB.ADD", "ny", 1, "late")
    clock(lb, nxt)
    lb.execute_command("LB.ADD", "ny", 2, "early")
    assert periods(lb, "ny") == [["2026-03-09", nxt, ms("2026-03-10", "America/New_York"), 1, 0],
                                 ["2026-03-08", day, nxt, 1, -1]]
    assert top(lb, "ny", "PERIOD", "2026-03-08") == [(b"late", b"1")]


@pytest.mark.parametrize("zone,weekstart,now,start,end", [
    # The week (Sunday start) in which New York springs forward: 7 days - 1 h.
    ("America/New_York", "SUN", ("2026-03-10", 12), "2026-03-08", "2026-03-15"),
    # Monday start: the week holding the fall-back Sunday is 7 days + 1 h.
    ("America/New_York", "MON", ("2026-11-01", 1), "2026-10-26", "2026-11-02"),
    ("Europe/London", "MON", ("2026-03-29", 23), "2026-03-23", "2026-03-30"),
    ("Australia/Lord_Howe", "SUN", ("2026-04-05", 1), "2026-04-05", "2026-04-12"),
])
def test_weekly_boundaries_with_daylight_saving(lb, zone, weekstart, now, start, end):
    clock(lb, ms(now[0], zone, now[1]))
    lb.execute_command("LB.CREATE", "w", "PERIOD", "WEEKLY", "TZ", zone, "WEEKSTART", weekstart)
    assert periods(lb, "w") == [[start, ms(start, zone), ms(end, zone), 0, 0]]
    i = info(lb, "w")
    assert (i["period"], i["tz"], i["weekstart"]) == (b"weekly", zone.encode(),
                                                      weekstart.lower().encode())


@pytest.mark.parametrize("zone", ["America/New_York", "Asia/Kolkata", "Australia/Lord_Howe"])
def test_monthly_boundaries(lb, zone):
    clock(lb, ms("2026-03-31", zone, 23, 59))
    lb.execute_command("LB.CREATE", "m", "PERIOD", "MONTHLY", "TZ", zone)
    lb.execute_command("LB.ADD", "m", 1, "march")
    clock(lb, ms("2026-04-01", zone))
    lb.execute_command("LB.ADD", "m", 2, "april")
    assert periods(lb, "m") == [["2026-04", ms("2026-04-01", zone), ms("2026-05-01", zone), 1, 0],
                                ["2026-03", ms("2026-03-01", zone), ms("2026-04-01", zone), 1, -1]]
    assert top(lb, "m", "PERIOD", "2026-03") == [(b"march", b"1")]


def test_create_now_and_daily_lord_howe(lb):
    # NOW chooses the open period; Lord Howe's day after DST ends is 24.5 h.
    now = ms("2026-04-05", "Australia/Lord_Howe", 12)
    clock(lb, now)
    lb.execute_command("LB.CREATE", "h", "PERIOD", "DAILY", "TZ", "Australia/Lord_Howe",
                       "NOW", now)
    i = info(lb, "h")
    assert i["period-id"] == b"2026-04-05"
    assert i["period-end"] - i["period-start"] == int(24.5 * 3600 * 1000)
    assert lb.execute_command("LB.CREATE", "h", "PERIOD", "DAILY", "TZ",
                              "Australia/Lord_Howe") == b"OK"  # idempotent


def test_reads_take_period(lb):
    clock(lb, T0)
    lb.execute_command("LB.CREATE", "r", "PERIOD", 10)
    lb.execute_command("LB.ADD", "r", 10, "a", 20, "b", 20, "c", 5, "d", "META", "dee")
    lb.execute_command("LB.ADD", "r", "AT", 1234, 1, "e")
    clock(lb, T0 + 10000)
    lb.execute_command("LB.ADD", "r", 99, "new")
    p = ("PERIOD", -1)
    assert lb.execute_command("LB.RANK", "r", "c", "MODE", "DENSE", *p) == [1, b"20"]
    assert lb.execute_command("LB.RANK", "r", "c") is None
    assert lb.execute_command("LB.RANGE", "r", 1, 1, "MODE", "COMPETITION", *p) == \
        [[1, b"b", b"20"], [1, b"c", b"20"]]
    assert lb.execute_command("LB.AROUND", "r", "a", 1, *p) == \
        [[2, b"c", b"20"], [3, b"a", b"10"], [4, b"d", b"5"]]
    assert lb.execute_command("LB.TOP", "r", 1, "OFFSET", 3, "WITHMETA", *p) == \
        [[4, b"d", b"5", b"dee"]]
    assert lb.execute_command("LB.RANKS", "r", "a", "d", "PERIOD", -1, "MODE", "DENSE") == \
        [[1, b"a", b"10", 2], [2, b"d", b"5", 3]]
    assert lb.execute_command("LB.RANKS", "r", "a", "new", "MODE", "ORDINAL", *p) == \
        [[1, b"a", b"10", 3]]
    assert lb.execute_command("LB.SCOREAT", "r", 2, "MODE", "DENSE", *p) == b"10"
    assert lb.execute_command("LB.RANKFOR", "r", 15, *p) == 3
    assert float(lb.execute_command("LB.PERCENTILE", "r", "a", *p)) == 50
    assert lb.execute_command("LB.STAMP", "r", "e", *p)[1] == 1234
    i = info(lb, "r", *p)
    assert (i["size"], i["distinct"], i["period-offset"]) == (5, 4, -1)
    assert i["period-start"] == T0 and i["period-end"] == T0 + 10000
    assert info(lb, "r")["size"] == 1


def test_zset_commands_expiry_and_meta_work_on_the_current_period(lb):
    clock(lb, T0)
    lb.execute_command("LB.CREATE", "c", "PERIOD", 10)
    lb.execute_command("LB.ADD", "c", 1, "a", 2, "b")
    clock(lb, T0 + 10000)
    assert lb.zadd("c", {"a": 5}) == 1  # a new member of this period
    assert lb.zrevrange("c", 0, -1, withscores=True) == [(b"a", 5.0)]
    lb.execute_command("LB.SETMETA", "c", "a", "now")
    assert lb.execute_command("LB.META", "c", "a") == [b"now"]
    # Emptying the current period keeps the board and its closed periods.
    assert lb.zrem("c", "a") == 1
    assert lb.exists("c") == 1 and top(lb, "c", "PERIOD", -1) == [(b"b", b"2"), (b"a", b"1")]
    # Member expiry: an expired member leaves the current period only.
    lb.execute_command("LB.ADD", "c", 3, "t")
    assert lb.execute_command("ZPEXPIRE", "c", 1, "MEMBERS", 1, "t") == [1]
    wait_until(lambda: lb.zcard("c") == 0)
    assert lb.exists("c") == 1 and len(top(lb, "c", "PERIOD", -1)) == 2
    # A member with a TTL that outlives its period stays in the closed one.
    lb.execute_command("LB.ADD", "c", 4, "u")
    lb.execute_command("ZPEXPIRE", "c", 3_600_000, "MEMBERS", 1, "u")
    clock(lb, T0 + 20000)
    assert top(lb, "c", "PERIOD", -1) == [(b"u", b"4")]
    with pytest.raises(redis.ResponseError, match="cannot replace a periodic"):
        lb.zunionstore("c", ["c"])
    assert lb.execute_command("LB.ROLL", "c", str(T0)) == 0  # never backwards


def test_bad_input_changes_nothing(lb):
    clock(lb, T0)
    lb.execute_command("LB.CREATE", "p", "PERIOD", 10, "RETAIN", 1)
    lb.execute_command("LB.ADD", "p", 1, "a")
    lb.execute_command("LB.CREATE", "b")
    lb.execute_command("LB.ADD", "b", 1, "a")
    lb.zadd("plain", {"a": 1})
    lb.set("str", "x")
    before = lb.execute_command("DEBUG", "DIGEST")
    bad = [
        (("LB.CREATE", "n", "PERIOD", "DAILY", "TZ", "Mars/Olympus"), "unknown time zone"),
        (("LB.CREATE", "n", "PERIOD", "DAILY", "TZ", "../../etc/passwd"), "unknown time zone"),
        (("LB.CREATE", "n", "PERIOD", "HOURLY"), "PERIOD must be DAILY"),
        (("LB.CREATE", "n", "PERIOD", 0), "PERIOD must be DAILY"),
        (("LB.CREATE", "n", "PERIOD", "DAILY", "RETAIN", -1), "RETAIN must be"),
        (("LB.CREATE", "n", "PERIOD", "DAILY", "RETAIN", "x"), "RETAIN must be"),
        (("LB.CREATE", "n", "TZ", "UTC"), "need PERIOD"),
        (("LB.CREATE", "n", "PERIOD", 60, "TZ", "UTC"), "TZ needs PERIOD"),
        (("LB.CREATE", "n", "PERIOD", "DAILY", "WEEKSTART", "SUN"), "WEEKSTART needs"),
        (("LB.CREATE", "n", "PERIOD", "WEEKLY", "WEEKSTART", "TUE"), "syntax error"),
        (("LB.CREATE", "n", "PERIOD"), "syntax error"),
        (("LB.CREATE", "p", "PERIOD", 20), "another PERIOD"),
        (("LB.CREATE", "p"), "another PERIOD"),
        (("LB.CREATE", "b", "PERIOD", 10), "another PERIOD"),
        (("LB.TOP", "b", 10, "PERIOD", 0), "not a periodic leaderboard"),
        (("LB.TOP", "plain", 10, "PERIOD", 0), "not a periodic leaderboard"),
        (("LB.TOP", "str", 10, "PERIOD", 0), "WRONGTYPE"),
        (("LB.TOP", "p", 10, "PERIOD", "yesterday"), "PERIOD must be 0, -1"),
        (("LB.TOP", "p", 10, "PERIOD", ""), "PERIOD must be 0, -1"),
        (("LB.TOP", "p", 10, "PERIOD"), "syntax error"),
        (("LB.TOP", "p", 10, "PERIOD", -2), "no such period"),
        (("LB.TOP", "p", 10, "PERIOD", str(T0 + 10000)), "no such period"),  # the future
        (("LB.PERCENTILE", "p", "a", "MODE", "DENSE"), "syntax error"),
        (("LB.PERIODS", "b"), "not a periodic leaderboard"),
        (("LB.PERIODS", "str"), "WRONGTYPE"),
        (("LB.ROLL", "b", "1"), "not a periodic leaderboard"),
        (("LB.ROLL", "p", "2026-03-08"), "PERIOD must be 0, -1"),
        (("DEBUG", "SET-PERIOD-CLOCK", -5), "not an integer"),
    ]
    for args, message in bad:
        with pytest.raises(redis.ResponseError, match=message):
            lb.execute_command(*args)
    with pytest.raises(redis.ResponseError, match="wrong number of arguments"):
        lb.execute_command("LB.PERIODS")
    assert lb.execute_command("DEBUG", "DIGEST") == before
    assert lb.exists("n") == 0
    assert lb.execute_command("LB.PERIODS", "missing") == []
    monthly = ("LB.CREATE", "mo", "PERIOD", "MONTHLY")
    lb.execute_command(*monthly)
    for bad_id in ("2026-03-08", "2026-3", "2026-13", 5):
        with pytest.raises(redis.ResponseError, match="PERIOD must be 0, -1"):
            lb.execute_command("LB.TOP", "mo", 10, "PERIOD", bad_id)


def start(server_factory, data_dir, appendonly=True):
    args = ["--dir", str(data_dir), "--appendonly", "yes" if appendonly else "no",
            "--appendfsync", "always"]
    return server_factory(extra_args=args)


def build_history(c):
    """Three periods of a 10 s board with RETAIN 5, written with the clock pinned."""
    clock(c, T0)
    c.execute_command("LB.CREATE", "h", "ORDER", "ASC", "PERIOD", 10, "RETAIN", 5)
    c.execute_command("LB.ADD", "h", 3, "a", "META", "ay", 1, "b")
    clock(c, T0 + 10000)
    c.execute_command("LB.ADD", "h", 7, "a")   # the same member in a new period
    c.zrem("h", "a")                           # removed from this period only
    c.execute_command("LB.ADD", "h", 2, "c")
    clock(c, T0 + 25000)
    c.zincrby("h", 4, "d")
    c.execute_command("ZPEXPIRE", "h", 3_600_000, "MEMBERS", 1, "d")


def snapshot_of(c):
    return (periods(c, "h"), [c.execute_command("LB.TOP", "h", 10, "WITHMETA", "PERIOD", p)
                              for p in (0, -1, -2)],
            c.execute_command("LB.STAMP", "h", "b", "PERIOD", -2), info(c, "h"))


@pytest.mark.parametrize("mode", ["log", "snapshot", "rewrite"])
def test_restart_keeps_the_periods(server_factory, tmp_path, mode):
    appendonly = mode != "snapshot"
    p = start(server_factory, tmp_path, appendonly)
    c = p.client()
    build_history(c)
    if mode == "rewrite":
        assert c.bgrewriteaof()
        wait_until(lambda: c.info("persistence")["aof_rewrite_in_progress"] == 0
                   and c.info("persistence")["aof_rewrites"] == 1)
        clock(c, T0 + 30000)
        c.execute_command("LB.ADD", "h", 9, "e")  # a roll and a write after the rewrite
    if mode == "snapshot":
        assert c.save()
    before = snapshot_of(c)
    assert c.execute_command("LB.TOP", "h", 10, "PERIOD", str(T0 + 10000)) == [[1, b"c", b"2"]]
    assert c.execute_command("LB.TOP", "h", 10, "WITHMETA", "PERIOD", str(T0))[1] == \
        [2, b"a", b"3", b"ay"]
    p.proc.kill()
    p.proc.wait(10)
    # The log replays rolls as they were, whatever the clock says at start-up.
    d = start(server_factory, tmp_path, appendonly).client()
    clock(d, T0 + (30000 if mode == "rewrite" else 25000))
    assert snapshot_of(d) == before
    assert d.execute_command("ZTTL", "h", "MEMBERS", 1, "d") != [-1]


def test_replica_follows_the_rolls(server_factory):
    primary, replica = server_factory(), server_factory()
    p, rep = primary.client(), replica.client()
    assert rep.execute_command("REPLICAOF", "127.0.0.1", primary.port) == b"OK"
    wait_until(lambda: rep.info("replication").get("master_link_status") == "up", timeout=15)
    build_history(p)
    assert p.execute_command("WAIT", 1, 10000) >= 1
    clock(rep, T0 + 25000)
    assert snapshot_of(rep) == snapshot_of(p)
    # A replica never rolls on its own: its reads still see the right period.
    clock(rep, T0 + 40000)
    assert top(rep, "h", "PERIOD", -2) == [(b"d", b"4")]
    assert rep.zcard("h") == 1  # the open period, until the primary's LB.ROLL
    clock(p, T0 + 40000)
    p.execute_command("LB.ADD", "h", 1, "z")
    assert p.execute_command("WAIT", 1, 10000) >= 1
    assert snapshot_of(rep) == snapshot_of(p)
    assert rep.zcard("h") == 1 and rep.zscore("h", "z") == 1
