"""Sharded pub/sub in a cluster (issue 29, Redis 7.0): SSUBSCRIBE on the slot's master
and replicas, SPUBLISH reaching every node of the shard (published on the master or on a
replica), PUBSUB SHARDCHANNELS / SHARDNUMSUB, -CROSSSLOT for channels of two slots and
-MOVED for a channel another shard serves. Replies compared byte for byte.
"""

import pytest

from cluster_util import cluster_fixture, key_slot, wait_until
from resp_client import RespClient

pytestmark = pytest.mark.slow


cluster = cluster_fixture(6, replicas=1)


@pytest.fixture
def shard(cluster):
    """(master, replica, channel of the master, channel of another shard)."""
    m = cluster.masters()[0]
    other = cluster.masters()[1]
    return (m, cluster.replicas_of(m)[0], cluster.key_on(m, "news"),
            cluster.key_on(other, "far"))


def bulk(s):
    s = s.encode() if isinstance(s, str) else s
    return b"$%d\r\n%s\r\n" % (len(s), s)


def smessage(ch, msg):
    return b"*3\r\n$8\r\nsmessage\r\n" + bulk(ch) + bulk(msg)


def ssubscribe_reply(ch, n, kind=b"ssubscribe"):
    return b"*3\r\n" + bulk(kind) + bulk(ch) + b":%d\r\n" % n


def subscriber(node, *channels):
    c = RespClient(port=node.port, timeout=10)
    for i, ch in enumerate(channels):
        c.send_command("SSUBSCRIBE", ch)
        assert c.read_reply_raw(keep_push=True)[1] == ssubscribe_reply(ch, i + 1)
    return c


def wait_numsub(node, ch, n):
    wait_until(lambda: node.call("PUBSUB", "SHARDNUMSUB", ch) == [ch.encode(), n],
               message="SHARDNUMSUB %s on %r" % (ch, node))


def test_spublish_on_the_master_reaches_master_and_replica_subscribers(shard):
    m, rep, ch, _ = shard
    s_master, s_rep = subscriber(m, ch), subscriber(rep, ch)
    try:
        wait_numsub(rep, ch, 1)
        with RespClient(port=m.port) as p:
            # The count is of receivers on the publishing node.
            assert p.execute_raw("SPUBLISH", ch, "hello")[1] == b":1\r\n"
        assert s_master.read_reply_raw(keep_push=True)[1] == smessage(ch, "hello")
        assert s_rep.read_reply_raw(keep_push=True)[1] == smessage(ch, "hello")
    finally:
        s_master.close()
        s_rep.close()


def test_spublish_on_a_replica_reaches_the_master(shard):
    m, rep, ch, _ = shard
    s_master = subscriber(m, ch)
    try:
        wait_numsub(m, ch, 1)
        with RespClient(port=rep.port) as p:
            assert p.execute_raw("SPUBLISH", ch, "from-replica")[1] == b":0\r\n"
        assert s_master.read_reply_raw(keep_push=True)[1] == smessage(ch, "from-replica")
    finally:
        s_master.close()


def test_plain_subscribers_do_not_get_shard_messages(shard):
    m, _, ch, _ = shard
    plain = RespClient(port=m.port, timeout=2)
    plain.send_command("SUBSCRIBE", ch)
    plain.read_reply_raw(keep_push=True)
    sharded = subscriber(m, ch)
    try:
        with RespClient(port=m.port) as p:
            assert p.execute_raw("SPUBLISH", ch, "s")[1] == b":1\r\n"
            assert p.execute_raw("PUBLISH", ch, "p")[1] == b":1\r\n"
        assert sharded.read_reply_raw(keep_push=True)[1] == smessage(ch, "s")
        # The plain subscriber's first message is the PUBLISH one.
        assert plain.read_reply_raw(keep_push=True)[1] == (
            b"*3\r\n$7\r\nmessage\r\n" + bulk(ch) + bulk("p"))
    finally:
        plain.close()
        sharded.close()


def test_pubsub_shardchannels_and_shardnumsub(shard):
    m, rep, ch, _ = shard
    subs = [subscriber(m, ch), subscriber(m, ch), subscriber(rep, ch)]
    try:
        wait_numsub(m, ch, 2)
        wait_numsub(rep, ch, 1)
        for node in (m, rep):
            with RespClient(port=node.port) as c:
                assert c.execute_raw("PUBSUB", "SHARDCHANNELS")[1] == b"*1\r\n" + bulk(ch)
                assert c.execute_raw("PUBSUB", "SHARDCHANNELS", ch[:2] + "*")[1] == \
                    b"*1\r\n" + bulk(ch)
                assert c.execute_raw("PUBSUB", "SHARDCHANNELS", "zz*")[1] == b"*0\r\n"
                # PUBSUB CHANNELS lists plain channels only.
                assert c.execute_raw("PUBSUB", "CHANNELS")[1] == b"*0\r\n"
        with RespClient(port=m.port) as c:
            assert c.execute_raw("PUBSUB", "SHARDNUMSUB", ch, "none")[1] == (
                b"*4\r\n" + bulk(ch) + b":2\r\n" + bulk("none") + b":0\r\n")
        # SUNSUBSCRIBE drops the count.
        subs[0].send_command("SUNSUBSCRIBE", ch)
        assert subs[0].read_reply_raw(keep_push=True)[1] == \
            ssubscribe_reply(ch, 0, b"sunsubscribe")
        wait_numsub(m, ch, 1)
    finally:
        for s in subs:
            s.close()
    wait_numsub(m, ch, 0)
    assert m.call("PUBSUB", "SHARDCHANNELS") == []


def test_ssubscribe_of_two_slots_is_crossslot(cluster, shard):
    m, _, ch, _ = shard
    ch2 = cluster.key_on(m, "other", avoid_slots=(key_slot(ch),))
    with RespClient(port=m.port) as c:
        assert c.execute_raw("SSUBSCRIBE", ch, ch2)[1] == \
            b"-CROSSSLOT Keys in request don't hash to the same slot\r\n"
        # Same slot, two channels: one reply per channel.
        tagged = "{%s}:2" % ch
        c.send_command("SSUBSCRIBE", "{%s}:1" % ch, tagged)
        assert key_slot(tagged) == key_slot("{%s}:1" % ch)
        assert c.read_reply_raw(keep_push=True)[1] == ssubscribe_reply("{%s}:1" % ch, 1)
        assert c.read_reply_raw(keep_push=True)[1] == ssubscribe_reply(tagged, 2)


def test_channel_of_another_shard_is_moved(cluster, shard):
    m, rep, _, far = shard
    owner = cluster.owner_of_key(far)
    want = b"-MOVED %d %s\r\n" % (key_slot(far), owner.addr.encode())
    for node in (m, rep):
        with RespClient(port=node.port) as c:
            assert c.execute_raw("SSUBSCRIBE", far)[1] == want
            assert c.execute_raw("SPUBLISH", far, "x")[1] == want
    with RespClient(port=owner.port) as c:
        assert c.execute_raw("SPUBLISH", far, "x")[1] == b":0\r\n"
