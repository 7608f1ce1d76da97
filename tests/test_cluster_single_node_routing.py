"""Routing on one cluster node serving every slot (issue 29, croute): keys by slot
(CLUSTER KEYSLOT / COUNTKEYSINSLOT / GETKEYSINSLOT), CROSSSLOT for plain commands, MULTI
and scripts, the multi-database commands refused, ASKING / READONLY / READWRITE, and
CLUSTERDOWN once a slot is deleted. Differential: the same lines go to a redis-server
7.0 node and to rankd, and the raw replies must be equal."""

import pytest

from cluster_node import ClusterNode, skip_without_rankd_cluster_mode
from cluster_util import wait_until
from resp_client import RespClient

pytestmark = pytest.mark.slow


def start(kind):
    node = ClusterNode(kind).start()
    node.call("CLUSTER", "ADDSLOTSRANGE", "0", "16383")
    wait_until(lambda: b"cluster_state:ok" in node.call("CLUSTER", "INFO"),
               message="cluster_state ok")
    return node


@pytest.fixture(scope="module")
def pair():
    skip_without_rankd_cluster_mode(["rankd"])
    redis_node, rankd_node = start("redis"), start("rankd")
    yield redis_node, rankd_node
    redis_node.stop()
    rankd_node.stop()


def replies(node, lines):
    out = []
    with RespClient(port=node.port) as c:
        for line in lines:
            out.append(c.execute_raw(*line)[1])
    return out


def same(pair, lines):
    want, got = replies(pair[0], lines), replies(pair[1], lines)
    for line, w, g in zip(lines, want, got):
        assert g == w, "%r: rankd %r, redis %r" % (line, g, w)
    return got


def test_keys_by_slot(pair):
    lines = [("FLUSHALL",)]
    lines += [("SET", "{user1}:%d" % i, "v") for i in range(20)]
    lines += [("ZADD", "board", "1", "a"), ("SET", "foo", "1"), ("DEL", "{user1}:3")]
    lines += [("CLUSTER", "KEYSLOT", "{user1}:x"), ("CLUSTER", "KEYSLOT", "foo"),
              ("CLUSTER", "KEYSLOT", ""),
              ("CLUSTER", "COUNTKEYSINSLOT", "8106"), ("CLUSTER", "COUNTKEYSINSLOT", "12182"),
              ("CLUSTER", "COUNTKEYSINSLOT", "0"),
              ("CLUSTER", "COUNTKEYSINSLOT", "16384"), ("CLUSTER", "COUNTKEYSINSLOT", "-1"),
              ("CLUSTER", "COUNTKEYSINSLOT", "x"),
              ("CLUSTER", "GETKEYSINSLOT", "12182", "10"),
              ("CLUSTER", "GETKEYSINSLOT", "12182", "0"),
              ("CLUSTER", "GETKEYSINSLOT", "16384", "1"),
              ("CLUSTER", "GETKEYSINSLOT", "1", "-1"),
              ("CLUSTER", "GETKEYSINSLOT", "x", "1"),
              ("RENAME", "foo", "{foo}2"), ("CLUSTER", "COUNTKEYSINSLOT", "12182"),
              ("FLUSHALL",), ("CLUSTER", "COUNTKEYSINSLOT", "12182")]
    same(pair, lines)
    # The order of a slot's keys is the server's: compare as sets.
    for node in pair:
        node.call("SET", "{t}a", "1")
        node.call("SET", "{t}b", "1")
    slot = pair[0].call("CLUSTER", "KEYSLOT", "{t}")
    got = [sorted(n.call("CLUSTER", "GETKEYSINSLOT", slot, 10)) for n in pair]
    assert got[1] == got[0] == [b"{t}a", b"{t}b"]


def test_crossslot(pair):
    same(pair, [("MSET", "foo", "1", "bar", "2"), ("MSET", "{a}1", "1", "{a}2", "2"),
                ("ZUNIONSTORE", "{a}d", "2", "{a}1", "b"),
                ("ZUNIONSTORE", "{a}d", "2", "{a}1", "{a}2"),
                ("EVAL", "return 1", "2", "foo", "bar"), ("EVAL", "return 1", "0"),
                ("SORT", "foo", "STORE", "bar"),
                ("MULTI",), ("SET", "foo", "1"), ("SET", "bar", "1"), ("EXEC",),
                ("MULTI",), ("MSET", "foo", "1", "bar", "2"), ("GET", "foo"), ("EXEC",),
                ("SSUBSCRIBE", "foo", "bar"),
                ("SPUBLISH", "foo", "m")])


def test_multiple_databases_refused(pair):
    same(pair, [("SELECT", "0"), ("SELECT", "1"), ("SELECT", "x"),
                ("SET", "foo", "1"), ("MOVE", "foo", "1"), ("SWAPDB", "0", "1"),
                ("COPY", "foo", "{foo}1", "DB", "1"), ("COPY", "foo", "{foo}1", "DB", "0"),
                ("COPY", "foo", "{foo}2", "DB", "99")])


