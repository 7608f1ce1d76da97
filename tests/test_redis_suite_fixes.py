"""SHUTDOWN, SIGTERM, the DEBUG test switches and the command line as Redis 7.0 (issue 32: Redis's own
suite, units shutdown, integration/shutdown, oom-score-adj, other, multi, string).

Each test runs against rankd, and against redis-server 7.0.15 with RANKD_TARGET_REDIS=1.
"""

import os
import signal
import socket
import time

import pytest

from util import info, wait_until


OK = (True, b"OK")


def inf(proc, section):
    with proc.raw() as c:
        return info(c, section)


def log_has(proc, text):
    with open(proc.log_path, "rb") as f:
        return text.encode() in f.read()


def test_shutdown_fails_when_the_final_save_fails(server_factory):
    # A directory named dump.rdb makes the save's rename fail: the server runs on.
    srv = server_factory(["--save", "900 1"])
    c = srv.client()
    c.set("k", "v")
    os.mkdir(os.path.join(srv.dir, "dump.rdb"))
    with pytest.raises(Exception, match="Errors trying to SHUTDOWN"):
        c.shutdown()
    assert c.ping()
    assert log_has(srv, "Error trying to save the DB, can't exit")
    # A signal's shutdown fails the same way.
    srv.proc.send_signal(signal.SIGINT)
    wait_until(lambda: log_has(srv, "Errors trying to shut down the server"), timeout=10)
    assert c.ping()
    try:
        c.shutdown(nosave=True)
    except Exception:
        pass  # the connection closes without a reply
    assert srv.wait_exit(10) == 0
    os.rmdir(os.path.join(srv.dir, "dump.rdb"))


def test_shutdown_abort_cancels_a_pending_sigterm(server_factory):
    srv = server_factory(["--save", ""])
    c = srv.client()
    assert c.execute_command("DEBUG", "PAUSE-CRON", "1") in OK
    srv.proc.send_signal(signal.SIGTERM)
    time.sleep(0.2)
    assert c.execute_command("SHUTDOWN", "ABORT") in OK
    assert log_has(srv, "Shutdown manually aborted")
    assert c.execute_command("DEBUG", "PAUSE-CRON", "0") in OK
    time.sleep(0.3)
    assert c.ping() and srv.alive()


def read_line(sock):
    data = b""
    while not data.endswith(b"\r\n"):
        chunk = sock.recv(1)
        if not chunk:
            raise EOFError
        data += chunk
    return data[:-2]


def replicated_pair(server_factory):
    """A primary (shutdown-timeout 60) and its synced replica, with a client for each."""
    primary = server_factory(["--save", "", "--shutdown-timeout", "60"])
    replica = server_factory(["--save", ""])
    p, r = primary.client(), replica.client()
    r.replicaof("127.0.0.1", primary.port)
    wait_until(lambda: inf(replica, "replication")["master_link_status"] == "up", timeout=20)
    return primary, replica, p, r


def test_shutdown_waits_for_a_lagging_replica_then_abort(server_factory):
    primary, replica, p, r = replicated_pair(server_factory)
    p.set("k", "1")
    wait_until(lambda: r.get("k") == b"1", timeout=10)
    os.kill(replica.pid, signal.SIGSTOP)
    try:
        p.incr("k")
        waiter = socket.create_connection(("127.0.0.1", primary.port), timeout=10)
        waiter.sendall(b"*1\r\n$8\r\nSHUTDOWN\r\n")
        wait_until(lambda: int(inf(primary, "server").get("shutdown_in_milliseconds", 0)) > 0,
                   timeout=10)
        assert int(inf(primary, "clients")["blocked_clients"]) == 1
        # Writes pause meanwhile; SHUTDOWN ABORT answers the blocked client with an error.
        assert p.execute_command("SHUTDOWN", "ABORT") in OK
        assert read_line(waiter).startswith(b"-ERR Errors trying to SHUTDOWN")
        waiter.close()
        assert p.incr("k") == 3
    finally:
        os.kill(replica.pid, signal.SIGCONT)
    wait_until(lambda: r.get("k") == b"3", timeout=10)
    assert primary.alive()


def test_shutdown_finishes_once_the_replica_caught_up(server_factory):
    primary, replica, p, r = replicated_pair(server_factory)
    os.kill(replica.pid, signal.SIGSTOP)
    try:
        p.set("k", "2")
        primary.proc.send_signal(signal.SIGTERM)
        wait_until(lambda: int(inf(primary, "server").get("shutdown_in_milliseconds", 0)) > 0,
                   timeout=10)
    finally:
        os.kill(replica.pid, signal.SIGCONT)
    assert primary.wait_exit(20) == 0
    assert r.get("k") == b"2"
    assert log_has(primary, "1 of 1 replicas are in sync")


