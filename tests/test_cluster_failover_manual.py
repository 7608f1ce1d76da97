"""Manual failover (issue 30): CLUSTER FAILOVER under a writer (the replica waits for the
master's offset: no acknowledged write lost, the old master resyncs partially), FORCE
and TAKEOVER with the master down (the replica has cluster-replica-no-failover, so only
the operator promotes it), the errors, and standalone FAILOVER refused in cluster mode.

The tests share one cluster (3 masters, a replica each) and run in file order; each
leaves it stable.
"""

import time

import pytest
import redis

from cluster_failover_util import (ClusterWriter, DirectWriter, failover_cluster, missing,
                                   return_as_replica, slot_tag, try_set,
                                   wait_owner_everywhere)
from cluster_util import wait_until

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def cluster():
    with failover_cluster() as c:
        yield c


def pair(cluster, index):
    master = cluster.masters()[index]
    return master, cluster.replicas_of(master)[0]


def error_of(node, *args):
    with pytest.raises(redis.ResponseError) as e:
        node.call(*args)
    return str(e.value)


def test_errors(cluster):
    master, replica = pair(cluster, 0)
    assert error_of(master, "CLUSTER", "FAILOVER") == \
        "You should send CLUSTER FAILOVER to a replica"
    assert error_of(replica, "CLUSTER", "FAILOVER", "SOFTLY") == "syntax error"
    assert error_of(replica, "CLUSTER", "FAILOVER", "FORCE", "TAKEOVER") == \
        "unknown subcommand or wrong number of arguments for 'FAILOVER'. Try CLUSTER HELP."

    refused = "FAILOVER not allowed in cluster mode. Use CLUSTER FAILOVER command instead."
    assert error_of(master, "FAILOVER") == refused
    assert error_of(replica, "FAILOVER", "ABORT") == refused


def test_cluster_failover_under_writers_loses_no_write(cluster):
    master, replica = pair(cluster, 0)
    slots = cluster.slots_of(master)
    tag = slot_tag(cluster, master, "m")
    direct = DirectWriter(master, tag)           # no WAIT: the handover must wait
    routed = ClusterWriter(cluster, [slot_tag(cluster, master, "r")])
    full_before = replica.info("stats")["sync_full"]
    partial_before = replica.info("stats")["sync_partial_ok"]
    direct.start()
    routed.start()
    try:
        direct.wait_for(300)
        wait_until(lambda: len(routed.acked_at) >= 100, message="routed writes")
        assert replica.call("CLUSTER", "FAILOVER") == b"OK"
        # The direct writer ends on a redirection once its master handed over.
        direct.join(60)
        assert isinstance(direct.error, redis.ResponseError), direct.error
        assert str(direct.error).startswith("MOVED"), direct.error
        t_done = time.monotonic()
        wait_until(lambda: len(routed.acked_since(t_done)) >= 50,
                   message="routed writes after the failover")
    finally:
        direct.finish()
        routed.finish()
    wait_owner_everywhere(cluster, slots, replica)
    assert replica.call("ROLE")[0] == b"master"
    assert master.call("ROLE")[0] == b"slave"
    # Every write either client was told succeeded is on the new master.
    assert missing(replica, [direct.key(n) for n in direct.acked]) == []
    assert missing(replica, [routed.key(n) for n, _ in routed.acked_at]) == []
    # The old master followed with a partial resync (same history, nothing lost).
    cluster.wait_stable()
    stats = replica.info("stats")
    assert stats["sync_partial_ok"] == partial_before + 1
    assert stats["sync_full"] == full_before
    cluster.wait_replicated()
    assert master.call("DEBUG", "DIGEST") == replica.call("DEBUG", "DIGEST")


def down_without_auto_failover(cluster, index, wait_for_fail):
    """Master `index` killed after confirmed writes; its replica has
    cluster-replica-no-failover. Returns (master, replica, writer, slots)."""
    master, replica = pair(cluster, index)
    assert replica.call("CONFIG", "SET", "cluster-replica-no-failover", "yes") == b"OK"
    slots = cluster.slots_of(master)
    writer = DirectWriter(master, slot_tag(cluster, master, "f"), wait_replicas=1)
    writer.start()
    writer.wait_for(100)
    master.kill()
    writer.finish()
    if wait_for_fail:
        wait_until(lambda: "fail" in cluster.view(replica)[master.node_id]["flags"],
                   message="the master flagged failed")
    return master, replica, writer, slots


def promoted(cluster, master, replica, writer, slots):
    wait_until(lambda: try_set(replica, writer.key(-1), "probe"), interval=0.02,
               message="%r serving writes" % replica)
    wait_owner_everywhere(cluster, slots, replica)
    view = cluster.view(replica)
    assert view[replica.node_id]["config_epoch"] == max(v["config_epoch"]
                                                       for v in view.values())
    assert missing(replica, [writer.key(n) for n in writer.durable]) == []
    assert replica.call("CONFIG", "SET", "cluster-replica-no-failover", "no") == b"OK"
    return_as_replica(cluster, master, replica)


def test_force_with_the_master_down(cluster):
    master, replica, writer, slots = down_without_auto_failover(cluster, 1, True)
    # No automatic failover (well past the node timeout plus the election delay).
    time.sleep(cluster.node_timeout / 1000.0 + 2.0)
    assert replica.call("ROLE")[0] == b"slave"
    assert error_of(replica, "CLUSTER", "FAILOVER") == \
        "Master is down or failed, please use CLUSTER FAILOVER FORCE"
    assert replica.call("CLUSTER", "FAILOVER", "FORCE") == b"OK"
    promoted(cluster, master, replica, writer, slots)


def test_takeover_with_the_master_down(cluster):
    # At once, before the others even flag the master: TAKEOVER asks no one.
    master, replica, writer, slots = down_without_auto_failover(cluster, 2, False)
    assert replica.call("CLUSTER", "FAILOVER", "TAKEOVER") == b"OK"
    promoted(cluster, master, replica, writer, slots)
