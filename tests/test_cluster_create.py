"""Cluster creation and the read-only CLUSTER commands (issue 29).

One 6-node cluster (3 masters + 3 replicas) made by `redis-cli --cluster create`, shared
by the module: `--cluster check` passes, CLUSTER INFO / NODES / SLOTS / SHARDS have Redis
7.0's shape and every node tells the same story, CLUSTER KEYSLOT agrees with the CRC16
of the key spec, COUNTKEYSINSLOT / GETKEYSINSLOT count what was written.

Nodes are the server under test (rankd; redis-server with RANKD_TARGET_REDIS=1).
"""

import pytest

from cluster_util import (cluster_fixture, key_slot, parse_cluster_nodes, tag_for_slot,
                          topology, wait_until)
from resp_client import RespClient, RespError

pytestmark = pytest.mark.slow


cluster = cluster_fixture(6, replicas=1)


def test_check_passes_and_reports_full_coverage(cluster):
    out = cluster.check()
    assert "[OK] All nodes agree about slots configuration." in out
    assert "[OK] All 16384 slots covered." in out
    assert "[ERR]" not in out and "[WARNING]" not in out, out
    # Every master holds one third of the slots and has one replica.
    assert out.count("1 additional replica(s)") == 3, out


def test_cluster_info_fields(cluster):
    for n in cluster.nodes:
        info = n.cluster_info()
        assert info["cluster_state"] == "ok"
        assert info["cluster_slots_assigned"] == "16384"
        assert info["cluster_slots_ok"] == "16384"
        assert info["cluster_slots_pfail"] == "0"
        assert info["cluster_slots_fail"] == "0"
        assert info["cluster_known_nodes"] == "6"
        assert info["cluster_size"] == "3"
        # create gives each master its own config epoch; the current epoch covers them.
        assert int(info["cluster_current_epoch"]) >= 3
        assert int(info["cluster_my_epoch"]) >= 1
        for field in ("cluster_stats_messages_sent", "cluster_stats_messages_received",
                      "cluster_stats_messages_ping_sent", "cluster_stats_messages_pong_sent",
                      "cluster_stats_messages_ping_received",
                      "cluster_stats_messages_pong_received",
                      "total_cluster_links_buffer_limit_exceeded"):
            assert info[field].isdigit(), (field, info)
        assert int(info["cluster_stats_messages_sent"]) > 0
        assert n.info("cluster") == {"cluster_enabled": 1}


def test_myid_is_40_hex_and_marked_myself(cluster):
    ids = set()
    for n in cluster.nodes:
        myid = n.call("CLUSTER", "MYID").decode()
        assert len(myid) == 40 and all(ch in "0123456789abcdef" for ch in myid)
        view = n.cluster_nodes()
        assert "myself" in view[myid]["flags"]
        assert [nid for nid, v in view.items() if "myself" in v["flags"]] == [myid]
        ids.add(myid)
    assert len(ids) == 6


def test_cluster_nodes_shape_and_agreement(cluster):
    views = [n.cluster_nodes() for n in cluster.nodes]
    for n, view in zip(cluster.nodes, views):
        assert set(view) == {m.node_id for m in cluster.nodes}
        for nid, v in view.items():
            node = cluster.by_id(nid)
            assert v["addr"] == node.addr
            assert v["bus_port"] == node.bus_port
            assert v["link"] == "connected"
            assert v["config_epoch"] >= 0
            if "master" in v["flags"]:
                assert v["master"] == "-" and v["slots"]
            else:
                assert "slave" in v["flags"] and v["slots"] == ()
                assert "master" in view[v["master"]]["flags"]
            # Fields 4 and 5 are millisecond times; the myself line's ping-sent is 0.
            assert v["ping_sent"].isdigit() and v["pong_recv"].isdigit()
            if "myself" in v["flags"]:
                assert v["ping_sent"] == "0"
    # Same masters, same slots, same replica pairs on every node.
    assert all(topology(v) == topology(views[0]) for v in views)
    masters = [v for v in views[0].values() if "master" in v["flags"]]
    covered = sorted(r for m in masters for r in m["slots"])
    assert covered[0][0] == 0 and covered[-1][1] == 16383
    assert all(a[1] + 1 == b[0] for a, b in zip(covered, covered[1:]))
    # Each master has exactly one replica.
    replicas = [v for v in views[0].values() if "slave" in v["flags"]]
    assert sorted(v["master"] for v in replicas) == sorted(
        nid for nid, v in views[0].items() if "master" in v["flags"])


