"""Replication backlog and partial resynchronisation (issue 13, second part).

A replica whose link drops reconnects with PSYNC <replid> <offset+1> and
continues from the primary's backlog (+CONTINUE) without a full sync; a
backlog too small for what it missed means a full sync; a promoted replica
keeps its backlog so the other replicas continue from it (PSYNC2: replid2 /
second_repl_offset); a chained replica proxies the exact stream.
"""

import time

import pytest

from server_process import target_is_redis
from test_replication import converge, dump, info_repl, link_up, mixed_load, wait_for

pytestmark = pytest.mark.skipif(
    target_is_redis(), reason="rankd-to-rankd: the snapshot is rankd's own format")


def stats(client):
    """The primary's sync counters. As Redis, a replica attached with REPLICAOF offers its
    own history first (PSYNC <its replid> <offset+1>): one sync_partial_err each time."""
    info = client.info("stats")
    return {k: info[k] for k in ("sync_full", "sync_partial_ok", "sync_partial_err")}


def attach(replica_client, primary):
    replica_client.execute_command("REPLICAOF", "127.0.0.1", primary.port)
    wait_for(lambda: link_up(replica_client), what="the link")


def hold_link_down(rep):
    """Keeps the replica from reconnecting: AUTH fails on a primary without a password."""
    rep.config_set("masterauth", "not-set-on-the-primary")


def release_link(rep):
    rep.config_set("masterauth", "")
    wait_for(lambda: link_up(rep), what="the link back")


@pytest.fixture
def pair(server_factory):
    primary, replica = server_factory(), server_factory()
    p, rep = primary.client(), replica.client()
    attach(rep, primary)
    yield primary, replica, p, rep
    p.close()
    rep.close()


def test_backlog_fields(pair):
    primary, replica, p, rep = pair
    info = info_repl(p)
    assert info["repl_backlog_active"] == 1
    assert info["repl_backlog_size"] == 1048576
    assert info["repl_backlog_first_byte_offset"] == 1
    p.set("k", "v")
    converge(p, rep)
    info = info_repl(p)
    assert info["repl_backlog_histlen"] == info["master_repl_offset"] > 0
    # The replica holds a backlog of the same stream (for its own replicas, or a promotion).
    assert info_repl(rep)["repl_backlog_active"] == 1
    # Equal once the replica has applied the stream (the primary's periodic PING can
    # advance its offset between the two INFO calls).
    wait_for(lambda: info_repl(rep)["master_repl_offset"] == info_repl(p)["master_repl_offset"],
             what="equal offsets")
    assert stats(p) == {"sync_full": 1, "sync_partial_ok": 0, "sync_partial_err": 1}
    assert p.config_set("repl-backlog-size", "32kb")
    assert p.config_get("repl-backlog-size") == {"repl-backlog-size": "32768"}
    assert p.config_get("repl-backlog-ttl") == {"repl-backlog-ttl": "3600"}
    wait_for(lambda: info_repl(p)["repl_backlog_size"] == 32768, what="the new size")


def test_partial_resync_after_primary_kills_the_link(pair):
    primary, replica, p, rep = pair
    mixed_load(p, 50)
    time.sleep(0.2)  # the short keys expire first (else the dumps race with their expiry)
    converge(p, rep)
    hold_link_down(rep)
    assert p.execute_command("CLIENT", "KILL", "TYPE", "replica") == 1
    wait_for(lambda: not link_up(rep), what="the link down")
    mixed_load(p, 50)  # written while the replica is away
    release_link(rep)
    time.sleep(0.2)  # the short keys expire on the primary: their DELs follow
    converge(p, rep)
    assert stats(p) == {"sync_full": 1, "sync_partial_ok": 1, "sync_partial_err": 1}


def test_partial_resync_after_client_kill_type_master(pair):
    primary, replica, p, rep = pair
    p.zadd("z", {"a": 1})
    converge(p, rep)
    hold_link_down(rep)
    assert rep.execute_command("CLIENT", "KILL", "TYPE", "master") == 1
    p.zadd("z", {"b": 2})
    p.execute_command("SELECT", 5)
    p.set("in5", "x")
    p.execute_command("SELECT", 0)
    release_link(rep)
    converge(p, rep)
    assert stats(p)["sync_partial_ok"] == 1 and stats(p)["sync_full"] == 1
    # The stream goes on in the right database after the continuation.
    p.zadd("z", {"c": 3})
    converge(p, rep)
    assert rep.zrange("z", 0, -1) == [b"a", b"b", b"c"]
    assert rep.execute_command("CLIENT", "KILL", "TYPE", "master") == 1
    wait_for(lambda: link_up(rep), what="the link back")
    assert p.execute_command("CLIENT", "KILL", "TYPE", "master") == 0  # a primary has none


