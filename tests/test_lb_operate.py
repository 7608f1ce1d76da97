"""Operating leaderboards (issue 33, docs/leaderboards.md): LB.ALTER (SNAPSHOT EVERY,
RETAIN, TZ of an existing board), fixed-offset zones and refused abbreviations,
LB.CREATE ... ADOPT of a plain sorted set in place, LB.ADD ... AT bounds, and LB.RANKS's
counted MEMBERS form. Each change is checked after a restart from the log and on a
replica, where it has effects there."""

import re
from datetime import datetime
from zoneinfo import ZoneInfo

import pytest
import redis

from server_process import target_is_redis
from util import wait_until

pytestmark = pytest.mark.skipif(target_is_redis(), reason="leaderboards are rankd's own")

T0 = 1_800_000_000_000  # a multiple of 10 s


def clock(c, unix_ms):
    assert c.execute_command("DEBUG", "SET-PERIOD-CLOCK", unix_ms) == b"OK"


def info(c, key):
    reply = c.execute_command("LB.INFO", key)
    return dict(zip(reply[::2], reply[1::2])) if isinstance(reply, list) else reply


def offsets(c, key):
    return [row[4] for row in c.execute_command("LB.PERIODS", key)]


def primary_with_replica(server_factory, tmp_path):
    """A primary logging to tmp_path, its client, and a client of a replica of it."""
    args = ["--dir", str(tmp_path), "--appendonly", "yes", "--appendfsync", "always"]
    p = server_factory(extra_args=args)
    rc = server_factory().client()
    rc.execute_command("REPLICAOF", "127.0.0.1", p.port)
    return args, p, p.client(), rc


def restarted(server_factory, p, args):
    """A client of a new server on `p`'s log, after `p` is killed."""
    p.proc.kill()
    p.proc.wait(10)
    return server_factory(extra_args=args).client()


@pytest.fixture
def lb(r):
    yield r
    clock(r, 0)


def test_alter_retain_drops_at_once_and_keeps_the_rest(lb):
    clock(lb, T0)
    lb.execute_command("LB.CREATE", "k", "ORDER", "ASC", "TIES", "LAST", "PERIOD", 10)
    for i in range(4):
        clock(lb, T0 + i * 10000)
        lb.execute_command("LB.ADD", "k", i, "m%d" % i)
    assert offsets(lb, "k") == [0, -1, -2, -3]
    assert lb.execute_command("LB.ALTER", "k", "RETAIN", 1) == b"OK"
    assert offsets(lb, "k") == [0, -1]
    i = info(lb, "k")
    assert (i[b"retain"], i[b"order"], i[b"ties"], i[b"period"]) == (1, b"asc", b"last", b"10")
    assert lb.execute_command("LB.ALTER", "k", "SNAPSHOT", "EVERY", 30) == b"OK"
    assert info(lb, "k")[b"snapshot-every"] == 30
    assert info(lb, "k")[b"retain"] == 1  # not restated, kept


def test_alter_tz_moves_the_boundary(lb):
    # Noon UTC on a day: in UTC the day ends at midnight UTC, in UTC+8 at 16:00 UTC.
    noon = int(datetime(2027, 3, 10, 12, tzinfo=ZoneInfo("UTC")).timestamp() * 1000)
    clock(lb, noon)
    lb.execute_command("LB.CREATE", "d", "PERIOD", "DAILY", "RETAIN", 3)
    lb.execute_command("LB.ADD", "d", 5, "ana")
    assert info(lb, "d")[b"period-end"] == noon + 12 * 3600_000
    assert lb.execute_command("LB.ALTER", "d", "TZ", "UTC+8") == b"OK"
    i = info(lb, "d")
    assert (i[b"tz"], i[b"period-id"], i[b"retain"]) == (b"UTC+8", b"2027-03-10", 3)
    assert i[b"period-end"] == noon + 4 * 3600_000
    # Past the new boundary the day rolls: ana's score is yesterday's.
    clock(lb, noon + 5 * 3600_000)
    assert lb.zcard("d") == 0
    assert lb.execute_command("LB.RANK", "d", "ana", "PERIOD", -1) == [1, b"5"]
    assert lb.execute_command("LB.ALTER", "d", "TZ", "Etc/GMT-8") == b"OK"
    assert info(lb, "d")[b"period-id"] == b"2027-03-11"


@pytest.mark.parametrize("zone, offset_h", [("UTC+8", 8), ("UTC-05:30", -5.5), ("GMT+5:45", 5.75),
                                            ("Etc/GMT-8", 8), ("UTC+0", 0)])
