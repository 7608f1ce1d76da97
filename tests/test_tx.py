"""Transactions: MULTI EXEC DISCARD WATCH UNWATCH with Redis's semantics."""

import threading
import time

import pytest
import redis

from resp_client import RespClient, RespError
from server_process import target_is_redis
from util import NOT_INTEGER, arity, err

EXECABORT = err("EXECABORT Transaction discarded because of previous errors.")


@pytest.fixture
def other(server, raw):
    c = RespClient(server.host, server.port)
    yield c
    c.close()


def test_multi_exec(raw):
    assert raw.execute("MULTI") == b"OK"
    assert raw.execute_raw("SET", "a", "1") == (b"QUEUED", b"+QUEUED\r\n")
    assert raw.execute("INCR", "a") == b"QUEUED"
    assert raw.execute("GET", "a") == b"QUEUED"
    assert raw.execute("GET", "nokey") == b"QUEUED"
    assert raw.execute_raw("EXEC") == ([b"OK", 2, b"2", None],
                                       b"*4\r\n+OK\r\n:2\r\n$1\r\n2\r\n$-1\r\n")


def test_commands_not_run_before_exec(raw, other):
    raw.execute("MULTI")
    raw.execute("SET", "a", "1")
    assert other.execute("EXISTS", "a") == 0
    raw.execute("EXEC")
    assert other.execute("GET", "a") == b"1"


def test_empty_exec_and_discard(raw):
    raw.execute("MULTI")
    assert raw.execute("EXEC") == []
    raw.execute("MULTI")
    raw.execute("SET", "d", "1")
    assert raw.execute("DISCARD") == b"OK"
    assert raw.execute("GET", "d") is None
    assert raw.execute("EXEC") == err("ERR EXEC without MULTI")


def test_state_errors(raw):
    assert raw.execute("EXEC") == err("ERR EXEC without MULTI")
    assert raw.execute("DISCARD") == err("ERR DISCARD without MULTI")
    raw.execute("MULTI")
    assert raw.execute("MULTI") == err("ERR MULTI calls can not be nested")
    assert raw.execute("WATCH", "x") == err("ERR WATCH inside MULTI is not allowed")
    # Neither error aborts the transaction.
    assert raw.execute("SET", "a", "1") == b"QUEUED"
    assert raw.execute("EXEC") == [b"OK"]


def test_arity_errors(raw):
    assert raw.execute("MULTI", "x") == arity("multi")
    assert raw.execute("WATCH") == arity("watch")
    assert raw.execute("DISCARD", "x") == arity("discard")
    assert raw.execute("UNWATCH", "x") == arity("unwatch")


@pytest.mark.parametrize("bad", [("FOO",), ("GET", "a", "b"), ("SET", "k")])
def test_queue_time_error_aborts_exec(raw, bad):
    raw.execute("MULTI")
    assert raw.execute("SET", "a", "1") == b"QUEUED"
    reply = raw.execute(*bad)
    assert reply.__class__.__name__ == "RespError" and reply.message.startswith("ERR ")
    assert raw.execute("SET", "b", "2") == b"QUEUED"
    assert raw.execute("EXEC") == EXECABORT
    assert raw.execute("EXISTS", "a", "b") == 0
    assert raw.execute("EXEC") == err("ERR EXEC without MULTI"), "the transaction is gone"


def test_exec_with_args_inside_multi_aborts(raw):
    raw.execute("MULTI")
    raw.execute("SET", "a", "1")
    assert raw.execute("EXEC", "x") == err(
        "EXECABORT Transaction discarded because of: wrong number of arguments for 'exec' command")
    assert raw.execute("EXEC") == err("ERR EXEC without MULTI")
    assert raw.execute("EXISTS", "a") == 0


def test_discard_with_args_flags_transaction(raw):
    raw.execute("MULTI")
    assert raw.execute("DISCARD", "x") == arity("discard")
    assert raw.execute("EXEC") == EXECABORT


def test_runtime_error_does_not_roll_back(raw):
    raw.execute("MULTI")
    raw.execute("SET", "a", "x")
    raw.execute("INCR", "a")          # fails at run time
    raw.execute("SET", "b", "2")
    raw.execute("INCRBYFLOAT", "b", "0.5")
    reply = raw.execute("EXEC")
    assert reply == [b"OK", NOT_INTEGER, b"OK", b"2.5"]
    assert raw.execute("GET", "a") == b"x"
    assert raw.execute("GET", "b") == b"2.5"


