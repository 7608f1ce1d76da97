"""Changes that time makes on its own (issue 33): a periodic board's rollover (and the
RETAIN drop that comes with it), a SNAPSHOT EVERY view refresh and member expiry reach
LB.WATCH watchers, CLIENT TRACKING caches, keyspace events, replicas and the log when
they happen, with nobody touching the key afterwards.

The period clock is pinned with DEBUG SET-PERIOD-CLOCK and boards are created with NOW
(no waiting for a boundary), and one test per feature uses the real clock. A missing
message shows as a read that times out; no test asserts on how long anything took."""

import glob
import os
import time

import pytest

from resp_client import resp3_client
from server_process import target_is_redis
from test_pubsub import read_push
from util import wait_until

pytestmark = pytest.mark.skipif(target_is_redis(), reason="leaderboards are rankd's own")

T0 = 1_699_999_980_000  # a multiple of 60 s


def clock(c, unix_ms):
    assert c.execute("DEBUG", "SET-PERIOD-CLOCK", str(unix_ms)) == b"OK"


@pytest.fixture
def admin(raw):
    """A raw client on a flushed server; the period clock and events reset afterwards."""
    yield raw
    clock(raw, 0)
    raw.execute("CONFIG", "SET", "notify-keyspace-events", "")


def psubscribe(c):
    c.send_command("PSUBSCRIBE", "__keyevent@0__:*")
    assert read_push(c)[0] == b"psubscribe"


class Listeners:
    """A watcher of `key`'s top 5, a tracking client that cached LB.TOP, and a keyspace
    event subscriber, all RESP3."""

    def __init__(self, server, key, *read_opts):
        self.key = key.encode()
        self.watcher = resp3_client(server.port)
        self.watcher.send_command("LB.WATCH", key, "TOP", "5")
        assert read_push(self.watcher)[0] == b"lb.watch"
        self.first_top = read_push(self.watcher)
        self.tracker = resp3_client(server.port)
        assert self.tracker.execute("CLIENT", "TRACKING", "ON") == b"OK"
        self.cached = self.tracker.execute("LB.TOP", key, "5", *read_opts)
        self.events = resp3_client(server.port)
        psubscribe(self.events)

    def event(self):
        msg = read_push(self.events)
        assert msg[0] == b"pmessage" and msg[3] == self.key, msg
        return msg[2].decode().split(":", 1)[1]

    def close(self):
        for c in (self.watcher, self.tracker, self.events):
            c.close()


def test_rollover_reaches_everyone_without_a_touch(server, admin):
    admin.execute("CONFIG", "SET", "notify-keyspace-events", "KEz")
    clock(admin, T0 + 1000)
    assert admin.execute("LB.CREATE", "pb", "PERIOD", "60", "RETAIN", "1",
                         "NOW", str(T0 + 1000)) == b"OK"
    admin.execute("LB.ADD", "pb", "5", "a")
    who = Listeners(server, "pb")
    try:
        assert who.first_top[2] == [[1, b"a", 5.0]]
        assert who.cached == [[1, b"a", 5.0]]
        clock(admin, T0 + 60000)  # the boundary passes; nobody touches pb
        assert read_push(who.watcher) == [b"lb.top", b"pb", []]
        assert read_push(who.tracker) == [b"invalidate", [b"pb"]]
        assert who.event() == "lb.roll"
        # Two more periods: the roll drops the period RETAIN 1 no longer keeps.
        clock(admin, T0 + 180000)
        assert who.event() == "lb.roll"
        assert admin.execute("LB.PERIODS", "pb") == [
            [str(T0 + 180000).encode(), T0 + 180000, T0 + 240000, 0, 0]]
    finally:
        who.close()


def test_rollover_with_the_real_clock(server, admin):
    # Start early in a 2 s period so the write and the watch land in it.
    wait_until(lambda: time.time() * 1000 % 2000 < 500, timeout=5, interval=0.01)
    admin.execute("LB.CREATE", "pb", "PERIOD", "2")
    admin.execute("LB.ADD", "pb", "5", "a")
    who = Listeners(server, "pb")
    try:
        assert who.first_top[2] == [[1, b"a", 5.0]]
        assert read_push(who.watcher, timeout=10) == [b"lb.top", b"pb", []]
        assert read_push(who.tracker, timeout=10) == [b"invalidate", [b"pb"]]
    finally:
        who.close()


