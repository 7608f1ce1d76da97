"""RESP protocol: pipelining, inline commands, protocol errors, limits, RESP3/HELLO,
many connections, clients that vanish mid-command."""

import resource
import socket
import threading
import time

import pytest

from resp_client import (NULL, Double, Map, RespClient, RespError, SimpleString,
                         Verbatim, encode_command)


def raise_nofile(want=8192):
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = want if hard == resource.RLIM_INFINITY else min(want, hard)
    if soft < target:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def exchange(server, data, timeout=10.0):
    """Sends data, then reads until the server closes the connection.
    Returns (bytes received, closed?). Never waits longer than `timeout`."""
    s = socket.create_connection((server.host, server.port), timeout=timeout)
    try:
        s.sendall(data)
        out = b""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            s.settimeout(max(0.01, deadline - time.monotonic()))
            try:
                chunk = s.recv(65536)
            except socket.timeout:
                return out, False
            except ConnectionResetError:
                return out, True
            if not chunk:
                return out, True
            out += chunk
        return out, False
    finally:
        s.close()


def exchange_open(server, data, expect, timeout=10.0):
    """Sends data and reads until `expect` bytes have arrived; the connection must
    still be open (a PING afterwards must answer)."""
    c = RespClient(server.host, server.port, timeout=timeout)
    try:
        c.send_raw(data)
        got = b""
        deadline = time.monotonic() + timeout
        while len(got) < len(expect) and time.monotonic() < deadline:
            c.sock.settimeout(max(0.01, deadline - time.monotonic()))
            chunk = c.sock.recv(65536)
            if not chunk:
                break
            got += chunk
        assert got == expect
        assert c.execute("PING") == b"PONG"
    finally:
        c.close()


def assert_healthy(server):
    with server.raw() as c:
        assert c.execute("PING") == b"PONG"
        assert c.execute("ECHO", "still here") == b"still here"


# ---------------------------------------------------------------------------
# Pipelining

def test_pipeline_100k_commands_in_one_batch(server, raw):
    n = 100_000
    batch = b"".join([encode_command("INCR", "counter")] * (n - 1)
                     + [encode_command("GET", "counter")])
    # Send from a thread: a server is allowed to stop reading while its replies
    # are unread, so writing everything before reading could deadlock.
    sender = threading.Thread(target=raw.send_raw, args=(batch,))
    sender.start()
    try:
        for i in range(1, n):
            reply = raw.read_reply(timeout=60)
            assert reply == i, "reply %d of the pipeline" % i
        assert raw.read_reply(timeout=60) == str(n - 1).encode()
    finally:
        sender.join(60)
    assert raw.execute("PING") == b"PONG"


def test_pipeline_mixed_commands_keep_order(raw):
    cmds = []
    for i in range(2000):
        cmds.append(("SET", "k%d" % (i % 10), i))
        cmds.append(("GET", "k%d" % (i % 10)))
        cmds.append(("PING",))
        cmds.append(("NOSUCHCMD", i))
    replies = raw.pipeline(cmds)
    for i in range(2000):
        assert replies[4 * i] == b"OK"
        assert replies[4 * i + 1] == str(i).encode()
        assert replies[4 * i + 2] == b"PONG"
        assert replies[4 * i + 3] == RespError(
            "ERR unknown command 'NOSUCHCMD', with args beginning with: '%d' " % i)


def test_pipeline_with_redis_py(r):
    p = r.pipeline(transaction=False)
    for i in range(1000):
        p.set("key:%d" % i, i)
    for i in range(1000):
        p.get("key:%d" % i)
    res = p.execute()
    assert res[:1000] == [True] * 1000
    assert res[1000:] == [str(i).encode() for i in range(1000)]


def test_command_split_into_single_bytes(server):
    data = encode_command("SET", "split", "value with spaces") + encode_command("GET", "split")
    with server.raw() as c:
        for i in range(len(data)):
            c.send_raw(data[i:i + 1])
        assert c.read_reply() == b"OK"
        assert c.read_reply() == b"value with spaces"


# ---------------------------------------------------------------------------
# Inline commands

def test_inline_ping_and_lowercase(server):
    exchange_open(server, b"PING\r\nping\r\n", b"+PONG\r\n+PONG\r\n")


