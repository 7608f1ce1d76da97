"""Failover of rankd by Debian's redis-sentinel 7.0 (issue 13).

A rankd primary with two rankd replicas (each with a config file, so CONFIG
REWRITE works), watched by three redis-sentinel processes (quorum 2,
down-after-milliseconds 1000). The primary is SIGKILLed under writes
acknowledged with WAIT 1; the sentinels promote a replica and repoint the
other one, no acknowledged write is lost, and redis-py's Sentinel client
reaches the new primary.
"""

import os
import shutil
import signal
import subprocess
import tempfile
import threading
import time

import pytest
import redis
import redis.sentinel

from server_process import free_port, target_is_redis
from test_replication import info_repl, link_up, wait_for

SENTINEL_BIN = "/usr/bin/redis-sentinel"

pytestmark = [
    pytest.mark.skipif(not os.path.exists(SENTINEL_BIN),
                       reason="redis-sentinel is not installed (Debian package redis-sentinel, "
                              "in scripts/setup.sh)"),
    pytest.mark.skipif(target_is_redis(), reason="rankd replicas: the snapshot is rankd's own"),
    pytest.mark.slow,
]

NAME = "mymaster"


class Sentinel:
    def __init__(self, primary_port):
        self.dir = tempfile.mkdtemp(prefix="sentinel-test-")
        self.port = free_port()
        self.conf = os.path.join(self.dir, "sentinel.conf")
        with open(self.conf, "w") as f:
            f.write("port %d\nbind 127.0.0.1\nprotected-mode no\ndir %s\n"
                    "logfile %s\n" % (self.port, self.dir, os.path.join(self.dir, "sentinel.log")))
            f.write("sentinel monitor %s 127.0.0.1 %d 2\n" % (NAME, primary_port))
            f.write("sentinel down-after-milliseconds %s 1000\n" % NAME)
            f.write("sentinel failover-timeout %s 4000\n" % NAME)
            f.write("sentinel parallel-syncs %s 2\n" % NAME)
        self.proc = subprocess.Popen([SENTINEL_BIN, self.conf], stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL)
        self.client = redis.Redis(host="127.0.0.1", port=self.port, decode_responses=True,
                                  socket_timeout=5)

    def master_addr(self):
        try:
            addr = self.client.execute_command("SENTINEL", "get-master-addr-by-name", NAME)
            return (addr[0], int(addr[1])) if addr else None
        except redis.RedisError:
            return None

    def log(self):
        try:
            with open(os.path.join(self.dir, "sentinel.log")) as f:
                return f.read()[-3000:]
        except OSError:
            return ""

    def stop(self):
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)
        self.client.close()
        shutil.rmtree(self.dir, ignore_errors=True)


def rankd_with_conf(server_factory, tmp_path, name, lines):
    conf = tmp_path / (name + ".conf")
    conf.write_text("".join(line + "\n" for line in lines))
    return server_factory(config_file=str(conf))


