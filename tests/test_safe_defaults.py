"""Safe defaults as Redis 7.0: protected mode, enable-protected-configs,
rename-command in the config file, CONFIG REWRITE keeping the file's shape.

Every reply text is checked against redis-server 7.0 (the `redis_ref` server or
a second reference started here). "Remote" clients are simulated with a source
address of 127.0.0.2: Redis (and rankd) treat only 127.0.0.1 and ::1 as local.
"""

import os
import socket
import time

import pytest

from resp_client import encode_command
from server_process import ServerProcess, REDIS_SERVER_BIN, target_is_redis
from util import err, info

DENIED = (
    b"-DENIED Redis is running in protected mode because protected mode is enabled and no "
    b"password is set for the default user. In this mode connections are only accepted from "
    b"the loopback interface. If you want to connect from external computers to Redis you may "
    b"adopt one of the following solutions: 1) Just disable protected mode sending the command "
    b"'CONFIG SET protected-mode no' from the loopback interface by connecting to Redis from "
    b"the same host the server is running, however MAKE SURE Redis is not publicly accessible "
    b"from internet if you do so. Use CONFIG REWRITE to make this change permanent. 2) "
    b"Alternatively you can just disable the protected mode by editing the Redis configuration "
    b"file, and setting the protected mode option to 'no', and then restarting the server. 3) "
    b"If you started the server manually just for testing, restart it with the "
    b"'--protected-mode no' option. 4) Setup a an authentication password for the default "
    b"user. NOTE: You only need to do one of the above things in order for the server to start "
    b"accepting connections from the outside.\r\n")


def remote_exchange(port, payload=b"*1\r\n$4\r\nPING\r\n", source="127.0.0.2", lines=1):
    """Connects from `source`, sends `payload`, returns everything read until
    the server closes or `lines` one-line replies came."""
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.bind((source, 0))
    s.settimeout(5)
    s.connect(("127.0.0.1", port))
    try:
        s.sendall(payload)
    except OSError:
        pass
    data = b""
    s.settimeout(1.0)
    try:
        while True:
            chunk = s.recv(65536)
            if not chunk:
                break
            data += chunk
            if data.count(b"\r\n") >= lines and not data.startswith(b"-DENIED"):
                break
    except (socket.timeout, ConnectionResetError):
        pass
    s.close()
    return data


def reference(extra=(), config_file=None):
    return ServerProcess(REDIS_SERVER_BIN, extra, is_redis=True, config_file=config_file,
                         name="redis-ref")


@pytest.fixture
def ref_factory():
    started = []

    def make(extra=(), config_file=None):
        p = reference(extra, config_file).start()
        started.append(p)
        return p

    yield make
    for p in started:
        p.stop()


# ---------------------------------------------------------------------------
# protected mode

def test_protected_mode_refuses_remote_clients(server_factory, ref_factory):
    for srv in (server_factory(), ref_factory()):
        assert remote_exchange(srv.port) == DENIED, srv.name
        with srv.raw() as c:
            assert c.execute("PING") == b"PONG"
            assert info(c, "stats")["rejected_connections"] == "1"
            assert c.execute("CONFIG", "GET", "protected-mode") == [b"protected-mode", b"yes"]


def test_protected_mode_off_or_password_lets_remote_in(server_factory, ref_factory):
    for srv in (server_factory(["--protected-mode", "no"]),
                ref_factory(["--protected-mode", "no"])):
        assert remote_exchange(srv.port) == b"+PONG\r\n", srv.name
    for srv in (server_factory(["--requirepass", "pw"]), ref_factory(["--requirepass", "pw"])):
        assert remote_exchange(srv.port) == b"-NOAUTH Authentication required.\r\n", srv.name
        auth = b"*2\r\n$4\r\nAUTH\r\n$2\r\npw\r\n*1\r\n$4\r\nPING\r\n"
        assert remote_exchange(srv.port, auth, lines=2) == b"+OK\r\n+PONG\r\n", srv.name