def test_select_inside_multi(raw):
    raw.execute("MULTI")
    raw.execute("SELECT", "2")
    raw.execute("SET", "s2", "1")
    assert raw.execute("EXEC") == [b"OK", b"OK"]
    assert raw.execute("GET", "s2") == b"1", "the connection stays on the selected db"
    raw.execute("SELECT", "0")
    assert raw.execute("EXISTS", "s2") == 0


def test_expire_inside_multi(raw):
    raw.execute("SET", "k", "v")
    raw.execute("MULTI")
    raw.execute("EXPIRE", "k", "100")
    raw.execute("TTL", "k")
    raw.execute("PERSIST", "k")
    reply = raw.execute("EXEC")
    assert reply[0] == 1 and 90 <= reply[1] <= 100 and reply[2] == 1


# ---------------------------------------------------------------------------
# WATCH

def run_watched_tx(c):
    c.execute("MULTI")
    c.execute("SET", "result", "done")
    return c.execute("EXEC")


def test_watch_untouched_key_executes(raw, other):
    raw.execute("SET", "w", "1")
    assert raw.execute("WATCH", "w") == b"OK"
    other.execute("SET", "unrelated", "1")
    other.execute("GET", "w")
    assert run_watched_tx(raw) == [b"OK"]


@pytest.mark.parametrize("setup,write", [
    ([("SET", "w", "1")], ("SET", "w", "2")),
    ([("SET", "w", "1")], ("SET", "w", "1")),            # same value still counts
    ([], ("SET", "w", "new")),                            # watched while missing
    ([("SET", "w", "1")], ("DEL", "w")),
    ([("SET", "w", "1")], ("INCR", "w")),
    ([("SET", "w", "1")], ("APPEND", "w", "x")),
    ([("SET", "w", "1")], ("EXPIRE", "w", "100")),
    ([("SET", "w", "1", "EX", "100")], ("PERSIST", "w")),
    ([("SET", "w", "1")], ("RENAME", "w", "w2")),
    ([("SET", "x", "1")], ("RENAME", "x", "w")),
    ([("SET", "w", "1")], ("MOVE", "w", "1")),
    ([("SET", "w", "1")], ("FLUSHALL",)),
    ([("SET", "w", "1")], ("FLUSHDB",)),
    ([("SET", "w", "1")], ("SWAPDB", "0", "1")),
    ([("SET", "w", "1")], ("GETDEL", "w")),
    ([("SET", "w", "1")], ("GETEX", "w", "EX", "100")),
    ([("SET", "w", "1")], ("MSET", "a", "1", "w", "2")),
    ([("SET", "x", "1")], ("COPY", "x", "w")),
])
def test_watch_broken_by_write(raw, other, setup, write):
    for cmd in setup:
        raw.execute(*cmd)
    assert raw.execute("WATCH", "w") == b"OK"
    assert not isinstance(other.execute(*write), RespError)
    assert run_watched_tx(raw) is None
    assert raw.execute("EXISTS", "result") == 0


def test_watch_not_broken_by_failed_or_noop_commands(raw, other):
    raw.execute("SET", "w", "notanumber")
    raw.execute("WATCH", "w")
    assert other.execute("INCR", "w") == NOT_INTEGER
    assert other.execute("SET", "w", "x", "NX") is None
    assert other.execute("EXPIRE", "w", "10", "XX") == 0
    assert run_watched_tx(raw) == [b"OK"]


def test_watch_missing_key_not_broken_by_flushall(raw, other):
    raw.execute("WATCH", "nokey")
    other.execute("SET", "x", "1")
    other.execute("FLUSHALL")
    assert run_watched_tx(raw) == [b"OK"]


def test_watch_broken_by_expiry(raw):
    raw.execute("SET", "w", "1", "PX", "20")
    raw.execute("WATCH", "w")
    time.sleep(0.2)  # longer than the TTL
    assert run_watched_tx(raw) is None


def test_watch_broken_by_own_write(raw):
    raw.execute("WATCH", "w")
    raw.execute("SET", "w", "mine")
    assert run_watched_tx(raw) is None


def test_watch_is_per_db(raw, other):
    raw.execute("SELECT", "1")
    raw.execute("WATCH", "w")
    raw.execute("SELECT", "0")
    other.execute("SET", "w", "db0 write")
    assert run_watched_tx(raw) == [b"OK"]
    raw.execute("SELECT", "1")
    raw.execute("WATCH", "w")
    other.execute("SELECT", "1")
    other.execute("SET", "w", "db1 write")
    raw.execute("SELECT", "0")
    assert run_watched_tx(raw) is None


