"""One Redis Cluster node for tests: a rankd or redis-server process started with
cluster-enabled on a loopback port whose bus port (port + 10000) is free too.

A node's binary is chosen by its kind:
  "rankd"   RANKD_BIN (default <repo>/build/rankd)
  "redis"   /usr/bin/redis-server (REDIS_SERVER_BIN)
  "test"    the server under test: rankd, or redis-server with RANKD_TARGET_REDIS=1
With RANKD_TARGET_REDIS=1 every node is redis-server whatever its kind.
While rankd refuses `cluster-enabled yes` as not implemented, tests that need a rankd
node skip (skip_without_rankd_cluster_mode).
"""

import os
import random
import shutil
import signal
import socket
import subprocess
import tempfile
import time

import redis

from cluster_keys import parse_cluster_nodes
from server_process import (REDIS_BASE_ARGS, RANKD_BASE_ARGS, REDIS_SERVER_BIN,
                            ServerProcess, ServerStartError, rankd_binary, target_is_redis)

# Small enough that a failing test does not hang long, big enough for a loaded 2-core box.
NODE_TIMEOUT_MS = int(os.environ.get("RANKD_CLUSTER_NODE_TIMEOUT", "3000"))
BUS_OFFSET = 10000


# -- ports ---------------------------------------------------------------------

def port_free(port):
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        try:
            s.bind(("127.0.0.1", port))
            return True
        except OSError:
            return False


def free_cluster_port(rng=random):
    """A port p with p and its bus port p+10000 free a moment ago."""
    for _ in range(1000):
        p = rng.randint(12000, 28999)
        if port_free(p) and port_free(p + BUS_OFFSET):
            return p
    raise ServerStartError("no free port pair (p, p+10000) found")


# -- one node ------------------------------------------------------------------

def node_binary(kind):
    if target_is_redis() or kind == "redis":
        return REDIS_SERVER_BIN, True
    if kind in ("rankd", "test"):
        return rankd_binary(), False
    raise ValueError("unknown node kind %r" % kind)


_NOT_IMPLEMENTED = "cluster mode is not implemented"
_rankd_refuses = None


def rankd_refuses_cluster_mode():
    """True while the rankd binary stops at `cluster-enabled yes` saying that cluster
    mode is not implemented (the state before issue 29 lands). Probed once, by that
    exact message, so a rankd that accepts the setting, or fails any other way, is tested."""
    global _rankd_refuses
    if _rankd_refuses is None:
        _rankd_refuses = False
        if os.path.exists(rankd_binary()):
            d = tempfile.mkdtemp(prefix="rankd-cluster-probe-")
            port = free_cluster_port()
            p = subprocess.Popen([rankd_binary(), "--port", str(port), "--bind", "127.0.0.1",
                                  "--dir", d, "--cluster-enabled", "yes"],
                                 stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                 stdin=subprocess.DEVNULL)
            try:
                # Exits at once when it refuses; otherwise it is up as soon as it listens.
                deadline = time.monotonic() + 10
                while p.poll() is None and time.monotonic() < deadline \
                        and port_free(port):
                    time.sleep(0.05)
                if p.poll() is not None:
                    out = p.stdout.read().decode("utf-8", "replace")
                    _rankd_refuses = _NOT_IMPLEMENTED in out
            finally:
                if p.poll() is None:
                    p.kill()
                p.wait()
                p.stdout.close()
                shutil.rmtree(d, ignore_errors=True)
    return _rankd_refuses


def skip_without_rankd_cluster_mode(kinds):
    """pytest.skip when a node of `kinds` would be rankd and rankd refuses cluster mode."""
    import pytest
    if not target_is_redis() and any(k in ("rankd", "test") for k in kinds) and \
            rankd_refuses_cluster_mode():
        pytest.skip("rankd: %s yet (issue 29); RANKD_TARGET_REDIS=1 runs these tests "
                    "on redis-server" % _NOT_IMPLEMENTED)


class ClusterNode(ServerProcess):
    """A server started with cluster-enabled on a port whose bus port is free too.
    Its data directory (with nodes.conf) survives stop(keep_dir=True), so a node can
    be restarted on the same port with the same identity."""

    def __init__(self, kind="test", extra_args=(), node_timeout=NODE_TIMEOUT_MS):
        binary, is_redis = node_binary(kind)
        super().__init__(binary, extra_args, is_redis=is_redis,
                         name="redis-cluster" if is_redis else "rankd-cluster")
        self.kind = "redis" if is_redis else "rankd"
        self.node_timeout = node_timeout
        self.node_id = None

    def command_line(self):
        args = [self.binary, "--port", str(self.port), "--bind", self.host,
                "--dir", self.dir]
        args += REDIS_BASE_ARGS if self.is_redis else RANKD_BASE_ARGS
        args += ["--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf",
                 "--cluster-node-timeout", str(self.node_timeout),
                 "--appendonly", "no", "--save", "", "--repl-diskless-sync-delay", "0"]
        return args + self.extra_args

    @property
    def bus_port(self):
        return self.port + BUS_OFFSET

    @property
    def addr(self):
        return "%s:%d" % (self.host, self.port)

    @property
    def nodes_conf(self):
        return os.path.join(self.dir, "nodes.conf")

    def pick_port(self):
        return free_cluster_port()

    def start(self, timeout=15.0, attempts=5):
        """Starts on a fresh port pair and data directory (ServerProcess.start, retried
        when a port was taken meanwhile); learns the node id."""
        super().start(timeout, attempts)
        self.node_id = self.call("CLUSTER", "MYID").decode()
        return self

    def restart(self, timeout=15.0):
        """Starts the process on the current port and directory (nodes.conf kept)."""
        self.log_path = os.path.join(self.dir, "server.log")
        with open(self.log_path, "ab") as log:
            self.proc = subprocess.Popen(self.command_line(), stdout=log,
                                         stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        try:
            self.wait_ready(timeout)
        except ServerStartError:
            self._kill()
            raise
        self.node_id = self.call("CLUSTER", "MYID").decode()
        return self

    def stop(self, timeout=10.0, keep_dir=False):
        """SIGTERM (SIGKILL after `timeout`); the directory is removed unless keep_dir."""
        if not keep_dir:
            status = super().stop(timeout)
            if self.dir:             # stopped earlier with keep_dir, or killed
                shutil.rmtree(self.dir, ignore_errors=True)
                self.dir = None
            return status
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout)
            except subprocess.TimeoutExpired:
                self._kill()
        if self.proc is not None:
            self.returncode = self.proc.returncode
        self.proc = None
        return self.returncode

    def kill(self):
        """SIGKILL, directory kept (a crash)."""
        self._kill()
        self.proc = None

    def call(self, *args, timeout=30):
        """One command on a fresh connection; returns the raw redis-py reply (bytes)."""
        c = redis.Redis(host=self.host, port=self.port, socket_timeout=timeout)
        try:
            return c.execute_command(*args)
        finally:
            c.close()

    def info(self, section=None):
        c = self.client(decode_responses=True)
        try:
            return c.info(section) if section else c.info()
        finally:
            c.close()

    def cluster_info(self):
        text = self.call("CLUSTER", "INFO").decode()
        return dict(line.split(":", 1) for line in text.split("\r\n") if ":" in line)

    def cluster_nodes(self):
        return parse_cluster_nodes(self.call("CLUSTER", "NODES").decode())

    def __repr__(self):
        return "<%s %s id=%s pid=%s>" % (self.kind, self.addr,
                                        (self.node_id or "?")[:8], self.pid)
