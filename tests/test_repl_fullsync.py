"""A rankd primary's full sync (issue 13): the snapshot comes from a fork()ed child
(BGSAVE's mechanism), streamed diskless ("$EOF:<mark>") with repl-diskless-sync yes or
through a file ("$<len>") with no; replicas waiting together share one snapshot; writes
made while the child writes reach every replica after it.
"""

import ctypes
import os
import threading
import time

import pytest

from server_process import target_is_redis
from test_replication import dump, info_repl, link_up, wait_for

pytestmark = pytest.mark.skipif(
    target_is_redis(), reason="rankd-to-rankd: the snapshot is rankd's own format")


def fill(p, n=20000):
    pipe = p.pipeline(transaction=False)
    for i in range(n):
        pipe.zadd("big", {"m%d" % i: i})
        if i % 10 == 0:
            pipe.set("k%d" % i, i)
    pipe.execute()


def log_of(proc):
    with open(proc.log_path, "rb") as f:
        return f.read()


class Writing:
    """Writes to the primary from another thread while the block runs."""

    def __init__(self, primary):
        self.c = primary.client()
        self.stop = threading.Event()
        self.t = threading.Thread(target=self.run)

    def run(self):
        i = 0
        while not self.stop.is_set():
            self.c.zadd("during", {"w%d" % i: i})
            i += 1

    def __enter__(self):
        self.t.start()

    def __exit__(self, *exc):
        self.stop.set()
        self.t.join()


def caught_up(p, rep):
    """The replica applied all the primary sent. The primary's offset is read again each
    time, after the replica's: its PINGs (every repl-ping-replica-period) advance it, so a
    replica still behind when one is appended never shows an offset read earlier."""
    got = info_repl(rep)["master_repl_offset"]
    return link_up(rep) and got == info_repl(p)["master_repl_offset"]


def converged(p, reps):
    for rep in reps:
        wait_for(lambda: caught_up(p, rep), what="the replica's offset")
    d = p.execute_command("DEBUG", "DIGEST")
    for rep in reps:
        assert rep.execute_command("DEBUG", "DIGEST") == d
        assert dump(rep) == dump(p)


def test_diskless_sync_serves_two_replicas_with_one_snapshot(server_factory):
    # Both replicas wait for one fork: it starts when the second arrives.
    primary = server_factory(["--repl-diskless-sync", "yes", "--repl-diskless-sync-delay", "60",
                              "--repl-diskless-sync-max-replicas", "2"])
    p = primary.client()
    fill(p)
    with Writing(primary):
        reps = [server_factory().client() for _ in range(2)]
        reps[0].execute_command("REPLICAOF", "127.0.0.1", primary.port)
        wait_for(lambda: info_repl(p).get("slave0", {}).get("state") == "wait_bgsave",
                 what="the first replica waiting")
        reps[1].execute_command("REPLICAOF", "127.0.0.1", primary.port)
        for rep in reps:
            wait_for(lambda: link_up(rep), what="the link")
    converged(p, reps)
    log = log_of(primary)
    assert log.count(b"Starting BGSAVE for SYNC with target: replicas sockets") == 1
    assert p.info("stats")["sync_full"] == 2
    for i in range(2):
        assert info_repl(p)["slave%d" % i]["state"] == "online"


def test_disk_sync_through_a_file(server_factory):
    primary = server_factory(["--repl-diskless-sync", "no"])
    p = primary.client()
    fill(p)
    with Writing(primary):
        rep = server_factory().client()
        rep.execute_command("REPLICAOF", "127.0.0.1", primary.port)
        wait_for(lambda: link_up(rep), what="the link")
    converged(p, [rep])
    assert b"Starting BGSAVE for SYNC with target: disk" in log_of(primary)
    # The file is gone once sent.
    assert not [f for f in os.listdir(primary.dir) if f.startswith("temp-repl")]