def test_protected_mode_turned_off_at_runtime(server_factory, ref_factory):
    for srv in (server_factory(), ref_factory()):
        with srv.raw() as c:
            assert remote_exchange(srv.port) == DENIED
            assert c.execute("CONFIG", "SET", "protected-mode", "no") == b"OK"
            assert remote_exchange(srv.port) == b"+PONG\r\n", srv.name
            assert c.execute("CONFIG", "SET", "requirepass", "x") == b"OK"
            assert c.execute("CONFIG", "SET", "protected-mode", "yes") == b"OK"
            assert remote_exchange(srv.port).startswith(b"-NOAUTH"), srv.name


# ---------------------------------------------------------------------------
# enable-protected-configs / enable-debug-command

def _protected_replies(srv, source="127.0.0.1"):
    """The replies to the protected-config probes, from a client at `source`."""
    sock = socket.socket()
    sock.bind((source, 0))
    sock.connect(("127.0.0.1", srv.port))
    out = []
    probes = [("CONFIG", "SET", "dir", srv.dir), ("CONFIG", "SET", "dbfilename", "x.rdb"),
              ("CONFIG", "SET", "DBFILENAME", "x.rdb"),
              ("CONFIG", "SET", "hz", "5", "dir", srv.dir),
              ("CONFIG", "SET", "nosuch", "1", "dir", srv.dir),
              ("CONFIG", "SET", "enable-protected-configs", "yes"),
              ("CONFIG", "SET", "enable-debug-command", "yes"),
              ("CONFIG", "GET", "hz"), ("CONFIG", "GET", "dbfilename"),
              ("CONFIG", "GET", "enable-protected-configs")]
    buf = b""
    sock.settimeout(5)
    for p in probes:
        sock.sendall(encode_command(*p))
        time.sleep(0.01)
    time.sleep(0.3)
    try:
        sock.settimeout(0.5)
        while True:
            chunk = sock.recv(65536)
            if not chunk:
                break
            buf += chunk
    except socket.timeout:
        pass
    sock.close()
    out.append(buf)
    return out


@pytest.mark.parametrize("setting", ["no", "yes", "local"])
def test_enable_protected_configs(server_factory, ref_factory, setting):
    args = ["--enable-protected-configs", setting, "--protected-mode", "no"]
    mine, ref = server_factory(args), ref_factory(args)
    for source in ("127.0.0.1", "127.0.0.2"):
        got = _protected_replies(mine, source)[0].replace(mine.dir.encode(), b"DIR")
        want = _protected_replies(ref, source)[0].replace(ref.dir.encode(), b"DIR")
        assert got == want, (setting, source)
    if setting == "no":
        assert b"can't set protected config" in got


def test_protected_config_error_text(server_factory):
    srv = server_factory()
    with srv.raw() as c:
        assert c.execute("CONFIG", "SET", "dir", "/tmp") == err(
            "ERR CONFIG SET failed (possibly related to argument 'dir') - can't set protected config")
        assert c.execute("CONFIG", "SET", "hz", "7", "dbfilename", "a") == err(
            "ERR CONFIG SET failed (possibly related to argument 'dbfilename') - "
            "can't set protected config")
        assert c.execute("CONFIG", "GET", "hz") == [b"hz", b"10"]
        assert c.execute("CONFIG", "GET", "enable-debug-command") == [
            b"enable-debug-command", b"yes"]  # the test servers enable DEBUG


# ---------------------------------------------------------------------------
# rename-command

def _write(path, text):
    with open(path, "w") as f:
        f.write(text)
    return str(path)


