"""Deadlines that have passed by the time a command is applied on a replica or replayed
from the log, as redis-server 7.0 (checkAlreadyExpired, keyIsExpired while loading):

- On a replica (writable, its own client here) EXPIREAT / PEXPIREAT / EXPIRE with a
  negative TTL, GETEX EXAT / PXAT and RESTORE ... ABSTTL in the past keep the key with its
  past deadline (reads see nothing; the primary's DEL removes it), where a primary
  deletes the key at once.
- While the log is replayed nothing expires: a key whose deadline passed while the
  server was down (in the log's base too, as Redis loads an AOF preamble) is still there
  for the commands logged after it, as when they first ran, and expires after the
  replay. Before, rankd deleted such a key during the replay
  and the next logged write (APPEND, SETRANGE...) brought it back without its deadline.

Valid with RANKD_TARGET_REDIS=1."""

import time

from test_persistence import crash, start
from test_replication import link_up, wait_for


def past_deadline_effects(c, payload):
    """Each command with a past deadline in one MULTI, with DBSIZE after each."""
    c.flushall()
    c.mset({"a": "1", "b": "2", "c": "3", "d": "4"})
    pipe = c.pipeline(transaction=True)
    pipe.execute_command("EXPIREAT", "a", 1)
    pipe.dbsize()
    pipe.execute_command("PEXPIREAT", "b", 1, "GT")  # GT against no deadline: refused
    pipe.execute_command("PEXPIRE", "b", -5)
    pipe.dbsize()
    pipe.execute_command("GETEX", "c", "PXAT", 1)
    pipe.dbsize()
    pipe.execute_command("RESTORE", "r", 1, payload, "ABSTTL")
    pipe.dbsize()
    pipe.execute_command("RESTORE", "d", 1, payload, "ABSTTL", "REPLACE")
    pipe.dbsize()
    return pipe.execute()


def test_past_deadlines_on_a_primary_and_on_a_replica(server_factory):
    primary = server_factory().client()
    rep = server_factory(["--replica-read-only", "no"]).client()
    port = primary.connection_pool.connection_kwargs["port"]
    primary.set("tmp", "v")
    payload = primary.dump("tmp")
    assert rep.execute_command("REPLICAOF", "127.0.0.1", port) == b"OK"
    wait_for(lambda: link_up(rep), what="link up")

    # A primary deletes at once (RESTORE creates nothing, its REPLACE deletes the old key).
    assert past_deadline_effects(primary, payload) == [
        1, 3, 0, 1, 2, b"3", 1, b"OK", 1, b"OK", 0]
    # A replica keeps every key with its past deadline.
    assert past_deadline_effects(rep, payload) == [
        1, 4, 0, 1, 4, b"3", 4, b"OK", 5, b"OK", 5]
    # ... and no reader sees them.
    assert [rep.exists(k) for k in ("a", "b", "c", "d", "r")] == [0] * 5
    assert rep.get("c") is None and rep.pttl("d") == -2


def rewrite_done(c):
    info = c.info("persistence")
    return not info["aof_rewrite_in_progress"] and not info["aof_rewrite_scheduled"]


def test_keys_due_while_down_stay_dead_after_the_log_is_replayed(server_factory, tmp_path):
    p = start(server_factory, tmp_path, "--save", "")
    c = p.client()
    now_ms = int(time.time() * 1000)
    c.set("append", "v")
    c.pexpire("append", 1000)
    c.append("append", "x")
    c.set("range", "v")
    c.pexpireat("range", now_ms + 1000)
    c.setrange("range", 5, "y")
    c.set("getex", "v")
    c.execute_command("GETEX", "getex", "PXAT", now_ms + 1000)
    c.incr("getex:n")
    c.pexpire("getex:n", 1000)
    c.incr("getex:n")
    c.set("kept", "v")
    c.pexpire("kept", 600_000)
    c.append("kept", "x")
    # A key in the log's base (the rewrite), written to after it.
    c.set("based", "v")
    c.pexpireat("based", now_ms + 1000)
    c.bgrewriteaof()
    wait_for(lambda: rewrite_done(c), what="the log rewrite")
    c.append("based", "x")
    assert c.pttl("based") > 0, "too slow: the test needs the keys alive until the crash"
    crash(p)  # before any of them expired: the log holds no DEL
    time.sleep(max(0.0, (now_ms + 1200) / 1000 - time.time()))
    q = start(server_factory, tmp_path, "--save", "")
    c = q.client()
    wait_for(lambda: c.info("persistence")["loading"] == 0, what="the load")
    assert sorted(c.keys("*")) == [b"kept"]
    assert c.get("kept") == b"vx" and 0 < c.pttl("kept") <= 600_000