def test_inline_quotes_and_escapes(server):
    exchange_open(server, b'SET "my key" "hello world"\r\nGET "my key"\r\n',
                  b"+OK\r\n$11\r\nhello world\r\n")
    exchange_open(server, b'ECHO "a\\x41\\n\\"q"\r\n', b'$5\r\naA\n"q\r\n')
    exchange_open(server, b"ECHO 'b c\\'d'\r\n", b"$5\r\nb c'd\r\n")
    exchange_open(server, b'ECHO ""\r\n', b"$0\r\n\r\n")


def test_inline_blank_lines_ignored_and_lf_only(server):
    exchange_open(server, b"\r\n\r\n   \r\nPING\nPING\r\n", b"+PONG\r\n+PONG\r\n")
    exchange_open(server, b"  PING  \r\n", b"+PONG\r\n")


def test_inline_errors_keep_connection(server):
    exchange_open(server, b"ECHO\r\n",
                  b"-ERR wrong number of arguments for 'echo' command\r\n")
    exchange_open(server, b"FOO a b\r\n",
                  b"-ERR unknown command 'FOO', with args beginning with: 'a' 'b' \r\n")


def test_empty_multibulk_is_ignored(server):
    exchange_open(server, b"*0\r\n*-1\r\nPING\r\n", b"+PONG\r\n")


def test_inline_and_multibulk_mixed(server):
    exchange_open(server, b"SET a 1\r\n" + encode_command("INCR", "a") + b"GET a\r\n",
                  b"+OK\r\n:2\r\n$1\r\n2\r\n")


# ---------------------------------------------------------------------------
# Protocol errors: exact reply, then the connection is closed

PROTOCOL_ERRORS = [
    (b"*abc\r\n", b"-ERR Protocol error: invalid multibulk length\r\n"),
    (b"*+1\r\n$4\r\nPING\r\n", b"-ERR Protocol error: invalid multibulk length\r\n"),
    (b"*1\r\nfoo\r\n", b"-ERR Protocol error: expected '$', got 'f'\r\n"),
    (b"*1\r\n*1\r\n", b"-ERR Protocol error: expected '$', got '*'\r\n"),
    (b"*1\r\n$abc\r\n", b"-ERR Protocol error: invalid bulk length\r\n"),
    (b"*1\r\n$-1\r\n", b"-ERR Protocol error: invalid bulk length\r\n"),
    (b"*1\r\n$ 4\r\n", b"-ERR Protocol error: invalid bulk length\r\n"),
    (b"*1\r\n$+4\r\nPING\r\n", b"-ERR Protocol error: invalid bulk length\r\n"),
    (b"*1\r\n$2147483648\r\n", b"-ERR Protocol error: invalid bulk length\r\n"),
    (b"*1\r\n$600000000\r\n", b"-ERR Protocol error: invalid bulk length\r\n"),
    (b'SET k "abc\r\n', b"-ERR Protocol error: unbalanced quotes in request\r\n"),
    (b'SET k "a"b\r\n', b"-ERR Protocol error: unbalanced quotes in request\r\n"),
    (b"x" * 70000, b"-ERR Protocol error: too big inline request\r\n"),
    (b"*" + b"1" * 70000, b"-ERR Protocol error: too big mbulk count string\r\n"),
    (b"*1\r\n$" + b"1" * 70000, b"-ERR Protocol error: too big bulk count string\r\n"),
]


@pytest.mark.parametrize("data,reply", PROTOCOL_ERRORS,
                         ids=[repr(d[:24]) for d, _ in PROTOCOL_ERRORS])
def test_protocol_error_reply_then_close(server, data, reply):
    out, closed = exchange(server, data)
    assert out == reply
    assert closed, "the connection must be closed after a protocol error"
    assert_healthy(server)


def test_protocol_error_after_valid_commands(server):
    out, closed = exchange(server, b"PING\r\n" + encode_command("ECHO", "x") + b"*abc\r\nPING\r\n")
    assert out == b"+PONG\r\n$1\r\nx\r\n-ERR Protocol error: invalid multibulk length\r\n"
    assert closed


