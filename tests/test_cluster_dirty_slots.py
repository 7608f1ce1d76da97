"""Keys of a slot a master lost to a newer configuration are deleted (issue 29): a
master that sees another master claim one of its slots under a higher config epoch (not
an import, whose keys were migrated first) drops the keys it still holds there, as Redis
7.0 does with its "dirty slots". The claim comes from a redis-server node (CLUSTER
BUMPEPOCH, then CLUSTER SETSLOT <slot> NODE <itself>); with RANKD_TARGET_REDIS=1 every
node is redis-server and the test proves the behaviour on Redis alone. As in Redis 7.0.15
the deletions are local: the losing master's replica keeps its copy."""

import pytest

from cluster_keys import key_slot
from cluster_util import ClusterNode, skip_without_rankd_cluster_mode, wait_until

pytestmark = pytest.mark.slow


@pytest.fixture
def nodes():
    skip_without_rankd_cluster_mode(["rankd"])
    started = []
    try:
        for kind in ("rankd", "rankd", "redis"):
            started.append(ClusterNode(kind).start())
        yield started
    finally:
        for n in started:
            n.stop()


def test_keys_of_a_slot_lost_to_a_higher_epoch_are_deleted(nodes):
    master, replica, claimer = nodes
    master.call("CLUSTER", "ADDSLOTSRANGE", "0", "16383")
    for n in (replica, claimer):
        master.call("CLUSTER", "MEET", "127.0.0.1", n.port, n.bus_port)
    wait_until(lambda: all(len(n.cluster_nodes()) == 3 for n in nodes),
               message="every node knows the other two")
    replica.call("CLUSTER", "REPLICATE", master.node_id)
    wait_until(lambda: replica.info("replication")["master_link_status"] == "up",
               message="replica in sync")
    # A node's cluster state turns ok a moment after it learns its slots.
    wait_until(lambda: b"cluster_state:ok" in master.call("CLUSTER", "INFO"),
               message="the master's cluster state ok")
    lost = key_slot("foo")
    for key in ("foo", "{foo}2", "bar"):
        master.call("SET", key, "1")
    master.call("WAIT", 1, 5000)
    assert master.call("CLUSTER", "COUNTKEYSINSLOT", lost) == 2

    claimer.call("CLUSTER", "BUMPEPOCH")
    claimer.call("CLUSTER", "SETSLOT", lost, "NODE", claimer.node_id)

    wait_until(lambda: master.call("CLUSTER", "COUNTKEYSINSLOT", lost) == 0,
               message="the lost slot's keys deleted on the master")
    assert master.call("DBSIZE") == 1
    assert master.call("GET", "bar") == b"1"
    owner = [nid for nid, v in master.cluster_nodes().items()
             if any(a <= lost <= b for a, b in v["slots"])]
    assert owner == [claimer.node_id]
    # Local deletions: the replica still has all three keys.
    assert replica.call("DBSIZE") == 3