def test_fixed_offset_zones(lb, zone, offset_h):
    clock(lb, T0)
    assert lb.execute_command("LB.CREATE", "z", "PERIOD", "DAILY", "TZ", zone) == b"OK"
    start = info(lb, "z")[b"period-start"]
    # Local midnight: start + offset is a whole UTC day.
    assert (start + int(offset_h * 3600_000)) % 86_400_000 == 0
    assert start <= T0 < start + 86_400_000
    # The zone's name is what a snapshot keeps: it loads back the same.
    assert lb.execute_command("DEBUG", "RELOAD") == b"OK"
    assert (info(lb, "z")[b"tz"], info(lb, "z")[b"period-start"]) == (zone.encode(), start)


@pytest.mark.parametrize("zone, says", [
    ("CST", "ambiguous abbreviation (US Central, China and Cuba time)"),
    ("IST", "ambiguous abbreviation (India, Israel and Irish time)"),
    ("XYZ", "abbreviations are ambiguous"),
    ("UTC+15", "unknown time zone 'UTC+15'"),
    ("UTC+8:5", "unknown time zone"),
    ("Mars/Olympus", "unknown time zone 'Mars/Olympus'"),
])
def test_refused_zones_say_why(lb, zone, says):
    for cmd in (["LB.CREATE", "z", "PERIOD", "DAILY", "TZ", zone], ["LB.ALTER", "p", "TZ", zone]):
        lb.execute_command("LB.CREATE", "p", "PERIOD", "WEEKLY")
        with pytest.raises(redis.ResponseError, match=re.escape(says)):
            lb.execute_command(*cmd)
    assert not lb.exists("z")
    assert info(lb, "p")[b"tz"] == b"UTC"


@pytest.mark.parametrize("setup, cmd, error", [
    ([], ["LB.ALTER", "nokey", "RETAIN", 1], "no such key"),
    ([["ZADD", "k", 1, "a"]], ["LB.ALTER", "k", "RETAIN", 1], "LB.CREATE key ADOPT"),
    ([["SET", "k", "v"]], ["LB.ALTER", "k", "RETAIN", 1], "WRONGTYPE"),
    ([["LB.CREATE", "k"]], ["LB.ALTER", "k", "RETAIN", 1], "not a periodic leaderboard"),
    ([["LB.CREATE", "k", "PERIOD", 60]], ["LB.ALTER", "k", "TZ", "UTC"], "TZ needs PERIOD"),
    ([["LB.CREATE", "k"]], ["LB.ALTER", "k", "RETAIN", -1], "RETAIN must be"),
    ([["LB.CREATE", "k"]], ["LB.ALTER", "k", "SNAPSHOT", "EVERY", -1], "SNAPSHOT EVERY must"),
    ([["LB.CREATE", "k"]], ["LB.ALTER", "k", "ORDER", "ASC"], "syntax error"),
    ([["LB.CREATE", "k"]], ["LB.ALTER", "k", "RETAIN"], "wrong number of arguments"),
])
def test_alter_errors_change_nothing(lb, setup, cmd, error):
    for s in setup:
        lb.execute_command(*s)
    with pytest.raises(redis.ResponseError, match=error):
        lb.execute_command(*cmd)


def test_adopt_keeps_order_ttl_and_deadlines(r):
    r.zadd("z", {"a": 5, "b": 5, "c": 5, "d": 9, "e": 1})
    r.pexpire("z", 600_000)
    r.execute_command("ZPEXPIRE", "z", 500_000, "MEMBERS", 1, "e")
    before = r.zrevrange("z", 0, -1)
    assert r.execute_command("LB.CREATE", "z", "ADOPT") == b"OK"
    assert [row[1] for row in r.execute_command("LB.TOP", "z", 10)] == before
    assert r.execute_command("LB.TOP", "z", 10, "MODE", "COMPETITION")[1:4] == [
        [2, b"c", b"5"], [2, b"b", b"5"], [2, b"a", b"5"]]
    assert 0 < r.pttl("z") <= 600_000
    assert 0 < r.execute_command("ZPTTL", "z", "MEMBERS", 1, "e")[0] <= 500_000
    assert info(r, "z")[b"next-seq"] == 6
    # New members tie after the adopted ones (FIRST: earlier is better).
    r.execute_command("LB.ADD", "z", 5, "f")
    assert r.execute_command("LB.RANK", "z", "f") == [5, b"5"]
    # Again on a board with the same policy: OK, nothing changes.
    assert r.execute_command("LB.CREATE", "z", "ADOPT") == b"OK"


