"""Server behaviours found by Redis's own suite (issue 32: pubsub, tracking, pause,
functions, latency-monitor, slowlog, introspection, dump units), each checked against
redis-server 7.0.15: run with RANKD_TARGET_REDIS=1 and the same tests pass there.

- Pushes (subscribe confirmations, messages, invalidations) get through CLIENT REPLY
  OFF / SKIP, on RESP2 and RESP3 connections.
- A script that calls a read-only command tracks the keys it declared, for its caller.
- A client held by CLIENT PAUSE counts in INFO blocked_clients.
- DEBUG RELOAD NOFLUSH fails on a function library already loaded; NOFLUSH MERGE
  keeps what is loaded and adds (or replaces) what the file holds.
- EXEC is not in SLOWLOG (its commands are).
- MIGRATE keeps its connection to the target (INFO migrate_cached_sockets).
- `save` given in the config file and on the command line: the later adds points.
- CONFIG SET port / bind to the value they have is accepted.
"""

import subprocess

import pytest
import redis

from resp_client import Push, RespClient, RespError, resp3_client
from server_process import REDIS_SERVER_BIN, free_port, under_test_binary
from util import wait_until


def read_next(c, timeout=5.0):
    if c.pushes:
        return c.pushes.pop(0)
    return c.read_reply(timeout=timeout, keep_push=True)


def no_more(c):
    """True when nothing more arrives on `c` (a PING answers first)."""
    c.send_command("CLIENT", "REPLY", "ON")
    return c.read_reply(timeout=5.0) == b"OK"


@pytest.mark.parametrize("resp", [2, 3])
def test_pushes_get_through_client_reply_off(server, r, resp):
    sub = resp3_client(server.port) if resp == 3 else server.raw()
    try:
        sub.send_command("CLIENT", "REPLY", "OFF")
        sub.send_command("SUBSCRIBE", "chan")
        assert list(read_next(sub)) == [b"subscribe", b"chan", 1]
        sub.send_command("PSUBSCRIBE", "ch*")
        assert list(read_next(sub)) == [b"psubscribe", b"ch*", 2]
        assert r.publish("chan", "hello") == 2
        assert list(read_next(sub)) == [b"message", b"chan", b"hello"]
        assert list(read_next(sub)) == [b"pmessage", b"ch*", b"chan", b"hello"]
        sub.send_command("UNSUBSCRIBE", "chan")
        assert list(read_next(sub)) == [b"unsubscribe", b"chan", 1]
        sub.send_command("PUNSUBSCRIBE", "ch*")
        assert list(read_next(sub)) == [b"punsubscribe", b"ch*", 0]
        assert no_more(sub)
    finally:
        sub.close()


def test_reply_skip_keeps_subscribe_confirmation(server, r):
    sub = server.raw()
    try:
        sub.send_command("CLIENT", "REPLY", "SKIP")
        sub.send_command("PSUBSCRIBE", "*")
        assert read_next(sub) == [b"psubscribe", b"*", 1]
        assert r.publish("x", "y") == 1
        assert read_next(sub) == [b"pmessage", b"*", b"x", b"y"]
    finally:
        sub.close()


def test_script_read_tracks_declared_keys(server, r):
    c = resp3_client(server.port)
    try:
        assert c.execute("CLIENT", "TRACKING", "ON") == b"OK"
        # A script that only writes tracks nothing.
        c.execute("EVAL", "redis.call('set', 'k3', 'bar')", "2", "k1", "k2")
        r.mset({"k2": 1, "k1": 1})
        # A script that reads tracks the keys it declared (not the key it read).
        c.execute("EVAL", "redis.call('get', 'k3')", "2", "k1", "k2")
        r.mset({"k2": 2, "k1": 2})
        assert list(read_next(c)) == [b"invalidate", [b"k2"]]
        assert list(read_next(c)) == [b"invalidate", [b"k1"]]
        # EVAL_RO is not tracked itself, only through its reads.
        c.execute("EVAL_RO", "redis.call('ping')", "2", "k1", "k2")
        r.mset({"k2": 3, "k1": 3})
        c.execute("EVAL_RO", "redis.call('get', 'k1')", "2", "k1", "k2")
        r.mset({"k2": 4, "k1": 4})
        assert list(read_next(c)) == [b"invalidate", [b"k2"]]
        assert list(read_next(c)) == [b"invalidate", [b"k1"]]
        assert c.execute("PING") == b"PONG"
        assert not c.pushes
    finally:
        c.close()


