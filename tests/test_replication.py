"""Replication between rankd processes (issue 13, first part).

Several rankd processes on loopback ports: REPLICAOF, the handshake and full
sync, the command stream, read-only replicas, ROLE, INFO replication, WAIT,
REPLICAOF NO ONE, and a restarted replica that syncs again. The backlog and
partial resynchronisation: test_repl_psync.py.
"""

import time

import pytest
import redis

from server_process import target_is_redis

pytestmark = pytest.mark.skipif(
    target_is_redis(), reason="rankd-to-rankd: the snapshot is rankd's own format")


def wait_for(pred, timeout=15.0, what="condition"):
    deadline = time.time() + timeout
    while time.time() < deadline:
        v = pred()
        if v:
            return v
        time.sleep(0.05)
    raise AssertionError("timed out waiting for " + what)


def info_repl(client):
    return client.info("replication")


def link_up(client):
    return info_repl(client).get("master_link_status") == "up"


def dump(client):
    """Every key of every database: type, TTL, and the whole value."""
    out = {}
    for db in range(16):
        client.execute_command("SELECT", db)
        for key in sorted(client.execute_command("KEYS", "*")):
            t = client.type(key)
            pttl = client.pttl(key)
            ttl = None if pttl < 0 else "ttl"  # present; exact values drift with time
            if t == b"string":
                v = client.get(key)
            elif t == b"zset":
                v = client.zrange(key, 0, -1, withscores=True)
                info = client.execute_command("LB.INFO", key)
                top = client.execute_command("LB.TOP", key, 1000000)
                try:  # a leaderboard (TYPE says zset): its arrival stamps too
                    stamps = [client.execute_command("LB.STAMP", key, m) for m in lb_members(top)]
                except redis.ResponseError:  # a plain sorted set
                    stamps = None
                v = (v, info, top, stamps)
            elif t == b"set":
                v = sorted(client.smembers(key))
            elif t == b"leaderboard":
                info = client.execute_command("LB.INFO", key)
                top = client.execute_command("LB.TOP", key, 1000000)
                names = lb_members(top)
                stamps = [client.execute_command("LB.STAMP", key, m) for m in names]
                v = (info, top, stamps)
            elif t == b"hash":
                v = sorted(client.hgetall(key).items())
            elif t == b"list":
                v = client.lrange(key, 0, -1)
            else:
                v = client.dump(key) if t != b"none" else None
            out[(db, key)] = (t, ttl, v)
    client.execute_command("SELECT", 0)
    return out


def lb_members(top):
    """Member names of an LB.TOP reply (entries are [rank, member, score])."""
    return [e[1] for e in top]


def expiries(client):
    """Absolute expiry times (ms), which must be identical on both sides."""
    out = {}
    for db in range(16):
        client.execute_command("SELECT", db)
        for key in client.execute_command("KEYS", "*"):
            t = client.execute_command("PEXPIRETIME", key)
            if t >= 0:
                out[(db, key)] = t
    client.execute_command("SELECT", 0)
    return out


@pytest.fixture
def pair(server_factory):
    # No wait before a diskless full sync (redis-server waits 5 s by default).
    primary = server_factory(["--repl-diskless-sync-delay", "0"])
    replica = server_factory()
    p, rep = primary.client(), replica.client()
    assert rep.execute_command("REPLICAOF", "127.0.0.1", primary.port) == b"OK"
    wait_for(lambda: link_up(rep), what="the link")
    yield primary, replica, p, rep
    p.close()
    rep.close()


def converge(p, rep):
    """Waits until the replica acknowledged everything the primary sent."""
    assert p.execute_command("WAIT", 1, 10000) >= 1
    wait_for(lambda: dump(p) == dump(rep), what="identical dumps")
    # Retried: a 50 ms key may expire between the two reads (both then hide it).
    wait_for(lambda: expiries(p) == expiries(rep), what="identical expiry times")


