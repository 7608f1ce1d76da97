"""Slot migration (issue 29): redis-cli reshard under a concurrent writer, an open
slot driven by hand (IMPORTING / MIGRATING, MIGRATE, -ASK, ASKING, -TRYAGAIN), and
redis-cli rebalance / add-node (master and replica) / del-node.

The tests share one cluster and run in file order: each leaves the cluster stable
(`--cluster check` passes) for the next.
"""

import threading

import pytest
import redis

from cluster_util import cluster_fixture, key_slot, tag_for_slot, wait_until
from resp_client import RespClient

pytestmark = pytest.mark.slow


cluster = cluster_fixture(3, replicas=0)


def raw(node, *args):
    with RespClient(port=node.port) as c:
        return c.execute_raw(*args)[1]


def keys_in_slots(slots, n, prefix):
    """n keys spread round-robin over `slots`."""
    slots = list(slots)
    out, i = [], 0
    want = {s: [] for s in slots}
    while sum(len(v) for v in want.values()) < n:
        key = "%s:%d" % (prefix, i)
        s = key_slot(key)
        if s in want and len(want[s]) < (n + len(slots) - 1) // len(slots):
            want[s].append(key)
            out.append(key)
        i += 1
    return out


class Writer(threading.Thread):
    """INCR and ZINCRBY through RedisCluster until stopped; counts acknowledged
    writes per key and errors per key (an error leaves it unknown whether the write
    was applied, so a key with errors is checked against a range)."""

    def __init__(self, cluster, counters, boards):
        super().__init__(daemon=True)
        self.rc = cluster.cluster_client()
        self.counters, self.boards = counters, boards
        self.acked = {k: 0 for k in counters + boards}
        self.errors = {k: 0 for k in counters + boards}
        self.error_texts = []
        self.stop_flag = threading.Event()

    def run(self):
        i = 0
        while not self.stop_flag.is_set():
            key = self.counters[i % len(self.counters)]
            board = self.boards[i % len(self.boards)]
            for k, fn in ((key, lambda: self.rc.incr(key)),
                          (board, lambda: self.rc.zincrby(board, 1, "player"))):
                try:
                    fn()
                    self.acked[k] += 1
                except redis.RedisError as e:
                    self.errors[k] += 1
                    self.error_texts.append(repr(e))
            i += 1

    def finish(self):
        self.stop_flag.set()
        self.join(60)
        assert not self.is_alive()


def test_reshard_under_a_concurrent_writer(cluster):
    src, dst = cluster.masters()[0], cluster.masters()[1]
    moving = cluster.slots_of(src)[:500]          # reshard takes the source's first slots
    staying = cluster.slots_of(src)[600:620]
    counters = keys_in_slots(moving[::25], 20, "ctr") + keys_in_slots(staying, 5, "ctr")
    boards = keys_in_slots(moving[5::25], 20, "board") + keys_in_slots(staying, 5, "board")
    w = Writer(cluster, counters, boards)
    w.start()
    try:
        wait_until(lambda: sum(w.acked.values()) > 200, message="writer started")
        out = cluster.reshard(src, dst, 500)
        assert "Moving slot" in out
        done = sum(w.acked.values())
        wait_until(lambda: sum(w.acked.values()) > done + 200, message="writes after")
    finally:
        w.finish()
    cluster.wait_stable()
    cluster.check()
    moved = [k for k in counters + boards if key_slot(k) in set(moving)]
    assert moved and all(cluster.owner_of_key(k) is dst for k in moved)
    assert len(cluster.slots_of(dst)) == 5462 + 500
    rc = cluster.cluster_client()
    try:
        for k in counters:
            got = int(rc.get(k) or 0)
            assert w.acked[k] <= got <= w.acked[k] + w.errors[k], (k, got, w.acked[k])
        for k in boards:
            got = int(rc.zscore(k, "player") or 0)
            assert w.acked[k] <= got <= w.acked[k] + w.errors[k], (k, got, w.acked[k])
    finally:
        rc.close()
    # Redirections are the client's business; a write that failed outright is a lost write.
    assert w.error_texts == []


