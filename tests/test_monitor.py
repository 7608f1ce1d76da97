"""MONITOR compared with redis-server 7.0 line by line (timestamps and client
addresses masked): what is shown and in which order (after the command ran, scripts
before their own commands, EXEC after the transaction), quoting, AUTH redaction,
admin commands hidden, and what a monitoring client may still do."""

import re
import time

import pytest

from resp_client import RespClient
from server_process import ServerStartError, reference_redis, server_under_test

END = "__monitor_end__"
LINE = re.compile(rb"^\+(\d+)\.(\d{6}) \[(\d+) ([^\]]+)\] (.*)$")


def monitor_lines(server, steps, password=None):
    """Runs `steps` ((connection name, command, expects_reply)) and returns what a
    MONITOR client saw, masked: "[db ADDR|lua] args"."""
    def connect():
        c = RespClient(server.host, server.port)
        if password:
            c.execute("AUTH", password)
        return c

    mon = connect()
    assert mon.execute("MONITOR") == b"OK"
    conns = {}
    try:
        for name, cmd, expects_reply in steps:
            if name not in conns:
                conns[name] = RespClient(server.host, server.port)
            c = conns[name]
            c.send_command(*cmd)
            if expects_reply:
                c.read_reply()
            else:
                time.sleep(0.1)  # let it arrive before the next connection's step
        closer = connect()
        closer.execute("ECHO", END)
        closer.close()
        lines = []
        while True:
            raw = mon.read_reply_raw(timeout=10)[1]
            m = LINE.match(raw.rstrip(b"\r\n"))
            assert m, raw
            if END.encode() in raw:
                return lines
            where = m.group(4)
            if where != b"lua":
                assert re.match(rb"^127\.0\.0\.1:\d+$", where), raw
                where = b"ADDR"
            lines.append(b"[%s %s] %s" % (m.group(3), where, m.group(5)))
    finally:
        mon.close()
        for c in conns.values():
            c.close()


def compare(server, redis_ref, steps):
    ours = monitor_lines(server, steps)
    ref = monitor_lines(redis_ref, steps)
    assert ours == ref


def test_commands_quoting_and_order(server, redis_ref):
    steps = [
        ("a", ("SET", "k", b'v\n"x\\\x01\xff\t\r\x07\x08 '), True),
        ("a", ("GET", "k"), True),
        ("a", ("SELECT", "5"), True),  # shown with the new database
        ("a", ("SET", "a", "b"), True),
        ("b", ("PING",), True),
        ("a", ("CONFIG", "GET", "port"), True),  # admin: hidden
        ("a", ("CLIENT", "ID"), True),
        ("a", ("CLIENT", "LIST"), True),  # admin
        ("a", ("CLIENT", "SETNAME", "x"), True),
        ("a", ("DEBUG", "SLEEP", "0"), True),
        ("a", ("SLOWLOG", "LEN"), True),
        ("a", ("NOSUCH", "x"), True),  # rejected: hidden
        ("a", ("GET",), True),
        ("a", ("INFO", "server"), True),
        ("a", ("ZADD", "z", "1", "m"), True),
        ("a", ("BZPOPMIN", "z", "0"), True),
        ("a", ("EXPIRE", "z", "100"), True),
        ("a", ("QUIT",), True),
    ]
    compare(server, redis_ref, steps)


def test_transactions_and_scripts(server, redis_ref):
    steps = [
        ("a", ("MULTI",), True), ("a", ("SET", "q", "1"), True), ("a", ("INCR", "q"), True),
        ("a", ("EXEC",), True),  # after the commands it ran
        ("a", ("MULTI",), True), ("a", ("GET", "q"), True), ("a", ("DISCARD",), True),
        ("a", ("MULTI",), True), ("a", ("NOSUCH",), True), ("a", ("EXEC",), True),
        ("a", ("MULTI",), True), ("a", ("MONITOR",), True), ("a", ("EXEC",), True),
        ("a", ("EVAL", "redis.call('set', KEYS[1], 'x'); return redis.call('get', KEYS[1])",
               "1", "sk"), True),  # the script first, then its commands as "lua"
        ("a", ("EVAL", "redis.call('select', 3); return redis.call('set', 'x', 1)", "0"), True),
        ("a", ("EVALSHA", "0" * 40, "0"), True),
        ("b", ("BZPOPMIN", "bz", "0"), False),  # shown when called, not when served
        ("a", ("ZADD", "bz", "1", "a"), True),
    ]
    compare(server, redis_ref, steps)


