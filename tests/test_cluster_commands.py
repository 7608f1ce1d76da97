"""The CLUSTER admin commands by hand (issue 29), replies byte for byte: a fresh node
alone, a 3-master cluster built without redis-cli (SET-CONFIG-EPOCH, ADDSLOTSRANGE,
MEET), a fourth node joined with MEET and made a replica with REPLICATE, then the
argument errors of Redis 7.0.

The tests share the nodes and run in file order.
"""

import re

import pytest

from cluster_util import Cluster, wait_until
from resp_client import RespClient

pytestmark = pytest.mark.slow

THIRDS = [(0, 5460), (5461, 10922), (10923, 16383)]


@pytest.fixture(scope="module")
def nodes():
    with Cluster(4) as c:
        yield c


def raw(node, *args):
    with RespClient(port=node.port) as c:
        return c.execute_raw(*args)[1]


def bulk(s):
    s = s.encode() if isinstance(s, str) else s
    return b"$%d\r\n%s\r\n" % (len(s), s)


def test_a_fresh_node_is_alone(nodes):
    n = nodes.nodes[0]
    info = n.cluster_info()
    # (cluster_size is left out: Redis 7.0 reports 1 for its first 2 s, then 0.)
    assert (info["cluster_state"], info["cluster_slots_assigned"], info["cluster_known_nodes"],
            info["cluster_current_epoch"], info["cluster_my_epoch"]) == \
        ("fail", "0", "1", "0", "0")
    assert raw(n, "CLUSTER", "MYID") == bulk(n.node_id)
    # Before any peer tells it its address, the node's own ip is empty.
    line = "%s :%d@%d myself,master - 0 0 0 connected\n" % (n.node_id, n.port, n.bus_port)
    assert raw(n, "CLUSTER", "NODES") == bulk(line)
    assert raw(n, "CLUSTER", "SLOTS") == b"*0\r\n"
    assert raw(n, "GET", "x") == b"-CLUSTERDOWN Hash slot not served\r\n"
    assert raw(n, "PING") == b"+PONG\r\n"


def test_build_a_cluster_by_hand(nodes):
    masters = nodes.nodes[:3]
    for i, (n, (a, b)) in enumerate(zip(masters, THIRDS)):
        assert raw(n, "CLUSTER", "SET-CONFIG-EPOCH", str(i + 1)) == b"+OK\r\n"
        assert raw(n, "CLUSTER", "ADDSLOTSRANGE", str(a), str(b)) == b"+OK\r\n"
    for n in masters[1:]:
        assert raw(masters[0], "CLUSTER", "MEET", n.host, str(n.port)) == b"+OK\r\n"
    nodes.wait_stable(masters)
    view = masters[2].cluster_nodes()
    for i, (n, rng) in enumerate(zip(masters, THIRDS)):
        assert view[n.node_id]["slots"] == (rng,)
        assert view[n.node_id]["config_epoch"] == i + 1
        assert view[n.node_id]["addr"] == n.addr
    assert all(m.cluster_info()["cluster_current_epoch"] == "3" for m in masters)
    nodes.check(masters[0])


def test_meet_and_replicate_by_hand(nodes):
    masters, rep = nodes.nodes[:3], nodes.nodes[3]
    assert raw(rep, "CLUSTER", "MEET", masters[1].host, str(masters[1].port)) == b"+OK\r\n"
    wait_until(lambda: len(rep.cluster_nodes()) == 4 and all(
        len(m.cluster_nodes()) == 4 for m in masters), message="the fourth node met")
    wait_until(lambda: "handshake" not in " ".join(
        " ".join(v["flags"]) for v in rep.cluster_nodes().values()), message="handshake done")
    assert raw(rep, "CLUSTER", "REPLICATE", masters[0].node_id) == b"+OK\r\n"
    nodes.wait_stable()
    view = masters[2].cluster_nodes()
    assert view[rep.node_id]["master"] == masters[0].node_id
    assert "slave" in view[rep.node_id]["flags"]
    for sub in ("REPLICAS", "SLAVES"):
        reply = masters[1].call("CLUSTER", sub, masters[0].node_id)
        assert len(reply) == 1 and reply[0].decode().startswith(rep.node_id + " " + rep.addr)
    assert raw(masters[0], "CLUSTER", "REPLICAS", masters[1].node_id) == b"*0\r\n"
    assert raw(masters[0], "CLUSTER", "COUNT-FAILURE-REPORTS", masters[1].node_id) == \
        b":0\r\n"
    assert rep.info("replication")["role"] == "slave"
    nodes.check(masters[0])


@pytest.mark.parametrize("args,reply", [
    (("REPLICAS", "x"), b"-ERR Unknown node x\r\n"),
    (("COUNT-FAILURE-REPORTS", "x"), b"-ERR Unknown node x\r\n"),
    (("SET-CONFIG-EPOCH", "5"), b"-ERR The user can assign a config epoch only when the "
                                b"node does not know any other node.\r\n"),
    (("MEET", "127.0.0.1", "notaport"), b"-ERR Invalid TCP base port specified: notaport\r\n"),
    (("MEET", "127.0.0.1", "70000"),
     b"-ERR Invalid node address specified: 127.0.0.1:70000\r\n"),
    (("ADDSLOTS", "0"), b"-ERR Slot 0 is already busy\r\n"),
    (("ADDSLOTS", "16384"), b"-ERR Invalid or out of range slot\r\n"),
    (("ADDSLOTSRANGE", "10", "5"),
     b"-ERR start slot number 10 is greater than end slot number 5\r\n"),
    (("SETSLOT", "0", "IMPORTING", "x" * 40), b"-ERR I'm already the owner of hash slot 0\r\n"),
    (("SETSLOT", "0", "NODE", "y" * 40), b"-ERR Unknown node " + b"y" * 40 + b"\r\n"),
    (("SETSLOT", "0", "BOGUS"),
     b"-ERR Invalid CLUSTER SETSLOT action or number of arguments. Try CLUSTER HELP\r\n"),
    (("FORGET", "{me}"), b"-ERR I tried hard but I can't forget myself...\r\n"),
    (("REPLICATE", "{me}"), b"-ERR Can't replicate myself\r\n"),
])
def test_argument_errors(nodes, args, reply):
    n = nodes.nodes[0]                       # the master of slots 0-5460
    args = [a.replace("{me}", n.node_id) for a in args]
    assert raw(n, "CLUSTER", *args) == reply


def test_help_saveconfig_bumpepoch(nodes):
    n = nodes.nodes[0]
    help_reply = n.call("CLUSTER", "HELP")
    assert help_reply[0] == b"CLUSTER <subcommand> [<arg> [value] [opt] ...]. Subcommands are:"
    assert len(help_reply) > 40
    assert raw(n, "CLUSTER", "SAVECONFIG") == b"+OK\r\n"
    assert re.fullmatch(rb"\+(BUMPED|STILL) \d+\r\n", raw(n, "CLUSTER", "BUMPEPOCH"))
    nodes.wait_stable()
    for cmd in ("READONLY", "READWRITE", "ASKING"):
        assert raw(n, cmd) == b"+OK\r\n"