def test_adopt_asc_ties_last(r):
    r.zadd("z", {"a": 1, "b": 1, "c": 2})
    assert r.execute_command("LB.CREATE", "z", "ORDER", "ASC", "TIES", "LAST", "ADOPT") == b"OK"
    assert r.zrange("z", 0, -1) == [b"a", b"b", b"c"]  # ZRANGE's order, unchanged


def test_adopt_a_tree_encoded_set_keeps_its_order(r):
    # Past zset-max-listpack-entries (the other encoding), with many ties, in both orders.
    members = {"m%03d" % i: i % 7 for i in range(300)}
    r.zadd("d", members)
    r.zadd("a", members)
    assert r.object("encoding", "d") == b"skiplist"
    want_d, want_a = r.zrevrange("d", 0, -1), r.zrange("a", 0, -1)
    assert r.execute_command("LB.CREATE", "d", "ADOPT") == b"OK"
    assert r.execute_command("LB.CREATE", "a", "ORDER", "ASC", "TIES", "LAST", "ADOPT") == b"OK"
    assert [row[1] for row in r.execute_command("LB.TOP", "d", 300)] == want_d
    assert [row[1] for row in r.execute_command("LB.TOP", "a", 300)] == want_a


def test_adopt_errors(r):
    r.zadd("z", {"a": 1})
    with pytest.raises(redis.ResponseError, match="LB.CREATE key ADOPT makes it one in place"):
        r.execute_command("LB.CREATE", "z")
    with pytest.raises(redis.ResponseError, match="periodic board starts empty"):
        r.execute_command("LB.CREATE", "z", "PERIOD", "DAILY", "ADOPT")
    assert r.object("encoding", "z") == b"listpack"


def test_adopt_survives_restart_and_reaches_replicas(server_factory, tmp_path):
    args, p, c, rc = primary_with_replica(server_factory, tmp_path)
    c.zadd("z", {"x": 3, "y": 3, "w": 7})
    c.pexpire("z", 3_600_000)
    c.execute_command("LB.CREATE", "z", "ORDER", "DESC", "TIES", "LAST", "ADOPT")
    c.execute_command("LB.CREATE", "d", "PERIOD", "DAILY")
    c.execute_command("LB.ALTER", "d", "TZ", "Asia/Kolkata", "RETAIN", 2)
    want = c.execute_command("LB.TOP", "z", 10)
    stamps = [c.execute_command("LB.STAMP", "z", m) for m in ("x", "y", "w")]
    wait_until(lambda: rc.execute_command("LB.TOP", "z", 10) == want, timeout=10)
    assert [rc.execute_command("LB.STAMP", "z", m) for m in ("x", "y", "w")] == stamps
    wait_until(lambda: info(rc, "d").get(b"tz") == b"Asia/Kolkata", timeout=10)
    c2 = restarted(server_factory, p, args)
    assert c2.execute_command("LB.TOP", "z", 10) == want
    assert [c2.execute_command("LB.STAMP", "z", m) for m in ("x", "y", "w")] == stamps
    assert c2.pttl("z") > 0
    assert (info(c2, "d")[b"tz"], info(c2, "d")[b"retain"]) == (b"Asia/Kolkata", 2)


@pytest.mark.parametrize("at", [-1, -1000, 253402300800000, 10**18])
def test_add_at_out_of_range_is_refused(r, at):
    with pytest.raises(redis.ResponseError, match="AT must be a Unix time in milliseconds"):
        r.execute_command("LB.ADD", "b", "AT", at, 5, "a")
    assert not r.exists("b")
    r.execute_command("LB.ADD", "b", "AT", 0, 5, "a")
    r.execute_command("LB.ADD", "b", "AT", 253402300799999, 6, "c")
    assert r.execute_command("LB.STAMP", "b", "c")[1] == 253402300799999


def test_ranks_members_form_takes_option_names_as_members(r):
    r.execute_command("LB.ADD", "b", 10, "MODE", 9, "PERIOD", 8, "SNAPSHOT", 7, "x")
    rows = r.execute_command("LB.RANKS", "b", "MEMBERS", 3, "SNAPSHOT", "x", "MODE")
    assert [row[1] for row in rows] == [b"MODE", b"SNAPSHOT", b"x"]
    rows = r.execute_command("LB.RANKS", "b", "MEMBERS", 2, "PERIOD", "MODE", "MODE", "DENSE")
    assert rows == [[1, b"MODE", b"10", 1], [2, b"PERIOD", b"9", 2]]
    # The uncounted form reads trailing MODE ... as an option, as documented.
    assert r.execute_command("LB.RANKS", "b", "x", "MODE", "DENSE") == [[1, b"x", b"7", 4]]
    with pytest.raises(redis.ResponseError, match="syntax error"):
        r.execute_command("LB.RANKS", "b", "MEMBERS", 1, "x", "BOGUS")


