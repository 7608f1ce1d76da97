"""Redis Cluster fixtures: N nodes on loopback, each rankd or redis-server.

A node's binary is chosen per node by its kind:
  "rankd"   RANKD_BIN (default <repo>/build/rankd)
  "redis"   /usr/bin/redis-server (REDIS_SERVER_BIN)
  "test"    the server under test: rankd, or redis-server with RANKD_TARGET_REDIS=1
With RANKD_TARGET_REDIS=1 every node is redis-server whatever its kind, so each cluster
test (mixed clusters included) can be proven against Redis alone.

Typical use (a module-scoped cluster, always torn down):

    @pytest.fixture(scope="module")
    def cluster():
        with Cluster(6) as c:
            c.create(replicas=1)
            yield c

Every wait has a generous deadline that only bounds a hang; no timing is asserted.
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

from server_process import (REDIS_BASE_ARGS, RANKD_BASE_ARGS, REDIS_SERVER_BIN,
                            ServerProcess, ServerStartError, rankd_binary, target_is_redis)

REDIS_CLI = os.environ.get("REDIS_CLI_BIN", "/usr/bin/redis-cli")
# Small enough that a failing test does not hang long, big enough for a loaded 2-core box.
NODE_TIMEOUT_MS = int(os.environ.get("RANKD_CLUSTER_NODE_TIMEOUT", "3000"))
BUS_OFFSET = 10000
NSLOTS = 16384


# -- key slots ---------------------------------------------------------------

def _crc16_table():
    table = []
    for i in range(256):
        crc = i << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else (crc << 1)
        table.append(crc & 0xFFFF)
    return table


_CRC16 = _crc16_table()


def _crc16(data):
    """CRC16-CCITT (XModem), the checksum Redis Cluster hashes keys with."""
    crc = 0
    for byte in data:
        crc = ((crc << 8) & 0xFFFF) ^ _CRC16[(crc >> 8) ^ byte]
    return crc


def key_slot(key):
    """The hash slot of `key` (str or bytes), hash tags included: the part between the
    first '{' and the next '}' when that part is not empty."""
    if isinstance(key, str):
        key = key.encode()
    start = key.find(b"{")
    if start >= 0:
        end = key.find(b"}", start + 1)
        if end > start + 1:
            key = key[start + 1:end]
    return _crc16(key) % NSLOTS


_TAGS = {}


def tag_for_slot(slot, prefix="t"):
    """A short string hashing to `slot` ("<prefix><n>"; a table per prefix, built once)."""
    table = _TAGS.get(prefix)
    if table is None:
        table = _TAGS[prefix] = {}
        n = 0
        while len(table) < NSLOTS:
            tag = "%s%d" % (prefix, n)
            table.setdefault(key_slot(tag), tag)
            n += 1
    return table[slot]


def key_for_slot(slot, prefix="t"):
    """A key that hashes to `slot`: a hash tag from tag_for_slot."""
    return "{%s}:%s" % (tag_for_slot(slot, prefix), prefix)


# -- ports ---------------------------------------------------------------------

def _port_free(port):
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
        if _port_free(p) and _port_free(p + BUS_OFFSET):
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
                        and _port_free(port):
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

    def start(self, timeout=15.0, attempts=5):
        """Starts on a fresh port pair and data directory (retried when a port was
        taken meanwhile)."""
        if not os.path.exists(self.binary):
            raise ServerStartError("%s binary not found: %s (build it, or set RANKD_BIN; "
                                   "RANKD_TARGET_REDIS=1 tests redis-server)"
                                   % (self.name, self.binary))
        last = None
        for _ in range(attempts):
            self.port = free_cluster_port()
            self.dir = tempfile.mkdtemp(prefix="%s-test-" % self.name)
            try:
                return self.restart(timeout)
            except ServerStartError as e:
                last = e
                log_text = self.log_tail()
                shutil.rmtree(self.dir, ignore_errors=True)
                self.dir = None
                if "in use" not in log_text.lower():
                    raise ServerStartError("%s\n--- log ---\n%s" % (e, log_text))
        raise last

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


# -- CLUSTER NODES -------------------------------------------------------------

def parse_cluster_nodes(text):
    """CLUSTER NODES text -> {node_id: dict(addr, port, bus_port, flags (set), master,
    link, slots (tuple of (start, end)), importing/migrating (tuples))}."""
    out = {}
    for line in text.splitlines():
        if not line.strip():
            continue
        f = line.split(" ")
        addr = f[1]                 # ip:port@cport[,hostname]
        hostport, _, rest = addr.partition("@")
        ip, _, port = hostport.rpartition(":")
        slots, special = [], []
        for s in f[8:]:
            if s.startswith("["):
                special.append(s)
            elif "-" in s:
                a, b = s.split("-")
                slots.append((int(a), int(b)))
            else:
                slots.append((int(s), int(s)))
        out[f[0]] = dict(addr=hostport, ip=ip, port=int(port) if port else 0,
                         bus_port=int(rest.split(",")[0]) if rest else 0,
                         flags=set(f[2].split(",")), master=f[3], ping_sent=f[4],
                         pong_recv=f[5], config_epoch=int(f[6]), link=f[7],
                         slots=tuple(slots), special=tuple(special), line=line)
    return out


def topology(nodes_view):
    """The part of a CLUSTER NODES view every node must agree on: for each node id its
    address, role, master and slot ranges (myself/link state/timestamps dropped)."""
    topo = {}
    for nid, n in nodes_view.items():
        role = "master" if "master" in n["flags"] else ("slave" if "slave" in n["flags"]
                                                         else "?")
        topo[nid] = (n["addr"], role, n["master"], n["slots"])
    return topo


def wait_until(predicate, timeout=30.0, interval=0.1, message="condition not reached"):
    deadline = time.monotonic() + timeout
    last = None
    while True:
        try:
            last = predicate()
        except (redis.RedisError, OSError) as e:
            last = e
        else:
            if last:
                return last
        if time.monotonic() >= deadline:
            raise AssertionError("%s (after %.0fs; last value %r)" % (message, timeout, last))
        time.sleep(interval)


# -- a cluster -----------------------------------------------------------------

class Cluster:
    """N ClusterNode processes; `kinds` gives each node's kind ("test", "rankd",
    "redis"), default all "test". Every node is stopped by close() (also on __exit__)."""

    def __init__(self, n=6, kinds=None, node_timeout=NODE_TIMEOUT_MS, extra_args=()):
        kinds = list(kinds) if kinds is not None else ["test"] * n
        assert len(kinds) == n
        skip_without_rankd_cluster_mode(kinds)
        self.node_timeout = node_timeout
        self.extra_args = list(extra_args)
        self.nodes = []
        try:
            for kind in kinds:
                self.add_node(kind)
        except BaseException:
            self.close()
            raise

    # -- lifecycle --
    def add_node(self, kind="test", extra_args=()):
        """Starts one more (empty, unjoined) node and returns it."""
        skip_without_rankd_cluster_mode([kind])
        node = ClusterNode(kind, self.extra_args + list(extra_args), self.node_timeout)
        self.nodes.append(node)
        node.start()
        return node

    def close(self):
        errors = []
        for node in self.nodes:
            try:
                node.stop()
            except Exception as e:  # keep stopping the others
                errors.append(e)
        self.nodes = []
        if errors:
            raise errors[0]

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def alive(self):
        return [n for n in self.nodes if n.alive()]

    def create(self, replicas=0, nodes=None, timeout=60):
        """redis-cli --cluster create over `nodes` (default all), then waits until
        the cluster is stable. Returns redis-cli's output."""
        nodes = nodes or self.nodes
        out = self.cli("--cluster", "create", *[n.addr for n in nodes],
                       "--cluster-replicas", str(replicas), "--cluster-yes",
                       timeout=timeout)
        self.wait_stable(nodes)
        return out

    def cli(self, *args, timeout=120, check=True):
        """Runs redis-cli with `args`; returns stdout+stderr (text). Raises with the
        output when check and the exit status is not 0."""
        p = subprocess.run([REDIS_CLI] + [str(a) for a in args], capture_output=True,
                           text=True, timeout=timeout, stdin=subprocess.DEVNULL)
        out = p.stdout + p.stderr
        if check and p.returncode != 0:
            raise AssertionError("redis-cli %s exited %d:\n%s\n%s"
                                 % (" ".join(map(str, args)), p.returncode, out,
                                    self.describe()))
        return out

    def reshard(self, src, dst, slots, timeout=300):
        """redis-cli --cluster reshard of `slots` slots from master `src` to `dst` (it
        takes the source's lowest slots), then waits until the cluster is stable."""
        out = self.cli("--cluster", "reshard", src.addr, "--cluster-from", src.node_id,
                       "--cluster-to", dst.node_id, "--cluster-slots", str(slots),
                       "--cluster-yes", timeout=timeout)
        self.wait_stable()
        return out

    def check(self, node=None):
        """redis-cli --cluster check through `node`; returns the output (raises when
        the check fails)."""
        node = node or self.masters()[0]
        return self.cli("--cluster", "check", node.addr)

    # -- views --
    def by_id(self, node_id):
        for n in self.nodes:
            if n.node_id == node_id:
                return n
        raise KeyError(node_id)

    def by_port(self, port):
        for n in self.nodes:
            if n.port == port:
                return n
        raise KeyError(port)

    def view(self, node=None):
        return (node or self.alive()[0]).cluster_nodes()

    def masters(self, node=None):
        """Masters serving at least one slot, in slot order."""
        v = self.view(node)
        ms = [(nv["slots"][0][0], nid) for nid, nv in v.items()
              if "master" in nv["flags"] and nv["slots"] and "fail" not in nv["flags"]]
        return [self.by_id(nid) for _, nid in sorted(ms)]

    def replicas_of(self, master, node=None):
        v = self.view(node)
        return [self.by_id(nid) for nid, nv in sorted(v.items())
                if nv["master"] == master.node_id and "fail" not in nv["flags"]]

    def slot_owner(self, slot, node=None):
        """The node that owns `slot` according to `node`'s view (None: unassigned)."""
        for nid, nv in self.view(node).items():
            if "master" in nv["flags"]:
                for a, b in nv["slots"]:
                    if a <= slot <= b:
                        return self.by_id(nid)
        return None

    def owner_of_key(self, key, node=None):
        return self.slot_owner(key_slot(key), node)

    def slots_of(self, master, node=None):
        return [s for a, b in self.view(node)[master.node_id]["slots"]
                for s in range(a, b + 1)]

    def key_on(self, master, prefix="k", avoid_slots=()):
        """A key whose slot `master` owns (not one of `avoid_slots`)."""
        owned = set(self.slots_of(master)) - set(avoid_slots)
        for i in range(100000):
            key = "%s:%d" % (prefix, i)
            if key_slot(key) in owned:
                return key
        raise AssertionError("no key for %r" % master)

    def describe(self):
        lines = []
        for n in self.nodes:
            try:
                lines.append("%r:\n%s" % (n, n.call("CLUSTER", "NODES", timeout=2)
                                          .decode().rstrip()))
            except Exception as e:
                lines.append("%r: %s" % (n, e))
        return "\n".join(lines)

    # -- waits --
    def stable(self, nodes=None):
        """True when every node in `nodes` (default: alive ones) reports cluster_state:ok,
        knows every other node with no handshake/fail flag, and all agree on
        the topology (ids, addresses, roles, masters, slots, no open slots)."""
        nodes = nodes or self.alive()
        topos = []
        for n in nodes:
            if n.cluster_info().get("cluster_state") != "ok":
                return False
            v = n.cluster_nodes()
            if any(f in nv["flags"] for nv in v.values()
                   for f in ("handshake", "fail", "fail?", "noaddr")):
                return False
            if any(nv["special"] for nv in v.values()):
                return False
            if any(nv["link"] != "connected" for nv in v.values()
                   if "myself" not in nv["flags"]):
                return False
            topos.append(topology(v))
        return len(topos[0]) >= len(nodes) and all(t == topos[0] for t in topos)

    def wait_stable(self, nodes=None, timeout=60):
        try:
            wait_until(lambda: self.stable(nodes), timeout=timeout, interval=0.2,
                       message="cluster not stable")
        except AssertionError as e:
            raise AssertionError("%s\n%s" % (e, self.describe()))
        self.wait_replicas_synced(nodes, timeout)

    def wait_replicas_synced(self, nodes=None, timeout=60):
        """Waits until every replica's link to its master is up."""
        for n in nodes or self.alive():
            if n.info("replication").get("role") == "slave":
                wait_until(lambda: n.info("replication").get("master_link_status") == "up",
                           timeout=timeout, message="%r not synced" % n)

    def wait_replicated(self, timeout=30):
        """Waits until each replica's offset equals its master's (writes so far seen)."""
        for m in self.masters():
            target = m.info("replication")["master_repl_offset"]
            for r in self.replicas_of(m):
                wait_until(lambda: r.info("replication").get("slave_repl_offset", -1)
                           >= target, timeout=timeout,
                           message="%r behind its master" % r)

    # -- clients --
    def cluster_client(self, **kw):
        from redis.cluster import RedisCluster
        kw.setdefault("socket_timeout", 30)
        n = self.alive()[0]
        return RedisCluster(host=n.host, port=n.port, **kw)


def cluster_fixture(n=6, replicas=1, kinds=None):
    """A module-scoped pytest fixture: a created, stable cluster of `n` nodes (kinds as
    in Cluster) with `replicas` replicas per master, stopped after the module."""
    import pytest

    @pytest.fixture(scope="module")
    def cluster():
        with Cluster(n, kinds) as c:
            c.create(replicas=replicas)
            yield c
    return cluster
