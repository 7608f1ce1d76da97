"""Replica elections and votes across rankd and redis-server nodes (issue 30).

A smoke test of the failover implementation (the full failover suite lives in
tests/test_cluster_failover*.py): 3 masters with 1 replica each,
  - all rankd: SIGKILL a master, its replica wins the election and serves the slots,
    the old master comes back as a replica of the new one;
  - rankd masters with redis-server replicas: a redis-server replica is elected with
    rankd's votes alone;
  - redis-server masters with rankd replicas: a rankd replica is elected with
    redis-server's votes;
  - CLUSTER FAILOVER (the master handshake) under a writer loses no write, FORCE and
    TAKEOVER, and the refusals as redis-server answers them.
With RANKD_TARGET_REDIS=1 every node is redis-server (the oracle).
"""

import signal

import pytest
import redis

from cluster_util import Cluster, wait_until

pytestmark = pytest.mark.slow


def promoted(cluster, old_master, timeout=60):
    """Waits until a former replica of `old_master` serves its slots in the view of
    every live node but `old_master` (it may be stopped); returns that node."""
    other = [n for n in cluster.alive() if n is not old_master][0]
    slots = set(cluster.slots_of(old_master, other))
    replicas = cluster.replicas_of(old_master, other)

    def winner():
        for r in replicas:
            if not r.alive():
                continue
            views = [set(cluster.slots_of(r, n)) if r.node_id in n.cluster_nodes() else set()
                     for n in cluster.alive() if n is not old_master]
            if all(v == slots for v in views) and \
                    r.cluster_info().get("cluster_state") == "ok":
                return r
        return None
    try:
        return wait_until(winner, timeout=timeout, interval=0.2, message="no replica promoted")
    except AssertionError as e:
        raise AssertionError("%s\n%s" % (e, cluster.describe()))


def kill_and_check(cluster):
    m = cluster.masters()[0]
    key = cluster.key_on(m, "before")
    # SET and WAIT on one connection: WAIT counts the replicas that acknowledged
    # its own client's last write (a fresh connection's WAIT is answered as soon
    # as any replica is online, whether the SET reached it or not).
    client = m.client()
    try:
        assert client.set(key, "v") is True
        assert client.execute_command("WAIT", "1", "5000") == 1
    finally:
        client.close()
    m.kill()
    new = promoted(cluster, m)
    assert new.call("GET", key) == b"v"
    assert new.call("SET", key, "w") in (True, b"OK")
    return m, new


@pytest.mark.parametrize("kinds", [
    ["rankd"] * 6,
    ["rankd"] * 3 + ["redis"] * 3,   # rankd masters vote for redis-server replicas
    ["redis"] * 3 + ["rankd"] * 3,   # redis-server masters vote for rankd replicas
], ids=["rankd", "rankd-masters", "redis-masters"])
def test_sigkill_promotes_replica(kinds):
    with Cluster(6, kinds=kinds) as c:
        c.create(replicas=1)
        masters = c.masters()
        assert set(masters) == set(c.nodes[:3])  # the first three (of the kinds asked)
        old, new = kill_and_check(c)
        info = new.cluster_info()
        assert info["cluster_state"] == "ok"
        # Each election bumps the epoch: the new master's config epoch is the largest.
        assert int(info["cluster_my_epoch"]) == int(info["cluster_current_epoch"])


def test_old_master_returns_as_replica():
    with Cluster(6, kinds=["rankd"] * 6) as c:
        c.create(replicas=1)
        m = c.masters()[0]
        ident = m.node_id
        m.proc.send_signal(signal.SIGSTOP)
        try:
            new = promoted(c, m)
        finally:
            m.proc.send_signal(signal.SIGCONT)
        wait_until(lambda: c.view(m)[ident]["master"] == new.node_id and
                   m.info("replication").get("master_link_status") == "up",
                   timeout=60, message="old master did not follow the new one")
        c.wait_stable()


@pytest.mark.parametrize("kinds", [["rankd"] * 6, ["redis"] * 3 + ["rankd"] * 3],
                         ids=["rankd", "redis-masters"])
def test_manual_failover_under_writer(kinds):
    with Cluster(6, kinds=kinds) as c:
        c.create(replicas=1)
        m = c.masters()[0]
        r = c.replicas_of(m)[0]
        key = c.key_on(m, "counter")
        w = m.client()
        acked = 0
        for _ in range(200):
            w.incr(key)
            acked += 1
        assert r.call("CLUSTER", "FAILOVER") == b"OK"
        # Keep writing to the old master until it redirects.
        while True:
            try:
                w.incr(key)
                acked += 1
            except redis.ResponseError as e:
                assert str(e).startswith("MOVED"), e
                break
        wait_until(lambda: r.info("replication")["role"] == "master", timeout=30)
        assert int(r.call("GET", key)) == acked
        wait_until(lambda: c.view(m)[m.node_id]["master"] == r.node_id, timeout=30)


def test_failover_refusals():
    with Cluster(6, kinds=["rankd"] * 6) as c:
        c.create(replicas=1)
        m = c.masters()[0]
        r = c.replicas_of(m)[0]
        for args, err in [
                ((), "ERR You should send CLUSTER FAILOVER to a replica"),
                (("FORCE",), "ERR You should send CLUSTER FAILOVER to a replica"),
                (("foo",), "ERR syntax error"),
                (("a", "b"), "ERR unknown subcommand or wrong number of arguments for "
                             "'FAILOVER'. Try CLUSTER HELP.")]:
            with pytest.raises(redis.ResponseError) as e:
                m.call("CLUSTER", "FAILOVER", *args)
            assert str(e.value) == err.split(" ", 1)[1] or str(e.value) == err
        with pytest.raises(redis.ResponseError) as e:
            m.call("FAILOVER")
        assert "not allowed in cluster mode" in str(e.value)
        # The master down: only FORCE or TAKEOVER.
        m.kill()
        wait_until(lambda: "fail" in r.cluster_nodes()[m.node_id]["flags"], timeout=60)
        # (the automatic failover may win first; then r is a master already)
        try:
            r.call("CLUSTER", "FAILOVER")
        except redis.ResponseError as e:
            assert str(e) in ("Master is down or failed, please use CLUSTER FAILOVER FORCE",
                              "You should send CLUSTER FAILOVER to a replica")
        promoted(c, m)


def test_takeover_without_majority():
    with Cluster(6, kinds=["rankd"] * 6) as c:
        c.create(replicas=1)
        ms = c.masters()
        r = c.replicas_of(ms[0])[0]
        slots = c.slots_of(ms[0])
        # Two masters down: no majority can vote, TAKEOVER still works.
        for m in ms[1:]:
            m.proc.send_signal(signal.SIGSTOP)
        try:
            assert r.call("CLUSTER", "FAILOVER", "TAKEOVER") == b"OK"
            wait_until(lambda: r.info("replication")["role"] == "master", timeout=30)
            assert c.slots_of(r, r) == slots
        finally:
            for m in ms[1:]:
                m.proc.send_signal(signal.SIGCONT)