def test_unwatch_and_exec_clear_watches(raw, other):
    raw.execute("SET", "w", "1")
    raw.execute("WATCH", "w")
    assert raw.execute("UNWATCH") == b"OK"
    other.execute("SET", "w", "2")
    assert run_watched_tx(raw) == [b"OK"]
    raw.execute("WATCH", "w")
    assert run_watched_tx(raw) == [b"OK"]
    other.execute("SET", "w", "3")
    assert run_watched_tx(raw) == [b"OK"], "EXEC unwatches everything"
    raw.execute("WATCH", "w")
    raw.execute("MULTI")
    raw.execute("DISCARD")
    other.execute("SET", "w", "4")
    assert run_watched_tx(raw) == [b"OK"], "DISCARD unwatches everything"


def test_watch_multiple_keys(raw, other):
    raw.execute("WATCH", "a", "b", "c")
    raw.execute("WATCH", "d")
    other.execute("SET", "d", "1")
    assert run_watched_tx(raw) is None
    raw.execute("WATCH", "a", "b", "c")
    other.execute("SET", "c", "1")
    assert run_watched_tx(raw) is None


def test_watch_optimistic_counter_with_redis_py(server, r):
    """Check-and-set from several threads: no increment is lost."""
    r.set("counter", 0)
    per_thread, threads = 50, 4

    def worker():
        client = server.client()
        done = 0
        while done < per_thread:
            with client.pipeline() as p:
                try:
                    p.watch("counter")
                    value = int(p.get("counter"))
                    p.multi()
                    p.set("counter", value + 1)
                    p.execute()
                    done += 1
                except redis.WatchError:
                    continue
        client.close()

    ts = [threading.Thread(target=worker) for _ in range(threads)]
    for t in ts:
        t.start()
    for t in ts:
        t.join(120)
    assert int(r.get("counter")) == per_thread * threads


def test_transaction_is_atomic(server, raw):
    """Another client never observes a half-applied transaction."""
    stop = threading.Event()
    bad = []

    def reader():
        with RespClient(server.host, server.port) as c:
            while not stop.is_set():
                a, b = c.execute("MGET", "a", "b")
                if a != b:
                    bad.append((a, b))

    t = threading.Thread(target=reader)
    t.start()
    try:
        for i in range(300):
            raw.pipeline([("MULTI",), ("SET", "a", i), ("SET", "b", i), ("EXEC",)])
    finally:
        stop.set()
        t.join(30)
    assert not bad, bad[:5]


def test_exec_with_args_outside_multi_aborts(raw):
    # Redis answers a rejected EXEC with EXECABORT even outside MULTI.
    assert raw.execute("EXEC", "x") == err(
        "EXECABORT Transaction discarded because of: wrong number of arguments for 'exec' command")


@pytest.mark.parametrize("cmd", [["SAVE"], ["SHUTDOWN"], ["SHUTDOWN", "NOSAVE"]])
def test_no_multi_commands_refused_inside_multi(server, raw, cmd):
    # Redis 7.0's no-multi commands: an EXEC must never shut the server down or save.
    raw.execute("MULTI")
    raw.execute("SET", "nm", "1")
    assert raw.execute(*cmd) == err("ERR Command not allowed inside a transaction")
    assert raw.execute("EXEC") == EXECABORT
    assert raw.execute("EXISTS", "nm") == 0
    raw.execute("MULTI")
    assert raw.execute(*cmd) == err("ERR Command not allowed inside a transaction")
    assert raw.execute("DISCARD") == b"OK"
    assert raw.execute("PING") == b"PONG"


BUSY = "BUSY Redis is busy running a script. You can only call SCRIPT KILL or SHUTDOWN NOSAVE."


def test_transactions_while_a_script_is_busy(server_factory):
    # As Redis 7.0: MULTI, DISCARD, WATCH, UNWATCH are allowed while a script is busy;
    # other commands get BUSY and doom the transaction; EXEC answers EXECABORT with the
    # BUSY reason and ends it.
    proc = server_factory(["--busy-reply-threshold", "100"])
    runner, a, b = (RespClient("127.0.0.1", proc.port) for _ in range(3))
    try:
        assert b.execute("MULTI") == b"OK"
        assert b.execute("SET", "q", "1") == b"QUEUED"
        runner.send_command("EVAL", "local i = 0 while true do i = i + 1 end", 0)
        time.sleep(0.4)
        assert a.execute("MULTI") == b"OK"
        assert a.execute("SET", "x", "1") == err(BUSY)
        assert a.execute("EXEC") == err("EXECABORT Transaction discarded because of: " + BUSY)
        assert a.execute("DISCARD") == err("ERR DISCARD without MULTI")
        assert a.execute("WATCH", "k") == b"OK"
        assert a.execute("UNWATCH") == b"OK"
        assert a.execute("MULTI") == b"OK"
        assert a.execute("DISCARD") == b"OK"
        assert a.execute("NOSUCH") == err(
            "ERR unknown command 'NOSUCH', with args beginning with: ")
        assert a.execute("SHUTDOWN") == err(BUSY)
        for _ in range(2):
            assert b.execute("EXEC") == err("EXECABORT Transaction discarded because of: " + BUSY)
        assert a.execute("SCRIPT", "KILL") == b"OK"
        assert isinstance(runner.read_reply(), RespError)
        assert b.execute("EXEC") == err("ERR EXEC without MULTI")
        assert b.execute("EXISTS", "q") == 0
        assert a.execute("PING") == b"PONG"
    finally:
        for c in (runner, a, b):
            c.close()