def _slots_view(node):
    """CLUSTER SLOTS of `node` as {(start, end): (master id, [replica ids])}, checking
    each entry's shape on the way."""
    with RespClient(port=node.port) as c:
        slots = c.execute("CLUSTER", "SLOTS")
    got = {}
    for entry in slots:
        start, end, master = entry[0], entry[1], entry[2]
        for ep in entry[2:]:
            assert ep[0] == b"127.0.0.1" and isinstance(ep[1], int) and len(ep[2]) == 40
        got[(start, end)] = (master[2].decode(), sorted(r[2].decode() for r in entry[3:]))
    return got


def test_cluster_slots_matches_nodes(cluster):
    # Redis 7.0 lists a replica in CLUSTER SLOTS once it has a replication offset, so
    # write through each master first.
    for i, m in enumerate(cluster.masters()):
        m.call("SET", cluster.key_on(m, "slots%d" % i), "x")
    cluster.wait_replicated()
    view = cluster.view()
    want = {}
    for nid, v in view.items():
        if "master" in v["flags"]:
            reps = sorted(r for r, rv in view.items() if rv["master"] == nid)
            for rng in v["slots"]:
                want[rng] = (nid, reps)
    for n in cluster.nodes:
        wait_until(lambda: _slots_view(n) == want, timeout=20,
                   message="CLUSTER SLOTS of %r" % n)
    # Port numbers name the right node.
    with RespClient(port=cluster.nodes[0].port) as c:
        for entry in c.execute("CLUSTER", "SLOTS"):
            for ep in entry[2:]:
                assert cluster.by_port(ep[1]).node_id == ep[2].decode()


def test_cluster_shards_shape(cluster):
    view = cluster.view()
    for n in cluster.nodes:
        with RespClient(port=n.port) as c:
            shards = _decode(c.execute("CLUSTER", "SHARDS"))
        assert len(shards) == 3
        seen = set()
        for shard in shards:
            d = dict(zip(shard[::2], shard[1::2]))
            assert set(d) == {"slots", "nodes"}
            ranges = [tuple(d["slots"][i:i + 2]) for i in range(0, len(d["slots"]), 2)]
            roles = {}
            for node in d["nodes"]:
                nd = dict(zip(node[::2], node[1::2]))
                assert {"id", "port", "ip", "endpoint", "role", "replication-offset",
                        "health"} <= set(nd), nd
                assert nd["ip"] == "127.0.0.1" and nd["endpoint"] == "127.0.0.1"
                assert nd["port"] == cluster.by_id(nd["id"]).port
                assert nd["health"] in ("online", "loading")
                roles[nd["id"]] = nd["role"]
                seen.add(nd["id"])
            masters = [i for i, r in roles.items() if r == "master"]
            assert len(masters) == 1 and sorted(roles.values()) == ["master", "replica"]
            assert tuple(ranges) == view[masters[0]]["slots"]
        assert seen == {m.node_id for m in cluster.nodes}


def _decode(v):
    if isinstance(v, bytes):
        return v.decode()
    if isinstance(v, list):
        return [_decode(x) for x in v]
    return v


@pytest.mark.parametrize("key,slot", [
    ("{user1000}.following", 3443),
    ("{user1000}.followers", 3443),
    ("{}", 15257),                 # an empty tag hashes the whole key
    ("foo{}{bar}", 8363),          # the first '{' closes empty: whole key
    ("foo{{bar}}zap", 4015),       # tag is '{bar'
    ("foo{bar}{zap}", 5061),       # only the first tag counts
    ("123456789", 12739),          # the CRC16 check value 0x31C3 mod 16384
    ("", 0),
])
def test_keyslot(cluster, key, slot):
    assert key_slot(key) == slot
    for n in cluster.nodes[:2]:
        assert n.call("CLUSTER", "KEYSLOT", key) == slot


