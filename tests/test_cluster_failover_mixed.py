"""Failover across implementations (issue 30): in one cluster a rankd replica takes over
a redis-server master's slots, and a redis-server replica takes over a rankd master's.

Masters: redis-server, rankd, redis-server; a rankd replica of the first, a redis-server
replica of the second (added with `redis-cli --cluster add-node --cluster-slave`). Each
master is SIGKILLed after writes confirmed with `WAIT 1`; its replica of the other kind
must win the election, serve the writes, and the restarted node must come back as its
replica. A leaderboard written on the rankd master before its redis-server replica
synced comes back from the redis-server side as a plain sorted set (as DUMP documents).

With RANKD_TARGET_REDIS=1 every node is redis-server (the test proves itself there).
"""

import pytest

from cluster_failover_util import (DirectWriter, FAILOVER_NODE_TIMEOUT_MS,
                                   kill_and_wait_promotion, missing, read_call, promotion_bound_s,
                                   return_as_replica, slot_tag, wait_owner_everywhere)
from cluster_util import Cluster
from server_process import target_is_redis

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def mixed():
    with Cluster(3, kinds=["redis", "rankd", "redis"],
                 node_timeout=FAILOVER_NODE_TIMEOUT_MS) as c:
        c.create(replicas=0)
        yield c


def add_replica(cluster, master, kind):
    node = cluster.add_node(kind)
    cluster.cli("--cluster", "add-node", node.addr, master.addr, "--cluster-slave",
                "--cluster-master-id", master.node_id)
    cluster.wait_stable()
    assert cluster.replicas_of(master) == [node]
    return node


def write_board(master, cluster):
    """A sorted set (a rankd leaderboard on rankd) in `master`'s slots; returns
    (key, expected ZRANGE WITHSCORES)."""
    key = "{%s}:board" % slot_tag(cluster, master, "b")
    if master.kind == "rankd" and not target_is_redis():
        assert master.call("LB.CREATE", key) == b"OK"
        master.call("LB.ADD", key, 5, "a", 7, "b", 5, "c")
    else:
        master.call("ZADD", key, 5, "a", 7, "b", 5, "c")
    return key, [b"a", b"5", b"c", b"5", b"b", b"7"]


def failover_to(cluster, master, replica):
    slots = cluster.slots_of(master)
    tag = slot_tag(cluster, master, "x")
    writer = DirectWriter(master, tag, wait_replicas=1)
    writer.start()
    writer.wait_for(200)
    _, elapsed = kill_and_wait_promotion(cluster, master, replica, "{%s}:probe" % tag)
    writer.finish()
    assert elapsed <= promotion_bound_s(cluster), "promoted after %.2fs" % elapsed
    wait_owner_everywhere(cluster, slots, replica)
    assert missing(replica, [writer.key(n) for n in writer.durable]) == []
    return writer


def test_rankd_replica_takes_over_a_redis_server_master(mixed):
    master = mixed.nodes[0]                     # created as the redis-server master
    assert master.kind == "redis"
    key, want = write_board(master, mixed)
    replica = add_replica(mixed, master, "rankd")
    writer = failover_to(mixed, master, replica)
    assert replica.call("TYPE", key) == b"zset"
    assert replica.call("ZRANGE", key, 0, -1, "WITHSCORES") == want
    return_as_replica(mixed, master, replica)
    mixed.wait_replicated()
    assert missing(master, [writer.key(n) for n in writer.durable]) == []
    assert read_call(master, "ZRANGE", key, 0, -1, "WITHSCORES") == want


def test_redis_server_replica_takes_over_a_rankd_master(mixed):
    master = mixed.nodes[1]                     # created as the rankd master
    if not target_is_redis():
        assert master.kind == "rankd"
    assert master.alive() and master.call("ROLE")[0] == b"master"
    key, want = write_board(master, mixed)
    replica = add_replica(mixed, master, "redis")
    writer = failover_to(mixed, master, replica)
    # A leaderboard comes back from redis-server as a plain sorted set.
    assert replica.call("TYPE", key) == b"zset"
    assert replica.call("ZRANGE", key, 0, -1, "WITHSCORES") == want
    return_as_replica(mixed, master, replica)
    mixed.wait_replicated()
    assert missing(master, [writer.key(n) for n in writer.durable]) == []
    assert read_call(master, "ZRANGE", key, 0, -1, "WITHSCORES") == want
