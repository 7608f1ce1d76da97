"""client-output-buffer-limit replica (Redis 7.0's defaults: replica 256mb 64mb 60).

A replica's output buffer, including the stream held for it while its full sync's
snapshot is on the way, is bounded: past the hard limit (or over the soft limit for the
soft seconds) the primary closes the link ("... scheduled to be closed ASAP for overcoming
of output buffer limits.", then "Connection with replica ... lost.") and the replica
reconnects and syncs again. The snapshot itself does not count (Redis sends it outside the
output buffer). CONFIG GET/SET/REWRITE of the class side by side with redis-server 7.0.

Every test here holds for redis-server too (RANKD_TARGET_REDIS=1): replicas are raw
sockets speaking the handshake, or servers of the kind under test.
"""

import os
import signal
import socket
import time

import pytest

from server_process import REDIS_SERVER_BIN, ServerProcess
from test_replication import wait_for

MB = 1024 * 1024
DROPPED = b"scheduled to be closed ASAP for overcoming of output buffer limits."


def log_of(proc):
    with open(proc.log_path, "rb") as f:
        return f.read()


def slaves(p):
    return p.info("replication")["connected_slaves"]


def config_pair(tmp_path, server_factory, text=""):
    """(server under test, reference redis-server), each started from its own config file
    holding `text`, so CONFIG REWRITE has a file to write."""
    procs = []
    for name in ("under-test", "ref"):
        path = tmp_path / (name + ".conf")
        path.write_text(text)
        if name == "ref":
            proc = ServerProcess(REDIS_SERVER_BIN, is_redis=True, config_file=str(path),
                                 name="redis-ref")
            proc.start()
        else:
            proc = server_factory(config_file=str(path))
        procs.append(proc)
    return procs


def reply(c, *args):
    try:
        return c.execute_command(*args)
    except Exception as e:  # the error text is compared too
        return ("error", str(e))


def limit_lines(path):
    return [line for line in open(path).read().splitlines()
            if line.startswith("client-output-buffer-limit")]


def test_config_replica_class_matches_redis(server_factory, tmp_path):
    ours, ref = config_pair(tmp_path, server_factory)
    try:
        a, b = ours.client(), ref.client()
        steps = [
            ("CONFIG", "GET", "client-output-buffer-limit"),
            ("CONFIG", "SET", "client-output-buffer-limit", "replica 1mb 0 0"),
            ("CONFIG", "GET", "client-output-buffer-limit"),
            ("CONFIG", "SET", "client-output-buffer-limit", "slave 2mb 1mb 10 normal 1gb 0 0"),
            ("CONFIG", "GET", "client-output-buffer-limit"),
            ("CONFIG", "SET", "client-output-buffer-limit", "REPLICA 3000 2000 5"),
            ("CONFIG", "GET", "client-output-buffer-limit"),
            ("CONFIG", "SET", "client-output-buffer-limit", "replica 1mb 0"),
            ("CONFIG", "SET", "client-output-buffer-limit", "master 1mb 0 0"),
            ("CONFIG", "SET", "client-output-buffer-limit", "replica -1 0 0"),
            ("CONFIG", "SET", "client-output-buffer-limit", "replica 1mb 0 -1"),
            ("CONFIG", "SET", "client-output-buffer-limit", "replica 1mb x 0"),
            ("CONFIG", "SET", "client-output-buffer-limit", "replica 1mb 0 0 pubsub 1"),
            ("CONFIG", "GET", "client-output-buffer-limit"),
            ("CONFIG", "SET", "client-output-buffer-limit", "slave 2mb 1mb 10"),
            ("CONFIG", "REWRITE"),
        ]
        for step in steps:
            assert reply(a, *step) == reply(b, *step), step
        assert limit_lines(ours.config_file) == limit_lines(ref.config_file)
        assert limit_lines(ours.config_file) == [
            "client-output-buffer-limit normal 1gb 0 0",
            "client-output-buffer-limit replica 2mb 1mb 10"]
        # Back to the defaults, rewritten again.
        step = ("CONFIG", "SET", "client-output-buffer-limit", "replica 256mb 64mb 60")
        assert reply(a, *step) == reply(b, *step) == b"OK"
        assert reply(a, "CONFIG", "REWRITE") == reply(b, "CONFIG", "REWRITE")
        assert limit_lines(ours.config_file) == limit_lines(ref.config_file)
    finally:
        ref.stop()


def test_config_file_replica_class_matches_redis(server_factory, tmp_path):
    ours, ref = config_pair(tmp_path, server_factory,
                            "client-output-buffer-limit slave 4mb 2mb 30\n")
    try:
        got = ours.client().config_get("client-output-buffer-limit")
        assert got == ref.client().config_get("client-output-buffer-limit")
        assert got["client-output-buffer-limit"] == (
            "normal 0 0 0 slave 4194304 2097152 30 pubsub 33554432 8388608 60")
    finally:
        ref.stop()


class RawReplica:
    """A replica that does the handshake and then never reads."""

    def __init__(self, port, eof=False):
        self.s = socket.create_connection(("127.0.0.1", port))
        self.s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 64 * 1024)
        self.ask(b"REPLCONF listening-port 9999\r\n")
        if eof:
            self.ask(b"REPLCONF capa eof capa psync2\r\n")
        self.s.sendall(b"PSYNC ? -1\r\n")

    def ask(self, line):
        self.s.sendall(line)
        assert self.s.recv(5) == b"+OK\r\n"

    def read_to_eof(self, timeout=30.0):
        """Reads everything the primary sent; True once it closed the link."""
        self.s.settimeout(timeout)
        while True:
            try:
                if not self.s.recv(1 << 20):
                    return True
            except socket.timeout:
                return False
            except ConnectionResetError:
                return True

    def close(self):
        self.s.close()