def test_keyslot_of_binary_keys(cluster):
    n = cluster.nodes[0]
    for key in (b"\x00\xff{\x01}", b"\xfe\xff", "ключ".encode()):
        assert n.call("CLUSTER", "KEYSLOT", key) == key_slot(key)


def test_countkeysinslot_and_getkeysinslot(cluster):
    master = cluster.masters()[0]
    slot = cluster.slots_of(master)[7]
    tag = tag_for_slot(slot)
    keys = sorted("{%s}:%d" % (tag, i) for i in range(5))
    c = master.client()
    assert c.execute_command("CLUSTER", "COUNTKEYSINSLOT", slot) == 0
    for k in keys:
        c.set(k, "v")
    try:
        assert c.execute_command("CLUSTER", "COUNTKEYSINSLOT", slot) == 5
        got = c.execute_command("CLUSTER", "GETKEYSINSLOT", slot, 10)
        assert sorted(x.decode() for x in got) == keys
        assert len(c.execute_command("CLUSTER", "GETKEYSINSLOT", slot, 2)) == 2
        assert c.execute_command("CLUSTER", "GETKEYSINSLOT", slot, 0) == []
        # A slot this master does not own holds nothing here.
        other = cluster.slots_of(cluster.masters()[1])[0]
        assert c.execute_command("CLUSTER", "COUNTKEYSINSLOT", other) == 0
    finally:
        c.delete(*keys)
        c.close()


@pytest.mark.parametrize("args,error", [
    (("COUNTKEYSINSLOT", "16384"), "ERR Invalid slot"),
    (("COUNTKEYSINSLOT", "-1"), "ERR Invalid slot"),
    (("COUNTKEYSINSLOT", "abc"), "ERR value is not an integer or out of range"),
    (("GETKEYSINSLOT", "1", "-1"), "ERR Invalid slot or number of keys"),
    (("GETKEYSINSLOT", "16384", "1"), "ERR Invalid slot or number of keys"),
    (("KEYSLOT",), "ERR wrong number of arguments for 'cluster|keyslot' command"),
    (("NOSUCH",), "ERR unknown subcommand 'NOSUCH'. Try CLUSTER HELP."),
])
def test_slot_argument_errors(cluster, args, error):
    with RespClient(port=cluster.nodes[0].port) as c:
        assert c.execute("CLUSTER", *args) == RespError(error)


def test_nodes_conf_lists_the_same_topology(cluster):
    """Each node's nodes.conf holds the CLUSTER NODES lines plus a 'vars' line."""
    for n in cluster.nodes:

        def conf_matches():
            with open(n.nodes_conf) as f:
                text = f.read()
            lines = text.splitlines()
            if not lines or not lines[-1].startswith("vars currentEpoch "):
                return False
            return topology(parse_cluster_nodes("\n".join(lines[:-1]))) == \
                topology(n.cluster_nodes())
        wait_until(conf_matches, timeout=20, message="nodes.conf of %r" % n)


def test_cluster_links_shape(cluster):
    for n in cluster.nodes[:2]:
        with RespClient(port=n.port) as c:
            links = _decode(c.execute("CLUSTER", "LINKS"))
        peers = set()
        for link in links:
            d = dict(zip(link[::2], link[1::2]))
            assert set(d) == {"direction", "node", "create-time", "events",
                              "send-buffer-allocated", "send-buffer-used"}, d
            assert d["direction"] in ("to", "from")
            assert d["events"] in ("r", "w", "rw", "")
            peers.add((d["node"], d["direction"]))
        others = {m.node_id for m in cluster.nodes} - {n.node_id}
        # An outbound link to every other node; inbound ones as the others connect.
        assert {p for p, d in peers if d == "to"} == others
        assert {p for p, d in peers} == others


def test_whole_cluster_restarts_from_nodes_conf(cluster):
    """Last in the module: every node stopped, then started on the same port and
    directory; each keeps its id, and the cluster comes back as it was."""
    before = topology(cluster.view())
    for n in cluster.nodes:
        n.stop(keep_dir=True)
    for n in cluster.nodes:
        old = n.node_id
        n.restart()
        assert n.node_id == old
    cluster.wait_stable()
    assert topology(cluster.view()) == before
    cluster.check()
