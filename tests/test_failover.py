"""FAILOVER (Redis 7.0's coordinated failover outside cluster mode).

Three servers of the kind under test (rankd, or redis-server with
RANKD_TARGET_REDIS=1, which proves the expectations): the errors, a failover
to a chosen replica and to any replica under writes, a FORCE failover past
the timeout, ABORT, and a target that refuses the PSYNC. Each ends with the
data identical everywhere and the replicas resynced partially.
"""

import os
import signal
import threading

import pytest
import redis

from test_replication import link_up, wait_for

ERRORS = [
    (["FAILOVER", "TIMEOUT", "0"], "FAILOVER timeout must be greater than 0"),
    (["FAILOVER", "TIMEOUT", "abc"], "value is not an integer or out of range"),
    (["FAILOVER", "TO", "127.0.0.1"], "syntax error"),
    (["FAILOVER", "TO", "x", "y"], "value is not an integer or out of range"),
    (["FAILOVER", "BOGUS"], "syntax error"),
    (["FAILOVER", "ABORT", "FORCE"], "syntax error"),
    (["FAILOVER", "ABORT"], "No failover in progress."),
]


def start(server_factory, n):
    nodes = [server_factory(["--repl-diskless-sync-delay", "0"]) for _ in range(n)]
    return nodes, [s.client() for s in nodes]


def replicate(replica, primary_node):
    replica.execute_command("REPLICAOF", "127.0.0.1", primary_node.port)
    wait_for(lambda: link_up(replica), what="the link")


def digest(client):
    return client.execute_command("DEBUG", "DIGEST")


def state(client):
    return client.info("replication")["master_failover_state"]


def synced_offsets(primary, *replicas):
    want = primary.info("replication")["master_repl_offset"]
    return all(r.info("replication")["master_repl_offset"] == want for r in replicas)


@pytest.mark.parametrize("args,message", ERRORS)
def test_argument_errors(server_factory, args, message):
    _, (c,) = start(server_factory, 1)
    with pytest.raises(redis.ResponseError, match="^" + message.replace(".", r"\.") + "$"):
        c.execute_command(*args)


def test_state_errors(server_factory):
    nodes, (p, r) = start(server_factory, 2)
    with pytest.raises(redis.ResponseError, match="requires connected replicas"):
        p.execute_command("FAILOVER")
    replicate(r, nodes[0])
    cases = [
        (p, ["FAILOVER", "FORCE"], "FAILOVER with force option requires both a timeout and "
                                   "target HOST and IP."),
        (p, ["FAILOVER", "TO", "127.0.0.1", nodes[1].port, "FORCE"],
         "FAILOVER with force option requires both a timeout and target HOST and IP."),
        (p, ["FAILOVER", "TO", "127.0.0.1", 1], "FAILOVER target HOST and PORT is not a replica."),
        (r, ["FAILOVER"], "FAILOVER is not valid when server is a replica."),
        (p, ["PSYNC", "x" * 40, 1, "FAILOVER"], "PSYNC FAILOVER can't be sent to a master."),
    ]
    for client, args, message in cases:
        with pytest.raises(redis.ResponseError) as e:
            client.execute_command(*args)
        assert str(e.value) == message, args
    assert state(p) == "no-failover"


def test_failover_to_a_replica_under_writes_loses_nothing(server_factory):
    nodes, (a, b, c) = start(server_factory, 3)
    replicate(b, nodes[0])
    replicate(c, nodes[0])
    acked, stop = [], threading.Event()

    def writer():
        w = nodes[0].client()
        i = 0
        while not stop.is_set() and i < 5000:
            try:
                w.zadd("board", {"m%d" % i: i})
                acked.append(i)
            except (redis.ResponseError, redis.ConnectionError):
                break  # READONLY once node 0 became a replica
            i += 1

    t = threading.Thread(target=writer)
    t.start()
    wait_for(lambda: len(acked) > 200, what="writes")
    partial_before = b.info("stats")["sync_partial_ok"]
    assert a.execute_command("FAILOVER", "TO", "127.0.0.1", nodes[1].port) == b"OK"
    wait_for(lambda: state(a) == "no-failover", what="the failover's end")
    stop.set()
    t.join()
    assert a.execute_command("ROLE")[0] == b"slave"
    assert b.execute_command("ROLE")[0] == b"master"
    c.execute_command("REPLICAOF", "127.0.0.1", nodes[1].port)
    wait_for(lambda: link_up(a) and link_up(c), what="both links to the new primary")
    b.set("after", "1")
    wait_for(lambda: synced_offsets(b, a, c), what="offsets")
    assert digest(a) == digest(b) == digest(c)
    # Every acknowledged write is on the new primary.
    assert b.zcard("board") >= len(acked)
    assert b.info("stats")["sync_partial_ok"] - partial_before == 2
    with pytest.raises(redis.ResponseError, match="read only replica"):
        a.set("x", 1)


def test_failover_to_any_replica_picks_one_that_caught_up(server_factory):
    nodes, (a, b) = start(server_factory, 2)
    replicate(b, nodes[0])
    a.set("k", "v")
    assert a.execute_command("FAILOVER") == b"OK"
    wait_for(lambda: state(a) == "no-failover", what="the failover's end")
    assert b.execute_command("ROLE")[0] == b"master"
    wait_for(lambda: link_up(a), what="the old primary's link")
    assert a.get("k") == b"v"


