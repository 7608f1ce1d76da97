"""INFO leaderboards (issue 33, docs/commands.md): counts of boards, periodic boards,
SNAPSHOT EVERY boards, stable views, LB.WATCH watches and pending member deadlines, kept
right as keys are created, renamed, moved, deleted, expired, flushed and swapped. Only
INFO leaderboards shows it: INFO, INFO all and INFO everything keep Redis 7.0's list."""

import pytest

from resp_client import resp3_client
from server_process import target_is_redis
from test_pubsub import read_push
from util import parse_info, wait_until

pytestmark = pytest.mark.skipif(target_is_redis(), reason="rankd's own section")

ZERO = {"boards": 0, "periodic_boards": 0, "scheduled_snapshot_boards": 0, "snapshots": 0,
        "watched_boards": 0, "watchers": 0, "member_deadline_keys": 0, "member_deadlines": 0,
        "next_member_deadline_ms": -1}


def lbinfo(c):
    text = c.execute("INFO", "leaderboards")
    assert text.startswith(b"# Leaderboards\r\n")
    return {k: int(v) for k, v in parse_info(text).items()}


def expect(c, **changes):
    want = dict(ZERO, **changes)
    got = lbinfo(c)
    if want["next_member_deadline_ms"] == "any":
        want["next_member_deadline_ms"] = got["next_member_deadline_ms"]
    assert got == want


def test_counts_follow_the_keyspace(server, raw):
    c = raw
    expect(c)
    c.execute("ZADD", "plain", "1", "a")  # a plain sorted set is not a board
    c.execute("LB.CREATE", "b1")
    c.execute("LB.ADD", "b1", "5", "a", "3", "b")
    c.execute("LB.CREATE", "daily", "PERIOD", "DAILY", "TZ", "UTC")
    c.execute("LB.CREATE", "sched", "SNAPSHOT", "EVERY", "3600")
    c.execute("LB.ADD", "sched", "1", "x")  # its lookup takes the first view
    expect(c, boards=3, periodic_boards=1, scheduled_snapshot_boards=1, snapshots=1)
    assert c.execute("LB.SNAPSHOT", "b1") == 2
    expect(c, boards=3, periodic_boards=1, scheduled_snapshot_boards=1, snapshots=2)
    # Member deadlines, on boards and plain sets alike.
    assert c.execute("ZEXPIRE", "b1", "1000", "MEMBERS", "2", "a", "b") == [1, 1]
    assert c.execute("ZEXPIRE", "plain", "2000", "MEMBERS", "1", "a") == [1]
    got = lbinfo(c)
    assert got["member_deadline_keys"] == 2 and got["member_deadlines"] == 3
    assert got["next_member_deadline_ms"] == c.execute("ZPEXPIRETIME", "b1", "MEMBERS", "1",
                                                       "a")[0]
    c.execute("ZPERSIST", "b1", "MEMBERS", "1", "b")
    assert lbinfo(c)["member_deadlines"] == 2
    # Renamed, moved, copied, deleted, replaced by another type.
    c.execute("RENAME", "b1", "b2")
    c.execute("COPY", "daily", "daily2")
    c.execute("MOVE", "sched", "1")
    # INFO sums the databases: sched counts in database 1 as it did in 0.
    expect(c, boards=4, periodic_boards=2, scheduled_snapshot_boards=1, snapshots=2,
           member_deadline_keys=2, member_deadlines=2, next_member_deadline_ms="any")
    c.execute("DEL", "daily2")
    c.execute("SET", "daily", "now a string")
    c.execute("SELECT", "1")
    expect(c, boards=2, scheduled_snapshot_boards=1, snapshots=2, member_deadline_keys=2,
           member_deadlines=2, next_member_deadline_ms="any")
    c.execute("SWAPDB", "0", "1")
    c.execute("FLUSHDB")  # database 1 now holds what 0 held
    expect(c, boards=1, scheduled_snapshot_boards=1, snapshots=1)
    c.execute("SELECT", "0")
    c.execute("PEXPIRE", "sched", "1")
    wait_until(lambda: lbinfo(c)["boards"] == 0)
    expect(c)


def test_member_expiry_empties_the_count(server, raw):
    raw.execute("ZADD", "q", "1", "a", "2", "b")
    raw.execute("ZPEXPIRE", "q", "30", "MEMBERS", "2", "a", "b")
    assert lbinfo(raw)["member_deadlines"] == 2
    wait_until(lambda: lbinfo(raw) == ZERO)  # reclaimed by the active cycle


def test_watchers(server, raw):
    raw.execute("LB.CREATE", "w1")
    raw.execute("LB.CREATE", "w2")
    a, b = resp3_client(server.port), resp3_client(server.port)
    try:
        for c, keys in ((a, ["w1", "w2"]), (b, ["w1", "missing"])):
            for k in keys:
                c.send_command("LB.WATCH", k, "TOP", "3")
                read_push(c), read_push(c)
        expect(raw, boards=2, watched_boards=3, watchers=4)
        a.send_command("LB.UNWATCH", "w2")
        read_push(a)
        expect(raw, boards=2, watched_boards=2, watchers=3)
    finally:
        a.close()
    wait_until(lambda: lbinfo(raw)["watchers"] == 2)
    b.close()
    wait_until(lambda: lbinfo(raw) == dict(ZERO, boards=2))


def test_only_when_named(server, raw):
    for args in ((), ("all",), ("everything",), ("default",)):
        assert b"# Leaderboards" not in raw.execute("INFO", *args), args
    both = raw.execute("INFO", "keyspace", "leaderboards")
    assert b"# Leaderboards" in both and b"# Keyspace" in both
