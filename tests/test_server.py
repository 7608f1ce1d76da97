"""Server commands: PING ECHO AUTH/requirepass CLIENT COMMAND INFO CONFIG TIME DEBUG SLEEP
SLOWLOG SHUTDOWN, SIGTERM, and the generic error texts."""

import os
import signal
import socket
import subprocess
import time

import pytest
import redis

from resp_client import RespClient, SimpleString, encode_command
from server_process import free_port
from util import SYNTAX, arity, err, info, parse_info, wait_until


# ---------------------------------------------------------------------------
# PING ECHO and generic errors

def test_ping_echo(raw):
    assert raw.execute_raw("PING") == (b"PONG", b"+PONG\r\n")
    assert isinstance(raw.execute("PING"), SimpleString)
    assert raw.execute_raw("PING", "hi")[1] == b"$2\r\nhi\r\n"
    assert raw.execute("PING", "a", "b") == arity("ping")
    assert raw.execute("ECHO", "hello world") == b"hello world"
    assert raw.execute("ECHO", "") == b""
    assert raw.execute("ECHO") == arity("echo")
    assert raw.execute("ECHO", "a", "b") == arity("echo")


def test_commands_are_case_insensitive(raw):
    assert raw.execute("ping") == b"PONG"
    assert raw.execute("PiNg") == b"PONG"
    assert raw.execute("set", "k", "v") == b"OK"
    assert raw.execute("gEt", "k") == b"v"


@pytest.mark.parametrize("cmd,reply", [
    (("FOO",), "ERR unknown command 'FOO', with args beginning with: "),
    (("FOO", "a", "b"), "ERR unknown command 'FOO', with args beginning with: 'a' 'b' "),
    (("foo", "a"), "ERR unknown command 'foo', with args beginning with: 'a' "),
    (("FOO", "a\r\nb"), "ERR unknown command 'FOO', with args beginning with: 'a  b' "),
    (("FOO", "a" * 200, "b"),
     "ERR unknown command 'FOO', with args beginning with: '%s' " % ("a" * 128)),
    (("f" * 200,), "ERR unknown command '%s', with args beginning with: " % ("f" * 128)),
    (("FOO", "x" * 100, "y" * 100, "z"),
     "ERR unknown command 'FOO', with args beginning with: '%s' '%s' " % ("x" * 100, "y" * 25)),
])
def test_unknown_command_text(raw, cmd, reply):
    assert raw.execute(*cmd) == err(reply)
    assert raw.execute("PING") == b"PONG"


@pytest.mark.parametrize("cmd,name", [
    (("GET",), "get"), (("GET", "a", "b"), "get"), (("get",), "get"), (("SET", "k"), "set"),
    (("CONFIG", "GET"), "config|get"), (("CLIENT",), "client"), (("CLIENT", "ID", "x"), "client|id"),
    (("OBJECT", "ENCODING"), "object|encoding"), (("TIME", "x"), "time"),
    (("CONFIG", "RESETSTAT", "x"), "config|resetstat"), (("COMMAND", "COUNT", "x"), "command|count"),
])
def test_wrong_arity_text(raw, cmd, name):
    assert raw.execute(*cmd) == arity(name)


@pytest.mark.parametrize("cmd,reply", [
    (("CLIENT", "FOO"), "ERR unknown subcommand 'FOO'. Try CLIENT HELP."),
    (("CONFIG", "FOO"), "ERR unknown subcommand 'FOO'. Try CONFIG HELP."),
    (("OBJECT", "FOO", "x"), "ERR unknown subcommand 'FOO'. Try OBJECT HELP."),
    (("COMMAND", "FOO"), "ERR unknown subcommand 'FOO'. Try COMMAND HELP."),
    (("SLOWLOG", "FOO"), "ERR unknown subcommand 'FOO'. Try SLOWLOG HELP."),
])
def test_unknown_subcommand_text(raw, cmd, reply):
    assert raw.execute(*cmd) == err(reply)


