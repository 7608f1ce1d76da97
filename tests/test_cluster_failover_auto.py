"""Automatic failover after a SIGKILL (issue 30): 3 masters with a replica each, a short
node timeout (cluster_failover_util.FAILOVER_NODE_TIMEOUT_MS).

Each test kills one master under a writer and checks that its replica serves the slots
within the node timeout plus Redis's election delay (plus scheduling slack), that the
new master's config epoch is the cluster's highest, that what the clients were told
was kept is there, and that the killed node, restarted, comes back as a replica of the
new master and resyncs. Writers: one connection with `WAIT 1` after each SET (every
write WAIT confirmed must survive), redis-py's RedisCluster and ioredis's Cluster
(each must carry on: every write acknowledged after the kill is there).

The tests share one cluster and run in file order; each leaves it stable.
"""

import time

import pytest

from cluster_failover_util import (ClusterWriter, DirectWriter, IoredisWriter, JS_DIR,
                                   assert_values, failover_cluster,
                                   kill_and_wait_promotion, missing, promotion_bound_s,
                                   return_as_replica, slot_tag, wait_owner_everywhere)
from cluster_util import tag_for_slot, wait_until

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def cluster():
    with failover_cluster() as c:
        yield c


def victim_and_replica(cluster, index):
    victim = cluster.masters()[index]
    replicas = cluster.replicas_of(victim)
    assert len(replicas) == 1, cluster.describe()
    return victim, replicas[0]


def assert_new_master(cluster, victim, replica, slots):
    """`replica` owns `slots` in every live node's view, with the highest config epoch,
    and the killed node is flagged failed."""
    wait_owner_everywhere(cluster, slots, replica)
    view = cluster.view(replica)
    assert "master" in view[replica.node_id]["flags"]
    assert view[replica.node_id]["config_epoch"] == max(v["config_epoch"]
                                                       for v in view.values())
    assert "fail" in view[victim.node_id]["flags"] or "fail?" in view[victim.node_id]["flags"]
    for n in cluster.alive():
        assert n.cluster_info()["cluster_state"] == "ok"


def test_sigkill_promotes_the_replica_and_keeps_every_waited_write(cluster):
    victim, replica = victim_and_replica(cluster, 0)
    slots = cluster.slots_of(victim)
    tag = slot_tag(cluster, victim, "w")
    writer = DirectWriter(victim, tag, wait_replicas=1)
    writer.start()
    writer.wait_for(300)
    t_kill, elapsed = kill_and_wait_promotion(cluster, victim, replica, "{%s}:probe" % tag)
    writer.finish()
    assert elapsed <= promotion_bound_s(cluster), \
        "promoted after %.2fs (node timeout %d ms)" % (elapsed, cluster.node_timeout)
    assert_new_master(cluster, victim, replica, slots)
    # Every write WAIT confirmed is on the new master, with its value.
    assert len(writer.durable) >= 299
    assert missing(replica, [writer.key(n) for n in writer.durable]) == []
    assert_values(replica, tag, writer.durable)
    # At most the one write in flight at the kill went unconfirmed.
    assert len(writer.acked) - len(writer.durable) <= 1

    return_as_replica(cluster, victim, replica)
    cluster.wait_replicated()
    assert missing(victim, [writer.key(n) for n in writer.durable]) == []
    assert victim.call("DBSIZE") == replica.call("DBSIZE")


def test_redis_py_cluster_client_carries_on(cluster):
    victim, replica = victim_and_replica(cluster, 1)
    # One tag on the master that dies, one on each other master.
    tags = [tag_for_slot(cluster.slots_of(m)[0], "p") for m in cluster.masters()]
    writer = ClusterWriter(cluster, tags)
    writer.start()
    try:
        wait_until(lambda: len(writer.acked_at) >= 200, message="writes before the kill")
        t_kill, elapsed = kill_and_wait_promotion(cluster, victim, replica,
                                                  "{%s}:probe" % tags[1])
        # The client goes on writing, the dead master's slots included.
        t_promoted = t_kill + elapsed
        wait_until(lambda: len(writer.acked_since(t_promoted)) >= 60, timeout=60,
                   message="writes after the promotion")
    finally:
        writer.finish()
    assert elapsed <= promotion_bound_s(cluster)
    # (A reply read after the kill may have left the dead master just before it: the
    # promotion is the boundary.)
    after = writer.acked_since(t_promoted)
    assert any(writer.key(n).startswith("{%s}" % tags[1]) for n in after)
    # Every write acknowledged after the kill was served by a live master: all there.
    for tag in tags:
        owner = cluster.owner_of_key("{%s}:x" % tag)
        keys = [writer.key(n) for n in after if writer.key(n).startswith("{%s}" % tag)]
        assert missing(owner, keys) == []
    return_as_replica(cluster, victim, replica)


def js_ready():
    import os
    import shutil
    return shutil.which("node") and os.path.isdir(os.path.join(JS_DIR, "node_modules",
                                                               "ioredis"))


@pytest.mark.skipif(not js_ready(), reason="ioredis not installed (scripts/setup.sh "
                    "installs it with npm into tests/js/node_modules)")
def test_ioredis_cluster_client_carries_on(cluster):
    victim, replica = victim_and_replica(cluster, 2)
    tags = [tag_for_slot(cluster.slots_of(m)[0], "j") for m in cluster.masters()]
    writer = IoredisWriter(cluster, tags)
    try:
        # Writes flow (the JS client reports at the end; the probe watches the slot).
        wait_until(lambda: victim.call("DBSIZE") >= 50, message="ioredis writing")
        kill_and_wait_promotion(cluster, victim, replica, "{%s}:probe" % tags[2])
        t_promoted_wall = time.time()
        # Let the client run on past the promotion.
        wait_until(lambda: time.time() - t_promoted_wall > 3.0, timeout=10)
    finally:
        out = writer.finish()
    acked = out["acked"]
    after = [n for n, at in acked if at / 1000.0 > t_promoted_wall]
    assert len(after) >= 20, out["errors"]
    key = lambda n: "{%s}:%d" % (tags[n % len(tags)], n)  # noqa: E731
    assert any(n % len(tags) == 2 for n in after), "no write to the dead master's slots"
    for i, tag in enumerate(tags):
        owner = cluster.owner_of_key("{%s}:x" % tag)
        assert missing(owner, [key(n) for n in after if n % len(tags) == i]) == []
    return_as_replica(cluster, victim, replica)
