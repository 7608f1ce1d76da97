"""LB.WATCH / LB.UNWATCH: live top-N of leaderboards (issue 17, docs/leaderboards.md).

A watcher gets ["lb.watch", key, count], then the current top as ["lb.top", key, rows],
then an "lb.top" message whenever the top n rows change, coalesced per
lb-watch-interval; RESP3 pushes, or in RESP2 the pub/sub subscribed context. Every
message's rows are compared with what LB.TOP answers at that moment. No timing
assertions: a test waits for the message it expects, and "no message" is shown by the
next message being the one a later change produces.
"""

import pytest

from resp_client import Double, Push, RespClient, RespError, resp3_client
from server_process import target_is_redis
from test_pubsub import SUBSCRIBED_ONLY, read_push

pytestmark = pytest.mark.skipif(target_is_redis(), reason="LB.* is rankd's own family")

# The RESP2 subscribed context's error, and reading the next message, as for pub/sub.
next_msg = read_push


def watch(c, *args):
    """Sends LB.WATCH and returns (confirmation, snapshot message)."""
    c.send_command("LB.WATCH", *args)
    return next_msg(c), next_msg(c)


def top(c, key, n, *opts):
    return c.execute("LB.TOP", key, n, *opts)


@pytest.fixture
def board(raw):
    raw.execute("LB.CREATE", "b")
    for i in range(10):
        raw.execute("LB.ADD", "b", str(i * 10), "m%d" % i)
    return raw


@pytest.fixture
def interval(server):
    """Sets lb-watch-interval for one test and restores the default."""
    def set_ms(ms):
        with server.raw() as c:
            assert c.execute("CONFIG", "SET", "lb-watch-interval", str(ms)) == b"OK"
    yield set_ms
    set_ms(100)


def test_snapshot_and_update_resp2_bytes(server, board):
    w = server.raw()
    try:
        w.send_command("LB.WATCH", "b", "TOP", "2")
        _, raw = w.read_reply_raw(keep_push=True)
        assert raw == b"*3\r\n$8\r\nlb.watch\r\n$1\r\nb\r\n:1\r\n"
        _, raw = w.read_reply_raw(keep_push=True)
        assert raw == (b"*3\r\n$6\r\nlb.top\r\n$1\r\nb\r\n*2\r\n"
                       b"*3\r\n:1\r\n$2\r\nm9\r\n$2\r\n90\r\n*3\r\n:2\r\n$2\r\nm8\r\n$2\r\n80\r\n")
        board.execute("LB.ADD", "b", "85", "new")
        assert next_msg(w) == [b"lb.top", b"b", [[1, b"m9", b"90"], [2, b"new", b"85"]]]
    finally:
        w.close()


def test_snapshot_and_update_resp3(server, board):
    w = resp3_client(server.port)
    try:
        w.send_command("LB.WATCH", "b", "TOP", "3", "MODE", "COMPETITION")
        conf, raw = w.read_reply_raw(keep_push=True)
        assert isinstance(conf, Push) and raw == b">3\r\n$8\r\nlb.watch\r\n$1\r\nb\r\n:1\r\n"
        snap, raw = w.read_reply_raw(keep_push=True)
        assert isinstance(snap, Push)
        assert raw.startswith(b">3\r\n$6\r\nlb.top\r\n$1\r\nb\r\n*3\r\n*3\r\n:1\r\n$2\r\nm9\r\n,90\r\n")
        assert snap == [b"lb.top", b"b", [[1, b"m9", 90.0], [2, b"m8", 80.0], [3, b"m7", 70.0]]]
        assert isinstance(snap[2][0][2], Double)
        # A RESP3 watcher is not in a subscribed context: it runs any command.
        assert w.execute("LB.ADD", "b", "80", "m7") == [[80.0, 3, 3]]
        msg = next_msg(w)
        assert msg[2] == top(w, "b", 3, "MODE", "COMPETITION")
        assert msg[2] == [[1, b"m9", 90.0], [2, b"m8", 80.0], [2, b"m7", 80.0]]
    finally:
        w.close()


def test_redis_py_resp2_pubsub_connection(server, board):
    import redis
    r = redis.Redis(port=server.port)
    p = r.pubsub()
    try:
        p.execute_command("LB.WATCH", "b", "TOP", "1")
        assert p.parse_response(block=False, timeout=5) == [b"lb.watch", b"b", 1]
        assert p.parse_response(block=False, timeout=5) == [b"lb.top", b"b", [[1, b"m9", b"90"]]]
        r.execute_command("LB.ADD", "b", "INCR", "100", "m0")
        assert p.parse_response(block=False, timeout=5) == [b"lb.top", b"b", [[1, b"m0", b"100"]]]
        p.execute_command("LB.UNWATCH")
        assert p.parse_response(block=False, timeout=5) == [b"lb.unwatch", b"b", 0]
    finally:
        p.close()
        r.close()


