"""Partial resynchronisation after a restart (issue 13).

As Redis 7.0, every snapshot of a replica (and of a primary with a backlog)
records the replication history its data continues (aux fields repl-id,
repl-offset, repl-stream-db). A replica restarted from that snapshot offers
it in PSYNC and continues with +CONTINUE when the primary's backlog still
holds what it lacks; a restarted primary keeps it as replid2 so its
replicas continue. The offset always matches the data exactly: a snapshot
older than the replica's link, a backlog that no longer covers it, or data
loaded from an append-only log (which holds more than the snapshot) never
continue from the wrong place.
"""

import os
import shutil
import subprocess

import pytest

from server_process import reference_redis, target_is_redis
from test_migrate_from_redis import assert_same
from test_replication import dump, info_repl, link_up, wait_for

pytestmark = pytest.mark.skipif(
    target_is_redis(), reason="rankd processes on both sides (redis-server cases use the "
                              "reference binary explicitly)")


def stats(client):
    info = client.info("stats")
    return {k: info[k] for k in ("sync_full", "sync_partial_ok", "sync_partial_err")}


def relaunch(proc, extra_args=None):
    """Starts `proc` again on its port and directory (after a SIGKILL or SHUTDOWN)."""
    if extra_args is not None:
        proc.extra_args = [str(a) for a in extra_args]
    with open(proc.log_path, "ab") as log:
        proc.proc = subprocess.Popen(proc.command_line(), stdout=log, stderr=subprocess.STDOUT,
                                     stdin=subprocess.DEVNULL)
    proc.wait_ready()
    return proc


def kill(proc):
    proc._kill()


def shutdown(client, proc, *args):
    try:
        client.execute_command("SHUTDOWN", *args)
    except Exception:  # the connection closes
        pass
    assert proc.wait_exit(10) is not None


def bgsave(client):
    before = client.info("persistence")["rdb_changes_since_last_save"]
    client.bgsave()
    wait_for(lambda: client.info("persistence")["rdb_bgsave_in_progress"] == 0 and
             client.info("persistence")["rdb_last_bgsave_status"] == "ok", what="BGSAVE")
    del before


def digest(client):
    return client.execute_command("DEBUG", "DIGEST")


def caught_up(p, rep):
    want = info_repl(p)["master_repl_offset"]
    return link_up(rep) and info_repl(rep)["master_repl_offset"] == want


def same(p, rep):
    wait_for(lambda: caught_up(p, rep), what="the replica's offset")
    wait_for(lambda: digest(p) == digest(rep), what="identical DEBUG DIGEST")
    assert dump(p) == dump(rep)


def writes(p, tag, n=200):
    pipe = p.pipeline(transaction=False)
    for i in range(n):
        pipe.zadd("board", {"%s-%d" % (tag, i): i})
        pipe.hset("h", "%s-%d" % (tag, i), i)
        pipe.incr("counter")
    pipe.execute(raise_on_error=True)
    p.execute_command("SELECT", 3)
    p.set("db3-" + tag, tag)
    p.execute_command("SELECT", 0)
    p.set("ttl-" + tag, "v", ex=3600)


def restart_and_count(p, replica, extra_args=None):
    """Relaunches `replica` from its data; returns (its client, the primary's counters
    before it reconnected, after it caught up)."""
    before = stats(p)
    relaunch(replica, extra_args)
    rep = replica.client()
    wait_for(lambda: link_up(rep), what="the link after the restart")
    same(p, rep)
    return rep, before, stats(p)


def start_pair(server_factory, primary_args=(), replica_args=()):
    primary = server_factory(list(primary_args))
    replica = server_factory(["--replicaof", "127.0.0.1", primary.port] + list(replica_args))
    p, rep = primary.client(), replica.client()
    wait_for(lambda: link_up(rep), what="the link")
    return primary, replica, p, rep


@pytest.mark.parametrize("how", ["sigkill-after-bgsave", "shutdown"])
def test_restarted_replica_continues(server_factory, how):
    primary, replica, p, rep = start_pair(server_factory)
    writes(p, "a")
    same(p, rep)
    if how == "sigkill-after-bgsave":
        bgsave(rep)          # the snapshot: history at this offset
        writes(p, "b")       # the replica applies more than its snapshot holds
        same(p, rep)
        kill(replica)
    else:
        shutdown(rep, replica, "SAVE")
    rep.close()
    writes(p, "c")           # missed while down
    rep, before, after = restart_and_count(p, replica)
    writes(p, "d")
    same(p, rep)
    assert after["sync_partial_ok"] == before["sync_partial_ok"] + 1
    assert after["sync_full"] == before["sync_full"]
    with open(replica.log_path, "rb") as f:
        log = f.read()
    assert b"Successful partial resynchronization with master" in log


