"""CONFIG SET port / bind (the listeners move, a failure rolls back), bind "", the process title
(proc-title-template), errorstats of a script's calls and a paused replica's offsets, as Redis 7.0
(issue 32: Redis's own suite, units networking, introspection, other, info, pause).

Each test runs against rankd, and against redis-server 7.0.15 with RANKD_TARGET_REDIS=1.
"""

import socket

import pytest
import redis

from server_process import free_port
from util import wait_until


def refused(port):
    try:
        socket.create_connection(("127.0.0.1", port), timeout=2).close()
    except ConnectionRefusedError:
        return True
    return False


def test_config_set_port_moves_the_listener(server_factory):
    srv = server_factory()
    c = srv.client(decode_responses=True)
    new_port = free_port()
    assert c.config_set("port", new_port)
    moved = redis.Redis(port=new_port, decode_responses=True)
    assert moved.ping()
    assert moved.config_get("port") == {"port": str(new_port)}
    assert refused(srv.port)
    # A port in use: Redis's error, and the server keeps listening where it was.
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen(1)
        with pytest.raises(redis.ResponseError, match="Unable to listen on this port"):
            moved.config_set("port", busy.getsockname()[1])
    assert redis.Redis(port=new_port).ping()
    assert moved.config_get("port") == {"port": str(new_port)}
    srv.port = new_port


def test_failed_port_change_rolls_back_the_whole_call(server_factory):
    srv = server_factory()
    c = srv.client(decode_responses=True)
    before = c.config_get("maxmemory")["maxmemory"]
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen(1)
        used = busy.getsockname()[1]
        with pytest.raises(redis.ResponseError) as e:
            c.execute_command("CONFIG", "SET", "maxmemory", "10000001", "port", used,
                              "client-query-buffer-limit", "10m")
    assert str(e.value).startswith("CONFIG SET failed (possibly related to argument 'port') - "
                                   "Unable to listen on this port")
    assert c.config_get("maxmemory")["maxmemory"] == before
    assert c.config_get("port")["port"] == str(srv.port)
    assert redis.Redis(port=srv.port).ping()


def test_bad_bind_address_keeps_the_old_listener(server_factory):
    srv = server_factory()
    c = srv.client(decode_responses=True)
    with pytest.raises(redis.ResponseError, match="Failed to bind to specified addresses"):
        c.config_set("bind", "999.999.999.999")
    assert c.config_get("bind") == {"bind": "127.0.0.1"}
    assert redis.Redis(port=srv.port).ping()
    with pytest.raises(redis.ResponseError, match="Too many bind addresses specified"):
        c.config_set("bind", " ".join(["127.0.0.1"] * 17))


def test_empty_bind_leaves_only_the_unix_socket(server_factory, tmp_path):
    sock = str(tmp_path / "s.sock")
    srv = server_factory(["--unixsocket", sock])
    c = srv.client(decode_responses=True)
    assert c.config_set("bind", "")
    local = redis.Redis(unix_socket_path=sock, decode_responses=True)
    assert local.config_get("bind") == {"bind": ""}
    assert refused(srv.port)
    # CONFIG REWRITE keeps the empty list (a default bind is left out).
    assert local.config_set("bind", "* -::*")
    assert redis.Redis(port=srv.port).ping()
    assert local.config_set("bind", "127.0.0.1")
    assert redis.Redis(port=srv.port).ping()


def read_title(pid):
    with open("/proc/%d/cmdline" % pid, "rb") as f:
        return f.read().rstrip(b"\0").decode()


def test_proc_title_template(server_factory):
    srv = server_factory()
    c = srv.client(decode_responses=True)
    assert c.config_set("proc-title-template", "TEST {title} {listen-addr} {port} {tls-port} {{x}")
    words = read_title(srv.proc.pid).split(" ")
    assert words[0] == "TEST"
    assert words[1] == srv.binary
    assert words[2:] == ["127.0.0.1:%d" % srv.port, str(srv.port), "0", "{x}"]
    for bad in ("{invalid-var}", "{title", "{title}"):
        with pytest.raises(redis.ResponseError, match="template format is invalid"):
            c.config_set("proc-title-template", bad)
    assert c.config_get("proc-title-template")["proc-title-template"].startswith("TEST ")


def test_errors_of_a_scripts_calls_count_once(server_factory):
    srv = server_factory()
    c = srv.client(decode_responses=True)
    c.config_resetstat()
    script = "redis.pcall('XGROUP', 'CREATECONSUMER', 's1', 'mygroup', 'consumer') return"
    assert c.eval(script, 0) is None
    assert c.info("errorstats")["errorstat_ERR"] == "count=1"
    stats = c.info("commandstats")
    assert stats["cmdstat_xgroup|createconsumer"]["failed_calls"] == 1
    assert stats["cmdstat_eval"]["failed_calls"] == 0
    # The script returning (or raising) the command's error does not count it again.
    with pytest.raises(redis.ResponseError):
        c.eval("return redis.pcall('XGROUP', 'CREATECONSUMER', 's1', 'g', 'c')", 0)
    with pytest.raises(redis.ResponseError):
        c.eval("return redis.call('XGROUP', 'CREATECONSUMER', 's1', 'g', 'c')", 0)
    assert c.info("errorstats")["errorstat_ERR"] == "count=3"
    assert c.info("stats")["total_error_replies"] == 3
    assert c.info("commandstats")["cmdstat_eval"]["failed_calls"] == 2
    # A script's own error reply counts.
    with pytest.raises(redis.ResponseError):
        c.eval("return redis.error_reply('MYERR x')", 0)
    assert c.info("errorstats")["errorstat_MYERR"] == "count=1"


def test_paused_replica_reads_but_does_not_apply(server_factory):
    master = server_factory()
    replica = server_factory()
    m = master.client(decode_responses=True)
    r = replica.client(decode_responses=True)
    r.replicaof("127.0.0.1", master.port)
    wait_until(lambda: r.info("replication")["master_link_status"] == "up", timeout=10)
    m.set("foo", "bar")
    applied = lambda: r.info("replication")["slave_repl_offset"]
    wait_until(lambda: applied() == m.info("replication")["master_repl_offset"], timeout=10)
    before = applied()
    r.client_pause(100000, all=False)
    m.set("foo2", "bar2")
    target = m.info("replication")["master_repl_offset"]
    wait_until(lambda: r.info("replication")["slave_read_repl_offset"] == target, timeout=10)
    assert applied() == before
    assert r.get("foo2") is None
    r.client_unpause()
    wait_until(lambda: applied() == target, timeout=10)
    assert r.get("foo2") == "bar2"


def test_replica_link_leaves_from_bind_source_addr(server_factory):
    master = server_factory(["--protected-mode", "no"])
    replica = server_factory()
    m = master.client(decode_responses=True)
    r = replica.client(decode_responses=True)
    assert r.config_set("bind-source-addr", "127.0.0.2")
    r.replicaof("127.0.0.1", master.port)
    wait_until(lambda: r.info("replication")["master_link_status"] == "up", timeout=10)
    assert m.info("replication")["slave0"]["ip"] == "127.0.0.2"