def test_rows_match_lb_top_with_time_ties(server, raw):
    # TIES FIRST: whoever reached a score first ranks higher; re-reaching it moves
    # the member behind the others.
    raw.execute("LB.CREATE", "t", "TIES", "FIRST")
    for m in ("a", "b", "c", "d"):
        raw.execute("LB.ADD", "t", "AT", "1000", "5", m)
    w = resp3_client(server.port)
    try:
        _, snap = watch(w, "t", "TOP", "3")
        assert snap[2] == top(w, "t", 3) == [[1, b"a", 5.0], [2, b"b", 5.0], [3, b"c", 5.0]]
        raw.execute("LB.ADD", "t", "4", "a")
        raw.execute("LB.ADD", "t", "5", "a")  # back at 5, but last to reach it
        msg = next_msg(w)
        want = top(w, "t", 3)
        assert msg[2] == want and [row[1] for row in want] == [b"b", b"c", b"d"]
        for mode in ("COMPETITION", "DENSE"):
            _, snap = watch(w, "t", "TOP", "4", "MODE", mode)
            assert snap[2] == top(w, "t", 4, "MODE", mode)
    finally:
        w.close()


def test_writes_below_the_top_send_nothing(server, board):
    w = resp3_client(server.port)
    try:
        watch(w, "b", "TOP", "3")
        # Below the 3rd score (70): new members, moves, removals, metadata.
        board.execute("LB.ADD", "b", "1", "low")
        board.execute("LB.ADD", "b", "INCR", "5", "m1")
        board.execute("ZREM", "b", "m0")
        board.execute("ZADD", "b", "20", "z")
        board.execute("LB.ADD", "b", "65", "m6")  # still 4th
        board.execute("ZINCRBY", "b", "1", "m5")
        # The next message is the one the top change produces.
        board.execute("LB.ADD", "b", "95", "top")
        assert next_msg(w)[2] == [[1, b"top", 95.0], [2, b"m9", 90.0], [3, b"m8", 80.0]]
        # A change that leaves the top rows as they were sends nothing either.
        board.execute("LB.ADD", "b", "95", "top")  # same score: no change
        board.execute("LB.SETMETA", "b", "top", "{}")
        board.execute("LB.ADD", "b", "99", "m9")
        assert next_msg(w)[2][0] == [1, b"m9", 99.0]
    finally:
        w.close()


def test_coalescing_one_message_with_final_state(server, board, interval):
    interval(1000)
    w = resp3_client(server.port)
    try:
        watch(w, "b", "TOP", "3")
        board.execute("LB.ADD", "b", "100", "first")  # sent at once: the board was quiet
        assert next_msg(w)[2][0] == [1, b"first", 100.0]
        # 100 top changes in one pipeline, well within the interval: one message,
        # with the state after the last of them.
        cmds = [("LB.ADD", "b", str(200 + i), "p%d" % i) for i in range(100)]
        board.pipeline(cmds)
        msg = next_msg(w)
        assert msg[2] == [[1, b"p99", 299.0], [2, b"p98", 298.0], [3, b"p97", 297.0]]
        assert msg[2] == top(w, "b", 3)
        assert not w.pushes
        assert w.execute("PING") == b"PONG" and not w.pushes
    finally:
        w.close()


def test_interval_zero_and_config(server, board, interval):
    assert board.execute("CONFIG", "GET", "lb-watch-interval") == [b"lb-watch-interval", b"100"]
    err = board.execute("CONFIG", "SET", "lb-watch-interval", "-1")
    assert isinstance(err, RespError)
    interval(0)
    w = resp3_client(server.port)
    try:
        watch(w, "b", "TOP", "1")
        for i in range(3):
            board.execute("LB.ADD", "b", str(1000 + i), "x%d" % i)
            assert next_msg(w)[2] == [[1, b"x%d" % i, float(1000 + i)]]
    finally:
        w.close()


