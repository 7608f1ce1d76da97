"""The exit path in Redis's format (issue 32): what leaves rankd for Redis tools.

A redis-server 7.0 replica of a rankd primary, `redis-cli --rdb` and the
legacy `SYNC` command all receive a real Redis RDB (version 10, aux fields,
CRC64), with leaderboards as plain sorted sets, as DUMP writes them;
`redis-check-rdb` accepts the file and redis-server loads it. A rankd replica
announces `REPLCONF capa rankd` and keeps getting rankd's own snapshot (board
tie order and stamps), also while a redis-server replica syncs from the same
primary. Compared key by key with the data the primary holds.
"""

import os
import socket
import subprocess
import time

import pytest
import redis

from server_process import reference_redis, target_is_redis
from test_migrate_from_redis import LIBRARY, caught_up, populate, snapshot
from test_replication import dump, link_up, wait_for

pytestmark = pytest.mark.skipif(
    target_is_redis(), reason="rankd's exit path: the primary is rankd")


def populate_rankd(r):
    """populate()'s keys, plus leaderboards (they leave as plain sorted sets)."""
    populate(r)
    r.execute_command("LB.CREATE", "board")
    r.execute_command("LB.CREATE", "asc", "ORDER", "ASC", "TIES", "LAST")
    for i in range(200):
        r.execute_command("LB.ADD", "board", "INCR", i % 5, "team%d" % (i % 11))
        r.execute_command("LB.ADD", "asc", i % 9, "p%d" % (i % 13))
    r.function_load(LIBRARY)


BOARDS = (b"board", b"asc")


def assert_same(primary, other):
    """`other` (a redis-server) holds the primary's keys, values and TTLs; a
    leaderboard's members and scores (its ties are in arrival order on rankd,
    by member on redis-server, where it is a plain sorted set)."""
    a, b = snapshot(primary), snapshot(other)
    assert sorted(a) == sorted(b)
    for k in a:
        (ta, va, pa), (tb, vb, pb) = a[k], b[k]
        if k[1] in BOARDS:
            va, vb = sorted(zip(va[::2], va[1::2])), sorted(zip(vb[::2], vb[1::2]))
        assert (ta, va) == (tb, vb), k
        assert (pa is None) == (pb is None), k
        if pa is not None:
            assert abs(pa - pb) < 5000, (k, pa, pb)


def redis_replica_of(port, diskless_load="disabled"):
    proc = reference_redis(["--replicaof", "127.0.0.1", str(port),
                            "--repl-diskless-load", diskless_load])
    proc.start()
    return proc


def read_line(sock):
    line = b""
    while not line.endswith(b"\r\n"):
        ch = sock.recv(1)
        assert ch, "connection closed"
        line += ch
    return line[:-2]


def read_exact(sock, n):
    out = b""
    while len(out) < n:
        chunk = sock.recv(n - len(out))
        assert chunk, "connection closed"
        out += chunk
    return out


@pytest.mark.parametrize("diskless", ["yes", "no"])
def test_redis_server_replica_of_rankd(server_factory, diskless):
    primary = server_factory(["--repl-diskless-sync", diskless,
                              "--repl-diskless-sync-delay", "0"])
    p = primary.client()
    populate_rankd(p)
    replica = redis_replica_of(primary.port)
    try:
        rep = replica.client()
        wait_for(lambda: link_up(rep), what="redis-server's link to rankd")
        wait_for(lambda: caught_up(p, rep), what="replica offset")
        assert_same(p, rep)
        assert rep.type("board") == b"zset"
        assert rep.function_list()[0][1] == b"migrated"
        # The stream follows the RDB: writes of several kinds and databases
        # (a leaderboard's writes replicate as rankd's own LB.LOAD, which a
        # redis-server replica refuses: docs/replication.md).
        p.zadd("z:small", {"new": 7})
        p.delete("s:plain")
        p.rpush("l:big", "tail")
        p.select(3)
        p.zadd("z:db3", {"c": 3})
        p.select(0)
        wait_for(lambda: caught_up(p, rep), what="replica offset after writes")
        assert_same(p, rep)
        for cmd in (("ZRANGE", "z:big", 0, -1, "WITHSCORES"),
                    ("ZREVRANGE", "z:small", 0, 4, "WITHSCORES"),
                    ("ZSCORE", "board", "team1"), ("ZCARD", "asc"),
                    ("ZRANGEBYSCORE", "z:big", "-inf", "+inf", "LIMIT", 3, 5)):
            assert rep.execute_command(*cmd) == p.execute_command(*cmd), cmd
        assert p.wait(1, 10000) == 1  # redis-server ACKs rankd's stream
        with open(primary.log_path, "rb") as f:
            target = b"replicas sockets" if diskless == "yes" else b"target: disk"
            assert target in f.read()
    finally:
        replica.stop()


