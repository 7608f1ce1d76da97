"""The cluster bus between rankd and redis-server nodes (issue 29): messages a redis-server
node sends reach rankd (PUBLISH to its subscribers, SPUBLISH within the shard), a rankd
node answers a PING crafted in Redis 7.0's layout with a PONG in that layout, and a node
that stops is marked failing by every node, rankd and redis-server alike.

Each test passes with RANKD_TARGET_REDIS=1 (every node redis-server).
"""

import socket
import struct
import time

import pytest

from cluster_util import Cluster, wait_until

pytestmark = pytest.mark.slow

HEADER_LEN = 2256


@pytest.fixture(scope="module")
def mixed():
    # Masters rankd, redis, rankd; replicas redis, rankd, redis (redis-cli pairs them).
    with Cluster(6, kinds=["test", "redis", "test", "redis", "test", "redis"]) as c:
        c.create(replicas=1)
        yield c


def read_messages(sock, count, deadline):
    """Subscriber pushes read off a raw socket until `count` arrived."""
    data = b""
    while data.count(b"message") < count and time.monotonic() < deadline:
        try:
            data += sock.recv(65536)
        except socket.timeout:
            pass
    return data


def subscribe(sock, command, channel):
    """Sends (S)SUBSCRIBE and reads its confirmation: only then is the client
    subscribed. A message published sooner can reach the node (over the bus)
    before the node reads the command, and is rightly not delivered."""
    sock.sendall(b"*2\r\n$%d\r\n%s\r\n$%d\r\n%s\r\n" % (
        len(command), command, len(channel), channel))
    data, deadline = b"", time.monotonic() + 10
    while not data.endswith(b":1\r\n") and time.monotonic() < deadline:
        try:
            data += sock.recv(65536)
        except socket.timeout:
            pass
    assert data.endswith(b":1\r\n"), data


def test_publish_from_redis_reaches_rankd_subscribers(mixed):
    rankd_nodes = [n for n in mixed.nodes if n.kind == "rankd"]
    redis_nodes = [n for n in mixed.nodes if n.kind == "redis"]
    subs = []
    for n in rankd_nodes:
        s = socket.create_connection((n.host, n.port), timeout=0.5)
        subs.append(s)
        subscribe(s, b"SUBSCRIBE", b"news")
    try:
        redis_nodes[0].call("PUBLISH", "news", "hello")
        for s in subs:
            got = read_messages(s, 1, time.monotonic() + 10)
            assert b"$7\r\nmessage\r\n$4\r\nnews\r\n$5\r\nhello\r\n" in got, got
    finally:
        for s in subs:
            s.close()


def test_spublish_reaches_the_shard(mixed):
    # A shard whose master is rankd and replica redis-server, or the other way round.
    for master in mixed.masters():
        reps = mixed.replicas_of(master)
        if reps and reps[0].kind != master.kind:
            break
    else:
        pytest.skip("no shard mixing kinds")
    slot = mixed.slots_of(master)[0]
    from cluster_keys import tag_for_slot
    channel = "{%s}ch" % tag_for_slot(slot)
    target = master if master.kind == "rankd" else reps[0]
    sender = reps[0] if target is master else master
    s = socket.create_connection((target.host, target.port), timeout=0.5)
    try:
        subscribe(s, b"SSUBSCRIBE", channel.encode())
        sender.call("SPUBLISH", channel, "shard-hello")
        got = read_messages(s, 1, time.monotonic() + 10)
        assert b"smessage" in got and b"shard-hello" in got, got
    finally:
        s.close()


def test_a_crafted_ping_gets_a_pong_in_redis_layout(mixed):
    node = next(n for n in mixed.nodes if n.kind == "rankd") if any(
        n.kind == "rankd" for n in mixed.nodes) else mixed.nodes[0]
    sender = "f" * 40
    body = struct.pack(">HHHHQQQ", 1, 1, 0, 0, 0, 0, 0) + sender.encode() + b"\x00" * 2048
    body += b"\x00" * 40 + b"\x00" * 46 + struct.pack(">H", 0) + b"\x00" * 30
    body += struct.pack(">HHHB", 0, 11, 1, 0) + b"\x00" * 3
    ping = b"RCmb" + struct.pack(">I", HEADER_LEN) + body
    with socket.create_connection((node.host, node.bus_port), timeout=5) as s:
        s.sendall(ping)
        data = b""
        while len(data) < 8 or len(data) < struct.unpack(">I", data[4:8])[0]:
            chunk = s.recv(65536)
            assert chunk, "link closed before the PONG"
            data += chunk
    sig, totlen, ver, port, mtype, count = struct.unpack(">4sIHHHH", data[:16])
    assert (sig, ver, mtype, port) == (b"RCmb", 1, 1, node.port)
    assert data[40:80] == node.node_id.encode()
    assert totlen == len(data) and totlen >= HEADER_LEN + count * 104
    assert 1 <= count <= 4                   # 6 nodes known: up to 3 random picks + suspects
    cport, flags = struct.unpack(">HH", data[2248:2252])
    assert cport == node.bus_port and flags & 16  # myself
    current_epoch = struct.unpack(">Q", data[16:24])[0]
    assert str(current_epoch) == node.cluster_info()["cluster_current_epoch"]
    gossip_ids = {data[HEADER_LEN + i * 104:HEADER_LEN + i * 104 + 40].decode()
                  for i in range(count)}
    assert gossip_ids <= {n.node_id for n in mixed.nodes}