# ---------------------------------------------------------------------------
# AUTH

def test_auth_without_requirepass(raw):
    assert raw.execute("AUTH", "x") == err(
        "ERR AUTH <password> called without any password configured for the default user. "
        "Are you sure your configuration is correct?")
    assert raw.execute("AUTH", "default", "anything") == b"OK"
    assert raw.execute("AUTH", "a", "b", "c") == SYNTAX
    assert raw.execute("AUTH") == arity("auth")


def test_requirepass(server_factory):
    srv = server_factory(["--requirepass", "s3cret"], password="s3cret")
    with srv.raw() as c:
        noauth = err("NOAUTH Authentication required.")
        assert c.execute("PING") == noauth
        assert c.execute("GET", "k") == noauth
        assert c.execute("ECHO", "x") == noauth
        wrongpass = err("WRONGPASS invalid username-password pair or user is disabled.")
        assert c.execute("AUTH", "wrong") == wrongpass
        assert c.execute("AUTH", "default", "wrong") == wrongpass
        assert c.execute("AUTH", "bob", "s3cret") == wrongpass
        assert c.execute("GET", "k") == noauth
        assert c.execute("AUTH", "s3cret") == b"OK"
        assert c.execute("PING") == b"PONG"
        assert c.execute("SET", "k", "v") == b"OK"
    with srv.raw() as c:
        assert c.execute("AUTH", "default", "s3cret") == b"OK"
        assert c.execute("GET", "k") == b"v"
    with srv.raw() as c:
        assert c.execute("QUIT") == b"OK"
    client = srv.client()  # redis-py with password=
    assert client.get("k") == b"v"
    client.close()
    with pytest.raises((redis.AuthenticationError, redis.ResponseError)):
        redis.Redis(host=srv.host, port=srv.port, password="bad").ping()


def test_requirepass_limits_unauthenticated_requests(server_factory):
    srv = server_factory(["--requirepass", "pw"], password="pw")
    for data, reply in [
        (encode_command(*["ECHO"] * 11), b"-ERR Protocol error: unauthenticated multibulk length\r\n"),
        (b"*2\r\n$4\r\nECHO\r\n$20000\r\n", b"-ERR Protocol error: unauthenticated bulk length\r\n"),
    ]:
        s = socket.create_connection((srv.host, srv.port), timeout=10)
        try:
            s.sendall(data)
            out = b""
            while True:
                chunk = s.recv(4096)
                if not chunk:
                    break
                out += chunk
            assert out == reply
        finally:
            s.close()


# ---------------------------------------------------------------------------
# CLIENT

def parse_client_line(line):
    return dict(kv.split("=", 1) for kv in line.strip().split(" ") if "=" in kv)


def test_client_id_setname_getname(server, raw):
    cid = raw.execute("CLIENT", "ID")
    assert isinstance(cid, int) and cid > 0
    with RespClient(server.host, server.port) as other:
        assert other.execute("CLIENT", "ID") > cid, "ids increase"
    assert raw.execute_raw("CLIENT", "GETNAME")[1] == b"$-1\r\n"
    assert raw.execute("CLIENT", "SETNAME", "worker-1") == b"OK"
    assert raw.execute("CLIENT", "GETNAME") == b"worker-1"
    assert raw.execute("CLIENT", "SETNAME", "a b") == err(
        "ERR Client names cannot contain spaces, newlines or special characters.")
    assert raw.execute("CLIENT", "SETNAME", "") == b"OK"
    assert raw.execute("CLIENT", "GETNAME") is None
    assert raw.execute("CLIENT", "ID", "x") == arity("client|id")