@pytest.fixture
def lagging(server_factory):
    """(nodes, primary, replica) with the replica SIGSTOPped after a write it
    will not acknowledge; resumed at the end."""
    nodes, (a, b) = start(server_factory, 2)
    replicate(b, nodes[0])
    os.kill(nodes[1].pid, signal.SIGSTOP)
    a.set("k", "1")
    yield nodes, a, b
    os.kill(nodes[1].pid, signal.SIGCONT)


def test_timeout_without_force_aborts_and_writes_resume(lagging):
    nodes, a, b = lagging
    assert a.execute_command("FAILOVER", "TO", "127.0.0.1", nodes[1].port,
                             "TIMEOUT", 300) == b"OK"
    assert state(a) == "waiting-for-sync"
    assert a.get("k") == b"1"  # reads go on during the wait
    wait_for(lambda: state(a) == "no-failover", what="the abort")
    assert a.execute_command("ROLE")[0] == b"master"
    assert a.set("k", "2")


def test_force_fails_over_past_the_timeout(lagging):
    nodes, a, b = lagging
    assert a.execute_command("FAILOVER", "TO", "127.0.0.1", nodes[1].port,
                             "TIMEOUT", 100, "FORCE") == b"OK"
    wait_for(lambda: state(a) == "failover-in-progress", what="the forced hand-over")
    assert a.execute_command("ROLE")[0] == b"slave"  # never two primaries
    assert "time out exceeded, failing over." in open(nodes[0].log_path).read()
    os.kill(nodes[1].pid, signal.SIGCONT)
    wait_for(lambda: state(a) == "no-failover", what="the failover's end")
    assert b.execute_command("ROLE")[0] == b"master"
    wait_for(lambda: link_up(a), what="the old primary's link")
    assert digest(a) == digest(b)


def test_abort_while_waiting(lagging):
    nodes, a, b = lagging
    a.execute_command("FAILOVER", "TO", "127.0.0.1", nodes[1].port, "TIMEOUT", 60000)
    # A write waits for the failover (paused), and runs after the abort.
    w = nodes[0].client()
    result = []
    t = threading.Thread(target=lambda: result.append(w.set("k", "2")))
    t.start()
    t.join(0.3)
    assert t.is_alive(), "the write must wait while failing over"
    assert a.execute_command("FAILOVER", "ABORT") == b"OK"
    t.join(5)
    assert result == [True]
    assert state(a) == "no-failover"


def test_target_that_refuses_psync_leaves_the_primary_in_place(server_factory):
    nodes, (a, b) = start(server_factory, 2)
    replicate(b, nodes[0])
    b.execute_command("ACL", "SETUSER", "default", "-psync")
    a.set("k", "1")
    wait_for(lambda: synced_offsets(a, b), what="offsets")
    assert a.execute_command("FAILOVER", "TO", "127.0.0.1", nodes[1].port) == b"OK"
    wait_for(lambda: state(a) == "no-failover", what="the abort")
    assert a.execute_command("ROLE")[0] == b"master"
    assert "Failover target rejected psync request" in open(nodes[0].log_path).read()
    b.execute_command("ACL", "SETUSER", "default", "+psync")
    wait_for(lambda: link_up(b), what="the replica's return")
    a.set("k", "2")
    wait_for(lambda: b.get("k") == b"2", what="the stream")


def test_replicaof_is_refused_while_failing_over(lagging):
    nodes, a, b = lagging
    a.execute_command("FAILOVER", "TIMEOUT", 60000)
    with pytest.raises(redis.ResponseError, match="REPLICAOF not allowed while failing over."):
        a.execute_command("REPLICAOF", "NO", "ONE")
    with pytest.raises(redis.ResponseError, match="FAILOVER already in progress."):
        a.execute_command("FAILOVER")
    a.execute_command("FAILOVER", "ABORT")


def test_two_replicas_one_stopped_failover_picks_the_one_in_sync(server_factory):
    # Without TO the primary hands over to a replica that reached its offset: with one
    # replica stopped behind, the other. The stopped one, resumed, stays a replica of
    # the old primary (now itself a replica) and gets the new primary's writes through it.
    nodes, (a, b, c) = start(server_factory, 3)
    replicate(b, nodes[0])
    replicate(c, nodes[0])
    os.kill(nodes[2].pid, signal.SIGSTOP)
    try:
        for i in range(100):
            a.zadd("board", {"m%d" % i: i})
        assert a.execute_command("WAIT", 1, 5000) >= 1
        assert a.execute_command("FAILOVER", "TIMEOUT", 10000) == b"OK"
        wait_for(lambda: state(a) == "no-failover", what="the failover's end")
        assert b.execute_command("ROLE")[0] == b"master"
        assert a.execute_command("ROLE")[0] == b"slave"
    finally:
        os.kill(nodes[2].pid, signal.SIGCONT)
    wait_for(lambda: link_up(a), what="the old primary's link")
    b.zadd("board", {"after": 1000})
    wait_for(lambda: c.zcard("board") == 101, what="the write through the old primary")
    assert c.execute_command("ROLE")[1] == b"127.0.0.1" and \
        c.execute_command("ROLE")[2] == nodes[0].port
    wait_for(lambda: synced_offsets(b, a) and digest(a) == digest(b) == digest(c),
             what="all three identical")