def test_rename_command_in_config_file(server_factory, ref_factory, tmp_path):
    text = 'rename-command FLUSHALL ""\nrename-command config MyConfig\n'
    mine = server_factory(config_file=_write(tmp_path / "a.conf", text))
    ref = ref_factory(config_file=_write(tmp_path / "b.conf", text))
    for srv in (mine, ref):
        with srv.raw() as c:
            assert c.execute("FLUSHALL") == err(
                "ERR unknown command 'FLUSHALL', with args beginning with: "), srv.name
            assert c.execute("CONFIG", "GET", "hz") == err(
                "ERR unknown command 'CONFIG', with args beginning with: 'GET' 'hz' ")
            assert c.execute("myconfig", "GET", "hz") == [b"hz", b"10"]
            assert c.execute("MYCONFIG", "NOPE") == err(
                "ERR unknown subcommand 'NOPE'. Try MYCONFIG HELP.")
            assert c.execute("MYCONFIG", "GET") == err(
                "ERR wrong number of arguments for 'config|get' command")


def test_rename_command_on_command_line(server_factory):
    srv = server_factory(["--rename-command", "KEYS", ""])
    with srv.raw() as c:
        assert c.execute("KEYS", "*") == err(
            "ERR unknown command 'KEYS', with args beginning with: '*' ")


def test_rename_command_unknown_name_fails_start(server_factory, tmp_path):
    srv = server_factory(config_file=_write(tmp_path / "a.conf", "rename-command NOSUCH x\n"),
                         start=False)
    with pytest.raises(Exception):
        srv.start(timeout=3, attempts=1)


# ---------------------------------------------------------------------------
# CONFIG REWRITE

ORIGINAL = """# rankd test config
# second comment line

maxmemory 10mb
hz 10
hz 11

rename-command FLUSHALL ""
save 900 1
save 300 10
dbfilename "a.rdb"
slowlog-log-slower-than 5000
# tail comment
"""


def _rewrite(srv):
    with srv.raw() as c:
        for name, value in (("maxmemory", "20mb"), ("hz", "20"),
                            ("maxmemory-policy", "allkeys-lru"), ("slowlog-max-len", "99"),
                            ("slowlog-log-slower-than", "10000")):
            assert c.execute("CONFIG", "SET", name, value) == b"OK"
        assert c.execute("CONFIG", "REWRITE") == b"OK"
    with open(srv.config_file) as f:
        return f.read()


def _split(text):
    """(lines before the signature, set of lines after it)."""
    lines = text.split("\n")
    sig = "# Generated by CONFIG REWRITE"
    i = lines.index(sig)
    return lines[:i], set(l for l in lines[i + 1:] if l)