def test_quit_replies_ok_and_closes(server):
    out, closed = exchange(server, b"QUIT\r\nPING\r\n")
    assert out == b"+OK\r\n"
    assert closed


# ---------------------------------------------------------------------------
# Limits

def test_proto_max_bulk_len(server_factory):
    srv = server_factory(["--proto-max-bulk-len", "1048576"])
    out, closed = exchange(srv, b"*2\r\n$4\r\nECHO\r\n$1048577\r\n")
    assert out == b"-ERR Protocol error: invalid bulk length\r\n"
    assert closed
    with srv.raw() as c:
        big = b"a" * 1048576
        assert c.execute("ECHO", big) == big
        assert c.execute("SET", "big", big) == b"OK"
        assert c.execute("STRLEN", "big") == 1048576


def test_proto_max_bulk_len_config_set(server, raw):
    try:
        assert raw.execute("CONFIG", "SET", "proto-max-bulk-len", "1048576") == b"OK"
        assert raw.execute("CONFIG", "GET", "proto-max-bulk-len") == [
            b"proto-max-bulk-len", b"1048576"]
        out, closed = exchange(server, b"*2\r\n$4\r\nECHO\r\n$2000000\r\n")
        assert out == b"-ERR Protocol error: invalid bulk length\r\n"
        assert closed
    finally:
        raw.execute("CONFIG", "SET", "proto-max-bulk-len", "536870912")


def test_query_buffer_limit_closes_client(server_factory):
    srv = server_factory(["--client-query-buffer-limit", "1048576"])
    payload = encode_command("SET", "huge", b"a" * 3_000_000)
    s = socket.create_connection((srv.host, srv.port), timeout=10)
    try:
        try:
            s.sendall(payload)
        except (BrokenPipeError, ConnectionResetError):
            pass  # closed while we were still writing: fine
        s.settimeout(10)
        try:
            data = s.recv(65536)
        except ConnectionResetError:
            data = b""
        assert not data.startswith(b"+OK"), "the oversized command must not run"
    finally:
        s.close()
    with srv.raw() as c:
        assert c.execute("EXISTS", "huge") == 0
        assert c.execute("PING") == b"PONG"


def _info_field(client, section, field):
    text = client.execute("INFO", section)
    for line in bytes(text).decode().splitlines():
        if line.startswith(field + ":"):
            return line.split(":", 1)[1]
    raise AssertionError("no %s in INFO %s" % (field, section))


def test_output_buffer_limit_disconnects_slow_reader(server_factory):
    srv = server_factory(["--client-output-buffer-limit", "normal 1048576 0 0"])
    with srv.raw() as admin:
        assert admin.execute("SET", "v", b"x" * 100_000) == b"OK"
        slow = socket.create_connection((srv.host, srv.port), timeout=10)
        slow.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        try:
            slow.sendall(b"PING\r\n")
            assert slow.recv(16) == b"+PONG\r\n"  # accepted and counted
            assert int(_info_field(admin, "clients", "connected_clients")) == 2
            # ~200 MB of replies that the client never reads.
            try:
                slow.sendall(encode_command("GET", "v") * 2000)
            except (BrokenPipeError, ConnectionResetError):
                pass
            deadline = time.monotonic() + 20
            while time.monotonic() < deadline:
                if int(_info_field(admin, "clients", "connected_clients")) == 1:
                    break
                time.sleep(0.05)
            assert int(_info_field(admin, "clients", "connected_clients")) == 1, \
                "a client that does not read must be disconnected at the output limit"
        finally:
            slow.close()
        assert admin.execute("PING") == b"PONG"


# ---------------------------------------------------------------------------
# Clients that go away

def test_disconnect_mid_command_leaves_server_healthy(server, r):
    for partial in [b"*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$10\r\nabc",
                    b"*3\r\n$3\r\nSET\r\n$1\r\nk",
                    b"*3\r\n",
                    b"SET k v",
                    b"*2\r\n$4\r\nECHO\r\n$100000\r\n" + b"z" * 50000]:
        s = socket.create_connection((server.host, server.port), timeout=10)
        s.sendall(partial)
        s.close()
    assert_healthy(server)
    assert r.get("k") is None