def test_paused_client_counts_as_blocked(server, r):
    held = server.raw()
    try:
        assert r.execute_command("CLIENT", "PAUSE", "100000", "WRITE") in (b"OK", True, "OK")
        held.send_command("SET", "foo", "bar")
        wait_until(lambda: r.info("clients")["blocked_clients"] == 1)
        r.execute_command("CLIENT", "UNPAUSE")
        assert held.read_reply(timeout=5.0) == b"OK"
        wait_until(lambda: r.info("clients")["blocked_clients"] == 0)
    finally:
        r.execute_command("CLIENT", "UNPAUSE")
        held.close()


def _lib(name):
    return "#!lua name=%s\nredis.register_function('%s', function() return 'hello' end)" % (
        name, name)


def test_debug_reload_noflush_and_merge(server, r):
    r.function_flush()
    try:
        r.function_load(_lib("test1"))
        r.set("x", "1")
        assert r.execute_command("DEBUG", "RELOAD")
        with pytest.raises(Exception, match="Error trying to load the RDB"):
            r.execute_command("DEBUG", "RELOAD", "NOSAVE", "NOFLUSH")
        r.function_load(_lib("test2"))
        r.set("y", "2")
        assert r.execute_command("DEBUG", "RELOAD", "NOSAVE", "NOFLUSH", "MERGE")
        assert r.fcall("test1", 0) == b"hello"
        assert r.fcall("test2", 0) == b"hello"
        assert r.get("x") == b"1" and r.get("y") == b"2"
    finally:
        r.function_flush()


def test_exec_is_not_in_slowlog(server, r):
    r.config_set("slowlog-log-slower-than", 100000)
    try:
        r.slowlog_reset()
        p = r.pipeline(transaction=True)
        p.execute_command("DEBUG", "SLEEP", "0.2")
        p.execute()
        assert r.slowlog_len() == 1
        assert r.slowlog_get()[0]["command"] .lower() == b"debug sleep 0.2"
    finally:
        r.config_set("slowlog-log-slower-than", 10000)
        r.slowlog_reset()


def test_migrate_caches_its_connection(server, server_factory, r):
    target = server_factory()
    assert r.info("stats")["migrate_cached_sockets"] == 0
    r.set("k", "v")
    assert r.execute_command("MIGRATE", "127.0.0.1", target.port, "k", 0, 5000) in (b"OK", "OK", True)
    assert r.info("stats")["migrate_cached_sockets"] == 1
    r.set("k2", "v2")
    assert r.execute_command("MIGRATE", "127.0.0.1", target.port, "k2", 0, 5000) in (b"OK", "OK", True)
    with target.client() as t:
        assert t.get("k") == b"v" and t.get("k2") == b"v2"
        # One connection served both calls.
        clients = t.execute_command("CLIENT", "LIST")
        assert (clients.decode() if isinstance(clients, bytes) else clients).count("cmd=restore") == 1
    # The target closed the cached connection: the next call connects again.
    with target.client() as t:
        t.execute_command("CLIENT", "KILL", "TYPE", "normal")
    r.set("k3", "v3")
    assert r.execute_command("MIGRATE", "127.0.0.1", target.port, "k3", 0, 5000) in (b"OK", "OK", True)
    with target.client() as t:
        assert t.get("k3") == b"v3"