def test_client_list_and_info(server, raw):
    raw.execute("CLIENT", "SETNAME", "lister")
    cid = raw.execute("CLIENT", "ID")
    with RespClient(server.host, server.port) as other:
        other.execute("CLIENT", "SETNAME", "other")
        other.execute("SELECT", "3")
        text = raw.execute("CLIENT", "LIST")
        lines = [parse_client_line(l) for l in bytes(text).decode().splitlines() if l]
        by_name = {l.get("name"): l for l in lines}
        assert "lister" in by_name and "other" in by_name
        me = by_name["lister"]
        for field in ("id", "addr", "laddr", "fd", "name", "age", "idle", "flags", "db", "cmd"):
            assert field in me, field
        assert me["id"] == str(cid)
        assert me["cmd"] == "client|list"
        assert by_name["other"]["db"] == "3"
        lport = int(me["laddr"].rsplit(":", 1)[1])
        assert lport == server.port
        assert raw.execute("CLIENT", "LIST", "FOO") == SYNTAX
        only = raw.execute("CLIENT", "LIST", "ID", cid)
        assert [parse_client_line(l)["name"] for l in bytes(only).decode().splitlines()] == ["lister"]
    text = raw.execute("CLIENT", "INFO")
    assert bytes(text).endswith(b"\n") and bytes(text).count(b"\n") == 1
    me = parse_client_line(bytes(text).decode())
    assert me["id"] == str(cid) and me["name"] == "lister" and me["cmd"] == "client|info"


def test_client_kill(server, raw):
    victim = RespClient(server.host, server.port)
    victim2 = RespClient(server.host, server.port)
    victim3 = RespClient(server.host, server.port)
    victim4 = RespClient(server.host, server.port)
    try:
        vid = victim.execute("CLIENT", "ID")
        assert raw.execute("CLIENT", "KILL", "ID", vid) == 1
        assert victim.is_closed_by_peer(10)
        assert raw.execute("CLIENT", "KILL", "ID", vid) == 0
        info_line = parse_client_line(bytes(victim2.execute("CLIENT", "INFO")).decode())
        assert raw.execute("CLIENT", "KILL", "ADDR", info_line["addr"]) == 1
        assert victim2.is_closed_by_peer(10)
        assert raw.execute("CLIENT", "KILL", "1.2.3.4:5") == err("ERR No such client")
        assert raw.execute("CLIENT", "KILL", "ADDR", "1.2.3.4:5") == 0
        assert raw.execute("CLIENT", "KILL", "ID", "abc") == err(
            "ERR client-id should be greater than 0")
        assert raw.execute("CLIENT", "KILL", "FOO", "bar") == SYNTAX
        assert raw.execute("PING") == b"PONG"
        # Killing oneself still delivers the reply, then closes (as Redis).
        me = parse_client_line(bytes(victim3.execute("CLIENT", "INFO")).decode())
        assert victim3.execute("CLIENT", "KILL", me["addr"]) == b"OK"
        assert victim3.is_closed_by_peer(10)
        myid = victim4.execute("CLIENT", "ID")
        assert victim4.execute("CLIENT", "KILL", "ID", myid, "SKIPME", "no") == 1
        assert victim4.is_closed_by_peer(10)
    finally:
        for c in (victim, victim2, victim3, victim4):
            c.close()


def test_client_kill_old_style(server, raw):
    with RespClient(server.host, server.port) as victim:
        line = parse_client_line(bytes(victim.execute("CLIENT", "INFO")).decode())
        assert raw.execute("CLIENT", "KILL", line["addr"]) == b"OK"
        assert victim.is_closed_by_peer(10)


# ---------------------------------------------------------------------------
# COMMAND

