"""Expiry on a replica, as Redis 7.0: the primary's DEL removes an expired key.

A replica never deletes a key its primary gave a deadline: past the deadline the
key reads as missing to the replica's clients (GET, EXISTS, TTL, TYPE, KEYS, SCAN)
while DBSIZE still counts it, until the primary's DEL arrives; the primary's stream
still sees the key (a PERSIST or PEXPIRE the primary made before the deadline
applies on the replica even when it arrives after it). A writable replica expires
the deadlines its own clients set. Sorted-set members (ZEXPIRE) and hash fields
(HEXPIRE) are removed by the primary's ZREM / HDEL only.

The key tests run against a pair of the servers under test and, where rankd is
tested, against a redis-server 7.0 pair too, with the same sequence and assertions.
The primary's DEL, ZREM and HDEL are held back with DEBUG SET-ACTIVE-EXPIRE 0 (nothing
reads the key there), the replica's reading of the stream with SIGSTOP.
"""

import os
import signal
import time

import pytest

from server_process import reference_redis, target_is_redis
from test_replication import link_up, wait_for

KINDS = ["under_test"] + ([] if target_is_redis() else ["redis_ref"])


@pytest.fixture
def make_pair(server_factory):
    """make_pair(kind, replica_args) -> (primary, replica, p, rep): a replica attached
    and synced. kind "under_test": the servers under test; "redis_ref": redis-server."""
    started, clients = [], []

    def start(kind, args):
        if kind == "under_test":
            return server_factory(args)
        proc = reference_redis(["--repl-diskless-sync-delay", "0"] + list(args))
        started.append(proc)
        return proc.start()

    def make(kind, replica_args=()):
        primary, replica = start(kind, ()), start(kind, replica_args)
        p, rep = primary.client(), replica.client()
        clients.extend([p, rep])
        assert rep.execute_command("REPLICAOF", "127.0.0.1", primary.port) == b"OK"
        wait_for(lambda: link_up(rep), what="the link")
        return primary, replica, p, rep

    yield make
    for c in clients:
        c.close()
    for proc in started:
        if proc.alive():
            os.kill(proc.pid, signal.SIGCONT)
        proc.stop()


def synced(p):
    assert p.execute_command("WAIT", 1, 10000) == 1


def sleep_past(deadline_ms, margin_ms=150):
    """Sleeps until the wall clock is past a deadline (unix ms)."""
    delay = (deadline_ms + margin_ms) / 1000.0 - time.time()
    if delay > 0:
        time.sleep(delay)


@pytest.mark.parametrize("kind", KINDS)
def test_expired_key_reads_missing_until_the_primary_deletes_it(make_pair, kind):
    primary, replica, p, rep = make_pair(kind)
    assert p.execute_command("DEBUG", "SET-ACTIVE-EXPIRE", "0") == b"OK"
    p.set("other", "v")
    p.set("k", "v", px=200)
    p1 = primary.client(db=1)
    p1.set("vol", "x", px=200)
    p1.close()
    synced(p)
    # Past the deadline the replica answers as if the key did not exist...
    wait_for(lambda: rep.get("k") is None, what="the deadline on the replica")
    assert rep.exists("k") == 0
    assert rep.ttl("k") == -2
    assert rep.pttl("k") == -2
    assert rep.type("k") == b"none"
    assert rep.object("encoding", "k") is None
    assert rep.strlen("k") == 0
    assert rep.keys("*") == [b"other"]
    assert rep.scan(0, count=100)[1] == [b"other"]
    # ...but keeps it: DBSIZE and INFO keyspace still count it.
    assert rep.dbsize() == 2
    ks = rep.info("keyspace")["db0"]
    assert (ks["keys"], ks["expires"]) == (2, 1)
    # A database of expired keys only: RANDOMKEY still names one (Redis dbRandomKey).
    rep1 = replica.client(db=1)
    assert rep1.dbsize() == 1
    assert rep1.randomkey() == b"vol"
    rep1.close()
    # The primary still holds it too (nothing read it there).
    assert p.dbsize() == 2
    # The primary's lazy expiry sends DEL: now it is gone from the replica.
    assert p.get("k") is None
    wait_for(lambda: rep.dbsize() == 1, what="the primary's DEL on the replica")
    assert rep.keys("*") == [b"other"]


@pytest.mark.parametrize("kind", KINDS)
def test_primary_stream_acts_on_a_key_past_its_deadline(make_pair, kind):
    """The replica gets the primary's PERSIST / PEXPIRE after the deadline it
    replaces: they still apply there, as they did on the primary."""
    primary, replica, p, rep = make_pair(kind)
    synced(p)
    os.kill(replica.pid, signal.SIGSTOP)
    try:
        p.set("kept", "v", px=1500)
        p.set("longer", "w", px=1500)
        deadline = p.execute_command("PEXPIRETIME", "kept")
        assert p.persist("kept") == 1
        assert p.pexpire("longer", 600000) == 1
        sleep_past(deadline)
    finally:
        os.kill(replica.pid, signal.SIGCONT)
    synced(p)
    assert rep.get("kept") == b"v"
    assert rep.ttl("kept") == -1
    assert rep.get("longer") == b"w"
    assert rep.execute_command("PEXPIRETIME", "longer") == \
        p.execute_command("PEXPIRETIME", "longer")
    assert rep.dbsize() == p.dbsize() == 2


