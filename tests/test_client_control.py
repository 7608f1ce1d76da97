"""CLIENT subcommands that control connections, as Redis 7.0: REPLY ON|OFF|SKIP,
PAUSE WRITE|ALL with timeout and UNPAUSE (postponed clients resume in order, expiry
pauses too), UNBLOCK TIMEOUT|ERROR, NO-EVICT, KILL filters (TYPE, USER, MAXAGE) and
their error replies."""

import socket
import time

import pytest

from resp_client import RespError
from server_process import target_is_redis


def no_reply_yet(c, wait=0.3):
    """True if nothing arrives on `c` within `wait` seconds (a postponed command)."""
    c.sock.settimeout(wait)
    try:
        data = c.sock.recv(1, socket.MSG_PEEK)
        return not data and False
    except socket.timeout:
        return True


def test_client_reply_modes(server):
    c = server.raw()
    try:
        c.send_command("CLIENT", "REPLY", "OFF")
        c.send_command("SET", "reply-k", "1")
        c.send_command("CLIENT", "REPLY", "ON")
        _, raw = c.read_reply_raw()
        assert raw == b"+OK\r\n"  # only ON answers
        c.send_command("CLIENT", "REPLY", "SKIP")
        c.send_command("GET", "reply-k")  # skipped
        c.send_command("INCR", "reply-k")
        assert c.read_reply() == 2
        err = c.execute("CLIENT", "REPLY", "MAYBE")
        assert isinstance(err, RespError) and err.message == "ERR syntax error"
        err = c.execute("CLIENT", "REPLY")
        assert err.message == "ERR wrong number of arguments for 'client|reply' command"
    finally:
        c.close()


def test_pause_write_postpones_writes_in_order(server):
    admin, a, b = server.raw(), server.raw(), server.raw()
    try:
        admin.execute("DEL", "pause-list")
        assert admin.execute("CLIENT", "PAUSE", "100000", "WRITE") == b"OK"
        assert a.execute("GET", "pause-list") is None  # reads go on
        a.send_command("APPEND", "pause-list", "a")
        assert no_reply_yet(a)
        b.send_command("APPEND", "pause-list", "b")
        b.send_command("GET", "pause-list")  # queued behind the postponed write
        assert no_reply_yet(b)
        assert admin.execute("PING") == b"PONG"
        assert admin.execute("CLIENT", "UNPAUSE") == b"OK"
        assert a.read_reply() == 1
        assert b.read_reply() == 2
        assert b.read_reply() == b"ab"
    finally:
        admin.execute("CLIENT", "UNPAUSE")
        for c in (admin, a, b):
            c.close()


def test_pause_all_ends_at_its_timeout(server):
    admin, a = server.raw(), server.raw()
    try:
        assert admin.execute("CLIENT", "PAUSE", "500", "ALL") == b"OK"
        a.send_command("PING")
        assert a.read_reply(timeout=10) == b"PONG"  # after the pause ends
        info = admin.execute("CLIENT", "LIST")
        assert info is not None
    finally:
        for c in (admin, a):
            c.close()


def test_pause_holds_expiry(server):
    c = server.raw()
    try:
        c.execute("FLUSHALL")
        c.execute("SET", "soon", "v", "PX", "50")
        assert c.execute("CLIENT", "PAUSE", "100000", "WRITE") == b"OK"
        time.sleep(0.3)
        assert c.execute("GET", "soon") is None  # reads as expired ...
        assert c.execute("DBSIZE") == 1  # ... but is not deleted while paused
        assert c.execute("CLIENT", "UNPAUSE") == b"OK"
        assert c.execute("GET", "soon") is None
        assert c.execute("DBSIZE") == 0
    finally:
        c.execute("CLIENT", "UNPAUSE")
        c.close()