def _save_points(binary, tmp_path, file_text, args):
    """CONFIG GET save of `binary` started with a config file and `args` only."""
    conf = tmp_path / "s.conf"
    conf.write_text(file_text)
    port = free_port()
    proc = subprocess.Popen([binary, str(conf), "--port", str(port), "--bind", "127.0.0.1",
                             "--dir", str(tmp_path)] + list(args),
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        c = redis.Redis(port=port)
        wait_until(lambda: _answers(c))
        return c.config_get("save")["save"]
    finally:
        proc.kill()
        proc.wait()


def _answers(c):
    try:
        return c.ping()
    except redis.exceptions.ConnectionError:
        return False


@pytest.mark.parametrize("file_text,args", [
    ("save 900 1\n", ["--save", "100 100"]),
    ("save 900 1\nsave 300 10\n", []),
    ("save 900 1\n", ["--save", ""]),
    ("", []),
])
def test_save_points_from_file_and_command_line(tmp_path, file_text, args):
    got = _save_points(under_test_binary(), tmp_path, file_text, args)
    assert got == _save_points(REDIS_SERVER_BIN, tmp_path, file_text, args)


def test_config_set_port_and_bind_to_current_value(server, r):
    port = r.config_get("port")["port"]
    bind = r.config_get("bind")["bind"]
    assert r.config_set("port", port)
    assert r.config_set("bind", bind)
    assert r.ping()


def test_function_name_with_nul_is_invalid(server, r):
    with pytest.raises(redis.exceptions.ResponseError, match="Library names can only contain"):
        r.function_load("#!lua name=libnul\nredis.register_function('test\\0test', "
                        "function() return 1 end)", replace=True)
    assert r.function_list(library="libnul") == []


def test_allow_oom_function_writes_past_maxmemory(server, r):
    r.function_load("#!lua name=oomlib\nredis.register_function{function_name='oomf', "
                    "callback=function() return redis.call('set', 'x', '1') end, "
                    "flags={'allow-oom'}}", replace=True)
    r.function_load("#!lua name=denylib\nredis.register_function{function_name='denyf', "
                    "callback=function() return redis.call('set', 'y', '1') end}", replace=True)
    r.config_set("maxmemory", 1)
    try:
        assert r.fcall("oomf", 1, "x") == b"OK"
        with pytest.raises(redis.exceptions.ResponseError, match="OOM"):
            r.fcall("denyf", 1, "y")
    finally:
        r.config_set("maxmemory", 0)
        r.function_flush()
    assert r.get("x") == b"1"


def test_served_blocked_command_is_in_slowlog(server, r):
    r.config_set("slowlog-log-slower-than", 0)
    waiter = server.raw()
    try:
        waiter.send_command("BLPOP", "l", "0")
        wait_until(lambda: r.info("clients")["blocked_clients"] == 1)
        p = r.pipeline(transaction=True)
        p.lpush("l", "foo")
        p.slowlog_reset()
        p.execute()
        assert waiter.read_reply(timeout=5.0) == [b"l", b"foo"]
        assert r.slowlog_get()[0]["command"].lower() == b"blpop l 0"
    finally:
        r.config_set("slowlog-log-slower-than", 10000)
        waiter.close()


def test_lazy_expiry_in_own_transaction_reaches_noloop_bcast(server, r):
    redir = server.raw()
    try:
        redir_id = redir.execute("CLIENT", "ID")
        assert redir.execute("SUBSCRIBE", "__redis__:invalidate")[0] == b"subscribe"
        c = server.raw()
        c.execute("CLIENT", "TRACKING", "ON", "BCAST", "REDIRECT", str(redir_id), "NOLOOP")
        c.execute("MULTI")
        c.execute("SET", "mykey", "v", "PX", "1")
        c.execute("SET", "mykeyother", "v")
        c.execute("DEBUG", "SLEEP", "0.05")
        c.execute("GET", "mykey")
        c.execute("EXEC")
        msg = redir.read_reply(timeout=5.0)
        assert msg[:2] == [b"message", b"__redis__:invalidate"] and msg[2] == [b"mykey"]
        c.close()
    finally:
        redir.close()


def test_write_declared_script_refused_on_read_only_replica(server_factory):
    s = server_factory()
    with s.client() as c:
        c.function_load("#!lua name=rolib\nredis.register_function('rof', "
                        "function() return redis.call('set', 'x', '1') end)")
        c.function_load("#!lua name=rolib2\nredis.register_function{function_name='nowf', "
                        "callback=function() return 1 end, flags={'no-writes'}}")
        c.execute_command("REPLICAOF", "127.0.0.1", "1")
        try:
            with pytest.raises(redis.exceptions.ReadOnlyError) as e:
                c.fcall("rof", 0)
            assert str(e.value) == "You can't write against a read only replica."
            with pytest.raises(redis.exceptions.ReadOnlyError) as e:
                c.eval("#!lua\nreturn redis.call('set', 'x', '1')", 0)
            assert str(e.value) == "You can't write against a read only replica."
            assert c.fcall("nowf", 0) == 1
        finally:
            c.execute_command("REPLICAOF", "NO", "ONE")


def test_function_allow_stale_on_stale_replica(server_factory):
    s = server_factory()
    with s.client() as c:
        c.function_load(
            "#!lua name=stale\n"
            "redis.register_function{function_name='f1', callback=function() return 'hello' end, "
            "flags={'no-writes'}}\n"
            "redis.register_function{function_name='f2', callback=function() return 'hello' end, "
            "flags={'allow-stale', 'no-writes'}}\n"
            "redis.register_function{function_name='f3', callback=function() "
            "return redis.call('get', 'x') end, flags={'allow-stale', 'no-writes'}}\n"
            "redis.register_function{function_name='f4', callback=function() "
            "return redis.call('info', 'server') end, flags={'allow-stale', 'no-writes'}}")
        c.config_set("replica-serve-stale-data", "no")
        c.execute_command("REPLICAOF", "127.0.0.1", "1")
        try:
            with pytest.raises(redis.exceptions.ResponseError, match="^MASTERDOWN"):
                c.fcall("f1", 0)
            assert c.fcall("f2", 0) == b"hello"
            with pytest.raises(redis.exceptions.ResponseError,
                               match="Can not execute the command on a stale replica"):
                c.fcall("f3", 0)
            assert b"redis_version" in c.fcall("f4", 0)
        finally:
            c.execute_command("REPLICAOF", "NO", "ONE")
            c.config_set("replica-serve-stale-data", "yes")


def test_no_writes_scripts_are_not_paused_by_pause_write(server, r):
    r.function_load("#!lua name=pf\nredis.register_function{function_name='pf1', "
                    "callback=function() return 'hello' end, flags={'no-writes'}}", replace=True)
    r.execute_command("CLIENT", "PAUSE", "100000", "WRITE")
    c = server.raw()
    try:
        assert c.execute("EVAL", "#!lua flags=no-writes\nreturn 'unique'", "0") == b"unique"
        assert c.execute("FCALL", "pf1", "0") == b"hello"
        c.send_command("EVAL", "#!lua\nreturn 1", "0")  # declared as writing: held
        wait_until(lambda: r.info("clients")["blocked_clients"] == 1)
    finally:
        r.execute_command("CLIENT", "UNPAUSE")
        assert c.read_reply(timeout=5.0) == 1
        c.close()
        r.function_flush()


def test_flush_invalidation_follows_the_transaction_reply(server, r):
    c = resp3_client(server.port)
    try:
        c.execute("CLIENT", "TRACKING", "ON")
        c.execute("SET", "k", "1")
        c.execute("GET", "k")
        c.execute("MULTI")
        c.execute("FLUSHDB")
        c.send_command("EXEC")
        assert c.read_reply(timeout=5.0, keep_push=True) == [b"OK"]
        push = c.read_reply(timeout=5.0, keep_push=True)
        assert list(push)[0] == b"invalidate"
    finally:
        c.close()


def test_read_only_script_refuses_may_replicate_commands(server, r):
    with pytest.raises(redis.exceptions.ResponseError,
                       match="Write commands are not allowed from read-only scripts"):
        r.execute_command("EVAL_RO", "return redis.call('publish', 'ch', 'msg')", 0)
