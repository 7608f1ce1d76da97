"""Pub/sub as Redis 7.0: SUBSCRIBE / PSUBSCRIBE / SSUBSCRIBE and their UNSUBSCRIBEs,
PUBLISH / SPUBLISH, PUBSUB introspection, the RESP2 subscribed context, RESP3 pushes
on a normal connection, fan-out to 1,000 subscribers, and the pubsub output-buffer
limit that disconnects a subscriber that stops reading. Expected bytes were checked
against redis-server 7.0 (RANKD_TARGET_REDIS=1)."""

import socket
import time

import pytest
import redis

from resp_client import NULL, Push, RespClient, RespError, resp3_client

SUBSCRIBED_ONLY = ("ERR Can't execute '%s': only (P|S)SUBSCRIBE / (P|S)UNSUBSCRIBE / "
                   "PING / QUIT / RESET are allowed in this context")


def read_push(c, timeout=5.0):
    """The next message on a subscribed connection (RESP2 array or RESP3 push)."""
    if c.pushes:
        return c.pushes.pop(0)
    return c.read_reply(timeout=timeout, keep_push=True)


def wait_numsub(r, channel, want, timeout=10.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if r.pubsub_numsub(channel)[0][1] == want:
            return True
        time.sleep(0.02)
    return False


def test_subscribe_publish_unsubscribe_resp2(server, r):
    sub = server.raw()
    try:
        _, raw = sub.execute_raw("SUBSCRIBE", "c1")
        assert raw == b"*3\r\n$9\r\nsubscribe\r\n$2\r\nc1\r\n:1\r\n"
        assert sub.execute("SUBSCRIBE", "c2") == [b"subscribe", b"c2", 2]
        assert r.publish("c1", "hello") == 1
        _, raw = sub.read_reply_raw()
        assert raw == b"*3\r\n$7\r\nmessage\r\n$2\r\nc1\r\n$5\r\nhello\r\n"
        assert r.publish("nobody", "x") == 0
        assert sub.execute("UNSUBSCRIBE", "c1") == [b"unsubscribe", b"c1", 1]
        # Unsubscribing from a channel one is not on still confirms.
        assert sub.execute("UNSUBSCRIBE", "zz") == [b"unsubscribe", b"zz", 1]
        assert sub.execute("UNSUBSCRIBE") == [b"unsubscribe", b"c2", 0]
        _, raw = sub.execute_raw("UNSUBSCRIBE")
        assert raw == b"*3\r\n$11\r\nunsubscribe\r\n$-1\r\n:0\r\n"
        _, raw = sub.execute_raw("PUNSUBSCRIBE")
        assert raw == b"*3\r\n$12\r\npunsubscribe\r\n$-1\r\n:0\r\n"
        # Out of the subscribed context: ordinary commands again.
        assert sub.execute("GET", "x") is None
    finally:
        sub.close()


def test_resp2_subscribed_context(server, r):
    sub = server.raw()
    try:
        sub.execute("SUBSCRIBE", "ch")
        err = sub.execute("GET", "x")
        assert isinstance(err, RespError) and err.message == SUBSCRIBED_ONLY % "get"
        err = sub.execute("CLIENT", "LIST")
        assert err.message == SUBSCRIBED_ONLY % "client|list"
        err = sub.execute("MULTI")
        assert err.message == SUBSCRIBED_ONLY % "multi"
        _, raw = sub.execute_raw("PING")
        assert raw == b"*2\r\n$4\r\npong\r\n$0\r\n\r\n"
        assert sub.execute("PING", "hi") == [b"pong", b"hi"]
        assert sub.execute("PSUBSCRIBE", "c*") == [b"psubscribe", b"c*", 2]
        assert sub.execute("SSUBSCRIBE", "s") == [b"ssubscribe", b"s", 1]
        # RESET leaves the context without confirmations.
        assert sub.execute("RESET") == b"RESET"
        assert sub.execute("GET", "x") is None
        assert r.pubsub_numsub("ch") == [(b"ch", 0)]
        assert r.execute_command("PUBSUB", "NUMPAT") == 0
    finally:
        sub.close()


def test_resp3_push_on_normal_connection(server, r):
    c = resp3_client(server.port)
    try:
        c.send_command("SUBSCRIBE", "c1")
        _, raw = c.read_reply_raw(keep_push=True)
        assert raw == b">3\r\n$9\r\nsubscribe\r\n$2\r\nc1\r\n:1\r\n"
        # Any command works while subscribed under RESP3.
        assert c.execute("SET", "k", "v") == b"OK"
        assert c.execute("PING") == b"PONG"
        assert r.publish("c1", "m") == 1
        msg = read_push(c)
        assert isinstance(msg, Push) and msg == [b"message", b"c1", b"m"]
        assert c.execute("GET", "k") == b"v"
        c.send_command("UNSUBSCRIBE")
        assert read_push(c) == [b"unsubscribe", b"c1", 0]
        c.send_command("UNSUBSCRIBE")
        assert read_push(c) == [b"unsubscribe", NULL, 0]
    finally:
        c.close()


def test_patterns_use_redis_glob(server, r):
    sub = server.raw()
    try:
        patterns = ["h?llo", "h[ae]llo", "h[^e]llo", "h*", r"x\*y", "[a-c]"]
        for i, p in enumerate(patterns):
            assert sub.execute("PSUBSCRIBE", p) == [b"psubscribe", p.encode(), i + 1]
        assert r.execute_command("PUBSUB", "NUMPAT") == len(patterns)
        cases = {"hello": {"h?llo", "h[ae]llo", "h*"}, "hallo": {"h?llo", "h[ae]llo",
                 "h[^e]llo", "h*"}, "x*y": {r"x\*y"}, "xay": set(), "b": {"[a-c]"}}
        for channel, want in cases.items():
            assert r.publish(channel, "m") == len(want)
            got = set()
            for _ in want:
                kind, pattern, ch, msg = read_push(sub)
                assert (kind, ch, msg) == (b"pmessage", channel.encode(), b"m")
                got.add(pattern.decode())
            assert got == want
        # A channel and a pattern both matching deliver twice.
        sub.execute("SUBSCRIBE", "hello")
        assert r.publish("hello", "twice") == 4
    finally:
        sub.close()


def test_pubsub_introspection(server, r):
    a, b = server.raw(), server.raw()
    try:
        a.execute("SUBSCRIBE", "news", "sport")
        b.execute("SUBSCRIBE", "news")
        b.execute("PSUBSCRIBE", "n*")
        b.execute("SSUBSCRIBE", "shard1")
        assert sorted(r.pubsub_channels()) == [b"news", b"sport"]
        assert r.pubsub_channels("s*") == [b"sport"]
        assert r.execute_command("PUBSUB", "NUMSUB", "news", "sport", "none") == [
            b"news", 2, b"sport", 1, b"none", 0]
        assert r.execute_command("PUBSUB", "NUMSUB") == []
        assert r.execute_command("PUBSUB", "NUMPAT") == 1
        assert r.execute_command("PUBSUB", "SHARDCHANNELS") == [b"shard1"]
        assert r.execute_command("PUBSUB", "SHARDNUMSUB", "shard1") == [b"shard1", 1]
        assert r.execute_command("SPUBLISH", "shard1", "s") == 1
        assert read_push(b) == [b"smessage", b"shard1", b"s"]
        assert r.publish("shard1", "not a shard publish") == 0
        # Closing a subscriber forgets its subscriptions.
        a.close()
        assert wait_numsub(r, "news", 1)
        assert r.pubsub_channels("s*") == []
        with pytest.raises(redis.ResponseError, match="unknown subcommand 'FOO'"):
            r.execute_command("PUBSUB", "FOO")
        with pytest.raises(redis.ResponseError, match="wrong number of arguments for 'pubsub"):
            r.execute_command("PUBSUB")
        with pytest.raises(redis.ResponseError, match="wrong number of arguments"):
            r.execute_command("SUBSCRIBE")
        with pytest.raises(redis.ResponseError, match="wrong number of arguments"):
            r.execute_command("PUBLISH", "c")
    finally:
        a.close()
        b.close()


def test_client_list_shows_subscriptions(server, r):
    sub = server.raw()
    try:
        sub.execute("SUBSCRIBE", "a", "b")
        sub.execute("PSUBSCRIBE", "p*")
        line = r.execute_command("CLIENT", "LIST", "TYPE", "pubsub")
        text = line.decode() if isinstance(line, bytes) else line
        assert " sub=2 psub=1 ssub=0 " in text and " flags=P " in text
        normal = r.execute_command("CLIENT", "LIST", "TYPE", "normal")
        normal = normal.decode() if isinstance(normal, bytes) else normal
        assert "flags=P" not in normal
    finally:
        sub.close()


def test_redis_py_pubsub(server, r):
    p = r.pubsub()
    p.subscribe("py")
    p.psubscribe("py*")
    assert p.get_message(timeout=5)["type"] == "subscribe"
    assert p.get_message(timeout=5)["type"] == "psubscribe"
    assert r.publish("py", "data") == 2
    got = [p.get_message(timeout=5) for _ in range(2)]
    assert {m["type"] for m in got} == {"message", "pmessage"}
    assert all(m["data"] == b"data" for m in got)
    p.close()


def test_fan_out_to_1000_subscribers(server, r):
    subs = []
    try:
        for i in range(1000):
            c = RespClient(server.host, server.port)
            c.send_command("SUBSCRIBE", "fan", "own%d" % i)
            subs.append(c)
        for c in subs:
            c.read_reply()
            c.read_reply()
        assert r.pubsub_numsub("fan") == [(b"fan", 1000)]
        for n in range(3):
            assert r.publish("fan", "msg%d" % n) == 1000
        for c in subs:
            for n in range(3):
                assert c.read_reply() == [b"message", b"fan", b"msg%d" % n]
        assert r.publish("own7", "just me") == 1
        assert subs[7].read_reply() == [b"message", b"own7", b"just me"]
    finally:
        for c in subs:
            c.close()
    assert wait_numsub(r, "fan", 0)


def _stalled_subscriber(server, channel):
    """A subscriber with a tiny receive buffer that never reads again."""
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    s.connect((server.host, server.port))
    s.sendall(b"*2\r\n$9\r\nSUBSCRIBE\r\n$%d\r\n%s\r\n" % (len(channel), channel))
    got = b""
    while not got.endswith(b":1\r\n"):
        got += s.recv(100)
    return s


def test_slow_subscriber_hits_hard_limit(server_factory):
    srv = server_factory(["--client-output-buffer-limit", "pubsub 256kb 0 0"])
    r = srv.client()
    s = _stalled_subscriber(srv, b"flood")
    try:
        payload = "x" * 65536
        receivers = [r.publish("flood", payload) for _ in range(400)]  # 25 MB
        # Delivered until the buffer passed 256 KB (plus what the kernel took),
        # then the subscriber was dropped: later publishes reach nobody.
        assert receivers[0] == 1 and receivers[-1] == 0
        assert wait_numsub(r, "flood", 0)
        assert "flood" not in str(r.execute_command("CLIENT", "LIST"))
    finally:
        s.close()
        r.close()


def test_slow_subscriber_hits_soft_limit(server_factory):
    srv = server_factory(["--client-output-buffer-limit", "pubsub 0 128kb 1"])
    r = srv.client()
    s = _stalled_subscriber(srv, b"slow")
    try:
        payload = "y" * 32768
        for _ in range(100):  # 3.2 MB: over the soft limit, no hard limit
            r.publish("slow", payload)
        # Still over the soft limit after its seconds: the next write drops it.
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline and r.publish("slow", payload) == 1:
            time.sleep(0.2)
        assert r.publish("slow", payload) == 0
    finally:
        s.close()
        r.close()


def test_fast_subscriber_under_limit_survives(server_factory):
    srv = server_factory(["--client-output-buffer-limit", "pubsub 256kb 0 0"])
    r = srv.client()
    sub = srv.raw()
    try:
        sub.execute("SUBSCRIBE", "ok")
        for i in range(200):
            assert r.publish("ok", "z" * 1000) == 1
            assert sub.read_reply() == [b"message", b"ok", b"z" * 1000]
    finally:
        sub.close()
        r.close()