def test_pause_errors(server):
    c = server.raw()
    try:
        assert c.execute("CLIENT", "PAUSE", "x").message == (
            "ERR timeout is not an integer or out of range")
        assert c.execute("CLIENT", "PAUSE", "-1").message == "ERR timeout is negative"
        assert c.execute("CLIENT", "PAUSE", "10", "FOO").message == (
            "ERR CLIENT PAUSE mode must be WRITE or ALL")
        assert c.execute("CLIENT", "PAUSE", "10", "WRITE", "x").message == (
            "ERR unknown subcommand or wrong number of arguments for 'PAUSE'. Try CLIENT HELP.")
        assert c.execute("CLIENT", "UNPAUSE", "x").message == (
            "ERR wrong number of arguments for 'client|unpause' command")
    finally:
        c.close()


@pytest.mark.parametrize("how", [None, "TIMEOUT", "ERROR"])
def test_unblock(server, how):
    admin, blocked = server.raw(), server.raw()
    try:
        bid = blocked.execute("CLIENT", "ID")
        blocked.send_command("BZPOPMIN", "unblock-nokey", "0")
        deadline = time.monotonic() + 10
        while b"flags=b" not in admin.execute("CLIENT", "LIST", "ID", bid):
            assert time.monotonic() < deadline
            time.sleep(0.01)
        args = ["CLIENT", "UNBLOCK", bid] + ([how] if how else [])
        assert admin.execute(*args) == 1
        _, raw = blocked.read_reply_raw()
        if how == "ERROR":
            assert raw == b"-UNBLOCKED client unblocked via CLIENT UNBLOCK\r\n"
        else:
            assert raw == b"*-1\r\n"
        assert admin.execute(*args) == 0  # no longer blocked
        assert blocked.execute("PING") == b"PONG"
    finally:
        admin.close()
        blocked.close()


def test_unblock_errors(server):
    c = server.raw()
    try:
        assert c.execute("CLIENT", "UNBLOCK", "x").message == (
            "ERR value is not an integer or out of range")
        assert c.execute("CLIENT", "UNBLOCK", "1", "FOO").message == (
            "ERR CLIENT UNBLOCK reason should be TIMEOUT or ERROR")
        assert c.execute("CLIENT", "UNBLOCK", "999999") == 0
    finally:
        c.close()


def test_no_evict_flag(server):
    c = server.raw()
    try:
        assert c.execute("CLIENT", "NO-EVICT", "on") == b"OK"
        assert b" flags=e " in c.execute("CLIENT", "INFO")
        assert c.execute("CLIENT", "NO-EVICT", "off") == b"OK"
        assert c.execute("CLIENT", "NO-EVICT", "x").message == "ERR syntax error"
    finally:
        c.close()


def test_kill_filters(server):
    admin, sub, plain = server.raw(), server.raw(), server.raw()
    try:
        sub.execute("SUBSCRIBE", "kill-ch")
        assert admin.execute("CLIENT", "KILL", "TYPE", "foo").message == (
            "ERR Unknown client type 'foo'")
        assert admin.execute("CLIENT", "KILL", "USER", "bob").message == "ERR No such user 'bob'"
        assert admin.execute("CLIENT", "KILL", "TYPE", "pubsub") == 1
        assert sub.is_closed_by_peer()
        assert admin.execute("CLIENT", "KILL", "TYPE", "master") == 0
        pid = plain.execute("CLIENT", "ID")
        assert admin.execute("CLIENT", "KILL", "USER", "default", "ID", pid) == 1
        assert plain.is_closed_by_peer()
    finally:
        for c in (admin, sub, plain):
            c.close()


@pytest.mark.skipif(target_is_redis(), reason="MAXAGE is Redis 7.4's; rankd has it")
def test_kill_maxage(server):
    admin, old = server.raw(), server.raw()
    try:
        oid = old.execute("CLIENT", "ID")
        assert admin.execute("CLIENT", "KILL", "ID", oid, "MAXAGE", "1000") == 0
        time.sleep(2.1)  # age in whole seconds must exceed MAXAGE
        assert admin.execute("CLIENT", "KILL", "ID", oid, "MAXAGE", "1") == 1
    finally:
        admin.close()
        old.close()
