"""Failed authentication slows down (beyond Redis; docs/security.md, "Password guessing").

Counts and closing, never timings: a held reply is shown held by another client being
served meanwhile while the held one has nothing to read, with delays (60 s) far longer
than the test ever waits.
"""

import socket

import pytest

from resp_client import RespClient, RespError
from server_process import target_is_redis

pytestmark = pytest.mark.skipif(target_is_redis(), reason="rankd's own settings")

WRONGPASS = "WRONGPASS invalid username-password pair or user is disabled."
WRONGPASS_RAW = b"-" + WRONGPASS.encode() + b"\r\n"


def start(server_factory, **settings):
    args = ["--requirepass", "secret"]
    for name, value in settings.items():
        args += ["--rankd-auth-" + name.replace("_", "-"), str(value)]
    return server_factory(args)


def admin(srv):
    c = RespClient("127.0.0.1", srv.port)
    assert c.execute("AUTH", "secret") == b"OK"
    return c


def nothing_to_read(c, wait=0.3):
    try:
        c.read_reply(timeout=wait)
    except socket.timeout:
        return True
    return False


def test_settings_defaults_and_config_set(server_factory):
    srv = start(server_factory)
    c = admin(srv)
    got = dict(zip(*[iter(c.execute("CONFIG", "GET", "rankd-auth-*"))] * 2))
    assert got == {b"rankd-auth-free-failures": b"10",
                   b"rankd-auth-address-free-failures": b"100",
                   b"rankd-auth-delay-ms": b"10",
                   b"rankd-auth-max-delay-ms": b"2000",
                   b"rankd-auth-max-failures": b"100"}
    assert c.execute("CONFIG", "SET", "rankd-auth-max-failures", "7") == b"OK"
    assert c.execute("CONFIG", "GET", "rankd-auth-max-failures") == [
        b"rankd-auth-max-failures", b"7"]
    assert isinstance(c.execute("CONFIG", "SET", "rankd-auth-delay-ms", "-1"), RespError)
    c.close()


def test_config_file_settings(server_factory, tmp_path):
    conf = tmp_path / "t.conf"
    conf.write_text("requirepass secret\nrankd-auth-max-failures 3\n")
    srv = server_factory(config_file=str(conf))
    c = admin(srv)
    assert c.execute("CONFIG", "GET", "rankd-auth-max-failures")[1] == b"3"
    c.close()


def test_a_few_failures_are_answered_and_login_still_works(server_factory):
    srv = start(server_factory)  # defaults
    c = RespClient("127.0.0.1", srv.port)
    replies = c.pipeline([("AUTH", "guess%d" % i) for i in range(10)] + [("AUTH", "secret")])
    assert replies[:10] == [RespError(WRONGPASS)] * 10
    assert replies[10] == b"OK"
    assert c.execute("PING") == b"PONG"
    c.close()


def test_guessing_connection_is_closed_after_the_bound(server_factory):
    srv = start(server_factory, free_failures=3, delay_ms=1, max_delay_ms=2, max_failures=8)
    c = RespClient("127.0.0.1", srv.port)
    c.send_commands([("AUTH", "guess%d" % i) for i in range(50)] + [("AUTH", "secret")])
    replies = c.read_until_close()
    assert replies == WRONGPASS_RAW * 8  # the 8th failure is the last answer
    c.close()
    a = admin(srv)
    log = a.execute("ACL", "LOG")
    assert len(log) == 1  # Redis groups repeats in one entry
    entry = dict(zip(*[iter(log[0])] * 2))
    assert entry[b"reason"] == b"auth" and entry[b"object"] == b"AUTH"
    assert entry[b"username"] == b"default" and entry[b"count"] == 8
    a.close()


def test_hello_auth_counts_too(server_factory):
    srv = start(server_factory, free_failures=0, delay_ms=1, max_delay_ms=1, max_failures=2)
    c = RespClient("127.0.0.1", srv.port)
    c.send_commands([("HELLO", "2", "AUTH", "default", "x"), ("AUTH", "y"), ("PING",)])
    assert c.read_until_close() == WRONGPASS_RAW * 2
    c.close()


def test_held_reply_does_not_block_others(server_factory):
    srv = start(server_factory, free_failures=1, delay_ms=60000, max_delay_ms=60000)
    guesser = RespClient("127.0.0.1", srv.port)
    assert guesser.execute("AUTH", "a") == RespError(WRONGPASS)  # free
    guesser.send_commands([("AUTH", "b"), ("PING",)])              # held, then queued
    other = admin(srv)
    assert other.execute("PING") == b"PONG"
    assert other.execute("SET", "k", "v") == b"OK"
    assert nothing_to_read(guesser)
    clients = other.execute("CLIENT", "LIST")
    assert clients.count(b"\n") == 2
    guesser.close()  # gone while its reply is held: the timer finds nothing
    assert other.execute("CONFIG", "SET", "rankd-auth-delay-ms", "0") == b"OK"
    late = RespClient("127.0.0.1", srv.port)
    assert late.pipeline([("AUTH", "c"), ("AUTH", "d")]) == [RespError(WRONGPASS)] * 2
    assert other.execute("PING") == b"PONG"
    late.close()
    other.close()


def test_source_address_is_counted_across_connections(server_factory):
    srv = start(server_factory, free_failures=100, address_free_failures=4,
                delay_ms=60000, max_delay_ms=60000)
    for i in range(4):
        with RespClient("127.0.0.1", srv.port) as c:
            assert c.execute("AUTH", "guess%d" % i) == RespError(WRONGPASS)
    fifth = RespClient("127.0.0.1", srv.port)
    fifth.send_command("AUTH", "guess4")
    other = admin(srv)  # a right password is never held
    assert other.execute("PING") == b"PONG"
    assert nothing_to_read(fifth)
    fifth.close()
    other.close()


def test_failure_inside_exec_is_answered_at_once_and_counted(server_factory):
    srv = start(server_factory, free_failures=0, delay_ms=60000, max_delay_ms=60000,
                max_failures=1)
    c = RespClient("127.0.0.1", srv.port)
    assert c.execute("AUTH", "secret") == b"OK"
    assert c.execute("MULTI") == b"OK"
    assert c.execute("AUTH", "wrong") == b"QUEUED"
    assert c.execute("EXEC") == [RespError(WRONGPASS)]
    assert c.read_until_close() == b""  # the bound closed it after EXEC's reply
    c.close()