def test_command_count_list_info_docs(raw):
    count = raw.execute("COMMAND", "COUNT")
    assert isinstance(count, int) and count >= 40
    names = raw.execute("COMMAND", "LIST")
    assert isinstance(names, list)
    assert len([n for n in names if b"|" not in n]) == count, "COMMAND LIST adds subcommands"
    for name in (b"get", b"set", b"ping", b"command", b"client", b"config", b"info",
                 b"multi", b"exec", b"hello", b"select"):
        assert name in names, name
    info_get = raw.execute("COMMAND", "INFO", "get")
    assert isinstance(info_get, list) and len(info_get) == 1
    entry = info_get[0]
    assert entry[0] == b"get" and entry[1] == 2          # name, arity
    assert entry[3:6] == [1, 1, 1]                       # first key, last key, step
    entry = raw.execute("COMMAND", "INFO", "SET")[0]
    assert entry[0] == b"set" and entry[1] == -3
    assert raw.execute("COMMAND", "INFO", "nosuchcmd") == [None]
    docs = raw.execute("COMMAND", "DOCS", "get")
    assert isinstance(docs, list) and docs[0] == b"get" and isinstance(docs[1], list)
    assert b"summary" in docs[1]
    full = raw.execute("COMMAND")
    assert isinstance(full, list) and len(full) == count


def test_command_getkeys_smoke(raw):
    reply = raw.execute("COMMAND", "GETKEYS", "SET", "k", "v")
    assert reply == [b"k"]
    reply = raw.execute("COMMAND", "GETKEYS", "MSET", "a", "1", "b", "2")
    assert reply == [b"a", b"b"]


# ---------------------------------------------------------------------------
# INFO

def test_info_default_sections_and_fields(raw):
    raw.execute("SET", "a", "1")
    raw.execute("SET", "b", "2", "EX", "100")
    text = bytes(raw.execute("INFO")).decode()
    for header in ("# Server", "# Clients", "# Memory", "# Stats", "# Keyspace"):
        assert header in text, header
    assert "\r\n" in text, "INFO lines end with CRLF"
    fields = parse_info(raw.execute("INFO"))
    assert int(fields["used_memory"]) > 0
    assert int(fields["connected_clients"]) >= 1
    assert int(fields["total_commands_processed"]) >= 3
    assert int(fields["instantaneous_ops_per_sec"]) >= 0
    assert fields["db0"]["keys"] == "2"
    assert fields["db0"]["expires"] == "1"


def test_info_single_sections(raw):
    assert "connected_clients" in info(raw, "clients")
    assert "used_memory" in info(raw, "memory")
    assert "used_memory" not in info(raw, "clients")
    stats = info(raw, "stats")
    assert "total_commands_processed" in stats and "instantaneous_ops_per_sec" in stats
    assert "connected_clients" not in stats
    assert raw.execute_raw("INFO", "nosuchsection")[1] == b"$0\r\n\r\n"
    both = info(raw, "clients")
    both.update(info(raw, "memory"))
    multi = parse_info(raw.execute("INFO", "clients", "memory"))
    assert "connected_clients" in multi and "used_memory" in multi
    assert "total_commands_processed" in parse_info(raw.execute("INFO", "all"))
    assert "used_memory" in parse_info(raw.execute("INFO", "everything"))


def test_info_keyspace_multiple_dbs(raw):
    raw.execute("SELECT", "2")
    raw.execute("SET", "x", "1")
    ks = info(raw, "keyspace")
    assert "db0" not in ks
    assert ks["db2"]["keys"] == "1" and ks["db2"]["expires"] == "0"
    raw.execute("FLUSHALL")
    assert bytes(raw.execute("INFO", "keyspace")).strip() == b"# Keyspace"


def test_info_total_commands_processed_counts(raw):
    before = int(info(raw, "stats")["total_commands_processed"])
    raw.pipeline([("PING",)] * 50)
    after = int(info(raw, "stats")["total_commands_processed"])
    assert after >= before + 50


def test_info_connected_clients_counts(server, raw):
    base = int(info(raw, "clients")["connected_clients"])
    extra = [RespClient(server.host, server.port) for _ in range(5)]
    try:
        for c in extra:
            assert c.execute("PING") == b"PONG"
        assert int(info(raw, "clients")["connected_clients"]) == base + 5
    finally:
        for c in extra:
            c.close()
    wait_until(lambda: int(info(raw, "clients")["connected_clients"]) == base, timeout=10)