def test_ask_while_a_slot_is_open(cluster):
    src, dst = cluster.masters()[0], cluster.masters()[1]
    slot = cluster.slots_of(src)[10]
    tag = tag_for_slot(slot)
    k = ["{%s}:%d" % (tag, i) for i in range(4)]
    for key in k:
        assert raw(src, "SET", key, "v-" + key) == b"+OK\r\n"
    ask = b"-ASK %d %s\r\n" % (slot, dst.addr.encode())
    moved_back = b"-MOVED %d %s\r\n" % (slot, src.addr.encode())
    assert raw(dst, "CLUSTER", "SETSLOT", str(slot), "IMPORTING", src.node_id) == b"+OK\r\n"
    assert raw(src, "CLUSTER", "SETSLOT", str(slot), "MIGRATING", dst.node_id) == b"+OK\r\n"
    assert "[%d->-%s]" % (slot, dst.node_id) in src.call("CLUSTER", "NODES").decode()
    assert "[%d-<-%s]" % (slot, src.node_id) in dst.call("CLUSTER", "NODES").decode()
    assert raw(src, "MIGRATE", dst.host, str(dst.port), "", "0", "5000", "KEYS",
               k[0], k[1]) == b"+OK\r\n"
    assert raw(src, "CLUSTER", "COUNTKEYSINSLOT", str(slot)) == b":2\r\n"
    # The source serves keys it still has and sends the client on for the others.
    assert src.call("GET", k[2]) == ("v-" + k[2]).encode()
    assert raw(src, "GET", k[0]) == ask
    assert raw(src, "SET", "{%s}:new" % tag, "1") == ask          # a missing key
    assert raw(src, "MGET", k[0], k[2]) == \
        b"-TRYAGAIN Multiple keys request during rehashing of slot\r\n"
    assert raw(src, "MGET", k[2], k[3]) == b"*2\r\n$%d\r\nv-%s\r\n$%d\r\nv-%s\r\n" % (
        len(k[2]) + 2, k[2].encode(), len(k[3]) + 2, k[3].encode())
    # The target answers only after ASKING, for one command.
    with RespClient(port=dst.port) as c:
        assert c.execute_raw("GET", k[0])[1] == moved_back
        assert c.execute_raw("ASKING")[1] == b"+OK\r\n"
        assert c.execute_raw("GET", k[0])[1] == b"$%d\r\nv-%s\r\n" % (len(k[0]) + 2,
                                                                       k[0].encode())
        assert c.execute_raw("GET", k[0])[1] == moved_back
        assert c.execute_raw("ASKING")[1] == b"+OK\r\n"
        assert c.execute_raw("MGET", k[0], k[2])[1] == \
            b"-TRYAGAIN Multiple keys request during rehashing of slot\r\n"
        assert c.execute_raw("ASKING")[1] == b"+OK\r\n"
        assert c.execute_raw("MGET", k[0], k[1])[1] == b"*2\r\n$%d\r\nv-%s\r\n$%d\r\nv-%s\r\n" % (
            len(k[0]) + 2, k[0].encode(), len(k[1]) + 2, k[1].encode())
    # Finish the move the way redis-cli does: the rest of the keys, then SETSLOT NODE.
    assert raw(src, "MIGRATE", dst.host, str(dst.port), "", "0", "5000", "KEYS",
               k[2], k[3]) == b"+OK\r\n"
    assert raw(dst, "CLUSTER", "SETSLOT", str(slot), "NODE", dst.node_id) == b"+OK\r\n"
    assert raw(src, "CLUSTER", "SETSLOT", str(slot), "NODE", dst.node_id) == b"+OK\r\n"
    assert raw(src, "GET", k[0]) == b"-MOVED %d %s\r\n" % (slot, dst.addr.encode())
    cluster.wait_stable()
    assert all(dst.call("GET", key) == ("v-" + key).encode() for key in k)
    cluster.check()


def test_restore_asking_on_an_importing_node(cluster):
    """RESTORE-ASKING (what MIGRATE sends) is served by the importing node without
    ASKING; a plain RESTORE there is redirected back to the owner."""
    src, dst = cluster.masters()[0], cluster.masters()[1]
    slot = cluster.slots_of(src)[30]
    key = "{%s}:r" % tag_for_slot(slot)
    src.call("ZADD", key, 1, "a", 2, "b")
    payload = src.call("DUMP", key)
    assert raw(dst, "CLUSTER", "SETSLOT", str(slot), "IMPORTING", src.node_id) == b"+OK\r\n"
    try:
        assert raw(dst, "RESTORE", key, "0", payload) == \
            b"-MOVED %d %s\r\n" % (slot, src.addr.encode())
        assert raw(dst, "RESTORE-ASKING", key, "0", payload) == b"+OK\r\n"
        with RespClient(port=dst.port) as c:
            assert c.execute_raw("ASKING")[1] == b"+OK\r\n"
            assert c.execute_raw("ZRANGE", key, "0", "-1", "WITHSCORES")[1] == \
                b"*4\r\n$1\r\na\r\n$1\r\n1\r\n$1\r\nb\r\n$1\r\n2\r\n"
            assert c.execute_raw("ASKING")[1] == b"+OK\r\n"
            assert c.execute_raw("DEL", key)[1] == b":1\r\n"
    finally:
        assert raw(dst, "CLUSTER", "SETSLOT", str(slot), "STABLE") == b"+OK\r\n"
        src.call("DEL", key)
    cluster.wait_stable()


