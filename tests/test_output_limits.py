"""client-output-buffer-limit while a reply is produced (issue 19).

A reply that passes the hard limit stops growing at once: the command stops
early where its reply is not bounded by the data (SRANDMEMBER, ZRANDMEMBER
with a huge negative count), the client is closed, and everyone else is
served. The soft limit closes a client that stays over it too long. Valid
against redis-server 7.0 (RANKD_TARGET_REDIS=1), which behaves the same.
"""

import socket
import time

import pytest

from resp_client import encode_command

LIMITS = ["--client-output-buffer-limit", "normal 1mb 512kb 10"]
# Negative counts rankd answers (under its 64 MB cap on repeated picks) whose replies
# still pass the 1mb hard limit; larger ones get an error at once (test_fuzz_bounds.py).
HUGE = "-5000000"


def read_until_closed(srv, request, timeout=30.0):
    """Sends request, reads until the server closes. Returns bytes received."""
    s = socket.create_connection((srv.host, srv.port), timeout=timeout)
    total = 0
    try:
        s.sendall(request)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                data = s.recv(1 << 16)
            except ConnectionResetError:
                return total
            if not data:
                return total
            total += len(data)
            assert total < 64 << 20, "the reply grew far past the 1mb hard limit"
        raise AssertionError("the client was not closed at its output limit")
    finally:
        s.close()


@pytest.fixture
def limited(server_factory):
    srv = server_factory(LIMITS)
    with srv.raw() as c:
        c.execute("ZADD", "z", 1, "a", 2, "b")
        c.execute("SADD", "s", "a", "b")
        c.execute("ZADD", "big", *[x for i in range(100_000) for x in (i, "member:%d" % i)])
    return srv


def assert_served_and_intact(srv):
    with srv.raw() as c:
        assert c.execute("PING") == b"PONG"
        assert c.execute("ZRANGE", "z", 0, -1, "WITHSCORES") == [b"a", b"1", b"b", b"2"]
        assert sorted(c.execute("SMEMBERS", "s")) == [b"a", b"b"]
        assert c.execute("ZCARD", "big") == 100_000


@pytest.mark.parametrize("command", [
    ("ZRANDMEMBER", "z", HUGE),
    ("SRANDMEMBER", "s", HUGE),
    ("ZRANDMEMBER", "z", HUGE, "WITHSCORES"),
    # Past rankd's 64 MB cap on such replies: the lower hard limit still closes the
    # client mid-run, as Redis (unit/obuf-limits "HRANDFIELD with huge count").
    ("ZRANDMEMBER", "z", "-9223372036854775807"),
    ("SRANDMEMBER", "s", "-999999999"),
])
def test_unbounded_random_reply_stops_at_the_hard_limit(limited, command):
    read_until_closed(limited, encode_command(*command))
    assert_served_and_intact(limited)


@pytest.mark.parametrize("command", [
    ("ZRANGE", "big", 0, -1, "WITHSCORES"),
    ("ZRANGEBYSCORE", "big", "-inf", "+inf"),
    ("ZSCAN", "big", 0, "COUNT", 1_000_000),
    ("EVAL", "local t = {} for i = 1, 200000 do t[i] = 'xxxxxxxxxxxxxxxx' end return t", 0),
])
def test_large_replies_close_the_client_at_the_hard_limit(limited, command):
    read_until_closed(limited, encode_command(*command))
    assert_served_and_intact(limited)


def test_pipelined_replies_stop_at_the_hard_limit(limited):
    # Each reply is small; together they pass the limit within one read.
    read_until_closed(limited, encode_command("ZRANGE", "big", 0, 999) * 200)
    assert_served_and_intact(limited)


def test_soft_limit_closes_a_client_that_stays_over_it(server_factory):
    srv = server_factory(["--client-output-buffer-limit", "normal 0 256kb 1"])
    with srv.raw() as admin:
        admin.execute("SET", "v", b"x" * 100_000)
        slow = socket.create_connection((srv.host, srv.port), timeout=1)
        slow.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        try:
            slow.sendall(b"PING\r\n")
            assert slow.recv(16) == b"+PONG\r\n"
            # Replies the client never reads, a few at a time, for up to 20 s:
            # once the kernel's buffers are full, the server holds them.
            deadline = time.monotonic() + 20
            closed = False
            while time.monotonic() < deadline and not closed:
                try:
                    slow.sendall(encode_command("GET", "v") * 5)
                except (BrokenPipeError, ConnectionResetError):
                    closed = True
                except socket.timeout:
                    pass  # the server stopped reading us (it holds 64mb): keep waiting
                clients = admin.execute("CLIENT", "LIST").decode().count("\n")
                closed = closed or clients == 1
                time.sleep(0.05)
            assert closed, "a client over its soft limit for longer than 1 s must be closed"
        finally:
            slow.close()
        assert admin.execute("PING") == b"PONG"