# ---------------------------------------------------------------------------
# CONFIG

def test_config_get_set(raw):
    assert raw.execute("CONFIG", "GET", "maxclients") == [b"maxclients", b"10000"]
    reply = raw.execute("CONFIG", "GET", "maxclients", "port")
    assert dict(zip(reply[0::2], reply[1::2])) == {b"maxclients": b"10000",
                                                    b"port": str(raw.port).encode()}
    assert raw.execute("CONFIG", "GET", "nosuchparam") == []
    reply = raw.execute("CONFIG", "GET", "max*")
    assert b"maxclients" in reply[0::2]
    try:
        assert raw.execute("CONFIG", "SET", "timeout", "300") == b"OK"
        assert raw.execute("CONFIG", "GET", "timeout") == [b"timeout", b"300"]
    finally:
        raw.execute("CONFIG", "SET", "timeout", "0")



# What Redis 7.0's clientsCronHandleTimeout leaves open past `timeout`: a client with a
# subscription (RESP2 or RESP3), a MONITOR client, a blocked client (its own timeout
# applies). A client that unsubscribed from everything is idle again.
IDLE_EXEMPT = {
    "subscribe": [("SUBSCRIBE", "a")],
    "psubscribe": [("PSUBSCRIBE", "a*")],
    "ssubscribe": [("SSUBSCRIBE", "a")],
    "subscribe_resp3": [("HELLO", "3"), ("SUBSCRIBE", "a")],
    "monitor": [("MONITOR",)],
    "blpop": [("BLPOP", "idle:l", "0")],
    "bzpopmin": [("BZPOPMIN", "idle:z", "0")],
}
IDLE_CLOSED = {
    "plain": [("PING",)],
    "unsubscribed": [("SUBSCRIBE", "a"), ("UNSUBSCRIBE", "a")],
}


def _idle_timeout_survivors(srv):
    """Sets timeout 1 on `srv`, opens one client per case, waits past the timeout and
    returns the names of the clients still open."""
    clients = {}
    with srv.raw() as admin:
        admin.execute("CONFIG", "SET", "timeout", "1")
    try:
        for name, cmds in {**IDLE_EXEMPT, **IDLE_CLOSED}.items():
            c = srv.raw()
            for cmd in cmds:
                c.send_command(*cmd)
            if not cmd[0].startswith("B"):  # a blocked client has no reply yet
                for _ in cmds:
                    c.read_reply(keep_push=True)
            clients[name] = c
        time.sleep(3.5)  # past the timeout, and the cron's next pass
        closed = {n for n, c in clients.items() if n in IDLE_CLOSED and c.is_closed_by_peer(5)}
        return {n for n, c in clients.items() if n not in closed and not c.is_closed_by_peer(0.3)}
    finally:
        with srv.raw() as admin:  # the first one was idle too
            admin.execute("CONFIG", "SET", "timeout", "0")
        for c in clients.values():
            c.close()


def test_idle_timeout_exemptions(server_factory, redis_ref):
    want = set(IDLE_EXEMPT)
    assert _idle_timeout_survivors(server_factory()) == want
    assert _idle_timeout_survivors(redis_ref) == want

def test_config_set_errors(raw):
    assert raw.execute("CONFIG", "SET", "nosuch", "1") == err(
        "ERR Unknown option or number of arguments for CONFIG SET - 'nosuch'")
    assert raw.execute("CONFIG", "SET", "maxclients", "abc") == err(
        "ERR CONFIG SET failed (possibly related to argument 'maxclients') - argument "
        "couldn't be parsed into an integer")
    assert raw.execute("CONFIG", "SET", "timeout", "0", "timeout", "1") == err(
        "ERR CONFIG SET failed (possibly related to argument 'timeout') - duplicate parameter")
    assert raw.execute("CONFIG", "SET", "maxclients") == arity("config|set")
    assert raw.execute("CONFIG", "SET", "timeout", "0", "maxclients") == SYNTAX  # odd count
    assert raw.execute("CONFIG", "GET") == arity("config|get")
    assert raw.execute("CONFIG", "GET", "timeout") == [b"timeout", b"0"]


