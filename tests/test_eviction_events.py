"""What an eviction tells the rest of the server, as Redis 7.0's performEvictions
(issue 12 / 14): the `evicted` keyspace event (class e), CLIENT TRACKING invalidation of
the evicted key, WATCH seeing it (EXEC fails), INFO evicted_keys, and a DEL in the log.

Checked by effect, never by timing; valid against redis-server 7.0
(RANKD_TARGET_REDIS=1), which is where each expectation was confirmed.
"""

import time

from util import info, wait_until

N = 4000


def _fill(c, n=N, prefix="k"):
    for start in range(0, n, 500):
        c.pipeline([("SET", "%s%d" % (prefix, i), "x" * 200) for i in range(start, min(n, start + 500))])


def _evict_some(admin):
    used = int(info(admin, "memory")["used_memory"])
    assert admin.execute("CONFIG", "SET", "maxmemory", str(used - 400_000)) == b"OK"
    admin.execute("SET", "trigger", "1")  # eviction runs before each command too
    wait_until(lambda: int(info(admin, "stats")["evicted_keys"]) > 0)
    assert admin.execute("CONFIG", "SET", "maxmemory", "0") == b"OK"


def _read_pushes(c, until, timeout=5.0):
    """Messages read from a subscribed RESP2 connection until `until(msgs)` holds."""
    msgs = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and not until(msgs):
        try:
            msgs.append(c.read_reply(timeout=0.2))
        except (TimeoutError, OSError):
            continue
    return msgs


def _gone(admin, n=N, prefix="k"):
    exists = admin.pipeline([("EXISTS", "%s%d" % (prefix, i)) for i in range(n)])
    return {"%s%d" % (prefix, i) for i, e in enumerate(exists) if not e}


def _evict_while_subscribed(server_factory, flags, *subscribe):
    """A server with notify-keyspace-events `flags` that has evicted some keys while a
    subscriber (`subscribe`) listened. Returns (admin, subscriber) connections."""
    srv = server_factory(["--maxmemory-policy", "allkeys-random",
                          "--notify-keyspace-events", flags])
    admin, sub = srv.raw(), srv.raw()
    _fill(admin)
    sub.execute(*subscribe)
    _evict_some(admin)
    return admin, sub


def test_evicted_keys_publish_the_evicted_event(server_factory):
    admin, sub = _evict_while_subscribed(server_factory, "Ee",
                                         "SUBSCRIBE", "__keyevent@0__:evicted")
    evicted = int(info(admin, "stats")["evicted_keys"])
    gone = _gone(admin)
    if not admin.execute("EXISTS", "trigger"):  # written once memory was over: evictable too
        gone.add("trigger")
    assert len(gone) == evicted > 0
    msgs = _read_pushes(sub, lambda m: len(m) >= evicted)
    assert {bytes(m[2]).decode() for m in msgs} == gone
    assert all(m[:2] == [b"message", b"__keyevent@0__:evicted"] for m in msgs)


def test_evicted_event_needs_class_e(server_factory):
    admin, sub = _evict_while_subscribed(server_factory, "KEg$", "PSUBSCRIBE", "__key*__:*")
    admin.execute("SET", "marker", "1")  # a "set" event arrives after any eviction one
    msgs = _read_pushes(sub, lambda m: any(b"marker" in bytes(x[3]) for x in m
                                           if x[0] == b"pmessage"))
    events = [bytes(m[2]) for m in msgs if m[0] == b"pmessage"]
    assert not any(e.endswith(b":evicted") for e in events)
    assert not any(bytes(m[3]) == b"evicted" for m in msgs if m[0] == b"pmessage")


def test_evicted_keys_invalidate_tracking_caches(server_factory):
    srv = server_factory(["--maxmemory-policy", "allkeys-random"])
    with srv.raw() as admin, srv.raw() as redir, srv.raw() as reader:
        _fill(admin)
        redir_id = redir.execute("CLIENT", "ID")
        redir.execute("SUBSCRIBE", "__redis__:invalidate")
        assert reader.execute("CLIENT", "TRACKING", "ON", "REDIRECT", redir_id) == b"OK"
        reader.pipeline([("GET", "k%d" % i) for i in range(N)])  # caches every key
        _evict_some(admin)
        gone = _gone(admin)
        msgs = _read_pushes(redir, lambda m: {k.decode() for x in m for k in x[2]} >= gone)
        invalidated = {k.decode() for m in msgs for k in m[2]}
        assert gone and gone <= invalidated


def test_a_watched_key_evicted_fails_exec(server_factory):
    srv = server_factory(["--maxmemory-policy", "allkeys-random"])
    with srv.raw() as admin, srv.raw() as w:
        _fill(admin)
        assert w.execute("WATCH", *["k%d" % i for i in range(N)]) == b"OK"
        _evict_some(admin)
        assert w.execute("MULTI") == b"OK"
        assert w.execute("SET", "x", "1") == b"QUEUED"
        assert w.execute("EXEC") is None
        assert w.execute("EXISTS", "x") == 0


def test_evictions_are_dels_in_the_log(server_factory, tmp_path):
    args = ["--maxmemory-policy", "allkeys-random", "--dir", str(tmp_path),
            "--appendonly", "yes", "--appendfsync", "always", "--save", ""]
    srv = server_factory(args)
    with srv.raw() as admin:
        _fill(admin)
        _evict_some(admin)
        gone = _gone(admin)
        dbsize = admin.execute("DBSIZE")
    srv.proc.kill()  # SIGKILL: no final snapshot, only the log
    srv.proc.wait(10)
    again = server_factory(args)
    with again.raw() as c:
        assert c.execute("DBSIZE") == dbsize
        assert _gone(c) == gone