def test_unwatch_and_subscribed_context_resp2(server, board):
    w = server.raw()
    try:
        watch(w, "b", "TOP", "1")
        err = w.execute("GET", "x")
        assert isinstance(err, RespError) and err.message == SUBSCRIBED_ONLY % "get"
        assert w.execute("PING") == [b"pong", b""]
        assert w.execute("SUBSCRIBE", "ch") == [b"subscribe", b"ch", 1]
        conf, snap = watch(w, "other", "TOP", "5")
        assert conf == [b"lb.watch", b"other", 2] and snap == [b"lb.top", b"other", []]
        assert w.execute("LB.UNWATCH", "other", "nope") == [b"lb.unwatch", b"other", 1]
        assert next_msg(w) == [b"lb.unwatch", b"nope", 1]
        assert w.execute("UNSUBSCRIBE") == [b"unsubscribe", b"ch", 0]
        # Still watching "b": still in the context.
        assert isinstance(w.execute("GET", "x"), RespError)
        assert w.execute("LB.UNWATCH") == [b"lb.unwatch", b"b", 0]
        _, raw = w.execute_raw("LB.UNWATCH")
        assert raw == b"*3\r\n$10\r\nlb.unwatch\r\n$-1\r\n:0\r\n"
        assert w.execute("GET", "x") is None
        board.execute("LB.ADD", "b", "1000", "after")
        assert w.execute("PING") == b"PONG"  # no message came in between
    finally:
        w.close()


def test_watch_again_changes_n_and_mode(server, board):
    w = resp3_client(server.port)
    try:
        watch(w, "b", "TOP", "1")
        conf, snap = watch(w, "b", "TOP", "2", "MODE", "DENSE")
        assert conf == [b"lb.watch", b"b", 1] and len(snap[2]) == 2
        board.execute("LB.ADD", "b", "85", "between")  # 2nd now: only the new n sees it
        assert next_msg(w)[2] == [[1, b"m9", 90.0], [2, b"between", 85.0]]
    finally:
        w.close()


def test_errors(server, raw):
    raw.execute("SET", "str", "v")
    raw.execute("ZADD", "plain", "1", "a")
    raw.execute("LB.CREATE", "b")
    cases = [
        (("LB.WATCH", "str", "TOP", "3"), "WRONGTYPE Operation against a key holding the wrong kind of value"),
        (("LB.WATCH", "b", "TOP", "0"), "ERR TOP must be between 1 and 1000"),
        (("LB.WATCH", "b", "TOP", "-1"), "ERR TOP must be between 1 and 1000"),
        (("LB.WATCH", "b", "TOP", "1001"), "ERR TOP must be between 1 and 1000"),
        (("LB.WATCH", "b", "TOP", "x"), "ERR value is not an integer or out of range"),
        (("LB.WATCH", "b", "TOP", "1.5"), "ERR value is not an integer or out of range"),
        (("LB.WATCH", "b", "BOTTOM", "3"), "ERR syntax error"),
        (("LB.WATCH", "b", "TOP", "3", "MODE"), "ERR syntax error"),
        (("LB.WATCH", "b", "TOP", "3", "MODE", "X"), "ERR syntax error"),
        (("LB.WATCH", "b", "TOP", "3", "OFFSET", "1"), "ERR syntax error"),
        (("LB.WATCH", "b", "TOP", "3", "WITHMETA"), "ERR syntax error"),
        (("LB.WATCH", "b", "TOP"), "ERR wrong number of arguments for 'lb.watch' command"),
        (("LB.WATCH",), "ERR wrong number of arguments for 'lb.watch' command"),
        (("LB.WATCH", "plain", "TOP", "3", "MODE", "DENSE"),
         "ERR DENSE ranks need a leaderboard: the key holds a plain sorted set (see LB.CREATE)"),
    ]
    for cmd, want in cases:
        reply = raw.execute(*cmd)
        assert isinstance(reply, RespError) and reply.message == want, (cmd, reply)
    # Nothing was watched: the connection is not in the subscribed context.
    assert raw.execute("GET", "str") == b"v"
    # A plain sorted set can be watched (LB.TOP reads it too).
    conf, snap = watch(raw, "plain", "TOP", "3")
    assert snap == [b"lb.top", b"plain", [[1, b"a", b"1"]]]


def test_not_in_scripts_and_runs_at_exec(server, board):
    err = board.execute("EVAL", "return redis.call('lb.watch', KEYS[1], 'TOP', '1')", "1", "b")
    assert isinstance(err, RespError) and "not allowed from script" in err.message
    err = board.execute("EVAL", "return redis.call('lb.unwatch')", "0")
    assert isinstance(err, RespError) and "not allowed from script" in err.message
    # As SUBSCRIBE in Redis 7.0: queued in MULTI, runs at EXEC; the confirmation is
    # EXEC's element and the snapshot follows EXEC's reply.
    w = server.raw()
    try:
        assert w.execute("MULTI") == b"OK"
        assert w.execute("LB.WATCH", "b", "TOP", "1") == b"QUEUED"
        assert w.execute("EXEC") == [[b"lb.watch", b"b", 1]]
        assert next_msg(w) == [b"lb.top", b"b", [[1, b"m9", b"90"]]]
        board.execute("LB.ADD", "b", "500", "x")
        assert next_msg(w) == [b"lb.top", b"b", [[1, b"x", b"500"]]]
    finally:
        w.close()