def oom_score(pid):
    with open("/proc/%d/oom_score_adj" % pid) as f:
        return int(f.read())


def test_oom_score_adj(server_factory):
    srv = server_factory(["--save", ""])
    c = srv.client()
    base = oom_score(srv.pid)
    c.config_set("oom-score-adj-values", "10 20 30")
    c.config_set("oom-score-adj", "yes")
    assert oom_score(srv.pid) == base + 10
    c.replicaof("localhost", 1)
    assert oom_score(srv.pid) == base + 20
    c.replicaof("no", "one")
    assert oom_score(srv.pid) == base + 10
    c.config_set("oom-score-adj", "absolute")
    assert oom_score(srv.pid) == 10
    c.config_set("oom-score-adj", "no")
    assert oom_score(srv.pid) == base
    with pytest.raises(Exception, match="must be between -2000 and 2000"):
        c.config_set("oom-score-adj-values", "-2001 -2001 -2001")


def test_debug_set_disable_deny_scripts(server_factory):
    srv = server_factory(["--save", ""])
    c = srv.client()
    script = "return redis.call('client', 'id')"
    with pytest.raises(Exception, match="not allowed from script"):
        c.eval(script, 0)
    c.execute_command("DEBUG", "SET-DISABLE-DENY-SCRIPTS", "1")
    assert isinstance(c.eval(script, 0), int)
    c.execute_command("DEBUG", "SET-DISABLE-DENY-SCRIPTS", "0")
    with pytest.raises(Exception, match="not allowed from script"):
        c.eval(script, 0)


def test_debug_loadaof_reads_a_rewrite_made_with_the_log_off(server_factory):
    srv = server_factory(["--save", "", "--appendonly", "no"])
    c = srv.client()
    c.set("kept", "1")
    c.bgrewriteaof()
    wait_until(lambda: int(inf(srv, "persistence")["aof_rewrite_in_progress"]) == 0 and
               os.path.isdir(os.path.join(srv.dir, "appendonlydir")), timeout=20)
    time.sleep(0.2)
    c.set("lost", "1")  # not logged: the log is off
    assert c.execute_command("DEBUG", "LOADAOF") in OK
    assert c.get("kept") == b"1" and c.get("lost") is None


def test_debug_config_rewrite_force_all(server_factory, tmp_path):
    conf = tmp_path / "s.conf"
    conf.write_text("save \"\"\n")
    srv = server_factory(config_file=str(conf))
    c = srv.client()
    assert c.execute_command("DEBUG", "CONFIG-REWRITE-FORCE-ALL") in OK
    text = conf.read_text()
    assert "\nhz 10\n" in text and "maxmemory-policy noeviction" in text


def read_stream_command(sock, buf):
    """One RESP array from the replication stream as a list of bytes, lower-cased name."""
    def line():
        while b"\r\n" not in buf[0]:
            chunk = sock.recv(65536)
            if not chunk:
                raise EOFError
            buf[0] += chunk
        head, _, buf[0] = buf[0].partition(b"\r\n")
        return head

    def exact(n):
        while len(buf[0]) < n + 2:
            chunk = sock.recv(65536)
            if not chunk:
                raise EOFError
            buf[0] += chunk
        out, buf[0] = buf[0][:n], buf[0][n + 2:]
        return out

    head = line()
    assert head.startswith(b"*"), head
    args = [exact(int(line()[1:])) for _ in range(int(head[1:]))]
    args[0] = args[0].lower()
    return args


def attach_sync(port):
    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    sock.sendall(b"SYNC\r\n")
    buf = [b""]
    while True:  # newlines keep the link alive while the snapshot is made
        while b"\r\n" not in buf[0]:
            buf[0] += sock.recv(65536)
        if buf[0].startswith(b"\n"):
            buf[0] = buf[0][1:]
            continue
        head, _, buf[0] = buf[0].partition(b"\r\n")
        break
    assert head.startswith(b"$"), head
    n = int(head[1:])
    while len(buf[0]) < n:
        buf[0] += sock.recv(65536)
    buf[0] = buf[0][n:]
    return sock, buf


def test_transactions_and_getdel_replicate_as_redis(server_factory):
    srv = server_factory(["--save", ""])
    c = srv.client()
    sock, buf = attach_sync(srv.port)
    try:
        pipe = c.pipeline(transaction=True)
        pipe.set("a", "1").get("a").set("b", "2")
        pipe.execute()
        c.set("one", "1")  # a single write: no MULTI around it
        c.getdel("a")
        got = []
        while len(got) < 7:
            cmd = read_stream_command(sock, buf)
            if cmd[0] not in (b"ping", b"replconf"):
                got.append(cmd)
    finally:
        sock.close()
    assert got == [[b"select", b"0"], [b"multi"], [b"set", b"a", b"1"], [b"set", b"b", b"2"],
                   [b"exec"], [b"set", b"one", b"1"], [b"del", b"a"]]