def test_config_rewrite_keeps_comments_and_order(server_factory, ref_factory, tmp_path):
    # `save ""` first: the file's save points are cleared, as the reference's base args do.
    extra = ["--save", "", "--save", "900 1 300 10"]
    mine = server_factory(extra, config_file=_write(tmp_path / "a.conf", ORIGINAL))
    ref = ref_factory(extra, config_file=_write(tmp_path / "b.conf", ORIGINAL))
    got, want = _rewrite(mine), _rewrite(ref)
    got_head, got_tail = _split(got)
    want_head, want_tail = _split(want)
    assert got_head == want_head
    assert got_head == ["# rankd test config", "# second comment line", "", "maxmemory 20mb",
                        "hz 20", "", 'rename-command FLUSHALL ""', "save 900 1", "save 300 10",
                        'dbfilename "a.rdb"', "slowlog-log-slower-than 10000",
                        "# tail comment", ""]
    real = os.path.realpath(mine.dir)
    assert 'dir "%s"' % real in got_tail
    got_tail.discard('dir "%s"' % real)
    want_tail.discard('dir "%s"' % os.path.realpath(ref.dir))
    mine_port, ref_port = "port %d" % mine.port, "port %d" % ref.port
    assert mine_port in got_tail and ref_port in want_tail
    got_tail.discard(mine_port)
    want_tail.discard(ref_port)
    assert "user default on nopass ~* &* +@all" in got_tail
    got_tail.discard("repl-diskless-sync-delay 0")  # the test servers' own option (rankd)
    # The test servers' --bind 127.0.0.1 is not the default (`* -::*`): written, as Redis.
    assert "bind 127.0.0.1" in got_tail
    got_tail.discard("bind 127.0.0.1")
    if not target_is_redis():  # redis also writes other defaults it holds, ...
        assert got_tail == {"maxmemory-policy allkeys-lru", "slowlog-max-len 99",
                            "enable-debug-command yes",  # the test servers' own option
                            "user default on nopass ~* &* +@all"}
    assert got_tail <= want_tail
    # A second rewrite adds one blank last line (as Redis), a third nothing.
    texts = {}
    for srv in (mine, ref):
        for _ in range(2):
            with srv.raw() as c:
                assert c.execute("CONFIG", "REWRITE") == b"OK"
            with open(srv.config_file) as f:
                texts.setdefault(srv.name, []).append(f.read())
    assert texts[mine.name] == [got + "\n", got + "\n"]
    assert texts["redis-ref"] == [want + "\n", want + "\n"]
    mine.stop()
    with open(mine.config_file) as f:  # its dir is gone (redis would refuse to start)
        kept = [l for l in f.read().split("\n") if not l.startswith("dir ")]
    again = server_factory(config_file=_write(tmp_path / "c.conf", "\n".join(kept)))
    with again.raw() as c:
        assert c.execute("CONFIG", "GET", "maxmemory") == [b"maxmemory", b"20971520"]
        assert c.execute("CONFIG", "GET", "hz") == [b"hz", b"20"]
        assert c.execute("CONFIG", "GET", "slowlog-max-len") == [b"slowlog-max-len", b"99"]
        assert c.execute("FLUSHALL") == err(
            "ERR unknown command 'FLUSHALL', with args beginning with: ")


def test_config_rewrite_keeps_notify_keyspace_events(server_factory, ref_factory, tmp_path):
    """The event classes survive a rewrite, written as redis-server writes them (the line was
    dropped before), and the default writes nothing."""
    lines = {}
    for name, factory in (("mine", server_factory), ("ref", ref_factory)):
        srv = factory(config_file=_write(tmp_path / (name + ".conf"), "hz 10\n"))
        with srv.raw() as c:
            assert c.execute("CONFIG", "REWRITE") == b"OK"
            with open(srv.config_file) as f:
                before = [l for l in f.read().split("\n") if l.startswith("notify-")]
            assert c.execute("CONFIG", "SET", "notify-keyspace-events", "KEA") == b"OK"
            assert c.execute("CONFIG", "REWRITE") == b"OK"
        with open(srv.config_file) as f:
            lines[name] = (before, [l for l in f.read().split("\n") if l.startswith("notify-")])
    assert lines["mine"] == lines["ref"] == ([], ['notify-keyspace-events "AKE"'])


def test_config_rewrite_without_file(raw):
    assert raw.execute("CONFIG", "REWRITE") == err(
        "ERR The server is running without a config file")


def test_config_rewrite_writes_users(server_factory, ref_factory, tmp_path):
    text = "# users\nuser game on >g ~lb:* +@sortedset\nuser old on nopass\n"
    outs = []
    for i, make in enumerate((server_factory, ref_factory)):
        srv = make(config_file=_write(tmp_path / ("u%d.conf" % i), text))
        with srv.raw() as c:
            assert c.execute("ACL", "SETUSER", "web", "on", ">w", "%R~lb:*", "+@read") == b"OK"
            assert c.execute("ACL", "DELUSER", "old") == 1
            assert c.execute("CONFIG", "REWRITE") == b"OK"
        with open(srv.config_file) as f:
            lines = f.read().split("\n")
        outs.append([set(l.split()) for l in lines if l.startswith("user ")])
        assert lines[0] == "# users"
    assert outs[0] == outs[1]