def test_delete_rename_expire_flush_swapdb(server, board):
    w = resp3_client(server.port)
    try:
        watch(w, "b", "TOP", "2")
        board.execute("RENAME", "b", "b2")
        assert next_msg(w)[2] == []  # renamed away: an empty top
        board.execute("RENAME", "b2", "b")
        assert next_msg(w)[2] == [[1, b"m9", 90.0], [2, b"m8", 80.0]]
        board.execute("DEL", "b")
        assert next_msg(w)[2] == []
        board.execute("ZADD", "b", "1", "z")  # back as a plain sorted set
        assert next_msg(w)[2] == [[1, b"z", 1.0]]
        board.execute("SET", "b", "string")  # another type reads as empty
        assert next_msg(w)[2] == []
        board.execute("DEL", "b")
        board.execute("LB.ADD", "b", "7", "e")
        assert next_msg(w)[2] == [[1, b"e", 7.0]]
        board.execute("PEXPIRE", "b", "20")
        assert next_msg(w)[2] == []  # expired (actively, or when the watch reads it)
        board.execute("LB.ADD", "b", "8", "f")
        assert next_msg(w)[2] == [[1, b"f", 8.0]]
        board.execute("FLUSHALL")
        assert next_msg(w)[2] == []
        # SWAPDB brings another database's board under the key.
        board.execute("SELECT", "1")
        board.execute("LB.ADD", "b", "3", "from1")
        board.execute("SELECT", "0")
        board.execute("SWAPDB", "0", "1")
        assert next_msg(w)[2] == [[1, b"from1", 3.0]]
        board.execute("SWAPDB", "0", "1")
        assert next_msg(w)[2] == []
    finally:
        w.close()


def test_member_expiry_reaches_watchers(server, board):
    w = resp3_client(server.port)
    try:
        watch(w, "b", "TOP", "2")
        assert board.execute("ZPEXPIRE", "b", "30", "MEMBERS", "1", "m9") == [1]
        assert next_msg(w)[2] == [[1, b"m8", 80.0], [2, b"m7", 70.0]]
    finally:
        w.close()


def test_databases_are_separate(server, board):
    w = resp3_client(server.port)
    try:
        watch(w, "b", "TOP", "1")
        w.execute("SELECT", "2")
        watch(w, "b", "TOP", "1")  # db 2's "b": another board
        board.execute("SELECT", "2")
        board.execute("LB.ADD", "b", "1", "in2")
        assert next_msg(w) == [b"lb.top", b"b", [[1, b"in2", 1.0]]]
        board.execute("SELECT", "0")
        w.send_command("LB.UNWATCH", "b")  # db 2's
        assert next_msg(w) == [b"lb.unwatch", b"b", 1]
        board.execute("LB.ADD", "b", "1000", "in0")
        assert next_msg(w) == [b"lb.top", b"b", [[1, b"in0", 1000.0]]]
    finally:
        w.close()


def test_many_watchers_and_disconnects(server, board):
    watchers = [resp3_client(server.port) for _ in range(50)]
    try:
        for i, w in enumerate(watchers):
            watch(w, "b", "TOP", str(1 + i % 5))
        for w in watchers[::2]:
            w.close()
        board.execute("LB.ADD", "b", "1000", "king")
        for i, w in enumerate(watchers):
            if i % 2 == 0:
                continue
            msg = next_msg(w)
            assert msg[2] == top(w, "b", 1 + i % 5)
            assert msg[2][0] == [1, b"king", 1000.0]
        # RESET forgets the watch without a confirmation.
        w = watchers[1]
        assert w.execute("RESET") == b"RESET"
        board.execute("LB.ADD", "b", "2000", "emperor")
        assert w.execute("PING") == b"PONG" and not w.pushes
    finally:
        for w in watchers:
            w.close()
    assert board.execute("PING") == b"PONG"