def test_backlog_that_no_longer_covers_it_means_full_sync(server_factory):
    primary, replica, p, rep = start_pair(server_factory, ["--repl-backlog-size", "16kb"])
    writes(p, "a")
    same(p, rep)
    shutdown(rep, replica, "SAVE")
    rep.close()
    for tag in ("b", "c", "e"):
        writes(p, tag, 300)  # far more than 16 KB
    rep, before, after = restart_and_count(p, replica)
    assert after["sync_full"] == before["sync_full"] + 1
    assert after["sync_partial_ok"] == before["sync_partial_ok"]
    assert after["sync_partial_err"] == before["sync_partial_err"] + 1


def test_older_snapshot_continues_from_its_own_offset(server_factory):
    """A snapshot older than the last one still pairs its data with its offset."""
    primary, replica, p, rep = start_pair(server_factory)
    writes(p, "a")
    same(p, rep)
    bgsave(rep)
    old = os.path.join(replica.dir, "dump.rdb.old")
    shutil.copy(os.path.join(replica.dir, "dump.rdb"), old)
    writes(p, "b")
    same(p, rep)
    shutdown(rep, replica, "SAVE")
    rep.close()
    os.replace(old, os.path.join(replica.dir, "dump.rdb"))
    writes(p, "c")
    rep, before, after = restart_and_count(p, replica)  # b again, from the backlog
    assert after["sync_partial_ok"] == before["sync_partial_ok"] + 1
    assert after["sync_full"] == before["sync_full"]


def test_append_only_log_ahead_of_the_snapshot_never_continues(server_factory):
    """With appendonly yes the data comes from the log, which holds writes past any
    snapshot's offset: no history is restored (Redis 7.0 too), a full sync follows."""
    primary, replica, p, rep = start_pair(server_factory, replica_args=["--appendonly", "yes"])
    writes(p, "a")
    same(p, rep)
    bgsave(rep)  # dump.rdb has a history; the log goes on past it
    writes(p, "b")
    same(p, rep)
    kill(replica)
    rep.close()
    writes(p, "c")
    rep, before, after = restart_and_count(p, replica)
    assert after["sync_full"] == before["sync_full"] + 1
    assert after["sync_partial_ok"] == before["sync_partial_ok"]
    with open(replica.log_path, "rb") as f:
        assert b"Partial resynchronization not possible (no cached master)" in f.read()


def test_snapshot_of_another_history_never_continues(server_factory):
    """A replica restarted against a different primary offers its old history: refused."""
    primary, replica, p, rep = start_pair(server_factory)
    other = server_factory()
    o = other.client()
    writes(p, "a")
    writes(o, "x")
    same(p, rep)
    shutdown(rep, replica, "SAVE")
    rep.close()
    rep, before, after = restart_and_count(o, replica, ["--replicaof", "127.0.0.1", other.port])
    assert after["sync_full"] == before["sync_full"] + 1
    assert after["sync_partial_err"] == before["sync_partial_err"] + 1


def test_restarted_primary_keeps_its_history_as_replid2(server_factory):
    primary, replica, p, rep = start_pair(server_factory)
    writes(p, "a")
    same(p, rep)
    old_id = info_repl(p)["master_replid"]
    old_offset = info_repl(p)["master_repl_offset"]
    # NOW: no wait for the replica's ACK (a waiting shutdown sends REPLCONF GETACK,
    # which moves the offset on, as Redis 7.0).
    shutdown(p, primary, "SAVE", "NOW")
    p.close()
    relaunch(primary)
    p = primary.client()
    info = info_repl(p)
    assert info["master_replid2"] == old_id
    assert info["second_repl_offset"] == old_offset + 1
    assert info["master_replid"] != old_id
    wait_for(lambda: link_up(rep), what="the replica's link to the restarted primary")
    writes(p, "b")
    same(p, rep)
    assert stats(p)["sync_partial_ok"] == 1
    assert stats(p)["sync_full"] == 0
    assert info_repl(rep)["master_replid"] == info_repl(p)["master_replid"]


def test_rankd_replica_of_redis_restarts_with_continue(server_factory):
    redis_proc = reference_redis(["--repl-diskless-sync-delay", "0"])
    redis_proc.start()
    try:
        src = redis_proc.client()
        replica = server_factory(["--replicaof", "127.0.0.1", redis_proc.port])
        rep = replica.client()
        wait_for(lambda: link_up(rep), what="the link")
        writes(src, "a")
        tx = src.pipeline(transaction=True)  # MULTI ... EXEC in Redis's stream
        for i in range(50):
            tx.zadd("tx", {"m%d" % i: i})
        tx.execute()
        wait_for(lambda: caught_up(src, rep), what="the replica's offset")
        assert_same(src, rep)
        shutdown(rep, replica, "SAVE")
        rep.close()
        writes(src, "b")
        before = stats(src)
        relaunch(replica)
        rep = replica.client()
        wait_for(lambda: link_up(rep), what="the link after the restart")
        writes(src, "c")
        wait_for(lambda: caught_up(src, rep), what="the replica's offset")
        assert_same(src, rep)
        after = stats(src)
        assert after["sync_partial_ok"] == before["sync_partial_ok"] + 1
        assert after["sync_full"] == before["sync_full"]
    finally:
        redis_proc.stop()