def test_replica_and_log_get_the_roll_without_a_touch(server_factory):
    primary = server_factory(["--appendonly", "yes"])
    replica = server_factory()
    p, rep = primary.raw(), replica.raw()
    try:
        assert rep.execute("REPLICAOF", "127.0.0.1", str(primary.port)) == b"OK"
        wait_until(lambda: b"master_link_status:up" in rep.execute("INFO", "replication"))
        clock(p, T0)
        p.execute("LB.CREATE", "pb", "PERIOD", "60", "NOW", str(T0))
        p.execute("LB.ADD", "pb", "5", "a")
        wait_until(lambda: rep.execute("ZCARD", "pb") == 1)
        clock(p, T0 + 60000)  # the primary's cron rolls; nothing else is sent
        wait_until(lambda: rep.execute("ZCARD", "pb") == 0)
        assert rep.execute("LB.PERIODS", "pb")[-1][:4] == [str(T0).encode(), T0, T0 + 60000, 1]

        def logged():
            data = b"".join(open(f, "rb").read() for f in
                            glob.glob(os.path.join(primary.dir, "**", "*.aof*"), recursive=True)
                            if os.path.isfile(f))
            return b"LB.ROLL" in data
        wait_until(logged)
    finally:
        clock(p, 0)
        p.close()
        rep.close()


def test_snapshot_refresh_invalidates_and_publishes(server, admin):
    admin.execute("CONFIG", "SET", "notify-keyspace-events", "KEz")
    admin.execute("LB.CREATE", "sb", "SNAPSHOT", "EVERY", "1")
    admin.execute("LB.ADD", "sb", "5", "a")
    who = Listeners(server, "sb", "SNAPSHOT")
    try:
        # The view is refreshed at most a second later: the cached SNAPSHOT read is
        # stale, the live top (what LB.WATCH follows) did not change.
        assert read_push(who.tracker, timeout=10) == [b"invalidate", [b"sb"]]
        assert who.event() == "lb.snapshot"
        admin.execute("LB.ADD", "sb", "9", "b")  # the watcher's next message is this one
        assert read_push(who.watcher)[2] == [[1, b"b", 9.0], [2, b"a", 5.0]]
    finally:
        who.close()


def test_lb_snapshot_command_invalidates_and_publishes(server, admin):
    admin.execute("CONFIG", "SET", "notify-keyspace-events", "KEz")
    admin.execute("LB.CREATE", "vb")
    admin.execute("LB.ADD", "vb", "5", "a")
    who = Listeners(server, "vb", "SNAPSHOT")
    try:
        assert admin.execute("LB.SNAPSHOT", "vb") == 1
        assert read_push(who.tracker) == [b"invalidate", [b"vb"]]
        assert who.event() == "lb.snapshot"
        admin.execute("LB.ADD", "vb", "9", "b")  # LB.SNAPSHOT sent the watcher nothing
        assert read_push(who.watcher)[2] == [[1, b"b", 9.0], [2, b"a", 5.0]]
        assert who.event() == "lb.add"
    finally:
        who.close()


def test_member_expiry_reaches_watchers_and_trackers(server, admin):
    admin.execute("LB.CREATE", "mb")
    admin.execute("LB.ADD", "mb", "5", "a", "3", "b")
    who = Listeners(server, "mb")
    try:
        admin.execute("ZPEXPIRE", "mb", "50", "MEMBERS", "1", "a")
        # ZPEXPIRE itself is a write: it invalidates; the expiry invalidates again.
        assert read_push(who.tracker) == [b"invalidate", [b"mb"]]
        who.tracker.execute("LB.TOP", "mb", "5")
        assert read_push(who.watcher, timeout=10) == [b"lb.top", b"mb", [[1, b"b", 3.0]]]
        assert read_push(who.tracker, timeout=10) == [b"invalidate", [b"mb"]]
    finally:
        who.close()


def _events_until_del(sub, key):
    got = []
    while not got or got[-1] != "del":
        msg = read_push(sub)
        if msg[0] == b"pmessage" and msg[3] == key:
            got.append(msg[2].decode().split(":", 1)[1])
    return got


@pytest.mark.parametrize("active", [True, False])
def test_member_expiry_that_empties_a_set_publishes_del(server, admin, active):
    admin.execute("CONFIG", "SET", "notify-keyspace-events", "KEA")
    sub = resp3_client(server.port)
    try:
        psubscribe(sub)
        if not active:
            admin.execute("DEBUG", "SET-ACTIVE-EXPIRE", "0")
        admin.execute("ZADD", "zx", "1", "m")
        assert admin.execute("ZPEXPIRE", "zx", "50", "MEMBERS", "1", "m") == [1]
        if not active:
            time.sleep(0.1)
            assert admin.execute("EXISTS", "zx") == 0  # the lookup reclaims it
        assert _events_until_del(sub, b"zx") == ["zadd", "zexpire", "zexpired", "del"]
        assert admin.execute("EXISTS", "zx") == 0
    finally:
        admin.execute("DEBUG", "SET-ACTIVE-EXPIRE", "1")
        sub.close()


def test_hash_field_expiry_events_for_comparison(server, admin):
    admin.execute("CONFIG", "SET", "notify-keyspace-events", "KEA")
    sub = resp3_client(server.port)
    try:
        psubscribe(sub)
        admin.execute("HSET", "hx", "f", "v")
        admin.execute("HPEXPIRE", "hx", "50", "FIELDS", "1", "f")
        assert _events_until_del(sub, b"hx") == ["hset", "hexpire", "hexpired", "del"]
    finally:
        sub.close()
