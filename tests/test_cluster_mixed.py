"""Mixed clusters: rankd and redis-server 7.0.15 nodes in one Redis Cluster (issue 29).

NEEDS RANKD NODES: with RANKD_TARGET_REDIS=1 every node is redis-server (cluster_util
maps each kind to redis-server), so the tests then prove themselves on an all-Redis
cluster; with a rankd build they mix the two implementations:
  - 3 redis-server + 3 rankd nodes created together (masters and replicas of both
    kinds), data written through RedisCluster, replicas of either kind serving READONLY
    reads of a master of the other kind, slots resharded both ways;
  - a rankd node added to a running redis-server cluster with add-node, slots moved to
    it and back, a rankd replica of a redis-server master;
  - every node's CLUSTER NODES agrees, `--cluster check` passes.
A leaderboard moved to a redis-server node arrives as a plain sorted set (rankd only).
"""

import pytest

from cluster_util import Cluster, skip_without_rankd_cluster_mode, tag_for_slot, wait_until
from resp_client import RespClient
from server_process import target_is_redis

pytestmark = pytest.mark.slow

MIXED = ["redis", "rankd", "redis", "rankd", "redis", "rankd"]


def kinds(cluster, nodes):
    return {n.kind for n in nodes}


def write_dataset(cluster, prefix, slots):
    """Strings, counters and sorted sets in `slots` through RedisCluster; returns
    {key: expected ZRANGE WITHSCORES or GET}."""
    rc = cluster.cluster_client()
    want = {}
    try:
        for i, slot in enumerate(slots):
            tag = tag_for_slot(slot, prefix)
            z, s = "{%s}:board" % tag, "{%s}:name" % tag
            rc.zadd(z, {"alice": i, "bob": i + 0.5, "carol": 1e-3 * i})
            rc.zincrby(z, 2.25, "alice")
            rc.set(s, "v%d" % i)
            want[z] = rc.zrange(z, 0, -1, withscores=True)
            want[s] = b"v%d" % i
        return want
    finally:
        rc.close()


def assert_dataset(cluster, want):
    rc = cluster.cluster_client()
    try:
        for key, value in want.items():
            if key.endswith(":board"):
                assert rc.type(key) == b"zset"
                assert rc.zrange(key, 0, -1, withscores=True) == value
            else:
                assert rc.get(key) == value
    finally:
        rc.close()
    # And the owner holds it under the slot map every node agrees on.
    for key in want:
        assert cluster.owner_of_key(key).call("EXISTS", key) == 1


def assert_all_agree(cluster):
    cluster.wait_stable()
    out = cluster.check()
    assert "[OK] All nodes agree about slots configuration." in out
    views = [n.cluster_nodes() for n in cluster.nodes]
    ids = {n.node_id for n in cluster.nodes}
    assert all(set(v) == ids for v in views)


@pytest.fixture(scope="module")
def mixed():
    with Cluster(6, kinds=MIXED) as c:
        c.create(replicas=1)
        yield c


def test_created_together(mixed):
    if not target_is_redis():
        assert kinds(mixed, mixed.nodes) == {"redis", "rankd"}
    assert_all_agree(mixed)
    assert len(mixed.masters()) == 3
    for m in mixed.masters():
        assert len(mixed.replicas_of(m)) == 1


def test_data_and_replicas_across_kinds(mixed):
    slots = [m_slots[5] for m_slots in (mixed.slots_of(m) for m in mixed.masters())]
    want = write_dataset(mixed, "d", slots)
    assert_dataset(mixed, want)
    mixed.wait_replicated()
    for m in mixed.masters():
        rep = mixed.replicas_of(m)[0]
        with RespClient(port=rep.port) as c:
            assert c.execute("READONLY") == b"OK"
            for key, value in want.items():
                if mixed.owner_of_key(key) is m and not key.endswith(":board"):
                    assert c.execute("GET", key) == value


def test_slots_move_both_ways(mixed):
    masters = mixed.masters()
    # Prefer a pair of different kinds (always the case with a rankd build).
    a, b = next(((x, y) for x in masters for y in masters
                 if x is not y and x.kind != y.kind), (masters[0], masters[1]))
    moving = mixed.slots_of(a)[:100]
    want = write_dataset(mixed, "m", moving[::10])
    mixed.reshard(a, b, 100)
    assert set(moving) <= set(mixed.slots_of(b))
    assert_dataset(mixed, want)
    back = mixed.slots_of(b)[:100]
    want.update(write_dataset(mixed, "n", back[::10]))
    mixed.reshard(b, a, 100)
    assert set(back) <= set(mixed.slots_of(a))
    assert_dataset(mixed, want)
    assert_all_agree(mixed)


@pytest.mark.skipif(target_is_redis(), reason="rankd leaderboards (LB.*)")
def test_leaderboard_moved_to_redis_becomes_a_sorted_set(mixed):
    rankd = next((m for m in mixed.masters() if m.kind == "rankd"), None)
    redis_m = next((m for m in mixed.masters() if m.kind == "redis"), None)
    if rankd is None or redis_m is None:
        pytest.skip("no rankd and redis-server master pair")
    slot = mixed.slots_of(rankd)[0]
    tag = tag_for_slot(slot, "lb")
    board = "{%s}:lb" % tag
    assert rankd.call("LB.CREATE", board) == b"OK"
    rankd.call("LB.ADD", board, 5, "a", 7, "b", 5, "c")
    mixed.reshard(rankd, redis_m, 1)
    assert mixed.slot_owner(slot) is redis_m
    assert redis_m.call("TYPE", board) == b"zset"
    assert redis_m.call("ZRANGE", board, 0, -1, "WITHSCORES") == \
        [b"a", b"5", b"c", b"5", b"b", b"7"]
    mixed.reshard(redis_m, rankd, 1)


def test_rankd_node_joins_a_redis_server_cluster():
    skip_without_rankd_cluster_mode(["rankd"])
    with Cluster(3, kinds=["redis"] * 3) as c:
        c.create(replicas=0)
        want = write_dataset(c, "r", [c.slots_of(m)[0] for m in c.masters()])
        new = c.add_node("rankd")
        c.cli("--cluster", "add-node", new.addr, c.masters()[0].addr)
        c.wait_stable()
        src = c.masters()[0]
        c.reshard(src, new, 200)
        assert len(c.slots_of(new)) == 200
        assert_dataset(c, want)
        more = write_dataset(c, "s", c.slots_of(new)[::40])
        assert all(c.owner_of_key(k) is new for k in more)
        # A rankd replica of a redis-server master, and the slots go back.
        rep = c.add_node("rankd")
        c.cli("--cluster", "add-node", rep.addr, src.addr, "--cluster-slave",
              "--cluster-master-id", src.node_id)
        c.wait_stable()
        c.reshard(new, src, 200)
        assert c.slots_of(new) == []
        want.update(more)
        assert_dataset(c, want)
        c.wait_replicated()
        with RespClient(port=rep.port) as r:
            assert r.execute("READONLY") == b"OK"
            for key, value in want.items():
                if c.owner_of_key(key) is src and not key.endswith(":board"):
                    assert r.execute("GET", key) == value
        assert_all_agree(c)
        wait_until(lambda: all(n.cluster_info()["cluster_known_nodes"] == "5"
                               for n in c.nodes), message="5 nodes known")