def test_redis_cli_rdb_backup_is_a_redis_rdb(server_factory, tmp_path):
    primary = server_factory(["--repl-diskless-sync-delay", "0"])
    p = primary.client()
    populate_rankd(p)
    p.set("ttl:px", "v", px=100_000)
    path = tmp_path / "backup.rdb"
    out = subprocess.run(["redis-cli", "-p", str(primary.port), "--rdb", str(path)],
                         capture_output=True, timeout=60)
    assert out.returncode == 0, out.stderr
    data = path.read_bytes()
    assert data.startswith(b"REDIS0010")
    check = subprocess.run(["redis-check-rdb", str(path)], capture_output=True, timeout=60)
    assert check.returncode == 0, check.stdout
    assert b"RDB looks OK" in check.stdout
    # The backup loads into redis-server with the same data.
    loaded = reference_redis(["--dir", str(tmp_path), "--dbfilename", "backup.rdb"])
    loaded.start()
    try:
        assert_same(p, loaded.client())
        assert loaded.client().function_list()[0][1] == b"migrated"
    finally:
        loaded.stop()
    # rdb-only: the primary closed the link after the file; no replica stays.
    wait_for(lambda: p.info("replication")["connected_slaves"] == 0, what="rdb-only link closed")


def test_sync_command_sends_rdb_then_stream(server_factory):
    primary = server_factory(["--repl-diskless-sync-delay", "0"])
    p = primary.client()
    p.set("before", "1")
    with socket.create_connection(("127.0.0.1", primary.port), timeout=30) as s:
        s.sendall(b"SYNC\r\n")
        line = read_line(s)
        while line == b"" or line == b"\n":  # keep-alive newlines before the payload
            line = read_line(s)
        line = line.lstrip(b"\n")
        assert line.startswith(b"$") and not line.startswith(b"$EOF"), line  # no +FULLRESYNC
        payload = read_exact(s, int(line[1:]))
        assert payload.startswith(b"REDIS0010") and b"before" in payload
        p.set("after", "2")
        stream = b""
        deadline = time.time() + 10
        while b"after" not in stream and time.time() < deadline:
            stream += s.recv(4096)
        assert b"*2\r\n$6\r\nSELECT\r\n$1\r\n0\r\n" in stream
        assert b"$3\r\nSET\r\n$5\r\nafter\r\n$1\r\n2\r\n" in stream
        # SYNC's replica sends no ACK; it is listed and not timed out.
        assert p.info("replication")["connected_slaves"] == 1


def test_rankd_and_redis_replicas_each_get_their_format(server_factory):
    primary = server_factory(["--repl-diskless-sync-delay", "0"])
    p = primary.client()
    populate_rankd(p)
    rankd_replica = server_factory()
    r = rankd_replica.client()
    replica = redis_replica_of(primary.port)
    try:
        assert r.execute_command("REPLICAOF", "127.0.0.1", primary.port) == b"OK"
        rep = replica.client()
        wait_for(lambda: link_up(rep) and link_up(r), what="both links")
        wait_for(lambda: caught_up(p, rep) and caught_up(p, r), what="both offsets")
        # rankd's replica: leaderboards whole, stamps and tie order included.
        assert dump(r) == dump(p)
        assert r.type("board") == p.type("board")
        # redis-server's: the same data as plain types.
        assert_same(p, rep)
        assert p.info("stats")["sync_full"] == 2
    finally:
        replica.stop()


def attach(port):
    """A SYNC client past its RDB, as Redis's suite attaches to the stream."""
    s = socket.create_connection(("127.0.0.1", port), timeout=30)
    s.sendall(b"SYNC\r\n")
    line = read_line(s).lstrip(b"\n")
    while not line:
        line = read_line(s).lstrip(b"\n")
    read_exact(s, int(line[1:]))
    return s


def stream_after(port, commands):
    """The replication stream the commands produce, up to a final marker."""
    with attach(port) as s:
        c = redis.Redis(port=port)
        for cmd in commands:
            c.execute_command(*cmd)
        c.set("end-marker", "1")
        stream = b""
        while b"end-marker" not in stream:
            chunk = s.recv(4096)
            assert chunk, "stream closed"
            stream += chunk
    return stream[:stream.index(b"end-marker")]


def test_getset_and_set_get_replicate_as_set(server_factory):
    """Redis 7.0 replicates GETSET and SET ... GET as plain SET (differential)."""
    commands = [("SET", "k", "foo"), ("GETSET", "k", "bar"), ("SET", "k", "vaz", "GET"),
                ("SET", "k", "w", "XX", "GET", "KEEPTTL")]
    primary = server_factory(["--repl-ping-replica-period", "3600"])
    ref = reference_redis(["--repl-ping-replica-period", "3600"])
    ref.start()
    try:
        assert stream_after(primary.port, commands) == stream_after(ref.port, commands)
    finally:
        ref.stop()
