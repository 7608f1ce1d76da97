"""Failover experiments on a cluster_util.Cluster (issue 30): writers that record which
writes were acknowledged (and which were also confirmed by `WAIT`), a kill that measures
when the replica serves writes, the old master's return as a replica, and the checks
that every acknowledged write is where the slot map says.

Shared by the tests/test_cluster_failover_*.py modules and bench/cluster_failover_bench.py.
Keys of one experiment share a hash tag (`{tag}:n`, value n), so they sit in one slot
of the master under test. Every wait has a deadline that only bounds a hang.
"""

import os
import subprocess
import threading
import time

import redis

from cluster_util import Cluster, tag_for_slot, wait_until

# Short enough for 20 rounds in a test run, long enough for a loaded 2-core box.
FAILOVER_NODE_TIMEOUT_MS = int(os.environ.get("RANKD_FAILOVER_NODE_TIMEOUT", "1500"))
# Redis's election delay for the best-ranked replica: 500 ms + up to 500 ms at random.
ELECTION_DELAY_MAX_S = 1.0
# Scheduling slack on a shared 2-core machine (the bound catches a failover that waits
# for something else, e.g. a second node timeout; bench/ holds the measured times).
SLACK_S = float(os.environ.get("RANKD_FAILOVER_SLACK", "3.0"))
JS_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "js")


def failover_cluster(kinds=None, n=6, replicas=1, node_timeout=FAILOVER_NODE_TIMEOUT_MS,
                     extra_args=()):
    """A created, stable Cluster (3 masters, 1 replica each by default); the caller
    closes it (it is a context manager)."""
    c = Cluster(n, kinds, node_timeout=node_timeout, extra_args=extra_args)
    try:
        c.create(replicas=replicas)
    except BaseException:
        c.close()
        raise
    return c


def promotion_bound_s(cluster):
    return cluster.node_timeout / 1000.0 + ELECTION_DELAY_MAX_S + SLACK_S


def slot_tag(cluster, master, prefix):
    """A hash tag for one slot `master` serves."""
    return tag_for_slot(cluster.slots_of(master)[0], prefix)


def try_set(node, key, value, timeout=1.0):
    """True when `node` answers SET with OK (it is a master serving the key's slot)."""
    c = redis.Redis(host=node.host, port=node.port, socket_timeout=timeout,
                    socket_connect_timeout=timeout)
    try:
        return c.set(key, value) is True
    except (redis.RedisError, OSError):
        return False
    finally:
        c.close()


# -- writers -------------------------------------------------------------------

class DirectWriter(threading.Thread):
    """SET {tag}:n n on one connection to `node`, n = 0, 1, ...; with `wait_replicas`,
    each SET is followed by WAIT wait_replicas `wait_ms`. `acked`: SETs answered OK;
    `durable`: those whose WAIT counted enough replicas. `stopped_after` records the
    first error (the node died, or refused: MOVED, READONLY, CLUSTERDOWN), after which
    the writer stops. `acked_at` pairs each acked n with time.monotonic()."""

    def __init__(self, node, tag, wait_replicas=0, wait_ms=1000, timeout=60):
        super().__init__(daemon=True)
        self.client = redis.Redis(host=node.host, port=node.port, socket_timeout=timeout)
        self.tag, self.wait_replicas, self.wait_ms = tag, wait_replicas, wait_ms
        self.acked, self.durable, self.acked_at = [], [], []
        self.error = None
        self.stop_event = threading.Event()

    def key(self, n):
        return "{%s}:%d" % (self.tag, n)

    def run(self):
        n = 0
        try:
            while not self.stop_event.is_set():
                if self.client.set(self.key(n), n) is not True:
                    raise AssertionError("SET answered %r" % n)
                self.acked.append(n)
                self.acked_at.append((n, time.monotonic()))
                if self.wait_replicas and self.client.execute_command(
                        "WAIT", self.wait_replicas, self.wait_ms) >= self.wait_replicas:
                    self.durable.append(n)
                n += 1
        except (redis.RedisError, OSError, AssertionError) as e:
            self.error = e
        finally:
            self.client.close()

    def wait_for(self, acked, timeout=30):
        wait_until(lambda: len(self.acked) >= acked or self.error is not None,
                   timeout=timeout, message="%d writes acknowledged" % acked)
        assert self.error is None, "writer failed early: %r" % self.error

    def finish(self, timeout=60):
        self.stop_event.set()
        self.join(timeout)
        assert not self.is_alive(), "writer still blocked"