def test_config_resetstat(raw):
    raw.pipeline([("PING",)] * 100)
    assert raw.execute("CONFIG", "RESETSTAT") == b"OK"
    assert int(info(raw, "stats")["total_commands_processed"]) <= 2
    assert raw.execute("CONFIG", "RESETSTAT", "x") == arity("config|resetstat")


def test_config_file_and_command_line(server_factory, tmp_path):
    conf = tmp_path / "test.conf"
    conf.write_text("# a comment\ntimeout 77\ndatabases 4\n\nmaxclients 500\n")
    srv = server_factory(["--timeout", "88"], config_file=str(conf))
    with srv.raw() as c:
        assert c.execute("CONFIG", "GET", "timeout") == [b"timeout", b"88"], \
            "command-line options override the config file"
        assert c.execute("CONFIG", "GET", "databases") == [b"databases", b"4"]
        assert c.execute("CONFIG", "GET", "maxclients") == [b"maxclients", b"500"]


@pytest.mark.parametrize("args", [["--no-such-option", "1"], ["--port", "notaport"],
                                  ["--databases", "x"], ["--maxclients", "-5x"]])
def test_bad_option_exits_with_status_1(server_factory, args):
    srv = server_factory(start=False)
    cmd = [srv.binary, "--port", str(free_port()), "--bind", "127.0.0.1"] + args
    try:
        proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=10)
    except subprocess.TimeoutExpired:
        pytest.fail("%s did not exit on a bad option" % args)
    assert proc.returncode == 1, (args, proc.stdout[-500:])
    assert proc.stdout.strip(), "a clear message is printed"


# ---------------------------------------------------------------------------
# TIME DEBUG SLOWLOG

def test_time(raw):
    reply = raw.execute("TIME")
    assert isinstance(reply, list) and len(reply) == 2
    secs, usecs = int(reply[0]), int(reply[1])
    assert abs(secs - time.time()) < 60
    assert 0 <= usecs < 1_000_000
    assert raw.execute("TIME", "x") == arity("time")


def test_debug_sleep_zero(raw):
    assert raw.execute("DEBUG", "SLEEP", "0") == b"OK"
    assert raw.execute("PING") == b"PONG"


def test_slowlog(raw):
    try:
        assert raw.execute("CONFIG", "SET", "slowlog-log-slower-than", "0") == b"OK"
        assert raw.execute("SLOWLOG", "RESET") == b"OK"
        raw.execute("SET", "slowkey", "slowvalue")
        assert raw.execute("SLOWLOG", "LEN") >= 1
        entries = raw.execute("SLOWLOG", "GET", "-1")
        mine = [e for e in entries if e[3] == [b"SET", b"slowkey", b"slowvalue"]]
        assert len(mine) == 1
        entry = mine[0]
        assert len(entry) == 6
        assert isinstance(entry[0], int) and isinstance(entry[2], int)
        assert abs(entry[1] - time.time()) < 60
        assert entry[4].startswith(b"127.0.0.1:")
        assert len(raw.execute("SLOWLOG", "GET", "1")) == 1
        assert raw.execute("SLOWLOG", "GET", "x") == err(
            "ERR count should be greater than or equal to -1")
        raw.execute("CONFIG", "SET", "slowlog-log-slower-than", "-1")
        assert raw.execute("SLOWLOG", "RESET") == b"OK"
        assert raw.execute("SLOWLOG", "LEN") == 0
        assert raw.execute("SLOWLOG", "GET") == []
    finally:
        raw.execute("CONFIG", "SET", "slowlog-log-slower-than", "10000")


