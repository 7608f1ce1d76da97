"""Cluster routing answers, byte for byte (issue 29).

A 3-master cluster made by redis-cli; every expected answer is computed from the slot
map that `redis-cli --cluster create` hands out (node i of the create gets the i-th third
of the slots), never read back from the server under test, so the same test judges
rankd: `-MOVED <slot> <ip>:<port>`, `-CROSSSLOT ...`, `-CLUSTERDOWN ...`, SELECT refused,
MULTI/EXEC aborts, scripts touching undeclared keys of another slot.
"""

import hashlib

import pytest

from cluster_util import cluster_fixture, key_slot, wait_until
from resp_client import RespClient
from server_process import target_is_redis

pytestmark = pytest.mark.slow

CROSSSLOT = b"-CROSSSLOT Keys in request don't hash to the same slot\r\n"
EXECABORT = b"-EXECABORT Transaction discarded because of previous errors.\r\n"
# redis-cli --cluster create's split of 16384 slots over 3 masters.
THIRDS = [(0, 5460), (5461, 10922), (10923, 16383)]


cluster = cluster_fixture(3, replicas=0)


def owner(cluster, key):
    slot = key_slot(key)
    for node, (a, b) in zip(cluster.nodes, THIRDS):
        if a <= slot <= b:
            return node
    raise AssertionError(slot)


def key_in(cluster, i, prefix, avoid=()):
    a, b = THIRDS[i]
    for n in range(100000):
        key = "%s:%d" % (prefix, n)
        if a <= key_slot(key) <= b and key_slot(key) not in avoid:
            return key
    raise AssertionError


def moved(cluster, key):
    return b"-MOVED %d %s\r\n" % (key_slot(key), owner(cluster, key).addr.encode())


@pytest.fixture
def keys(cluster):
    """(a, a2, b): a and a2 in two different slots of node 0, b on node 1."""
    a = key_in(cluster, 0, "a")
    a2 = key_in(cluster, 0, "a2", avoid=(key_slot(a),))
    b = key_in(cluster, 1, "b")
    return a, a2, b


@pytest.fixture
def c0(cluster):
    with RespClient(port=cluster.nodes[0].port) as c:
        yield c
    with RespClient(port=cluster.nodes[0].port) as c:
        c.execute("FLUSHALL")


def raw(c, *args):
    return c.execute_raw(*args)[1]


def test_slot_map_is_what_create_hands_out(cluster):
    view = cluster.view()
    for node, rng in zip(cluster.nodes, THIRDS):
        assert view[node.node_id]["slots"] == (rng,)


@pytest.mark.parametrize("cmd", [
    ("GET", "{b}"), ("SET", "{b}", "1"), ("ZADD", "{b}", "1", "m"),
    ("ZINCRBY", "{b}", "1", "m"), ("ZSCORE", "{b}", "m"), ("EXISTS", "{b}"),
    ("OBJECT", "ENCODING", "{b}"), ("MGET", "{b}", "{b}"), ("MSET", "{b}", "1", "{b}", "2"),
    ("EVAL", "return 1", "1", "{b}"), ("INCR", "{b}"), ("DEL", "{b}"),
])
def test_key_of_another_node_is_moved(cluster, c0, keys, cmd):
    b = keys[2]
    args = [a.replace("{b}", b) for a in cmd]
    assert raw(c0, *args) == moved(cluster, b)


@pytest.mark.parametrize("cmd", [
    ("MGET", "{a}", "{a2}"), ("MGET", "{a}", "{b}"), ("MSET", "{a}", "1", "{a2}", "2"),
    ("DEL", "{a}", "{b}"), ("ZUNIONSTORE", "{a}", "2", "{a}", "{a2}"),
    ("ZUNIONSTORE", "{a}", "2", "{a}", "{b}"), ("EVAL", "return 1", "2", "{a}", "{a2}"),
    ("EVAL", "return 1", "2", "{a}", "{b}"), ("RENAME", "{a}", "{a2}"),
    ("SUNIONSTORE", "{a}", "{a2}"), ("BLPOP", "{a}", "{a2}", "1"),
    ("XREAD", "STREAMS", "{a}", "{b}", "0", "0"), ("WATCH", "{a}", "{a2}"),
])
def test_keys_in_two_slots_are_crossslot(c0, keys, cmd):
    a, a2, b = keys
    args = [x.replace("{a}", a).replace("{a2}", a2).replace("{b}", b) for x in cmd]
    assert raw(c0, *args) == CROSSSLOT