def test_disconnect_with_unread_replies(server, r):
    r.set("big", b"y" * 200_000)
    for _ in range(5):
        s = socket.create_connection((server.host, server.port), timeout=10)
        s.sendall(encode_command("GET", "big") * 500)
        s.close()
    assert_healthy(server)
    assert r.strlen("big") == 200_000


def test_reset_connection_mid_command(server, r):
    s = socket.create_connection((server.host, server.port), timeout=10)
    s.sendall(b"*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$10\r\nab")
    s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
    s.close()  # RST
    assert_healthy(server)
    assert r.exists("k") == 0


# ---------------------------------------------------------------------------
# Many connections

def test_1000_concurrent_connections(server_factory):
    if raise_nofile(8192) < 1200:
        pytest.skip("RLIMIT_NOFILE too low for 1000 connections")
    srv = server_factory()  # started after raising the limit: it inherits it
    conns = []
    try:
        for _ in range(1000):
            s = socket.create_connection((srv.host, srv.port), timeout=30)
            conns.append(s)
        for i, s in enumerate(conns):
            s.sendall(encode_command("SET", "c%d" % i, i) + encode_command("INCR", "total"))
        for s in conns:
            buf = b""
            while buf.count(b"\r\n") < 2:
                chunk = s.recv(4096)
                assert chunk, "connection closed by the server"
                buf += chunk
            assert buf.startswith(b"+OK\r\n:")
        with srv.raw() as c:
            assert c.execute("GET", "total") == b"1000"
            assert c.execute("DBSIZE") == 1001
            assert int(_info_field(c, "clients", "connected_clients")) == 1001
    finally:
        for s in conns:
            s.close()
    with srv.raw() as c:
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            if int(_info_field(c, "clients", "connected_clients")) == 1:
                break
            time.sleep(0.05)
        assert int(_info_field(c, "clients", "connected_clients")) == 1


# ---------------------------------------------------------------------------
# RESP3 and HELLO

HELLO_KEYS = [b"server", b"version", b"proto", b"id", b"mode", b"role", b"modules"]


def test_hello_3_map_reply(raw):
    reply, data = raw.execute_raw("HELLO", "3")
    assert isinstance(reply, Map)
    assert data.startswith(b"%7\r\n")
    assert [k for k, _ in reply.pairs] == HELLO_KEYS
    assert reply[b"proto"] == 3
    assert isinstance(reply[b"id"], int)
    assert reply[b"mode"] == b"standalone"
    assert reply[b"role"] == b"master"
    assert reply[b"modules"] == []
    # The connection now speaks RESP3.
    assert raw.execute_raw("GET", "missing")[1] == b"_\r\n"


def test_hello_without_args_and_hello_2(raw):
    reply = raw.execute("HELLO")
    assert isinstance(reply, list) and len(reply) == 14
    assert reply[0::2] == HELLO_KEYS
    assert reply[5] == 2
    reply = raw.execute("HELLO", "3")
    assert reply[b"proto"] == 3
    reply = raw.execute("HELLO", "2")
    assert isinstance(reply, list) and reply[5] == 2
    assert raw.execute_raw("GET", "missing")[1] == b"$-1\r\n"


def test_hello_id_matches_client_id(raw):
    reply = raw.execute("HELLO", "3")
    assert reply[b"id"] == raw.execute("CLIENT", "ID")


def test_hello_errors(raw):
    assert raw.execute("HELLO", "4") == RespError("NOPROTO unsupported protocol version")
    assert raw.execute("HELLO", "1") == RespError("NOPROTO unsupported protocol version")
    assert raw.execute("HELLO", "abc") == RespError(
        "ERR Protocol version is not an integer or out of range")
    assert raw.execute("HELLO", "3", "FOO") == RespError("ERR Syntax error in HELLO option 'FOO'")
    assert raw.execute("HELLO", "3", "AUTH", "default") == RespError(
        "ERR Syntax error in HELLO option 'AUTH'")
    # Still RESP2 after the failures.
    assert raw.execute_raw("GET", "missing")[1] == b"$-1\r\n"


