"""Redis Cluster fixtures: a cluster of N nodes on loopback (cluster_node.ClusterNode,
each rankd or redis-server), created with `redis-cli --cluster create` and waited on
until every node agrees; resharding and checks through redis-cli.

With RANKD_TARGET_REDIS=1 every node is redis-server, so each cluster test (mixed
clusters included) can be proven against Redis alone.

Typical use (a module-scoped cluster, always torn down):

    cluster = cluster_fixture(6, replicas=1)      # at module level

    def test_x(cluster): ...

Every wait has a generous deadline that only bounds a hang; no timing is asserted.
"""

import os
import subprocess
import time

import redis

from cluster_keys import (NSLOTS, key_for_slot, key_slot, parse_cluster_nodes,
                          tag_for_slot, topology)
from cluster_node import (BUS_OFFSET, NODE_TIMEOUT_MS, ClusterNode, free_cluster_port,
                          rankd_refuses_cluster_mode, skip_without_rankd_cluster_mode)

# The tests import everything cluster-related from here.
__all__ = ["NSLOTS", "key_for_slot", "key_slot", "parse_cluster_nodes", "tag_for_slot",
           "topology", "BUS_OFFSET", "NODE_TIMEOUT_MS", "ClusterNode", "free_cluster_port",
           "rankd_refuses_cluster_mode", "skip_without_rankd_cluster_mode", "wait_until",
           "Cluster", "cluster_fixture"]

REDIS_CLI = os.environ.get("REDIS_CLI_BIN", "/usr/bin/redis-cli")


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