def test_a_stopped_master_is_marked_failing_everywhere(mixed):
    victim = mixed.masters()[1]
    others = [n for n in mixed.nodes if n is not victim]
    victim.stop(keep_dir=True)
    try:
        # PFAIL on each node, then FAIL by the majority of masters' reports, spread by
        # FAIL messages (no failover: rankd masters do not vote yet, issue 30).
        wait_until(lambda: all("fail" in o.cluster_nodes()[victim.node_id]["flags"]
                               for o in others), timeout=60, message="victim marked fail")
        wait_until(lambda: all(o.cluster_info()["cluster_state"] == "fail" for o in others),
                   timeout=30, message="cluster state fail without the victim's slots")
    finally:
        victim.restart()
    mixed.wait_stable()


def test_equal_config_epochs_are_told_apart():
    """Masters met without SET-CONFIG-EPOCH all start at config epoch 0: the collision rule
    (the lower id takes a new epoch) leaves every master with its own epoch, the same on
    every node, rankd and redis-server alike."""
    with Cluster(3, kinds=["test", "redis", "test"]) as c:
        for i, n in enumerate(c.nodes):
            n.call("CLUSTER", "ADDSLOTS", str(i))
        for n in c.nodes[1:]:
            c.nodes[0].call("CLUSTER", "MEET", n.host, str(n.port))

        def settled():
            views = [n.cluster_nodes() for n in c.nodes]
            epochs = [{i: v[i]["config_epoch"] for i in v} for v in views]
            return (all(len(v) == 3 for v in views) and all(e == epochs[0] for e in epochs)
                    and len(set(epochs[0].values())) == 3)
        wait_until(settled, timeout=60, message="distinct config epochs everywhere")
        current = {n.cluster_info()["cluster_current_epoch"] for n in c.nodes}
        assert len(current) == 1
        assert int(current.pop()) == max(c.nodes[0].cluster_nodes()[i]["config_epoch"]
                                         for i in c.nodes[0].cluster_nodes())


def test_a_returning_node_yields_slots_claimed_under_a_newer_epoch():
    """A master that was down while one of its (empty) slots was given to another master
    under a higher config epoch comes back claiming the slot with its old epoch: the
    others' newer claim wins (PING / UPDATE) and every node agrees, as in Redis."""
    with Cluster(3, kinds=["test", "redis", "test"]) as c:
        c.create(replicas=0)
        a = c.nodes[0]
        b = next(n for n in c.nodes if n is not a and n.kind != a.kind) \
            if any(n.kind != a.kind for n in c.nodes) else c.nodes[1]
        slot = c.slots_of(a)[0]
        a.stop(keep_dir=True)
        b.call("CLUSTER", "BUMPEPOCH")
        for n in c.nodes:
            if n is not a:
                n.call("CLUSTER", "SETSLOT", str(slot), "NODE", b.node_id)
        a.restart()
        wait_until(lambda: all(c.slot_owner(slot, n) is b for n in c.nodes), timeout=60,
                   message="every node gives the slot to the newer claim")
        assert c.slot_owner(slot, a) is b


def test_forget_keeps_a_node_out_while_others_gossip_about_it():
    """CLUSTER FORGET drops a node and, for a minute, gossip from nodes that still know
    it does not bring it back (Redis's blacklist)."""
    with Cluster(3, kinds=["test", "redis", "test"]) as c:
        c.create(replicas=0)
        a, other = c.nodes[0], c.nodes[1]
        # A slot-less node can be forgotten without the cluster losing coverage.
        extra = c.add_node("redis")
        a.call("CLUSTER", "MEET", extra.host, str(extra.port))
        wait_until(lambda: all(extra.node_id in n.cluster_nodes() for n in c.nodes[:3]),
                   timeout=60, message="extra node met")
        assert a.call("CLUSTER", "FORGET", extra.node_id) in (True, b"OK")
        assert extra.node_id not in a.cluster_nodes()
        # The others keep gossiping about it for several node timeouts.
        deadline = time.monotonic() + 3 * c.node_timeout / 1000.0
        while time.monotonic() < deadline:
            assert extra.node_id not in a.cluster_nodes()
            time.sleep(0.2)
        assert extra.node_id in other.cluster_nodes()