# WATCH of a key already past its deadline but not yet deleted (active expiry
# off): Redis 7.0 (watchedKey.expired) does not count its deletion by expiry,
# a lookup or a flush as a change; a key that expires after WATCH still aborts.
# Each sequence runs on the server under test and on redis-server 7.0.
def _expired_watch_sequence(proc, steps):
    main, other = proc.raw(), proc.raw()
    try:
        main.execute("FLUSHALL")
        assert main.execute("DEBUG", "SET-ACTIVE-EXPIRE", "0") == b"OK"
        for step in steps:
            if step[0] == "sleep":
                time.sleep(0.1)  # past the 20 ms TTL
            else:
                (main if step[0] == "main" else other).execute(*step[1])
        return run_watched_tx(main)
    finally:
        main.execute("DEBUG", "SET-ACTIVE-EXPIRE", "1")
        main.execute("FLUSHALL")
        main.close()
        other.close()


_SET_SHORT = ("main", ("SET", "w", "1", "PX", "20"))
_WATCH = ("main", ("WATCH", "w"))


@pytest.mark.parametrize("steps,expected", [
    # expired when watched: EXEC runs, whether or not the key is deleted meanwhile
    ([_SET_SHORT, ("sleep",), _WATCH], [b"OK"]),
    ([_SET_SHORT, ("sleep",), _WATCH, ("other", ("GET", "w"))], [b"OK"]),
    ([_SET_SHORT, ("sleep",), _WATCH, ("main", ("GET", "w"))], [b"OK"]),
    ([_SET_SHORT, ("sleep",), _WATCH, ("other", ("EXISTS", "w"))], [b"OK"]),
    ([_SET_SHORT, ("sleep",), _WATCH, ("other", ("FLUSHDB",))], [b"OK"]),
    # ... but a write after that still counts
    ([_SET_SHORT, ("sleep",), _WATCH, ("other", ("SET", "w", "2"))], None),
    ([_SET_SHORT, ("sleep",), _WATCH, ("other", ("GET", "w")), ("other", ("SET", "w", "2"))],
     None),
    # live when watched, expired before EXEC: aborts, deleted or not
    ([_SET_SHORT, _WATCH, ("sleep",)], None),
    ([_SET_SHORT, _WATCH, ("sleep",), ("other", ("GET", "w"))], None),
    # an expired key swapped in for a missing one is watched as expired
    ([("main", ("SELECT", "1")), _SET_SHORT, ("main", ("SELECT", "0")), ("sleep",), _WATCH,
      ("other", ("SWAPDB", "0", "1"))], [b"OK"]),
    ([("main", ("SELECT", "1")), _SET_SHORT, ("main", ("SELECT", "0")), ("sleep",), _WATCH,
      ("other", ("SWAPDB", "0", "1")), ("other", ("GET", "w"))], [b"OK"]),
    # the watched expired key swapped out: for a live key it aborts, for
    # nothing or another expired key it does not
    ([_SET_SHORT, ("other", ("SELECT", "1")), ("other", ("SET", "w", "live")), ("sleep",),
      _WATCH, ("other", ("SWAPDB", "0", "1"))], None),
    ([_SET_SHORT, ("sleep",), _WATCH, ("other", ("SWAPDB", "0", "1"))], [b"OK"]),
    ([_SET_SHORT, ("other", ("SELECT", "1")), ("other", ("SET", "w", "x", "PX", "20")),
      ("sleep",), _WATCH, ("other", ("SWAPDB", "0", "1"))], [b"OK"]),
])
def test_watch_of_expired_key_matches_redis(server, redis_ref, steps, expected):
    assert _expired_watch_sequence(redis_ref, steps) == expected
    assert _expired_watch_sequence(server, steps) == expected