# Secrets read "(redacted)" in SLOWLOG GET, as redis-server 7.0 shows them:
# each command's secret arguments once its parse reaches them (AUTH, HELLO AUTH,
# every ACL SETUSER argument after the subcommand, the values of requirepass /
# masterauth / masteruser in CONFIG SET, MIGRATE AUTH / AUTH2).
SLOWLOG_SECRETS = [
    ("AUTH", "default", "x"), ("AUTH", "x"), ("AUTH", "a", "b", "c"),
    ("HELLO", "2", "AUTH", "default", "x"), ("HELLO", "2", "AUTH", "default", "x", "SETNAME", "n"),
    ("HELLO", "2", "SETNAME", "n", "AUTH", "default", "wrong"),
    ("HELLO", "4", "AUTH", "default", "x"), ("HELLO", "2", "FOO", "AUTH", "default", "x"),
    ("HELLO", "2", "AUTH", "default"),
    ("ACL", "SETUSER", "slow_zz", "on", ">pw123", "~*", "+@all"), ("acl", "setuser", "slow_zz"),
    ("ACL", "SETUSER", "slow_zz", "badrule"), ("ACL", "GETUSER", "slow_none"),
    ("ACL", "DELUSER", "slow_zz"),
    ("CONFIG", "SET", "masterauth", "sekrit"), ("CONFIG", "SET", "requirepass", ""),
    ("CONFIG", "SET", "MASTERUSER", "mu", "maxmemory-samples", "5", "masterauth", "s2"),
    ("CONFIG", "SET", "nosuch", "1", "masterauth", "s3"),
    ("CONFIG", "SET", "masterauth", "s4", "requirepass"), ("CONFIG", "GET", "masterauth"),
    ("CONFIG", "SET", "masterauth", ""), ("CONFIG", "SET", "masteruser", ""),
    ("MIGRATE", "127.0.0.1", "1", "nokey", "0", "10", "AUTH", "pw"),
    ("MIGRATE", "127.0.0.1", "1", "nokey", "0", "10", "COPY", "auth2", "us", "pw"),
    ("MIGRATE", "127.0.0.1", "1", "", "0", "10", "AUTH2", "us", "pw", "KEYS", "nokey"),
    ("MIGRATE", "127.0.0.1", "1", "", "0", "10", "KEYS", "AUTH", "pw"),
    ("MIGRATE", "127.0.0.1", "1", "nokey", "0", "10", "FOO", "AUTH", "pw"),
    ("MIGRATE", "127.0.0.1", "1", "nokey", "x", "10", "AUTH", "pw"),
    ("SET", "auth", "pw"),
]


def _slowlog_of(conn, commands):
    try:
        conn.execute("CONFIG", "SET", "slowlog-log-slower-than", "0")
        conn.execute("SLOWLOG", "RESET")
        replies = [conn.execute(*c) for c in commands]
        entries = conn.execute("SLOWLOG", "GET", "-1")
    finally:
        conn.execute("CONFIG", "SET", "slowlog-log-slower-than", "10000")
        conn.execute("SLOWLOG", "RESET")
    # Oldest first, without the SLOWLOG RESET that starts it.
    return replies, [e[3] for e in reversed(entries)][1:]


def test_slowlog_redacts_secrets_as_redis(raw, redis_ref):
    with redis_ref.raw() as ref:
        got_replies, got = _slowlog_of(raw, SLOWLOG_SECRETS)
        want_replies, want = _slowlog_of(ref, SLOWLOG_SECRETS)
    assert len(want) == len(SLOWLOG_SECRETS)
    assert got == want
    assert [type(x) for x in got_replies] == [type(x) for x in want_replies]
    for entry in got:
        assert b"pw123" not in entry and b"sekrit" not in entry
    assert got[0] == [b"AUTH", b"(redacted)", b"(redacted)"]
    assert got[9] == [b"ACL", b"SETUSER"] + [b"(redacted)"] * 5