def test_same_commands_on_the_owner_succeed(cluster, keys):
    a = keys[0]
    tagged = "{%s}:x" % a
    with RespClient(port=owner(cluster, a).port) as c:
        assert raw(c, "SET", a, "1") == b"+OK\r\n"
        assert raw(c, "ZADD", tagged, "1", "m") == b":1\r\n"
        assert raw(c, "ZINCRBY", tagged, "2", "m") == b"$1\r\n3\r\n"
        assert raw(c, "MSET", "{%s}1" % a, "1", "{%s}2" % a, "2") == b"+OK\r\n"
        assert raw(c, "MGET", "{%s}1" % a, "{%s}2" % a) == b"*2\r\n$1\r\n1\r\n$1\r\n2\r\n"
        assert raw(c, "ZUNIONSTORE", "{%s}u" % a, "1", tagged) == b":1\r\n"
        assert raw(c, "EVAL", "return redis.call('get', KEYS[1])", "1", a) == b"$1\r\n1\r\n"
        c.execute("FLUSHALL")


def test_keyless_commands_are_served_anywhere(cluster):
    for node in cluster.nodes:
        with RespClient(port=node.port) as c:
            assert raw(c, "PING") == b"+PONG\r\n"
            assert raw(c, "ECHO", "x") == b"$1\r\nx\r\n"
            assert raw(c, "DBSIZE") == b":0\r\n"
            assert raw(c, "KEYS", "*") == b"*0\r\n"
            assert raw(c, "EVAL", "return 7", "0") == b":7\r\n"


def test_select_other_than_0_is_refused(c0):
    assert raw(c0, "SELECT", "1") == b"-ERR SELECT is not allowed in cluster mode\r\n"
    assert raw(c0, "SELECT", "0") == b"+OK\r\n"


def test_script_touching_an_undeclared_key_of_another_node(cluster, c0, keys):
    a, a2, b = keys
    for script, nkeys, args in (("return redis.call('get','%s')" % b, "0", ()),
                                ("return redis.call('get',KEYS[1]..'x')", "1", (a,))):
        sha = hashlib.sha1(script.encode()).hexdigest()
        want = (b"-ERR Script attempted to access a non local key in a cluster node "
                b"script: %s, on @user_script:1.\r\n" % sha.encode())
        assert raw(c0, "EVAL", script, nkeys, *args) == want
    # An undeclared key of another slot on this same node is allowed in 7.0.
    assert raw(c0, "EVAL", "return redis.call('get','%s')" % a2, "1", a) == b"$-1\r\n"


def test_multi_with_keys_in_two_slots_of_this_node_fails_at_exec(c0, keys):
    a, a2, _ = keys
    assert raw(c0, "MULTI") == b"+OK\r\n"
    assert raw(c0, "SET", a, "1") == b"+QUEUED\r\n"
    assert raw(c0, "SET", a2, "1") == b"+QUEUED\r\n"
    assert raw(c0, "EXEC") == CROSSSLOT
    assert raw(c0, "EXISTS", a) == b":0\r\n"
    assert raw(c0, "PING") == b"+PONG\r\n"        # the transaction is gone


def test_multi_with_a_moved_key_aborts(cluster, c0, keys):
    a, _, b = keys
    assert raw(c0, "MULTI") == b"+OK\r\n"
    assert raw(c0, "SET", a, "1") == b"+QUEUED\r\n"
    assert raw(c0, "SET", b, "1") == moved(cluster, b)
    assert raw(c0, "EXEC") == EXECABORT
    assert raw(c0, "EXISTS", a) == b":0\r\n"


def test_multi_with_a_crossslot_command_aborts(c0, keys):
    a, a2, _ = keys
    assert raw(c0, "MULTI") == b"+OK\r\n"
    assert raw(c0, "MSET", a, "1", a2, "1") == CROSSSLOT
    assert raw(c0, "EXEC") == EXECABORT


def test_multi_in_one_slot_runs(c0, keys):
    a = keys[0]
    assert raw(c0, "MULTI") == b"+OK\r\n"
    assert raw(c0, "SET", a, "1") == b"+QUEUED\r\n"
    assert raw(c0, "INCR", a) == b"+QUEUED\r\n"
    assert raw(c0, "EXEC") == b"*2\r\n+OK\r\n:2\r\n"