def test_full_sync_counts_a_fork(server_factory):
    primary = server_factory(["--repl-diskless-sync", "no"])
    p = primary.client()
    p.set("k", "v")
    assert p.info("stats")["total_forks"] == 0
    rep = server_factory().client()
    rep.execute_command("REPLICAOF", "127.0.0.1", primary.port)
    wait_for(lambda: link_up(rep), what="the link")
    stats = p.info("stats")
    assert stats["total_forks"] == 1 and stats["latest_fork_usec"] > 0
    assert rep.info("stats")["total_forks"] == 0


def test_bgsave_waits_for_the_sync_child_and_vice_versa(server_factory):
    primary = server_factory(["--repl-diskless-sync", "no"])
    p = primary.client()
    fill(p, 5000)
    p.bgsave()
    rep = server_factory().client()
    rep.execute_command("REPLICAOF", "127.0.0.1", primary.port)
    wait_for(lambda: link_up(rep), what="the link")
    converged(p, [rep])
    wait_for(lambda: p.info("persistence")["rdb_bgsave_in_progress"] == 0, what="BGSAVE")
    assert p.info("persistence")["rdb_last_bgsave_status"] == "ok"


PTRACE_SEIZE, PTRACE_CONT, PTRACE_DETACH = 0x4206, 7, 17
PTRACE_O_TRACEEXIT, PTRACE_EVENT_EXIT, WALL = 0x40, 6, 0x40000000


def ptrace(req, pid, data=0):
    libc = ctypes.CDLL(None, use_errno=True)
    libc.ptrace.argtypes = [ctypes.c_long, ctypes.c_long, ctypes.c_void_p, ctypes.c_void_p]
    if libc.ptrace(req, pid, None, ctypes.c_void_p(data)) != 0:
        raise OSError(ctypes.get_errno(), "ptrace %d" % req)


def hold_at_exit(pid):
    """Stops process `pid` as it exits, its files (the snapshot pipe) closed already by
    itself; the caller detaches to let it go."""
    ptrace(PTRACE_SEIZE, pid, PTRACE_O_TRACEEXIT)
    while True:
        _, status = os.waitpid(pid, WALL)
        if os.WIFSTOPPED(status) and status >> 8 == (PTRACE_EVENT_EXIT << 8) | 5:
            return
        sig = os.WSTOPSIG(status) if os.WIFSTOPPED(status) else 0
        ptrace(PTRACE_CONT, pid, sig if sig != 5 else 0)


def children(pid):
    with open("/proc/%d/task/%d/children" % (pid, pid)) as f:
        return [int(x) for x in f.read().split()]


def test_primary_answers_while_the_sync_child_exits(server_factory):
    # Tearing down a forked child of a large data set takes long (75 ms at 10^7 members
    # on an idle machine, seconds on a busy one): once the snapshot's pipe ends, the
    # primary reaps the child when it has exited instead of waiting for it. Here the
    # child is held in its exit for as long as the test likes.
    primary = server_factory(["--repl-diskless-sync", "yes", "--repl-diskless-sync-delay", "0",
                              "--rdb-key-save-delay", "100000"])  # 0.1 s per key
    p = primary.client()
    for i in range(4):
        p.set("k%d" % i, i)
    rep = server_factory().client()
    rep.execute_command("REPLICAOF", "127.0.0.1", primary.port)
    kids = wait_for(lambda: children(primary.pid), what="the snapshot child")
    hold_at_exit(kids[0])
    try:
        time.sleep(0.3)  # the primary reads the pipe's end
        quick = primary.client(socket_timeout=2)
        assert quick.ping()
        p.set("during", "exit")
        assert info_repl(p)["slave0"]["state"] == "send_bulk"
    finally:
        ptrace(PTRACE_DETACH, kids[0])
    wait_for(lambda: link_up(rep), what="the link")
    converged(p, [rep])
    assert rep.get("during") == b"exit"
