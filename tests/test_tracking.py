"""Client-side caching (CLIENT TRACKING) as Redis 7.0: invalidation pushes under
RESP3, the RESP2 redirect mode through __redis__:invalidate seen by redis-py,
BCAST prefixes, OPTIN/OPTOUT with CLIENT CACHING, NOLOOP, invalidation on expiry and
FLUSHALL, a broken redirect, tracking-table-max-keys, and the error replies.
(redis-py 4.3 in Debian speaks RESP2 only; RESP3 goes through tests/resp_client.py.)"""

import time

import pytest

from resp_client import NULL, Push, RespError, resp3_client


def push(c, timeout=5.0):
    if c.pushes:
        return c.pushes.pop(0)
    return c.read_reply(timeout=timeout, keep_push=True)


@pytest.fixture
def t3(server):
    with server.raw() as c:
        c.execute("FLUSHALL")
    c = resp3_client(server.port)
    yield c
    c.close()


def test_resp3_default_mode(server, t3, r):
    assert t3.execute("CLIENT", "TRACKING", "ON") == b"OK"
    assert t3.execute("GET", "k") is NULL
    r.set("k", "1")
    msg = push(t3)
    assert isinstance(msg, Push) and msg == [b"invalidate", [b"k"]]
    # Told once: it must read again to be told again.
    r.set("k", "2")
    assert t3.execute("GET", "k") == b"2"
    assert t3.pushes == []
    r.set("k", "3")
    assert push(t3) == [b"invalidate", [b"k"]]
    # Sorted-set reads are tracked too (the seed's cached leaderboard).
    assert t3.execute("ZREVRANGE", "board", "0", "9") == []
    r.zadd("board", {"alice": 100})
    assert push(t3) == [b"invalidate", [b"board"]]
    # Its own write: the reply first, then the invalidation.
    t3.execute("GET", "k")
    t3.send_command("SET", "k", "mine")
    _, raw = t3.read_reply_raw(keep_push=True)
    assert raw == b"+OK\r\n"
    assert push(t3) == [b"invalidate", [b"k"]]


def test_noloop_and_flush(server, t3, r):
    t3.execute("CLIENT", "TRACKING", "ON", "NOLOOP")
    t3.execute("MGET", "a", "b")
    t3.execute("SET", "a", "self")  # no invalidation for its own write
    r.set("b", "other")
    assert push(t3) == [b"invalidate", [b"b"]]
    assert t3.pushes == []
    r.flushall()
    assert push(t3) == [b"invalidate", NULL]


def test_expiry_invalidates(server, t3, r):
    r.set("temp", "v", px=50)
    t3.execute("CLIENT", "TRACKING", "ON")
    assert t3.execute("GET", "temp") == b"v"
    time.sleep(0.2)
    # Reclaimed lazily (by this GET) or by the active cycle: told either way.
    t3.send_command("GET", "temp")
    got = [t3.read_reply(keep_push=True), t3.read_reply(keep_push=True)]
    assert [b"invalidate", [b"temp"]] in got and NULL in got


def test_bcast_prefixes(server, t3, r):
    assert t3.execute("CLIENT", "TRACKING", "ON", "BCAST", "PREFIX", "user:",
                      "PREFIX", "board:") == b"OK"
    r.mset({"user:1": "a", "board:x": "b", "other": "c"})
    got = [push(t3), push(t3)]
    assert sorted(got) == [[b"invalidate", [b"board:x"]], [b"invalidate", [b"user:1"]]]
    info = t3.execute("CLIENT", "TRACKINGINFO")
    assert info[b"flags"] == [b"on", b"bcast"] or set(info[b"flags"]) == {b"on", b"bcast"}
    assert info[b"prefixes"] == [b"board:", b"user:"]
    err = t3.execute("CLIENT", "TRACKING", "ON", "BCAST", "PREFIX", "user:2")
    assert err.message == ("ERR Prefix 'user:2' overlaps with an existing prefix 'user:'. "
                           "Prefixes for a single client must not overlap.")


def test_optin_optout(server, t3, r):
    t3.execute("CLIENT", "TRACKING", "ON", "OPTIN")
    t3.execute("GET", "x")  # not after CACHING YES: not remembered
    assert t3.execute("CLIENT", "CACHING", "YES") == b"OK"
    t3.execute("GET", "y")
    r.mset({"x": "1", "y": "1"})
    assert push(t3) == [b"invalidate", [b"y"]]
    t3.execute("CLIENT", "TRACKING", "OFF")
    t3.execute("CLIENT", "TRACKING", "ON", "OPTOUT")
    assert t3.execute("CLIENT", "CACHING", "NO") == b"OK"
    t3.execute("GET", "x")  # excluded
    t3.execute("GET", "y")
    r.mset({"x": "2", "y": "2"})
    assert push(t3) == [b"invalidate", [b"y"]]


