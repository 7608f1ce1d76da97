"""Keys of a slot a master lost to a newer configuration are deleted (issue 29): a
master that sees another master claim one of its slots under a higher config epoch (not
an import, whose keys were migrated first) drops the keys it still holds there, as Redis
7.0 does with its "dirty slots". The claim comes from a redis-server node (CLUSTER
BUMPEPOCH, then CLUSTER SETSLOT <slot> NODE <itself>); with RANKD_TARGET_REDIS=1 every
node is redis-server and the test proves the behaviour on Redis alone. As in Redis 7.0.15
the deletions are local: the losing master's replica keeps its copy. A master that loses
every slot to a node that serves others too, with cluster-allow-replica-migration no,
neither follows that node nor keeps the keys (the follow-the-new-owner rule and the
dirty-slot rule meet in one UPDATE handler)."""

import pytest

from cluster_keys import key_for_slot, key_slot
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
    writer = master.client()  # WAIT counts the acks of its own client's writes
    for key in ("foo", "{foo}2", "bar"):
        writer.set(key, "1")
    assert writer.execute_command("WAIT", 1, 5000) == 1
    writer.close()
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


def test_a_master_that_loses_every_slot_but_may_not_follow_stays_master_and_drops_the_keys(
        nodes):
    # The two rules of a lost slot meet: the claimer took all of the master's slots,
    # but it serves others too (no failover) and the master may not migrate
    # (cluster-allow-replica-migration no), so the master stays a master without
    # slots, and the keys of the slots it lost go.
    master, other, claimer = nodes
    master.call("CONFIG", "SET", "cluster-allow-replica-migration", "no")
    master.call("CLUSTER", "ADDSLOTSRANGE", "0", "9")
    claimer.call("CLUSTER", "ADDSLOTSRANGE", "10", "16383")
    for n in (other, claimer):
        master.call("CLUSTER", "MEET", "127.0.0.1", n.port, n.bus_port)
    wait_until(lambda: all(len(n.cluster_nodes()) == 3 for n in nodes),
               message="every node knows the other two")
    wait_until(lambda: b"cluster_state:ok" in master.call("CLUSTER", "INFO"),
               message="the master's cluster state ok")
    for slot in range(10):
        master.call("SET", key_for_slot(slot), "1")
    assert master.call("DBSIZE") == 10

    claimer.call("CLUSTER", "BUMPEPOCH")
    for slot in range(10):
        claimer.call("CLUSTER", "SETSLOT", slot, "NODE", claimer.node_id)

    wait_until(lambda: master.call("DBSIZE") == 0, message="the lost slots' keys deleted")
    me = [v for v in master.cluster_nodes().values() if "myself" in v["flags"]][0]
    assert "master" in me["flags"] and not me["slots"]
    assert master.info("replication")["role"] == "master"