def test_hello_setname(raw):
    reply = raw.execute("HELLO", "3", "SETNAME", "myclient")
    assert reply[b"proto"] == 3
    assert raw.execute("CLIENT", "GETNAME") == b"myclient"
    assert raw.execute("HELLO", "3", "SETNAME", "bad name") == RespError(
        "ERR Client names cannot contain spaces, newlines or special characters.")
    assert raw.execute("CLIENT", "GETNAME") == b"myclient"


def test_hello_auth_default_user_without_password(raw):
    # With no requirepass the default user has no password: any password works.
    reply = raw.execute("HELLO", "3", "AUTH", "default", "whatever")
    assert reply[b"proto"] == 3


def test_hello_auth_with_requirepass(server_factory):
    srv = server_factory(["--requirepass", "s3cret"], password="s3cret")
    with srv.raw() as c:
        assert c.execute("GET", "x") == RespError("NOAUTH Authentication required.")
        assert c.execute("HELLO", "3", "AUTH", "default", "wrong") == RespError(
            "WRONGPASS invalid username-password pair or user is disabled.")
        # Without AUTH, HELLO itself is refused.
        assert c.execute("HELLO", "3") == RespError(
            "NOAUTH HELLO must be called with the client already authenticated, otherwise "
            "the HELLO AUTH <user> <pass> option can be used to authenticate the "
            "client and select the RESP protocol version at the same time")
        reply = c.execute("HELLO", "3", "AUTH", "default", "s3cret", "SETNAME", "authed")
        assert isinstance(reply, Map) and reply[b"proto"] == 3
        assert c.execute("CLIENT", "GETNAME") == b"authed"
        assert c.execute_raw("GET", "x")[1] == b"_\r\n"


def test_resp3_reply_types(r3):
    assert r3.execute_raw("SET", "s", "v") == (b"OK", b"+OK\r\n")
    assert isinstance(r3.execute("SET", "s", "v"), SimpleString)
    assert r3.execute_raw("GET", "nope")[1] == b"_\r\n"
    assert r3.execute("GET", "nope") is NULL
    assert r3.execute_raw("INCRBYFLOAT", "f", "1.5")[1] == b"$3\r\n1.5\r\n"
    assert r3.execute_raw("EXISTS", "s")[1] == b":1\r\n"
    assert r3.execute_raw("MGET", "s", "nope")[1] == b"*2\r\n$1\r\nv\r\n_\r\n"
    cfg, data = r3.execute_raw("CONFIG", "GET", "maxclients")
    assert isinstance(cfg, Map) and data.startswith(b"%1\r\n$10\r\nmaxclients\r\n")
    info = r3.execute("INFO", "server")
    assert isinstance(info, Verbatim) and info.format == b"txt"
    assert b"redis_version:" in info
    ci = r3.execute("CLIENT", "INFO")
    assert isinstance(ci, Verbatim) and b"resp=3" in ci
    # EXEC of a transaction broken by WATCH is a RESP3 null.
    assert r3.execute("WATCH", "s") == b"OK"
    with RespClient(r3.host, r3.port) as other:
        assert other.execute("SET", "s", "changed") == b"OK"
    assert r3.execute("MULTI") == b"OK"
    assert r3.execute("GET", "s") == b"QUEUED"
    assert r3.execute_raw("EXEC")[1] == b"_\r\n"


def test_resp3_null_vs_resp2_null_array(raw):
    assert raw.execute("WATCH", "w") == b"OK"
    with RespClient(raw.host, raw.port) as other:
        other.execute("SET", "w", "1")
    raw.execute("MULTI")
    raw.execute("PING")
    assert raw.execute_raw("EXEC")[1] == b"*-1\r\n"


def test_resp3_double_reply(r3):
    # Sorted sets give the first RESP3 doubles; skip cleanly while ZADD is missing.
    reply = r3.execute("ZADD", "z", "1.5", "a")
    if isinstance(reply, RespError) and reply.message.startswith("ERR unknown command"):
        pytest.skip("ZADD not implemented yet")
    score, data = r3.execute_raw("ZSCORE", "z", "a")
    assert data == b",1.5\r\n" and isinstance(score, Double)
    r3.execute("ZADD", "z", "inf", "b")
    assert r3.execute_raw("ZSCORE", "z", "b")[1] == b",inf\r\n"