def test_auth_redacted(server, redis_ref):
    steps = [
        ("a", ("AUTH", "secret"), True),
        ("a", ("AUTH", "user", "secret"), True),
        ("a", ("HELLO", "2", "AUTH", "default", "secret"), True),
        ("a", ("HELLO", "3", "SETNAME", "n"), True),
        # Redacted only once the command's parse reaches the secret (Redis 7.0).
        ("a", ("AUTH", "a", "b", "c"), True),  # syntax error: shown as sent
        ("a", ("HELLO", "4", "AUTH", "default", "secret"), True),  # NOPROTO
        ("a", ("HELLO", "3", "FOO", "AUTH", "default", "secret"), True),
        ("a", ("HELLO", "3", "AUTH", "default", "secret", "FOO"), True),
        ("a", ("HELLO", "2"), True),
        # MIGRATE's credentials (NOKEY: no connection is made).
        ("a", ("MIGRATE", "127.0.0.1", "1", "nokey", "0", "10", "AUTH", "secret"), True),
        ("a", ("MIGRATE", "127.0.0.1", "1", "", "0", "10", "COPY", "AUTH2", "u", "secret",
               "KEYS", "nokey"), True),
        ("a", ("MIGRATE", "127.0.0.1", "1", "", "0", "10", "KEYS", "AUTH", "nokey"), True),
        # Admin commands (ACL SETUSER, CONFIG SET) are not shown at all.
        ("a", ("ACL", "SETUSER", "mon_zz", "on", ">secret"), True),
        ("a", ("ACL", "DELUSER", "mon_zz"), True),
        ("a", ("CONFIG", "SET", "masterauth", "secret"), True),
        ("a", ("CONFIG", "SET", "masterauth", ""), True),
    ]
    compare(server, redis_ref, steps)


def test_requirepass_hides_unauthenticated_commands(redis_ref):
    started = []
    try:
        procs = []
        for make in (lambda: server_under_test(["--requirepass", "pw"]),
                     lambda: reference_redis(["--requirepass", "pw"])):
            p = make()
            started.append(p)
            p.start()
            procs.append(p)
        steps = [
            ("a", ("GET", "k"), True),  # NOAUTH: not shown
            ("a", ("MONITOR",), True),  # NOAUTH
            ("a", ("AUTH", "wrong"), True),  # shown, redacted
            ("a", ("AUTH", "pw"), True),
            ("a", ("SET", "k", "v"), True),
        ]
        outs = [monitor_lines(p, steps, password="pw") for p in procs]
        assert outs[0] == outs[1]
    except ServerStartError as e:
        pytest.fail(str(e))
    finally:
        for p in started:
            p.stop()


def test_monitor_client_rules(server):
    m = server.raw()
    try:
        assert m.execute("MONITOR") == b"OK"
        # Keyspace commands are refused; the refusal is not monitored.
        err = m.execute("GET", "k")
        assert err.message == "ERR Replica can't interact with the keyspace"
        # A second MONITOR gets no reply at all; PING still works and is shown.
        m.send_command("MONITOR")
        m.send_command("PING")
        assert m.read_reply() == b"PONG"
        line = m.read_reply_raw()[1]
        assert LINE.match(line.rstrip(b"\r\n")) and line.endswith(b'"PING"\r\n')
        info = server.client().execute_command("CLIENT", "LIST")
        assert b"flags=O " in info
        # RESET leaves monitor mode.
        assert m.execute("RESET") == b"RESET"
        assert m.execute("GET", "monitor-missing-key") is None
    finally:
        m.close()
