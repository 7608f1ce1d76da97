"""READONLY / READWRITE on cluster replicas (issue 29): a replica redirects to its
master until the connection says READONLY, then serves reads of its master's slots
(never writes, never other shards' slots) until READWRITE. Replies byte for byte;
redis-py's RedisCluster(read_from_replicas=True) reads through replicas.
"""

import pytest

from cluster_util import cluster_fixture, key_slot
from resp_client import RespClient

pytestmark = pytest.mark.slow


cluster = cluster_fixture(6, replicas=1)


@pytest.fixture
def shard(cluster):
    """(master, its replica, a key of the master holding 'v', a key of another shard)."""
    m = cluster.masters()[0]
    key = cluster.key_on(m, "ro")
    m.call("SET", key, "v")
    far = cluster.key_on(cluster.masters()[1], "far")
    cluster.wait_replicated()
    yield m, cluster.replicas_of(m)[0], key, far
    m.call("DEL", key)


def moved(key, node):
    return b"-MOVED %d %s\r\n" % (key_slot(key), node.addr.encode())


def test_replica_redirects_reads_to_its_master_by_default(shard):
    m, rep, key, _ = shard
    with RespClient(port=rep.port) as c:
        assert c.execute_raw("GET", key)[1] == moved(key, m)


def test_readonly_serves_reads_of_the_masters_slots(cluster, shard):
    m, rep, key, far = shard
    with RespClient(port=rep.port) as c:
        assert c.execute_raw("READONLY")[1] == b"+OK\r\n"
        assert c.execute_raw("GET", key)[1] == b"$1\r\nv\r\n"
        assert c.execute_raw("EXISTS", key)[1] == b":1\r\n"
        assert c.execute_raw("EVAL_RO", "return redis.call('get', KEYS[1])", "1", key)[1] \
            == b"$1\r\nv\r\n"
        assert c.execute_raw("MULTI")[1] == b"+OK\r\n"
        assert c.execute_raw("GET", key)[1] == b"+QUEUED\r\n"
        assert c.execute_raw("EXEC")[1] == b"*1\r\n$1\r\nv\r\n"
        # Writes still go to the master; other shards' keys to their masters.
        assert c.execute_raw("SET", key, "w")[1] == moved(key, m)
        assert c.execute_raw("GET", far)[1] == moved(far, cluster.owner_of_key(far))
        assert c.execute_raw("READWRITE")[1] == b"+OK\r\n"
        assert c.execute_raw("GET", key)[1] == moved(key, m)


def test_readonly_is_per_connection(shard):
    m, rep, key, _ = shard
    with RespClient(port=rep.port) as a, RespClient(port=rep.port) as b:
        assert a.execute_raw("READONLY")[1] == b"+OK\r\n"
        assert a.execute_raw("GET", key)[1] == b"$1\r\nv\r\n"
        assert b.execute_raw("GET", key)[1] == moved(key, m)


def test_readonly_on_a_master_changes_nothing(cluster, shard):
    m, _, key, far = shard
    with RespClient(port=m.port) as c:
        assert c.execute_raw("READONLY")[1] == b"+OK\r\n"
        assert c.execute_raw("GET", key)[1] == b"$1\r\nv\r\n"
        assert c.execute_raw("GET", far)[1] == moved(far, cluster.owner_of_key(far))


def test_redis_py_reads_from_replicas(cluster, shard):
    _, _, key, _ = shard
    rc = cluster.cluster_client(read_from_replicas=True)
    try:
        for _ in range(10):            # round-robin over master and replica
            assert rc.get(key) == b"v"
    finally:
        rc.close()