def test_backlog_too_small_means_full_sync(pair):
    primary, replica, p, rep = pair
    p.config_set("repl-backlog-size", "16kb")
    wait_for(lambda: info_repl(p)["repl_backlog_size"] == 16384, what="the size")
    converge(p, rep)
    hold_link_down(rep)
    rep.execute_command("CLIENT", "KILL", "TYPE", "master")
    for i in range(200):
        p.set("big%d" % i, "x" * 200)  # 40 KB of stream: more than the backlog holds
    assert info_repl(p)["repl_backlog_histlen"] == 16384
    release_link(rep)
    converge(p, rep)
    assert stats(p) == {"sync_full": 2, "sync_partial_ok": 0, "sync_partial_err": 2}


def test_backlog_ttl_frees_it(pair):
    primary, replica, p, rep = pair
    p.config_set("repl-backlog-ttl", 1)
    old = info_repl(p)["master_replid"]
    rep.execute_command("REPLICAOF", "NO", "ONE")
    wait_for(lambda: info_repl(p)["repl_backlog_active"] == 0, what="the backlog freed")
    assert info_repl(p)["master_replid"] != old  # a new history
    # The replica comes back: its history is unknown now, a full sync.
    attach(rep, primary)
    assert stats(p)["sync_full"] == 2


def three_with_data(server_factory, chained):
    """A primary and two replicas of it (or a replica and its replica), after a mixed load."""
    procs = [server_factory() for _ in range(3)]
    clients = [proc.client() for proc in procs]
    attach(clients[1], procs[0])
    attach(clients[2], procs[1] if chained else procs[0])
    mixed_load(clients[0], 60)
    time.sleep(0.2)  # the short keys expire on the primary first
    assert clients[0].execute_command("WAIT", 1 if chained else 2, 10000) >= 1
    return procs, clients


def test_promoted_replica_continues_the_others(server_factory):
    (primary, a, b), (p, ca, cb) = three_with_data(server_factory, chained=False)
    wait_for(lambda: dump(ca) == dump(p) == dump(cb), what="identical dumps")
    old_id = info_repl(p)["master_replid"]
    # A failover by hand: A is promoted, B and the old primary follow it.
    assert ca.execute_command("REPLICAOF", "NO", "ONE") == b"OK"
    ainfo = info_repl(ca)
    assert ainfo["master_replid2"] == old_id
    assert ainfo["second_repl_offset"] == info_repl(p)["master_repl_offset"] + 1
    assert ainfo["repl_backlog_active"] == 1
    ca.zadd("after", {"x": 1})  # written on the new primary before B follows
    attach(cb, a)
    attach(p, a)
    ca.zadd("after", {"y": 2})
    assert ca.execute_command("WAIT", 2, 10000) == 2
    wait_for(lambda: dump(cb) == dump(ca) == dump(p), what="everyone on the new primary")
    assert stats(ca) == {"sync_full": 0, "sync_partial_ok": 2, "sync_partial_err": 0}
    assert info_repl(cb)["master_replid"] == info_repl(ca)["master_replid"]
    assert info_repl(cb)["master_replid2"] == old_id
    assert cb.zrange("after", 0, -1) == [b"x", b"y"]


def test_chained_replica_proxies_the_exact_stream(server_factory):
    (primary, mid, leaf), (p, m, lf) = three_with_data(server_factory, chained=True)
    wait_for(lambda: dump(lf) == dump(p), what="the chain to converge")
    wait_for(lambda: info_repl(lf)["master_repl_offset"] == info_repl(p)["master_repl_offset"],
             what="one offset along the chain")
    assert info_repl(lf)["master_replid"] == info_repl(p)["master_replid"]
    # The leaf's link to the middle drops: it continues from the middle's backlog.
    assert m.execute_command("CLIENT", "KILL", "TYPE", "replica") == 1
    p.set("later", 1)
    wait_for(lambda: link_up(lf) and lf.get("later") == b"1", what="the leaf back")
    assert stats(m)["sync_partial_ok"] == 1


def test_sub_replica_full_sync_while_the_stream_is_in_another_database(server_factory):
    # The primary's stream SELECTs only when the database changes: a replica's snapshot
    # for its own replica carries the database the stream is in (repl-stream-db).
    primary, mid, leaf = server_factory(), server_factory(), server_factory()
    m, lf = mid.client(), leaf.client()
    p5 = primary.client(db=5)
    attach(m, primary)
    p5.set("a", 1)
    assert p5.execute_command("WAIT", 1, 10000) == 1
    attach(lf, mid)  # a full sync from the middle, whose stream is in database 5
    p5.set("b", 2)
    assert p5.execute_command("WAIT", 1, 10000) == 1
    leaf5 = leaf.client(db=5)
    wait_for(lambda: leaf5.get("b") == b"2", what="the write in database 5 on the leaf")
    assert lf.get("b") is None
