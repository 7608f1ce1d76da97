"""Cluster settings (issue 29), replies byte for byte: defaults in CONFIG GET,
`cluster-port` and `cluster-announce-hostname` as CLUSTER NODES / SLOTS / SHARDS and
-MOVED show them (with `cluster-preferred-endpoint-type` ip and hostname), and what a
node whose cluster state is fail serves under `cluster-require-full-coverage`,
`cluster-allow-reads-when-down` and `cluster-allow-pubsubshard-when-down`.
"""

import random

import pytest

from cluster_util import Cluster, cluster_fixture, key_slot, wait_until
from cluster_node import port_free
from resp_client import RespClient

pytestmark = pytest.mark.slow

cluster = cluster_fixture(3, replicas=0)


def raw(node, *args):
    with RespClient(port=node.port) as c:
        return c.execute_raw(*args)[1]


def bulk(s):
    s = s.encode() if isinstance(s, str) else s
    return b"$%d\r\n%s\r\n" % (len(s), s)


@pytest.mark.parametrize("name,value", [
    ("cluster-enabled", "yes"),
    ("cluster-config-file", "nodes.conf"),
    ("cluster-node-timeout", None),             # what the fixture set
    ("cluster-announce-ip", ""),
    ("cluster-announce-port", "0"),
    ("cluster-announce-bus-port", "0"),
    ("cluster-announce-hostname", ""),
    ("cluster-require-full-coverage", "yes"),
    ("cluster-allow-reads-when-down", "no"),
    ("cluster-allow-pubsubshard-when-down", "yes"),
    ("cluster-preferred-endpoint-type", "ip"),
])
def test_config_defaults(cluster, name, value):
    n = cluster.nodes[0]
    if value is None:
        value = str(n.node_timeout)
    assert raw(n, "CONFIG", "GET", name) == b"*2\r\n" + bulk(name) + bulk(value)


def test_cluster_port_setting(cluster):
    n = cluster.nodes[0]
    assert raw(n, "CONFIG", "GET", "cluster-port") == b"*2\r\n" + bulk("cluster-port") + \
        bulk("0")


@pytest.fixture(scope="module")
def named():
    """3 masters with their own bus ports (not port + 10000) and announced hostnames."""
    with Cluster(0, kinds=[]) as c:
        for i in range(3):
            bus = next(p for p in (random.randint(5000, 9999) for _ in range(1000))
                       if port_free(p))
            node = c.add_node(extra_args=["--cluster-port", str(bus),
                                          "--cluster-announce-hostname", "node-%d.test" % i])
            node.custom_bus = bus
        c.create()
        yield c


def test_cluster_port_and_hostname_in_cluster_nodes(named):
    for n in named.nodes:
        for i, m in enumerate(named.nodes):
            line = n.cluster_nodes()[m.node_id]["line"]
            assert line.split(" ")[1] == "%s@%d,node-%d.test" % (m.addr, m.custom_bus, i)
    named.check()


def test_endpoints_ip_then_hostname(named):
    n, other = named.nodes[0], named.nodes[1]
    key = named.key_on(other, "h")
    slot = key_slot(key)
    assert raw(n, "GET", key) == b"-MOVED %d %s\r\n" % (slot, other.addr.encode())
    with RespClient(port=n.port) as c:
        slots = c.execute("CLUSTER", "SLOTS")
    entry = next(e for e in slots if e[0] <= slot <= e[1])
    assert entry[2][:3] == [b"127.0.0.1", other.port, other.node_id.encode()]
    assert entry[2][3] == [b"hostname", b"node-1.test"]
    try:
        for m in named.nodes:
            assert raw(m, "CONFIG", "SET", "cluster-preferred-endpoint-type", "hostname") == \
                b"+OK\r\n"
        assert raw(n, "GET", key) == b"-MOVED %d node-1.test:%d\r\n" % (slot, other.port)
        with RespClient(port=n.port) as c:
            slots = c.execute("CLUSTER", "SLOTS")
            shards = c.execute("CLUSTER", "SHARDS")
        entry = next(e for e in slots if e[0] <= slot <= e[1])
        assert entry[2] == [b"node-1.test", other.port, other.node_id.encode(),
                            [b"ip", b"127.0.0.1"]]
        for shard in shards:
            for node in shard[3]:
                d = dict(zip(node[::2], node[1::2]))
                i = named.nodes.index(named.by_id(d[b"id"].decode()))
                assert d[b"endpoint"] == d[b"hostname"] == b"node-%d.test" % i
                assert d[b"ip"] == b"127.0.0.1"
    finally:
        for m in named.nodes:
            m.call("CONFIG", "SET", "cluster-preferred-endpoint-type", "ip")


def test_a_node_whose_cluster_state_is_fail(cluster):
    n = cluster.nodes[0]
    gone = cluster.key_on(n, "gone")
    kept = cluster.key_on(n, "kept", avoid_slots=(key_slot(gone),))
    n.call("SET", kept, "v")
    down = b"-CLUSTERDOWN The cluster is down\r\n"
    assert raw(n, "CLUSTER", "DELSLOTS", str(key_slot(gone))) == b"+OK\r\n"
    try:
        wait_until(lambda: n.cluster_info()["cluster_state"] == "fail", message="fail")
        assert raw(n, "GET", kept) == down
        assert raw(n, "SET", kept, "w") == down
        assert raw(n, "GET", gone) == b"-CLUSTERDOWN Hash slot not served\r\n"
        # Sharded pub/sub goes on by default.
        assert raw(n, "SPUBLISH", kept, "m") == b":0\r\n"
        assert raw(n, "CONFIG", "SET", "cluster-allow-reads-when-down", "yes") == b"+OK\r\n"
        assert raw(n, "GET", kept) == b"$1\r\nv\r\n"
        assert raw(n, "SET", kept, "w") == \
            b"-CLUSTERDOWN The cluster is down and only accepts read commands\r\n"
        assert raw(n, "GET", gone) == b"-CLUSTERDOWN Hash slot not served\r\n"
        assert raw(n, "CONFIG", "SET", "cluster-allow-pubsubshard-when-down", "no") == \
            b"+OK\r\n"
        assert raw(n, "SPUBLISH", kept, "m") == down
        assert raw(n, "SSUBSCRIBE", kept) == down
        assert raw(n, "PUBLISH", kept, "m") == b":0\r\n"
    finally:
        n.call("CONFIG", "SET", "cluster-allow-reads-when-down", "no")
        n.call("CONFIG", "SET", "cluster-allow-pubsubshard-when-down", "yes")
        n.call("CLUSTER", "ADDSLOTS", key_slot(gone))
    cluster.wait_stable()
    assert raw(n, "GET", kept) == b"$1\r\nv\r\n"