@pytest.mark.parametrize("kind", KINDS)
def test_writable_replica_expires_its_own_deadlines(make_pair, kind):
    primary, replica, p, rep = make_pair(kind, ["--replica-read-only", "no"])
    assert p.execute_command("DEBUG", "SET-ACTIVE-EXPIRE", "0") == b"OK"
    p.set("theirs", "v", px=200)
    p.set("theirs2", "v", px=200)
    synced(p)
    assert rep.set("mine", "x", px=200)
    assert rep.set("mine2", "x")
    assert rep.pexpire("mine2", 200) == 1
    # The replica's own deadlines: its active expiry deletes them (nobody reads
    # them); the primary's stay until the primary's DEL.
    wait_for(lambda: rep.dbsize() == 2, what="the replica's own expiry")
    assert rep.info("stats")["expired_keys"] >= 2
    assert rep.get("theirs") is None
    assert rep.dbsize() == 2
    # A write of the replica's own client replaces a key past its deadline...
    assert rep.set("theirs2", "new", keepttl=True)
    assert rep.get("theirs2") == b"new"
    assert rep.ttl("theirs2") == -1
    # ...and DEL deletes and counts one (Redis's DEL after expireIfNeeded).
    assert rep.delete("theirs") == 1
    assert rep.dbsize() == 1


@pytest.mark.parametrize("kind", KINDS)
def test_promoted_replica_expires_keys_itself(make_pair, kind):
    primary, replica, p, rep = make_pair(kind)
    assert p.execute_command("DEBUG", "SET-ACTIVE-EXPIRE", "0") == b"OK"
    p.set("k", "v", px=200)
    p.set("other", "v")
    synced(p)
    wait_for(lambda: rep.get("k") is None, what="the deadline on the replica")
    assert rep.dbsize() == 2
    assert rep.execute_command("REPLICAOF", "NO", "ONE") == b"OK"
    wait_for(lambda: rep.dbsize() == 1, what="the promoted replica's active expiry")
    assert rep.keys("*") == [b"other"]


def expiring_member(p, key, scores, ms=200):
    """Creates sorted set `key` with `scores`, its first member due in `ms`; returns
    that member's deadline (unix ms)."""
    p.zadd(key, scores)
    first = next(iter(scores))
    assert p.execute_command("ZPEXPIRE", key, ms, "MEMBERS", 1, first) == [1]
    return p.execute_command("ZPEXPIRETIME", key, "MEMBERS", 1, first)[0]


@pytest.mark.skipif(target_is_redis(), reason="ZEXPIRE is rankd's; HEXPIRE is Redis 7.4's")
def test_member_and_field_expiry_waits_for_the_primary(make_pair):
    primary, replica, p, rep = make_pair("under_test")
    # Holds back the primary's ZREM / HDEL (its member timer and field cron).
    assert p.execute_command("DEBUG", "SET-ACTIVE-EXPIRE", "0") == b"OK"
    expiring_member(p, "z", {"a": 1, "b": 2})
    p.hset("h", mapping={"f": "1", "g": "2"})
    assert p.execute_command("HPEXPIRE", "h", 200, "FIELDS", 1, "f") == [1]
    deadline = expiring_member(p, "gone", {"only": 1})
    synced(p)
    deadline = max(deadline, p.execute_command("HPEXPIRETIME", "h", "FIELDS", 1, "f")[0])
    sleep_past(deadline, margin_ms=300)  # the replica's cron and timers had their turn
    # The replica removed nothing itself: its data is still the primary's.
    assert rep.zrange("z", 0, -1, withscores=True) == [(b"a", 1.0), (b"b", 2.0)]
    assert rep.zcard("gone") == 1
    assert sorted(rep.hkeys("h")) == [b"f", b"g"]
    assert rep.dbsize() == 3
    assert rep.info("stats")["expired_members"] == 0
    # The primary's removals arrive and the replica follows.
    assert p.execute_command("DEBUG", "SET-ACTIVE-EXPIRE", "1") == b"OK"
    wait_for(lambda: rep.zrange("z", 0, -1) == [b"b"], what="the primary's ZREM")
    wait_for(lambda: rep.hkeys("h") == [b"g"], what="the primary's HDEL")
    wait_for(lambda: rep.exists("gone") == 0, what="the emptied set's removal")
    synced(p)
    assert rep.dbsize() == p.dbsize() == 2


@pytest.mark.skipif(target_is_redis(), reason="ZEXPIRE is rankd's")
def test_promoted_replica_expires_members_itself(make_pair):
    primary, replica, p, rep = make_pair("under_test")
    assert p.execute_command("DEBUG", "SET-ACTIVE-EXPIRE", "0") == b"OK"
    deadline = expiring_member(p, "z", {"a": 1, "b": 2})
    synced(p)
    sleep_past(deadline)
    assert rep.zcard("z") == 2
    assert rep.execute_command("REPLICAOF", "NO", "ONE") == b"OK"
    wait_for(lambda: rep.info("stats")["expired_members"] == 1,
             what="the promoted replica's member expiry")
    assert rep.zrange("z", 0, -1) == [b"b"]