# ---------------------------------------------------------------------------
# SHUTDOWN and SIGTERM

def test_shutdown_command_exits_cleanly(server_factory):
    srv = server_factory()
    with srv.raw() as c:
        c.execute("SET", "k", "v")
        assert c.execute("SHUTDOWN", "FOO") == SYNTAX
        c.send_command("SHUTDOWN", "NOSAVE")
        assert c.read_until_close(10) == b"", "SHUTDOWN closes the connection without a reply"
    assert srv.wait_exit(10) == 0


def test_shutdown_abort_without_shutdown(raw):
    assert raw.execute("SHUTDOWN", "ABORT") == err("ERR No shutdown in progress.")


# Redis 7.0 shutdownCommand: SAVE with NOSAVE, or ABORT with any other flag,
# is a syntax error and the server keeps running. Each form that might stop
# the server runs on a server of its own (and on redis_ref, which keeps running
# only if the form is rejected there too).
@pytest.mark.parametrize("args", [
    ("SAVE", "NOSAVE"), ("NOSAVE", "SAVE"), ("nosave", "now", "save"),
    ("ABORT", "NOW"), ("NOW", "ABORT"), ("ABORT", "SAVE"), ("ABORT", "NOSAVE"),
    ("ABORT", "FORCE"), ("ABORT", "NOSAVE", "SAVE"), ("NOSAVE", "FOO"), ("ABORT", "FOO"),
])
def test_shutdown_conflicting_flags_are_syntax_errors(server_factory, redis_ref, args):
    srv = server_factory()
    with srv.raw() as c, redis_ref.raw() as ref:
        ref_reply = ref.execute("SHUTDOWN", *args)
        assert ref_reply == SYNTAX
        assert c.execute("SHUTDOWN", *args) == ref_reply
        assert c.execute("PING") == b"PONG", "the server keeps running"
        assert ref.execute("PING") == b"PONG"


def test_shutdown_abort_forms_match_redis(raw, redis_ref):
    # ABORT alone (even repeated) with no shutdown in progress.
    with redis_ref.raw() as ref:
        for args in (("ABORT",), ("abort", "ABORT")):
            assert raw.execute("SHUTDOWN", *args) == ref.execute("SHUTDOWN", *args) == err(
                "ERR No shutdown in progress.")


@pytest.mark.parametrize("args", [("NOW", "FORCE", "NOSAVE"), ("SAVE", "SAVE", "now")])
def test_shutdown_compatible_flags_stop_the_server(server_factory, args):
    srv = server_factory()
    with srv.raw() as c:
        c.send_command("SHUTDOWN", *args)
        assert c.read_until_close(10) == b""
    assert srv.wait_exit(10) == 0


def test_sigterm_exits_cleanly(server_factory):
    srv = server_factory()
    with srv.raw() as c:
        c.execute("SET", "k", "v")
        idle = srv.raw()
        srv.proc.send_signal(signal.SIGTERM)
        assert srv.wait_exit(10) == 0
        assert c.is_closed_by_peer(5)
        assert idle.is_closed_by_peer(5)
        idle.close()


def test_stop_fails_on_a_sanitizer_report(server_factory):
    """The fixtures remove a server's data directory on stop; a sanitizer report in its
    log (sanitizer builds: `make asan`) must fail the test instead of vanishing."""
    proc = server_factory()
    with open(proc.log_path, "ab") as f:
        # Past what the server still writes at its own offset while shutting down.
        f.write(b"\n" * 65536 + b"==1==ERROR: AddressSanitizer: heap-use-after-free\n")
    with pytest.raises(AssertionError, match="sanitizer report") as info:
        proc.stop()
    kept = str(info.value).split("kept at ")[1].split(")")[0]
    assert os.path.exists(kept)
    os.remove(kept)