def test_unassigned_slot(cluster, keys):
    """DELSLOTS on the owner: its keys are 'not served' there; with full coverage
    required the node's cluster state fails, so other keys get 'cluster is down'.
    The other nodes still route the slot to the old owner (DELSLOTS is local)."""
    a, a2, b = keys
    n0 = cluster.nodes[0]
    slot = key_slot(a)
    with RespClient(port=n0.port) as c:
        assert raw(c, "CLUSTER", "DELSLOTS", str(slot)) == b"+OK\r\n"
        try:
            wait_until(lambda: n0.cluster_info()["cluster_state"] == "fail",
                       message="state after DELSLOTS")
            assert raw(c, "GET", a) == b"-CLUSTERDOWN Hash slot not served\r\n"
            assert raw(c, "SET", a, "1") == b"-CLUSTERDOWN Hash slot not served\r\n"
            assert raw(c, "GET", a2) == b"-CLUSTERDOWN The cluster is down\r\n"
            assert raw(c, "PING") == b"+PONG\r\n"
            with RespClient(port=cluster.nodes[1].port) as c1:
                assert raw(c1, "GET", a) == moved(cluster, a)
            # Without full coverage the node serves the rest.
            assert raw(c, "CONFIG", "SET", "cluster-require-full-coverage", "no") == \
                b"+OK\r\n"
            wait_until(lambda: n0.cluster_info()["cluster_state"] == "ok",
                       message="state with full coverage off")
            assert raw(c, "GET", a) == b"-CLUSTERDOWN Hash slot not served\r\n"
            assert raw(c, "GET", a2) == b"$-1\r\n"
        finally:
            c.execute("CONFIG", "SET", "cluster-require-full-coverage", "yes")
            assert raw(c, "CLUSTER", "ADDSLOTS", str(slot)) == b"+OK\r\n"
    cluster.wait_stable()


def test_sort_by_and_get_are_denied(c0, keys):
    a, a2, _ = keys
    assert raw(c0, "RPUSH", a, "3", "1", "2") == b":3\r\n"
    by = b"-ERR BY option of SORT denied in Cluster mode.\r\n"
    get = b"-ERR GET option of SORT denied in Cluster mode.\r\n"
    assert raw(c0, "SORT", a, "BY", "w_*") == by
    assert raw(c0, "SORT", a, "BY", "{%s}w_*" % a) == by       # even in the key's slot
    assert raw(c0, "SORT_RO", a, "BY", "w_*") == by
    assert raw(c0, "SORT", a, "GET", "o_*") == get
    assert raw(c0, "SORT", a, "GET", "#") == get
    assert raw(c0, "SORT", a, "BY", "nosort") == b"*3\r\n$1\r\n3\r\n$1\r\n1\r\n$1\r\n2\r\n"
    assert raw(c0, "SORT", a) == b"*3\r\n$1\r\n1\r\n$1\r\n2\r\n$1\r\n3\r\n"
    assert raw(c0, "SORT", a, "STORE", a2) == CROSSSLOT


def test_fcall_keys_are_routed(cluster, c0, keys):
    a, a2, b = keys
    lib = "#!lua name=routing\nredis.register_function('f', function(k, a) return 1 end)"
    assert raw(c0, "FUNCTION", "LOAD", "REPLACE", lib) == b"$7\r\nrouting\r\n"
    try:
        assert raw(c0, "FCALL", "f", "2", a, a2) == CROSSSLOT
        assert raw(c0, "FCALL", "f", "1", b) == moved(cluster, b)
        assert raw(c0, "FCALL", "f", "1", a) == b":1\r\n"
        assert raw(c0, "FCALL", "f", "0") == b":1\r\n"
    finally:
        c0.execute("FUNCTION", "DELETE", "routing")


@pytest.mark.skipif(target_is_redis(), reason="rankd's LB.* commands")
def test_leaderboard_commands_are_routed_by_the_board(cluster, c0, keys):
    """rankd only: LB.* commands route by their board's slot like any keyed command."""
    a, a2, b = keys
    assert raw(c0, "LB.CREATE", b) == moved(cluster, b)
    assert raw(c0, "LB.ADD", b, "1", "m") == moved(cluster, b)
    assert raw(c0, "LB.TOP", b, "10") == moved(cluster, b)
    assert raw(c0, "LB.CREATE", a) == b"+OK\r\n"
    assert not raw(c0, "LB.ADD", a, "INCR", "5", "m").startswith(b"-")