def test_replicaof_inside_exec_does_not_stop_the_rest(server_factory):
    # Redis checks READONLY when EXEC starts, not for each queued command (unit/multi).
    srv = server_factory(["--save", ""])
    c = srv.client()
    pipe = c.pipeline(transaction=True)
    pipe.set("foo2", "bar").execute_command("REPLICAOF", "127.0.0.1", "1").set("foo3", "bar")
    assert pipe.execute() == [True, b"OK", True]
    with pytest.raises(Exception, match="read only replica"):
        c.set("foo4", "bar")
    c.execute_command("REPLICAOF", "NO", "ONE")
    assert c.get("foo3") == b"bar"


@pytest.mark.parametrize("args,expected", [
    (["--port"], "'port'"),
    (["--port", "6379", "6380"], "'port \"6379\" \"6380\"'"),
    (["--port", "--loglevel", "verbose"], "'port \"--loglevel\" \"verbose\"'"),
])
def test_command_line_arity_errors(args, expected):
    # As Redis 7.0 (unit/introspection): the words after an option are its values.
    import subprocess
    from server_process import under_test_binary
    out = subprocess.run([under_test_binary()] + args, capture_output=True, timeout=10,
                         stdin=subprocess.DEVNULL)
    text = (out.stdout + out.stderr).decode()
    assert out.returncode != 0
    assert expected in text and "wrong number of arguments" in text


def test_command_line_name_and_value_in_one_argument(server_factory):
    srv = server_factory(["--save", "", "--maxmemory '700mb'", "--proc-title-template",
                          "--my--title"])
    c = srv.client()
    assert c.config_get("maxmemory") == {"maxmemory": "734003200"}
    assert c.config_get("proc-title-template") == {"proc-title-template": "--my--title"}
    assert c.config_get("dir")["dir"] == os.path.realpath(srv.dir)


def test_replica_links_are_not_connected_clients(server_factory):
    primary, replica, p, r = replicated_pair(server_factory)
    p.ping()
    # This client and the INFO's own connection; the replica's link is a replica.
    assert int(inf(primary, "clients")["connected_clients"]) == 2
    assert int(inf(primary, "replication")["connected_slaves"]) == 1


def test_shutdown_signal_flags_read_back_in_redis_order(server_factory):
    srv = server_factory(["--save", "", "--shutdown-on-sigint", "force", "nosave", "now"])
    c = srv.client()
    assert c.config_get("shutdown-on-sigint") == {"shutdown-on-sigint": "nosave now force"}
    c.config_set("shutdown-on-sigterm", "force save")
    assert c.config_get("shutdown-on-sigterm") == {"shutdown-on-sigterm": "save force"}
    with pytest.raises(Exception, match="must be one of the following"):
        c.config_set("shutdown-on-sigterm", "later")


def test_maxmemory_clients_values_checked(server_factory):
    c = server_factory(["--save", ""]).client()
    with pytest.raises(Exception, match="percentage argument must be less or equal to 100"):
        c.config_set("maxmemory-clients", "200%")
    with pytest.raises(Exception, match="argument must be a memory or percent value"):
        c.config_set("maxmemory-clients", "abc")
    c.config_set("maxmemory-clients", "50%")


def test_debug_object_sees_a_key_past_its_deadline(server_factory):
    # Redis's DEBUG OBJECT looks the key up raw: an expired key not yet deleted is there.
    c = server_factory(["--save", ""]).client()
    c.execute_command("DEBUG", "SET-ACTIVE-EXPIRE", "0")
    c.set("k", "1", px=50)
    time.sleep(0.2)
    assert isinstance(c.execute_command("DEBUG", "OBJECT", "k"), (bytes, str))
    assert c.exists("k") == 0
    with pytest.raises(Exception, match="no such key"):
        c.execute_command("DEBUG", "OBJECT", "k")


def test_evictions_replicate_as_plain_dels(server_factory):
    srv = server_factory(["--save", ""])
    c = srv.client()
    sock, buf = attach_sync(srv.port)
    try:
        for i in range(1, 4):
            c.set("asdf%d" % i, i)
        c.config_set("maxmemory-policy", "allkeys-lru")
        c.config_set("maxmemory", 1)
        wait_until(lambda: c.dbsize() == 0, timeout=10)
        c.config_set("maxmemory", 0)
        c.config_set("maxmemory-policy", "noeviction")
        c.set("asdf4", 4)
        got = []
        while len(got) < 8:
            cmd = read_stream_command(sock, buf)
            if cmd[0] not in (b"ping", b"replconf"):
                got.append(cmd[0])
    finally:
        sock.close()
    assert got == [b"select", b"set", b"set", b"set", b"del", b"del", b"del", b"set"]