def test_blocked_client_is_redirected_when_its_slot_moves(cluster):
    src, dst = cluster.masters()[0], cluster.masters()[1]
    slot = cluster.slots_of(src)[20]
    lst, zs = "{%s}:list" % tag_for_slot(slot), "{%s}:zset" % tag_for_slot(slot)
    want = b"-MOVED %d %s\r\n" % (slot, dst.addr.encode())
    blocked = []
    for cmd in (("BLPOP", lst, "0"), ("BZPOPMIN", zs, "0")):
        c = RespClient(port=src.port, timeout=20)
        c.send_command(*cmd)
        blocked.append(c)
    try:
        wait_until(lambda: src.info("clients")["blocked_clients"] == 2,
                   message="two blocked clients")
        # The slot is empty: hand it over at once, as redis-cli does after MIGRATE.
        assert raw(dst, "CLUSTER", "SETSLOT", str(slot), "NODE", dst.node_id) == b"+OK\r\n"
        assert raw(src, "CLUSTER", "SETSLOT", str(slot), "NODE", dst.node_id) == b"+OK\r\n"
        for c in blocked:
            assert c.read_reply_raw()[1] == want
    finally:
        for c in blocked:
            c.close()
    cluster.wait_stable()
    cluster.check()


def test_add_node_as_master_and_rebalance(cluster):
    new = cluster.add_node()
    entry = cluster.masters()[0]
    cluster.cli("--cluster", "add-node", new.addr, entry.addr)
    cluster.wait_stable()
    assert cluster.view(new)[new.node_id]["slots"] == ()
    # A small weight for the new master keeps the move short (~530 slots).
    out = cluster.cli("--cluster", "rebalance", entry.addr, "--cluster-use-empty-masters",
                      "--cluster-weight", "%s=0.1" % new.node_id)
    assert "Moving" in out
    cluster.wait_stable()
    cluster.check()
    counts = {m: len(cluster.slots_of(m)) for m in cluster.masters()}
    assert len(counts) == 4 and sum(counts.values()) == 16384
    assert 16384 * 0.1 / 3.1 * 0.9 < counts[new] < 16384 * 0.1 / 3.1 * 1.1, counts


def test_add_node_as_replica(cluster):
    master = cluster.masters()[1]
    rep = cluster.add_node()
    cluster.cli("--cluster", "add-node", rep.addr, master.addr, "--cluster-slave",
                "--cluster-master-id", master.node_id)
    cluster.wait_stable()
    assert cluster.replicas_of(master) == [rep]
    key = cluster.key_on(master, "rep")
    master.call("SET", key, "v")
    cluster.wait_replicated()
    with RespClient(port=rep.port) as c:
        assert c.execute_raw("READONLY")[1] == b"+OK\r\n"
        assert c.execute_raw("GET", key)[1] == b"$1\r\nv\r\n"
    out = cluster.check()
    assert out.count("1 additional replica(s)") == 1


def assert_reset_alone(node):
    """After del-node's CLUSTER RESET SOFT the node knows only itself: a master with
    no slots, same id."""
    view = wait_until(lambda: len(node.cluster_nodes()) == 1 and node.cluster_nodes(),
                      message="%r forgot the others" % node)
    me = view[node.node_id]
    assert "myself" in me["flags"] and "master" in me["flags"] and me["slots"] == ()


def test_del_node_of_a_replica_and_of_an_emptied_master(cluster):
    master = cluster.masters()[1]
    rep = cluster.replicas_of(master)[0]
    entry = cluster.masters()[0]
    out = cluster.cli("--cluster", "del-node", entry.addr, rep.node_id)
    assert "Sending CLUSTER RESET SOFT to the deleted node." in out
    assert_reset_alone(rep)
    cluster.nodes.remove(rep)
    rep.stop()
    cluster.wait_stable()
    assert rep.node_id not in cluster.view()
    # A master must be emptied first: rebalance with weight 0, then delete it.
    victim = max(cluster.masters(), key=lambda m: cluster.nodes.index(m))   # the newest
    entry = cluster.masters()[0] if cluster.masters()[0] is not victim else \
        cluster.masters()[1]
    cluster.cli("--cluster", "rebalance", entry.addr, "--cluster-weight",
                "%s=0" % victim.node_id)
    cluster.wait_stable()
    assert cluster.slots_of(victim) == []
    cluster.cli("--cluster", "del-node", entry.addr, victim.node_id)
    assert_reset_alone(victim)
    cluster.nodes.remove(victim)
    victim.stop()
    cluster.wait_stable()
    for n in cluster.nodes:
        assert victim.node_id not in n.cluster_nodes()
    cluster.check()
    assert len(cluster.masters()) == 3