def test_sentinel_fails_over_to_a_rankd_replica(server_factory, tmp_path):
    primary = rankd_with_conf(server_factory, tmp_path, "primary", [])
    replicas = [rankd_with_conf(server_factory, tmp_path, "replica%d" % i,
                                ["replicaof 127.0.0.1 %d" % primary.port]) for i in range(2)]
    p = primary.client()
    clients = {r.port: r.client() for r in replicas}
    for c in clients.values():
        wait_for(lambda: link_up(c), what="a replica's link")
    wait_for(lambda: info_repl(p)["connected_slaves"] == 2, what="two replicas")

    sentinels = [Sentinel(primary.port) for _ in range(3)]
    try:
        for s in sentinels:
            wait_for(lambda: s.master_addr() == ("127.0.0.1", primary.port), timeout=10,
                     what="the sentinels to watch the primary")
        # Each sentinel found both replicas (INFO) and its two peers (__sentinel__:hello).
        for s in sentinels:
            wait_for(lambda: len(s.client.execute_command("SENTINEL", "replicas", NAME)) == 2 and
                     len(s.client.execute_command("SENTINEL", "sentinels", NAME)) == 2,
                     timeout=15, what="replicas and peers discovered")

        # Writes acknowledged by a replica (WAIT 1) must survive the failover: the
        # primary is SIGKILLed while a client keeps writing.
        acked, stop = [], threading.Event()

        def writer():
            c = primary.client(socket_timeout=2)
            i = 0
            while not stop.is_set():
                try:
                    c.set("k%d" % i, i)
                    c.zadd("board", {"player%d" % i: i})
                    if c.execute_command("WAIT", 1, 1000) >= 1:
                        acked.append(i)
                except redis.RedisError:
                    return
                i += 1

        thread = threading.Thread(target=writer)
        thread.start()
        try:
            wait_for(lambda: len(acked) >= 200, what="acknowledged writes")
            primary._kill()  # SIGKILL, under load
        finally:
            stop.set()
            thread.join(10)

        replica_ports = set(clients)
        deadline = time.time() + 30
        new = None
        while time.time() < deadline and new is None:
            addrs = {s.master_addr() for s in sentinels}
            if len(addrs) == 1:
                addr = addrs.pop()
                if addr and addr[1] in replica_ports:
                    new = addr[1]
            time.sleep(0.2)
        assert new is not None, "no failover within 30 s:\n" + sentinels[0].log()
        newp = clients[new]
        other = clients[(replica_ports - {new}).pop()]
        wait_for(lambda: info_repl(newp)["role"] == "master", what="the promoted replica")
        wait_for(lambda: info_repl(other).get("master_port") == new and link_up(other),
                 timeout=20, what="the other replica to follow the new primary")
        for i in acked:
            assert newp.get("k%d" % i) == str(i).encode()
            assert newp.zscore("board", "player%d" % i) == i
        # The other replica continued from the promoted one's backlog (PSYNC2), no full sync.
        assert newp.info("stats")["sync_full"] == 0
        assert newp.info("stats")["sync_partial_ok"] >= 1
        # The data set continues: a write reaches the other replica.
        newp.set("after", "failover")
        assert newp.execute_command("WAIT", 1, 5000) == 1
        assert other.get("after") == b"failover"

        # redis-py's Sentinel client follows.
        sc = redis.sentinel.Sentinel([("127.0.0.1", s.port) for s in sentinels],
                                     socket_timeout=5)
        assert sc.discover_master(NAME) == ("127.0.0.1", new)
        m = sc.master_for(NAME, socket_timeout=5)
        assert m.set("via-sentinel", 1)
        assert newp.get("via-sentinel") == b"1"
        assert m.info("server")["tcp_port"] == new
        slaves = sc.discover_slaves(NAME)
        assert ("127.0.0.1", (replica_ports - {new}).pop()) in slaves
    finally:
        if os.environ.get("SENTINEL_LOG"):
            print(sentinels[0].log())
        for s in sentinels:
            s.stop()


def test_sentinels_reconfiguration_transaction(server_factory, tmp_path):
    """What Sentinel sends to promote or repoint an instance, as one MULTI/EXEC."""
    primary = server_factory()
    replica = rankd_with_conf(server_factory, tmp_path, "replica",
                              ["replicaof 127.0.0.1 %d" % primary.port])
    rep = replica.client()
    wait_for(lambda: link_up(rep), what="the link")
    bystander = replica.client()
    bystander.ping()
    pipe = rep.pipeline(transaction=True)
    pipe.execute_command("SLAVEOF", "NO", "ONE")
    pipe.execute_command("CONFIG", "REWRITE")
    pipe.execute_command("CLIENT", "KILL", "TYPE", "normal")
    pipe.execute_command("CLIENT", "KILL", "TYPE", "pubsub")
    assert pipe.execute()[1:] == [b"OK", 1, 0]  # SLAVEOF: OK (redis-py says True)
    assert info_repl(rep)["role"] == "master"
    assert "replicaof" not in open(replica.config_file).read()
    # Without a config file CONFIG REWRITE fails, the rest of the transaction still runs.
    pipe = primary.client().pipeline(transaction=True)
    pipe.execute_command("SLAVEOF", "127.0.0.1", replica.port)
    pipe.execute_command("CONFIG", "REWRITE")
    pipe.execute_command("CLIENT", "KILL", "TYPE", "normal")
    out = pipe.execute(raise_on_error=False)
    assert out[0] in (True, b"OK") and isinstance(out[1], redis.ResponseError)
    assert "without a config file" in str(out[1])
    wait_for(lambda: link_up(primary.client()), what="the old primary following")