def mixed_load(p, n=300):
    p.execute_command("LB.CREATE", "board")
    p.execute_command("LB.CREATE", "asc", "ORDER", "ASC", "TIES", "LAST")
    pipe = p.pipeline(transaction=False)
    for i in range(n):
        pipe.zadd("z%d" % (i % 7), {"m%d" % i: i * 1.5})
        pipe.execute_command("LB.ADD", "board", "INCR", i % 5, "team%d" % (i % 11))
        pipe.execute_command("LB.ADD", "asc", i % 9, "p%d" % (i % 13))
        pipe.set("s%d" % i, "v%d" % i)
        if i % 3 == 0:
            pipe.expire("s%d" % i, 1000 + i)
        if i % 10 == 0:
            pipe.set("short%d" % i, "x", px=50)  # expires on the primary: DEL follows
        if i % 4 == 0:
            pipe.zincrby("z%d" % (i % 7), 2.5, "m%d" % (i // 2))
        pipe.sadd("set%d" % (i % 3), i)
    pipe.execute()
    p.execute_command("SELECT", 3)
    p.execute_command("ZADD", "in3", 1, "a", 2, "b")
    p.execute_command("SELECT", 0)
    # A script: its effects replicate, not the script.
    p.eval("redis.call('zadd', KEYS[1], math.random(1, 1000), 'r'); "
           "redis.call('expire', KEYS[1], 500); return 1", 1, "scripted")
    p.zpopmin("z1", 3)
    p.execute_command("ZRANGESTORE", "zcopy", "z2", 0, 10)
    p.delete("s5", "s7")
    p.expire("z3", 2000)


def test_full_sync_then_stream_converge(server_factory):
    primary = server_factory()
    p = primary.client()
    p.zadd("before", {"a": 1, "b": 2})
    p.execute_command("LB.CREATE", "lb0")
    p.execute_command("LB.ADD", "lb0", 10, "x", 20, "y")
    p.set("ttl", "v", ex=3000)
    replica = server_factory()
    rep = replica.client()
    assert rep.execute_command("REPLICAOF", "127.0.0.1", primary.port) == b"OK"
    wait_for(lambda: link_up(rep), what="the link")
    converge(p, rep)  # the snapshot
    mixed_load(p)
    time.sleep(0.2)  # let the short keys expire on the primary
    converge(p, rep)  # the stream
    assert rep.exists("short0") == 0


def test_handshake_and_info_fields(pair):
    primary, replica, p, rep = pair
    p.set("k", "v")
    assert p.execute_command("WAIT", 1, 5000) == 1
    role = p.execute_command("ROLE")
    assert role[0] == b"master"
    assert role[2][0][0] == b"127.0.0.1"
    assert role[2][0][1] == str(replica.port).encode()
    info = info_repl(p)
    assert info["role"] == "master"
    assert info["connected_slaves"] == 1
    s0 = info["slave0"]
    assert s0["ip"] == "127.0.0.1" and s0["port"] == replica.port and s0["state"] == "online"
    assert len(info["master_replid"]) == 40
    rrole = rep.execute_command("ROLE")
    assert rrole[:4] == [b"slave", b"127.0.0.1", primary.port, b"connected"]
    rinfo = info_repl(rep)
    assert rinfo["role"] == "slave"
    assert rinfo["master_host"] == "127.0.0.1" and rinfo["master_port"] == primary.port
    assert rinfo["master_replid"] == info["master_replid"]
    wait_for(lambda: info_repl(rep)["master_repl_offset"] == info_repl(p)["master_repl_offset"],
             what="equal offsets")
    assert rep.execute_command("REPLICAOF", "127.0.0.1", primary.port) == \
        b"OK Already connected to specified master"


def test_replica_is_read_only(pair):
    primary, replica, p, rep = pair
    raw = replica.raw()
    assert raw.execute("SET", "x", "y").message == \
        "READONLY You can't write against a read only replica."
    assert raw.execute("LB.ADD", "board", 1, "a").message.startswith("READONLY")
    assert "READONLY" in raw.execute("EVAL", "return redis.call('set', 'x', 'y')", 0).message
    assert rep.eval("return 7", 0) == 7  # a read-only script runs
    with pytest.raises(Exception, match="WAIT cannot be used with replica instances"):
        rep.execute_command("WAIT", 1, 0)
    # MULTI with a write is doomed.
    assert raw.execute("MULTI") == b"OK"
    assert raw.execute("SET", "a", "b").message.startswith("READONLY")
    assert raw.execute("EXEC").message.startswith("EXECABORT")
    raw.close()
    assert rep.exists("x", "a") == 0


def test_replica_read_only_off(pair):
    primary, replica, p, rep = pair
    rep.config_set("replica-read-only", "no")
    assert rep.set("local", "1")
    assert rep.get("local") == b"1"


def test_promotion_with_replicaof_no_one(pair):
    primary, replica, p, rep = pair
    p.zadd("z", {"a": 1})
    converge(p, rep)
    old_id = info_repl(rep)["master_replid"]
    assert rep.execute_command("REPLICAOF", "NO", "ONE") == b"OK"
    info = info_repl(rep)
    assert info["role"] == "master"
    assert info["master_replid2"] == old_id and info["master_replid"] != old_id
    assert rep.execute_command("ROLE")[0] == b"master"
    assert rep.zadd("z", {"b": 2}) == 1  # writable now
    p.zadd("z", {"c": 3})
    time.sleep(0.2)
    assert rep.zrange("z", 0, -1) == [b"a", b"b"]  # no longer follows


def test_wait(pair):
    primary, replica, p, rep = pair
    assert p.execute_command("WAIT", 0, 0) >= 0
    for i in range(50):
        p.set("k%d" % i, i)
    assert p.execute_command("WAIT", 1, 10000) == 1
    assert rep.get("k49") == b"49"
    # More replicas than exist: returns after the timeout with the count.
    assert p.execute_command("WAIT", 2, 300) == 1
    with pytest.raises(Exception, match="timeout is negative"):
        p.execute_command("WAIT", 1, -1)
    with pytest.raises(Exception, match="not an integer"):
        p.execute_command("WAIT", "x", 0)


def test_primary_pings_replicas(pair):
    primary, replica, p, rep = pair
    assert p.config_set("repl-ping-replica-period", 1)
    assert p.config_get("repl-ping-replica-period") == {"repl-ping-replica-period": "1"}
    start = info_repl(p)["master_repl_offset"]
    # No writes: the offset still grows by the PINGs, and the replica follows.
    wait_for(lambda: info_repl(p)["master_repl_offset"] > start, what="a PING")
    wait_for(lambda: info_repl(rep)["master_repl_offset"] > start, what="the PING applied")
    assert link_up(rep)


def test_wait_without_replicas(server_factory):
    primary = server_factory()
    p = primary.client()
    p.set("a", 1)
    assert p.execute_command("WAIT", 0, 0) == 0
    assert p.execute_command("WAIT", 1, 100) == 0
    # Inside MULTI and scripts WAIT answers at once, as Redis (no blocking there).
    pipe = p.pipeline(transaction=True)
    pipe.execute_command("WAIT", 1, 0)
    assert pipe.execute() == [0]


def test_two_replicas_and_restart_full_sync(server_factory):
    primary = server_factory()
    p = primary.client()
    reps = [server_factory(), server_factory()]
    clients = [r.client() for r in reps]
    for c in clients:
        c.execute_command("REPLICAOF", "127.0.0.1", primary.port)
    for c in clients:
        wait_for(lambda: link_up(c), what="the link")
    mixed_load(p, 100)
    assert p.execute_command("WAIT", 2, 10000) == 2
    for c in clients:
        wait_for(lambda: dump(c) == dump(p), what="identical dumps")
    # A replica restarts (SIGKILL): it syncs in full again.
    reps[0]._kill()
    reps[0].stop()
    wait_for(lambda: info_repl(p)["connected_slaves"] == 1, what="the primary to drop it")
    p.zadd("after", {"x": 1})
    reps[0].start()
    c0 = reps[0].client()
    c0.execute_command("REPLICAOF", "127.0.0.1", primary.port)
    wait_for(lambda: link_up(c0), what="the link after restart")
    p.zadd("after", {"y": 2})
    assert p.execute_command("WAIT", 2, 10000) == 2
    wait_for(lambda: dump(c0) == dump(p), what="identical dumps after restart")
    assert c0.zrange("after", 0, -1) == [b"x", b"y"]


def test_link_loss_resyncs(pair):
    primary, replica, p, rep = pair
    p.set("a", 1)
    converge(p, rep)
    # Kill the primary-side connection of the replica: it reconnects and syncs in full.
    for line in p.execute_command("CLIENT", "LIST").decode().splitlines():
        fields = dict(f.split("=", 1) for f in line.split(" ") if "=" in f)
        if fields.get("cmd") in ("replconf", "psync"):
            p.execute_command("CLIENT", "KILL", "ID", fields["id"])
    p.set("b", 2)
    wait_for(lambda: link_up(rep) and rep.get("b") == b"2", what="resync after link loss")
    converge(p, rep)


def test_masterauth(server_factory):
    primary = server_factory(["--requirepass", "sekret"], password="sekret")
    replica = server_factory()
    p = primary.client()
    rep = replica.client()
    p.set("k", "v")
    rep.config_set("masterauth", "wrong")
    rep.execute_command("REPLICAOF", "127.0.0.1", primary.port)
    time.sleep(0.5)
    assert info_repl(rep)["master_link_status"] == "down"
    rep.config_set("masterauth", "sekret")
    wait_for(lambda: link_up(rep), what="the link with the right password")
    wait_for(lambda: rep.get("k") == b"v", what="the data")


def test_replconf_and_replicaof_errors(server_factory):
    primary = server_factory()
    p = primary.client()
    assert p.execute_command("REPLCONF", "listening-port", 1234) == b"OK"
    assert p.execute_command("REPLCONF", "capa", "eof", "capa", "psync2") == b"OK"
    with pytest.raises(Exception, match="Unrecognized REPLCONF option: bogus"):
        p.execute_command("REPLCONF", "bogus", 1)
    with pytest.raises(Exception, match="syntax error"):
        p.execute_command("REPLCONF", "capa")
    with pytest.raises(Exception, match="Invalid master port"):
        p.execute_command("REPLICAOF", "127.0.0.1", 70000)
    with pytest.raises(Exception, match="wrong number of arguments"):
        p.execute_command("REPLICAOF", "127.0.0.1")
    assert p.execute_command("REPLICAOF", "NO", "ONE") == b"OK"
    assert p.execute_command("ROLE")[0] == b"master"


def test_chained_replica_and_appendonly_primary(server_factory):
    # The primary logs and replicates the same effects; a replica of a replica follows too.
    primary = server_factory(["--appendonly", "yes"])
    mid, leaf = server_factory(), server_factory()
    p, m, lf = primary.client(), mid.client(), leaf.client()
    m.execute_command("REPLICAOF", "127.0.0.1", primary.port)
    wait_for(lambda: link_up(m), what="the first link")
    lf.execute_command("REPLICAOF", "127.0.0.1", mid.port)
    wait_for(lambda: link_up(lf), what="the chained link")
    mixed_load(p, 60)
    assert p.execute_command("WAIT", 1, 10000) == 1
    wait_for(lambda: dump(lf) == dump(p), what="the chained replica to converge")
    wait_for(lambda: expiries(lf) == expiries(p), what="identical expiry times")
    assert info_repl(m)["connected_slaves"] == 1


def test_no_ping_before_the_period_and_resetstat_clears_sync_counters(server_factory):
    """As redis-server: PINGs come every repl-ping-replica-period seconds from the
    start, so a first replica does not get one at once (the offset stays 0, which
    Redis's psync2-master-restart relies on); CONFIG RESETSTAT zeroes sync_full,
    sync_partial_ok and sync_partial_err."""
    primary = server_factory(["--repl-ping-replica-period", "3600",
                              "--repl-diskless-sync-delay", "0"])
    replica = server_factory()
    p, rep = primary.client(), replica.client()
    assert rep.execute_command("REPLICAOF", "127.0.0.1", primary.port) == b"OK"
    wait_for(lambda: link_up(rep), what="the link")
    time.sleep(1.5)  # at least one replication cron pass on both sides
    assert p.info("replication")["master_repl_offset"] == 0
    assert rep.info("replication")["master_repl_offset"] == 0
    assert p.info("stats")["sync_full"] == 1
    assert p.execute_command("CONFIG", "RESETSTAT") == b"OK"
    stats = p.info("stats")
    assert (stats["sync_full"], stats["sync_partial_ok"], stats["sync_partial_err"]) == (0, 0, 0)