class ClusterWriter(threading.Thread):
    """SET {tag}:n n through redis-py's RedisCluster, retrying each n until it is
    acknowledged (errors are counted, the client is never rebuilt): what an
    application does across a failover. `acked_at`: (n, time.monotonic())."""

    def __init__(self, cluster, tags):
        super().__init__(daemon=True)
        self.rc = cluster.cluster_client(socket_timeout=2, socket_connect_timeout=1)
        self.tags = list(tags)
        self.acked_at, self.errors = [], []
        self.stop_event = threading.Event()

    def key(self, n):
        return "{%s}:%d" % (self.tags[n % len(self.tags)], n)

    def run(self):
        n = 0
        while not self.stop_event.is_set():
            try:
                self.rc.set(self.key(n), n)
            except (redis.RedisError, OSError) as e:
                self.errors.append(repr(e))
                time.sleep(0.05)
                continue
            self.acked_at.append((n, time.monotonic()))
            n += 1
        self.rc.close()

    def acked_since(self, t):
        return [n for n, at in list(self.acked_at) if at > t]

    def finish(self, timeout=60):
        self.stop_event.set()
        self.join(timeout)
        assert not self.is_alive(), "cluster writer still blocked"


class IoredisWriter:
    """tests/js/failover_writer.js: the same retrying writer through ioredis's Cluster.
    Its acknowledgement times are wall-clock (time.time()) milliseconds."""

    def __init__(self, cluster, tags, max_s=120):
        self.stop_file = os.path.join(cluster.nodes[0].dir, "ioredis.stop")
        entry = cluster.masters()[0]
        self.proc = subprocess.Popen(
            ["node", os.path.join(JS_DIR, "failover_writer.js"), entry.addr,
             ",".join(tags), self.stop_file, str(int(max_s * 1000))],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=JS_DIR)
        self.result = None

    def finish(self, timeout=60):
        import json
        with open(self.stop_file, "w"):
            pass
        out, err = self.proc.communicate(timeout=timeout)
        assert self.proc.returncode == 0, out + err
        self.result = json.loads(out)
        return self.result


# -- kills and returns -----------------------------------------------------------

def kill_and_wait_promotion(cluster, master, replica, probe_key, timeout=60):
    """SIGKILLs `master` and waits until `replica` answers a SET of `probe_key` (a key of
    the master's slots) with OK. Returns (t_kill, seconds from the kill to that OK)."""
    master.kill()
    t_kill = time.monotonic()
    wait_until(lambda: try_set(replica, probe_key, "probe"), timeout=timeout,
               interval=0.02, message="%r serving writes" % replica)
    return t_kill, time.monotonic() - t_kill


def wait_owner_everywhere(cluster, slots, owner, nodes=None, timeout=60):
    """Waits until every node of `nodes` (default: alive ones) says `owner` serves
    `slots`."""
    slots = list(slots)

    def agree():
        return all(cluster.slot_owner(s, n) is owner for n in nodes or cluster.alive()
                   for s in (slots[0], slots[-1]))
    wait_until(agree, timeout=timeout, message="slots owned by %r everywhere" % owner)


def return_as_replica(cluster, old, new_master, timeout=60):
    """Restarts the killed `old` node (nodes.conf kept) and waits until it is a replica
    of `new_master` with its link up, and the whole cluster is stable."""
    old.restart()
    wait_until(lambda: old.call("ROLE")[0] == b"slave"
               and cluster.view(old)[old.node_id]["master"] == new_master.node_id,
               timeout=timeout, message="%r a replica of %r" % (old, new_master))
    cluster.wait_stable(timeout=timeout)


def missing(node, keys):
    """The keys of `keys` that `node` does not hold (read directly, READONLY if needed)."""
    keys = list(keys)
    if not keys:
        return []
    c = redis.Redis(host=node.host, port=node.port, socket_timeout=30)
    try:
        if c.execute_command("ROLE")[0] == b"slave":
            c.execute_command("READONLY")
        got = []
        for i in range(0, len(keys), 500):      # GETs, pipelined: keys of many slots
            pipe = c.pipeline(transaction=False)
            for k in keys[i:i + 500]:
                pipe.get(k)
            got += pipe.execute()
        return [k for k, v in zip(keys, got) if v is None]
    finally:
        c.close()


def assert_values(node, tag, numbers):
    """Every {tag}:n of `numbers` holds n on `node`."""
    keys = ["{%s}:%d" % (tag, n) for n in numbers]
    c = redis.Redis(host=node.host, port=node.port, socket_timeout=30)
    try:
        for i in range(0, len(keys), 500):
            vals = c.mget(keys[i:i + 500])
            for n, v in zip(numbers[i:i + 500], vals):
                assert v == str(n).encode(), "{%s}:%d is %r" % (tag, n, v)
    finally:
        c.close()


def read_call(node, *args):
    """One read command on `node` after READONLY (so a replica answers for its master's
    slots); returns the raw reply."""
    c = redis.Redis(host=node.host, port=node.port, socket_timeout=30)
    try:
        c.execute_command("READONLY")
        return c.execute_command(*args)
    finally:
        c.close()
