"""Replication settings (issue 13): replicaof in the configuration,
min-replicas-to-write / min-replicas-max-lag, replica-serve-stale-data,
replica-priority, replica-announce-ip/port. Error texts as redis-server 7.0."""

import os

import pytest
import redis

from server_process import target_is_redis
from test_replication import info_repl, link_up, wait_for

pytestmark = pytest.mark.skipif(
    target_is_redis(), reason="rankd-to-rankd: the snapshot is rankd's own format")

NOREPLICAS = "NOREPLICAS Not enough good replicas to write."
MASTERDOWN = "MASTERDOWN Link with MASTER is down and replica-serve-stale-data is set to 'no'."
EXECABORT = "EXECABORT Transaction discarded because of previous errors."


def test_replicaof_in_the_configuration_file(server_factory, tmp_path):
    primary = server_factory()
    p = primary.client()
    p.zadd("z", {"a": 1})
    conf = tmp_path / "replica.conf"
    conf.write_text("replicaof 127.0.0.1 %d\n" % primary.port)
    replica = server_factory(config_file=str(conf))
    rep = replica.client()
    wait_for(lambda: link_up(rep), what="the link")
    assert info_repl(rep)["role"] == "slave"
    wait_for(lambda: rep.zrange("z", 0, -1) == [b"a"], what="the data")
    assert rep.config_get("replicaof") == {"replicaof": "127.0.0.1 %d" % primary.port}
    with pytest.raises(redis.ResponseError, match="can't set immutable config"):
        rep.config_set("replicaof", "127.0.0.1 1")
    # A fresh process has no history of its own: PSYNC ? -1, no partial attempt.
    assert p.info("stats")["sync_partial_err"] == 0
    # CONFIG REWRITE keeps the role, REPLICAOF NO ONE drops the line.
    assert rep.execute_command("CONFIG", "REWRITE") == b"OK"
    assert "replicaof 127.0.0.1 %d" % primary.port in conf.read_text()
    rep.execute_command("REPLICAOF", "NO", "ONE")
    assert rep.config_get("replicaof") == {"replicaof": ""}
    rep.execute_command("CONFIG", "REWRITE")
    assert "replicaof" not in conf.read_text()
    rep.execute_command("REPLICAOF", "127.0.0.1", primary.port)
    rep.execute_command("CONFIG", "REWRITE")
    assert "replicaof 127.0.0.1 %d" % primary.port in conf.read_text()


def test_replicaof_on_the_command_line(server_factory):
    primary = server_factory()
    replica = server_factory(["--replicaof", "127.0.0.1 %d" % primary.port])
    rep = replica.client()
    wait_for(lambda: link_up(rep), what="the link")
    with pytest.raises(redis.ReadOnlyError):
        rep.set("x", 1)


def test_replicaof_bad_values(server_factory, tmp_path):
    for bad in ("127.0.0.1", "127.0.0.1 notaport", "127.0.0.1 70000"):
        conf = tmp_path / "bad.conf"
        conf.write_text("replicaof %s\n" % bad)
        proc = server_factory(config_file=str(conf), start=False)
        with pytest.raises(Exception):
            proc.start(attempts=1)


def test_min_replicas_to_write(server_factory):
    primary = server_factory(["--min-replicas-to-write", "1", "--min-replicas-max-lag", "10"])
    p = primary.client()
    raw = primary.raw()
    assert raw.execute("SET", "a", "1").message == NOREPLICAS
    assert raw.execute("LB.ADD", "board", 1, "x").message == NOREPLICAS
    assert raw.execute("MULTI") == b"OK"
    assert raw.execute("SET", "a", "1").message == NOREPLICAS
    assert raw.execute("EXEC").message == EXECABORT
    # A script without a shebang fails at its write (Redis 7.0's eval-compat mode).
    err = raw.execute("EVAL", "return redis.call('set', 'a', 'b')", 0).message
    assert err.startswith(NOREPLICAS)
    assert raw.execute("GET", "a") is None  # reads go on
    assert info_repl(p)["min_slaves_good_slaves"] == 0
    raw.close()
    replica = server_factory()
    rep = replica.client()
    rep.execute_command("REPLICAOF", "127.0.0.1", primary.port)
    wait_for(lambda: link_up(rep), what="the link")
    wait_for(lambda: info_repl(p)["min_slaves_good_slaves"] == 1, what="a good replica")
    assert p.set("a", "1")
    assert p.eval("return redis.call('set', 'b', '2')", 0) == b"OK"
    # 0 turns the check off.
    rep.execute_command("REPLICAOF", "NO", "ONE")
    wait_for(lambda: info_repl(p)["connected_slaves"] == 0, what="the replica gone")
    with pytest.raises(redis.ResponseError, match="NOREPLICAS"):
        p.set("a", "2")
    p.config_set("min-replicas-to-write", 0)
    assert p.set("a", "2")
    assert p.config_get("min-slaves-max-lag") == {"min-slaves-max-lag": "10"}


def test_replica_serve_stale_data_no(server_factory):
    replica = server_factory(["--replica-serve-stale-data", "no"])
    raw = replica.raw()
    assert raw.execute("GET", "a") is None  # a primary is never stale
    # A primary nobody listens on: the link stays down.
    assert raw.execute("REPLICAOF", "127.0.0.1", 1) == b"OK"
    assert raw.execute("GET", "a").message == MASTERDOWN
    assert raw.execute("PING").message == MASTERDOWN  # PING has no stale flag, as Redis
    assert raw.execute("MULTI") == b"OK"
    assert raw.execute("GET", "a").message == MASTERDOWN
    assert raw.execute("EXEC").message == EXECABORT
    assert raw.execute("EVAL", "return 1", 0).message == MASTERDOWN
    # Commands with the stale flag still answer.
    assert b"role:slave" in raw.execute("INFO", "replication")
    assert raw.execute("ROLE")[0] == b"slave"
    assert raw.execute("CONFIG", "SET", "replica-serve-stale-data", "yes") == b"OK"
    assert raw.execute("GET", "a") is None
    raw.close()


def test_priority_and_announce(server_factory):
    primary = server_factory()
    replica = server_factory(["--replica-priority", "42", "--replica-announce-ip", "127.0.0.9",
                              "--replica-announce-port", "4242"])
    p, rep = primary.client(), replica.client()
    rep.execute_command("REPLICAOF", "127.0.0.1", primary.port)
    wait_for(lambda: link_up(rep), what="the link")
    assert info_repl(rep)["slave_priority"] == 42
    s0 = info_repl(p)["slave0"]
    assert s0["ip"] == "127.0.0.9" and s0["port"] == 4242
    assert p.execute_command("ROLE")[2][0][:2] == [b"127.0.0.9", b"4242"]
    assert rep.config_get("slave-priority") == {"slave-priority": "42"}
    # The link goes down: INFO says since when, as Redis.
    primary.stop()
    wait_for(lambda: not link_up(rep), what="the link down")
    assert info_repl(rep)["master_link_down_since_seconds"] >= 0