def test_resp2_redirect_with_redis_py(server, r):
    sub = r.pubsub()
    sub.subscribe("__redis__:invalidate")
    assert sub.get_message(timeout=5)["type"] == "subscribe"
    redirect_id = sub.connection.client_id() if hasattr(sub.connection, "client_id") else None
    if redirect_id is None:
        redirect_id = int(r.execute_command("CLIENT", "LIST", "TYPE", "pubsub")
                          .split(b"id=")[1].split(b" ")[0])
    reader = server.client(single_connection_client=True)
    try:
        assert reader.execute_command("CLIENT", "TRACKING", "ON", "REDIRECT", redirect_id) == b"OK"
        assert reader.execute_command("CLIENT", "GETREDIR") == redirect_id
        assert reader.get("cached") is None
        r.set("cached", "new")
        msg = sub.get_message(timeout=5)
        assert msg["type"] == "message" and msg["channel"] == b"__redis__:invalidate"
        assert msg["data"] == [b"cached"]
        reader.get("cached")
        r.flushall()
        msg = sub.get_message(timeout=5)
        assert msg["channel"] == b"__redis__:invalidate" and msg["data"] is None
    finally:
        reader.close()
        sub.close()


def test_broken_redirect(server, t3, r):
    other = server.raw()
    oid = other.execute("CLIENT", "ID")
    t3.execute("CLIENT", "TRACKING", "ON", "REDIRECT", oid)
    t3.execute("GET", "gone")
    other.close()
    time.sleep(0.1)
    r.set("gone", "1")
    assert push(t3) == [b"tracking-redir-broken", oid]
    info = t3.execute("CLIENT", "TRACKINGINFO")
    assert b"broken_redirect" in info[b"flags"]


def test_table_max_keys(server, t3, r):
    r.config_set("tracking-table-max-keys", 5)
    try:
        t3.execute("CLIENT", "TRACKING", "ON")
        for i in range(20):
            t3.execute("GET", "many:%d" % i)
        # Past the limit the table forgets keys, invalidating them, as Redis.
        t3.execute("PING")
        deadline = time.monotonic() + 5
        told = set()
        while len(told) < 15 and time.monotonic() < deadline:
            msg = push(t3, timeout=1)
            told.update(msg[1])
        assert len(told) >= 15
    finally:
        r.config_set("tracking-table-max-keys", 1000000)


def test_errors(server, t3):
    cases = [
        (("CLIENT", "TRACKING", "ON", "PREFIX", "a"),
         "ERR PREFIX option requires BCAST mode to be enabled"),
        (("CLIENT", "TRACKING", "ON", "BCAST", "OPTIN"),
         "ERR OPTIN and OPTOUT are not compatible with BCAST"),
        (("CLIENT", "TRACKING", "ON", "OPTIN", "OPTOUT"),
         "ERR You can't specify both OPTIN mode and OPTOUT mode"),
        (("CLIENT", "TRACKING", "ON", "REDIRECT", "999999"),
         "ERR The client ID you want redirect to does not exist"),
        (("CLIENT", "TRACKING", "MAYBE"), "ERR syntax error"),
        (("CLIENT", "TRACKING", "ON", "FOO"), "ERR syntax error"),
        (("CLIENT", "CACHING", "YES"),
         "ERR CLIENT CACHING can be called only when the client is in tracking mode with "
         "OPTIN or OPTOUT mode enabled"),
    ]
    for cmd, want in cases:
        err = t3.execute(*cmd)
        assert isinstance(err, RespError) and err.message == want, cmd
    assert t3.execute("CLIENT", "GETREDIR") == -1
    t3.execute("CLIENT", "TRACKING", "ON")
    err = t3.execute("CLIENT", "TRACKING", "ON", "BCAST")
    assert err.message.startswith("ERR You can't switch BCAST mode on/off")
    err = t3.execute("CLIENT", "CACHING", "YES")
    assert err.message == ("ERR CLIENT CACHING YES is only valid when tracking is enabled in "
                           "OPTIN mode.")
    assert b" flags=t " in t3.execute("CLIENT", "INFO")


def test_numkeys_reads_are_tracked(server, t3, r):
    # Commands that name their keys through numkeys (no first/last key in the
    # command table) track every key they read, as Redis's getKeysFromCommand.
    assert t3.execute("CLIENT", "TRACKING", "ON") == b"OK"
    assert t3.execute("ZUNION", "2", "za", "zb") == []
    assert t3.execute("ZINTERCARD", "1", "zc") == 0
    r.zadd("zb", {"m": 1})
    assert push(t3) == [b"invalidate", [b"zb"]]
    r.zadd("zc", {"m": 1})
    assert push(t3) == [b"invalidate", [b"zc"]]
