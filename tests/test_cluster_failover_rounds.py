"""Repeated failovers (issue 30): kill a master, let its replica take over, restart the
killed node (it comes back as the new master's replica), and again: ROUNDS rounds
(default 20, RANKD_FAILOVER_ROUNDS), the masters taken in turn.

Before each kill a writer confirms writes with `WAIT 1` on the master about to die, and
a redis-py RedisCluster client writes over every master. After each round the whole
history is checked: every key written so far is readable through RedisCluster with its
value, and every write confirmed so far is present on the current owner of its slot.
"""

import os
import time

import pytest

from cluster_failover_util import (DirectWriter, FAILOVER_NODE_TIMEOUT_MS, failover_cluster,
                                   kill_and_wait_promotion, missing, promotion_bound_s,
                                   return_as_replica, wait_owner_everywhere)
from cluster_util import tag_for_slot

pytestmark = pytest.mark.slow

ROUNDS = int(os.environ.get("RANKD_FAILOVER_ROUNDS", "20"))
# The shortest node timeout the suite uses: 20 rounds stay near a minute and a half.
ROUND_NODE_TIMEOUT_MS = min(FAILOVER_NODE_TIMEOUT_MS, 1000)


def check_history(cluster, confirmed, routed):
    """confirmed: {key: value} of writes WAIT confirmed; routed: {key: value} written
    through RedisCluster (acknowledged). All must be readable from the slots' owners."""
    by_owner = {}
    for key in confirmed:
        by_owner.setdefault(cluster.owner_of_key(key), []).append(key)
    for owner, keys in by_owner.items():
        assert missing(owner, keys) == [], "confirmed writes lost on %r" % owner
    rc = cluster.cluster_client()
    try:
        for key, value in routed.items():
            assert rc.get(key) == value, key
        for key, value in list(confirmed.items())[::25]:
            assert rc.get(key) == value, key
    finally:
        rc.close()


def test_repeated_failovers_keep_every_confirmed_write():
    confirmed, routed, times, round_times = {}, {}, [], []
    with failover_cluster(node_timeout=ROUND_NODE_TIMEOUT_MS) as cluster:
        for rnd in range(ROUNDS):
            t_round = time.monotonic()
            masters = cluster.masters()
            assert len(masters) == 3, cluster.describe()
            victim = masters[rnd % 3]
            replicas = cluster.replicas_of(victim)
            assert len(replicas) == 1, cluster.describe()
            replica = replicas[0]
            slots = cluster.slots_of(victim)
            tag = tag_for_slot(slots[rnd % len(slots)], "r%d" % rnd)
            # Writes through the cluster client, over every master.
            rc = cluster.cluster_client()
            try:
                for i, m in enumerate(masters):
                    key = "{%s}:routed:%d" % (tag_for_slot(cluster.slots_of(m)[rnd],
                                                           "q%d" % rnd), i)
                    assert rc.set(key, "%d:%d" % (rnd, i)) is True
                    routed[key] = b"%d:%d" % (rnd, i)
            finally:
                rc.close()
            writer = DirectWriter(victim, tag, wait_replicas=1)
            writer.start()
            writer.wait_for(30)
            _, elapsed = kill_and_wait_promotion(cluster, victim, replica,
                                                 "{%s}:probe" % tag)
            writer.finish()
            times.append(elapsed)
            assert elapsed <= promotion_bound_s(cluster), \
                "round %d: promoted after %.2fs" % (rnd, elapsed)
            for n in writer.durable:
                confirmed[writer.key(n)] = str(n).encode()
            wait_owner_everywhere(cluster, slots, replica)
            assert missing(replica, [writer.key(n) for n in writer.durable]) == []
            return_as_replica(cluster, victim, replica)
            # The routed write to the victim came before the confirmed ones: a WAIT
            # covers every write the master made before it, so it is kept too.
            check_history(cluster, confirmed, routed)
            round_times.append(time.monotonic() - t_round)
        cluster.check()
    print("promotion times: median %.2fs, worst %.2fs over %d rounds"
          % (sorted(times)[len(times) // 2], max(times), len(times)))
    print("round times: %s" % " ".join("%.1f" % t for t in round_times))