def test_slow_watcher_is_dropped_at_pubsub_limit(server, raw, interval):
    old = raw.execute("CONFIG", "GET", "client-output-buffer-limit")[1]
    raw.execute("CONFIG", "SET", "client-output-buffer-limit", "pubsub 262144 0 0")
    interval(0)
    slow = RespClient(port=server.port)
    try:
        raw.execute("LB.CREATE", "big")
        long = "x" * 200
        raw.pipeline([("LB.ADD", "big", str(i), "%s%d" % (long, i)) for i in range(1000)])
        slow.send_command("LB.WATCH", "big", "TOP", "1000")  # never reads again
        fast = resp3_client(server.port)
        watch(fast, "big", "TOP", "1")
        # Each change is a ~210 KB message to the slow watcher; the fast one is
        # served all along.
        for i in range(200):
            raw.execute("LB.ADD", "big", str(10000 + i), "top%d" % i)
            assert next_msg(fast)[2][0][1] == b"top%d" % i
            if raw.execute("CLIENT", "LIST").count(b"cmd=lb.watch") < 2:
                break
        assert slow.is_closed_by_peer(timeout=10)
        fast.close()
    finally:
        slow.close()
        raw.execute("CONFIG", "SET", "client-output-buffer-limit", old)


def test_transactions_and_busy_scripts_are_seen_whole(server_factory):
    # Watchers see the state between commands: a MULTI or a script that changes the
    # top and puts it back sends nothing, even while a busy script lets the event loop
    # answer other clients (-BUSY).
    proc = server_factory(["--busy-reply-threshold", "100"])
    c, other = RespClient(port=proc.port), RespClient(port=proc.port)
    w = resp3_client(proc.port)
    try:
        c.execute("LB.ADD", "b", "10", "a", "5", "b")
        watch(w, "b", "TOP", "2")
        c.send_commands([("MULTI",), ("LB.ADD", "b", "99", "x"), ("ZREM", "b", "x"), ("EXEC",)])
        assert [c.read_reply() for _ in range(4)][-1] == [[[b"99", 1, None]], 1]
        spin = ("redis.call('lb.add', KEYS[1], 99, 'x') "
                "local t = redis.call('time') local t0 = t[1] * 1e6 + t[2] "
                "repeat t = redis.call('time') until t[1] * 1e6 + t[2] - t0 > 1e6 "
                "return redis.call('zrem', KEYS[1], 'x')")
        c.send_command("EVAL", spin, "1", "b")
        busy = False
        for _ in range(100):
            reply = other.execute("PING")
            if isinstance(reply, RespError) and reply.message.startswith("BUSY"):
                busy = True
                break
        assert busy
        assert c.read_reply() == 1
        c.execute("LB.ADD", "b", "7", "c")  # the first change anyone sees
        assert next_msg(w)[2] == [[1, b"a", 10.0], [2, b"c", 7.0]]
    finally:
        for x in (c, other, w):
            x.close()


def test_watch_on_a_replica(server_factory):
    # A watcher on a replica sees the full sync's board (the load swaps databases in)
    # and then the primary's stream.
    primary, replica = server_factory(), server_factory()
    p, rep = RespClient(port=primary.port), RespClient(port=replica.port)
    w = resp3_client(replica.port)
    try:
        p.execute("LB.ADD", "b", "10", "a", "20", "b")
        _, snap = watch(w, "b", "TOP", "2")
        assert snap[2] == []
        assert rep.execute("REPLICAOF", "127.0.0.1", str(primary.port)) == b"OK"
        assert next_msg(w, timeout=15)[2] == [[1, b"b", 20.0], [2, b"a", 10.0]]
        p.execute("LB.ADD", "b", "30", "c")
        assert next_msg(w, timeout=15)[2] == [[1, b"c", 30.0], [2, b"b", 20.0]]
    finally:
        for x in (p, rep, w):
            x.close()


def test_other_writers_reach_watchers(server, board):
    w = resp3_client(server.port)
    try:
        watch(w, "b", "TOP", "1")
        board.execute("ZADD", "src", "500", "u")
        board.execute("ZUNIONSTORE", "b", "2", "b", "src")  # a store into the board
        assert next_msg(w)[2] == [[1, b"u", 500.0]]
        board.execute("ZADD", "src2", "600", "v")
        board.execute("COPY", "src2", "b", "REPLACE")
        assert next_msg(w)[2] == [[1, b"v", 600.0]]
        board.execute("MOVE", "b", "3")
        assert next_msg(w)[2] == []
        board.execute("ZADD", "b", "1", "back")
        assert next_msg(w)[2] == [[1, b"back", 1.0]]
        board.execute("ZPOPMAX", "b")
        assert next_msg(w)[2] == []
    finally:
        w.close()