def test_client_routing_flags(pair):
    same(pair, [("ASKING",), ("READONLY",), ("READWRITE",), ("ASKING", "x")])


def test_clusterdown_after_delslots(pair):
    same(pair, [("SET", "foo", "1"), ("SET", "bar", "1"), ("CLUSTER", "DELSLOTS", "12182")])
    for node in pair:
        wait_until(lambda: b"cluster_state:fail" in node.call("CLUSTER", "INFO"),
                   message="cluster_state fail")
    same(pair, [("GET", "foo"), ("GET", "bar"), ("PING",), ("MSET", "bar", "1", "foo", "2"),
                ("CLUSTER", "ADDSLOTS", "12182")])
    for node in pair:
        wait_until(lambda: b"cluster_state:ok" in node.call("CLUSTER", "INFO"),
                   message="cluster_state ok")


def blocked_reply_after(node, block_line, change_lines):
    """What a client blocked on `block_line` is answered once `change_lines` ran."""
    with RespClient(port=node.port) as blocked, RespClient(port=node.port) as admin:
        blocked.send_command(*block_line)
        wait_until(lambda: node.info("clients")["blocked_clients"] == 1,
                   message="client blocked")
        for line in change_lines:
            admin.execute_raw(*line)
        return blocked.read_reply_raw(timeout=10)


def test_blocked_client_fails_when_its_slot_goes(pair):
    got = [blocked_reply_after(n, ("BLPOP", "{foo}q", "0"), [("CLUSTER", "DELSLOTS", "12182")])
           for n in pair]
    assert got[1] == got[0]
    for node in pair:
        node.call("CLUSTER", "ADDSLOTS", "12182")
        wait_until(lambda: b"cluster_state:ok" in node.call("CLUSTER", "INFO"),
                   message="cluster_state ok")


def test_scripts_keys_in_one_slot(pair):
    same(pair, [("SET", "foo", "1"), ("SET", "bar", "2"),
                ("EVAL", "return redis.call('get', KEYS[1])", "1", "foo"),
                ("EVAL", "return redis.call('get', 'bar')", "1", "foo"),
                ("EVAL", "redis.call('get', 'foo') return redis.call('get', 'bar')", "0"),
                ("EVAL", "return redis.call('get', '{foo}x')", "1", "foo")])


def test_readonly_flag_in_client_list(pair):
    for node in pair:
        with RespClient(port=node.port) as c:
            c.execute("READONLY")
            info = c.execute("CLIENT", "INFO")
            info = info.decode() if isinstance(info, bytes) else str(info)
            assert " flags=r " in info, info


CROSS_SLOT_BODY = "redis.call('set', 'foo', 'bar')\nreturn redis.call('set', 'bar', 'foo')"


def test_scripts_with_flags_keep_to_one_slot(pair):
    """A script with a shebang, or a function, may not touch keys of a second slot (nor
    of a slot other than its declared keys'), unless flagged allow-cross-slot-keys; a
    plain EVAL may (Redis 7.0)."""
    library = ("#!lua name=crossslot\n"
               "redis.register_function('plain', function(k, a) %s end)\n"
               "redis.register_function{function_name='free', callback=function(k, a) %s end, "
               "flags={'allow-cross-slot-keys'}}\n"
               "redis.register_function{function_name='solo', callback=function(k, a) "
               "return 1 end, flags={'no-cluster'}}" % (CROSS_SLOT_BODY, CROSS_SLOT_BODY))
    same(pair, [("FUNCTION", "FLUSH"),
                ("EVAL", "#!lua\n" + CROSS_SLOT_BODY, "0"),
                ("EVAL", "#!lua\nreturn redis.call('set', 'foo', 'bar')", "1", "bar"),
                ("EVAL", "#!lua\nreturn redis.pcall('set', 'foo', 'bar')", "1", "bar"),
                ("EVAL", "#!lua\nreturn redis.call('set', '{bar}x', 'bar')", "1", "bar"),
                ("EVAL", "#!lua\nredis.call('ping')\nredis.call('get', 'foo')\n"
                 "return redis.call('mset', '{x}1', 'a', '{x}2', 'b')", "0"),
                ("EVAL", "#!lua\nreturn redis.call('mset', '{x}1', 'a', 'b', 'c')", "0"),
                ("EVAL", CROSS_SLOT_BODY, "0"),
                ("EVAL", "return redis.call('set', 'foo', 'bar')", "1", "bar"),
                ("EVAL", "#!lua flags=allow-cross-slot-keys\n" + CROSS_SLOT_BODY, "1", "bar"),
                ("EVAL", "#!lua flags=no-cluster\nreturn 1", "0"),
                ("EVAL", "#!lua flags=no-cluster,no-writes\nreturn 1", "0"),
                ("FUNCTION", "LOAD", library),
                ("FCALL", "plain", "0"), ("FCALL", "plain", "1", "foo"),
                ("FCALL", "free", "0"), ("FCALL", "solo", "0"), ("FCALL_RO", "solo", "0"),
                ("FUNCTION", "FLUSH")])