def replica_state(p):
    s = p.info("replication").get("slave0")
    return s["state"] if s else None


def assert_dropped(primary, p, rep, mem_before, budget):
    wait_for(lambda: slaves(p) == 0, what="the primary to drop the replica")
    assert rep.read_to_eof(), "the replica's socket did not see EOF"
    wait_for(lambda: DROPPED in log_of(primary) and
             b"Connection with replica 127.0.0.1:9999 lost." in log_of(primary),
             what="the primary's warnings")
    # What was held for the replica is gone; the primary kept serving.
    assert p.info("memory")["used_memory"] - mem_before < budget
    assert p.ping() is True
    assert p.set("after", "1") is True and p.get("after") == b"1"
    assert not [c for c in p.client_list() if "S" in c["flags"]]


def test_replica_that_stops_reading_is_dropped(server_factory):
    primary = server_factory(["--client-output-buffer-limit", "replica 1mb 0 0"])
    p = primary.client()
    rep = RawReplica(primary.port)
    try:
        wait_for(lambda: replica_state(p) == "online", what="the raw replica online")
        assert slaves(p) == 1
        mem_before = p.info("memory")["used_memory"]
        # 30 MB of stream over one key: the data set stays small, the stream does not.
        value = os.urandom(100 * 1024)
        for _ in range(300):
            p.set("k", value)
        assert_dropped(primary, p, rep, mem_before, 16 * MB)
    finally:
        rep.close()


@pytest.mark.parametrize("diskless", [False, True], ids=["disk", "diskless"])
def test_replica_dropped_while_its_full_sync_holds_the_stream(server_factory, diskless):
    # A snapshot far bigger than the socket buffers, which the replica never reads: it
    # stays in its full sync while the writes made since the fork pile up for it.
    primary = server_factory(["--client-output-buffer-limit", "replica 1mb 0 0",
                              "--repl-diskless-sync", "yes" if diskless else "no",
                              "--repl-diskless-sync-delay", "0"])
    p = primary.client()
    pipe = p.pipeline(transaction=False)
    for i in range(400):
        pipe.set("big%d" % i, os.urandom(100 * 1024))
    pipe.execute()
    mem_before = p.info("memory")["used_memory"]
    rep = RawReplica(primary.port, eof=diskless)
    try:
        # Forked (both log it), and the snapshot not through.
        wait_for(lambda: b"Starting BGSAVE for SYNC" in log_of(primary),
                 what="the full sync's fork")
        assert replica_state(p) in ("wait_bgsave", "send_bulk")
        value = os.urandom(100 * 1024)
        for _ in range(50):  # 5 MB since the fork
            p.set("k", value)
        assert_dropped(primary, p, rep, mem_before, 24 * MB)
        assert p.dbsize() == 402
    finally:
        rep.close()


def fill(p, n, size):
    pipe = p.pipeline(transaction=False)
    for i in range(n):
        pipe.set("v%d" % i, os.urandom(size))
    pipe.execute()


def in_sync(p, r):
    return (r.info("replication").get("master_link_status") == "up" and
            r.info("replication")["master_repl_offset"] ==
            p.info("replication")["master_repl_offset"])


def test_replica_under_a_small_limit_syncs_a_bigger_snapshot(server_factory):
    # The snapshot does not count toward the limit, the stream does: a replica that
    # reads stays connected.
    primary = server_factory(["--client-output-buffer-limit", "replica 1mb 0 0"])
    p = primary.client()
    fill(p, 100, 100 * 1024)  # a 10 MB snapshot
    replica = server_factory()
    r = replica.client()
    r.replicaof("127.0.0.1", primary.port)
    wait_for(lambda: in_sync(p, r), what="the replica in sync")
    for i in range(200):
        p.set("s%d" % i, os.urandom(10 * 1024))
    wait_for(lambda: in_sync(p, r), what="the replica in sync")
    assert slaves(p) == 1
    assert p.info("stats")["sync_full"] == 1
    assert r.dbsize() == p.dbsize() == 300
    assert r.execute_command("DEBUG", "DIGEST") == p.execute_command("DEBUG", "DIGEST")
    assert DROPPED not in log_of(primary)


def test_stopped_replica_is_dropped_and_full_syncs_again(server_factory):
    primary = server_factory(["--client-output-buffer-limit", "replica 1mb 0 0"])
    p = primary.client()
    replica = server_factory()
    r = replica.client()
    r.replicaof("127.0.0.1", primary.port)
    wait_for(lambda: in_sync(p, r), what="the replica in sync")
    os.kill(replica.pid, signal.SIGSTOP)
    try:
        value = os.urandom(100 * 1024)
        for i in range(300):  # 30 MB: past the socket buffers and the 1 MB backlog
            p.set("k%d" % (i % 10), value)
        wait_for(lambda: slaves(p) == 0, what="the primary to drop the stopped replica")
    finally:
        os.kill(replica.pid, signal.SIGCONT)
    assert DROPPED in log_of(primary)
    wait_for(lambda: p.info("stats")["sync_full"] == 2 and in_sync(p, r), timeout=30,
             what="the replica to sync again")
    assert r.dbsize() == p.dbsize() == 10
    assert r.execute_command("DEBUG", "DIGEST") == p.execute_command("DEBUG", "DIGEST")