def test_late_scores_into_a_kept_closed_period(lb):
    clock(lb, T0)
    lb.execute_command("LB.CREATE", "k", "PERIOD", 10, "RETAIN", 2)
    lb.execute_command("LB.ADD", "k", 5, "a")
    clock(lb, T0 + 10000)
    lb.execute_command("LB.ADD", "k", 1, "now")
    # A late score for the period that just closed, by offset or by id.
    assert lb.execute_command("LB.ADD", "k", "PERIOD", -1, 7, "late") == [[b"7", 1, None]]
    assert lb.execute_command("LB.ADD", "k", "PERIOD", str(T0), "INCR", 1, "a") == [[b"6", 2, 2]]
    assert [row[1] for row in lb.execute_command("LB.TOP", "k", 10, "PERIOD", -1)] == \
        [b"late", b"a"]
    assert lb.zrange("k", 0, -1) == [b"now"]   # the current period is untouched
    # XX on a member absent from a period nobody wrote stores nothing.
    assert lb.execute_command("LB.ADD", "k", "PERIOD", -2, "XX", 1, "x") == [None]
    assert offsets(lb, "k") == [0, -1]
    # Periods no longer kept, the future, META and plain boards are refused.
    clock(lb, T0 + 40000)
    for ref in (-3, str(T0)):
        with pytest.raises(redis.ResponseError, match="no such period"):
            lb.execute_command("LB.ADD", "k", "PERIOD", ref, 1, "m")
    with pytest.raises(redis.ResponseError, match="META cannot be written into a closed"):
        lb.execute_command("LB.ADD", "k", "PERIOD", -1, 1, "m", "META", "x")
    lb.execute_command("LB.CREATE", "plain")
    with pytest.raises(redis.ResponseError, match="not a periodic leaderboard"):
        lb.execute_command("LB.ADD", "plain", "PERIOD", -1, 1, "m")


def test_load_into_a_period_is_refused_unless_kept_and_closed(lb):
    # LB.LOAD key PERIOD id (the log's form of LB.ADD ... PERIOD) stores only into a closed
    # period RETAIN keeps: an older one would be stored unlisted, the open one is not closed.
    clock(lb, T0)
    lb.execute_command("LB.CREATE", "k", "PERIOD", 10, "RETAIN", 1)
    lb.execute_command("LB.ADD", "k", 5, "a")
    clock(lb, T0 + 30000)
    lb.execute_command("LB.ADD", "k", 1, "now")
    row = ["ORDER", "DESC", "TIES", "FIRST", "NEXTSEQ", 5, 9, "x", 1, 1]
    for ref in (T0, T0 + 10000, T0 + 30000, T0 + 40000):
        with pytest.raises(redis.ResponseError, match="no such period"):
            lb.execute_command("LB.LOAD", "k", "PERIOD", str(ref), *row)
    with pytest.raises(redis.ResponseError, match="period id"):
        lb.execute_command("LB.LOAD", "k", "PERIOD", "bogus", *row)
    # Nothing was stored: a longer RETAIN lists no period but the open one.
    assert lb.execute_command("LB.ALTER", "k", "RETAIN", 10) == b"OK"
    assert offsets(lb, "k") == [0]
    # The period just closed (-1) is kept, and takes the row.
    assert lb.execute_command("LB.LOAD", "k", "PERIOD", str(T0 + 20000), *row) == 1
    assert lb.execute_command("LB.TOP", "k", 10, "PERIOD", -1) == [[1, b"x", b"9"]]


def test_late_scores_replay_and_replicate(server_factory, tmp_path):
    args, p, c, rc = primary_with_replica(server_factory, tmp_path)
    clock(c, T0)
    c.execute_command("LB.CREATE", "k", "PERIOD", 10)
    c.execute_command("LB.ADD", "k", 5, "a")
    clock(c, T0 + 10000)
    c.execute_command("LB.ADD", "k", 1, "b")
    c.execute_command("LB.ADD", "k", "PERIOD", -1, "AT", 1234, 9, "late")
    want = c.execute_command("LB.TOP", "k", 10, "PERIOD", str(T0))
    stamp = c.execute_command("LB.STAMP", "k", "late", "PERIOD", str(T0))
    assert stamp[1] == 1234
    wait_until(lambda: rc.execute_command("LB.TOP", "k", 10, "PERIOD", str(T0)) == want,
               timeout=10)
    c2 = restarted(server_factory, p, args)
    assert c2.execute_command("LB.TOP", "k", 10, "PERIOD", str(T0)) == want
    assert c2.execute_command("LB.STAMP", "k", "late", "PERIOD", str(T0)) == stamp
