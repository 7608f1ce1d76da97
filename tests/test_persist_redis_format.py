"""rankd writes Redis 7.0's files (issue 32): dump.rdb is a real RDB and the
append-only directory Redis's multi-part AOF (an RDB base, RESP incrs), so
redis-check-rdb, redis-check-aof and a redis-server started on rankd's data
directory read them, with leaderboards as plain sorted sets. What plain RDB
cannot hold (a board's policy and tie stamps, member deadlines and metadata,
hash field deadlines) rides in "rankd-entry" AUX fields that redis-server
skips, so rankd reloads its own files with nothing lost. Files rankd wrote in
its own format before (persist-format rankd) still load: the upgrade path.

Behaviour: docs/persistence.md, docs/file-formats.md sections 2 and 4.
"""

import os
import shutil
import subprocess
import time

import pytest
import redis

from server_process import rankd_binary, target_is_redis
from test_persistence import RANKD_FORMAT, crash, dump, start
from test_redis_aof import resp, run_redis
from util import wait_until

pytestmark = pytest.mark.skipif(target_is_redis(), reason="rankd's files read by Redis's tools")

DEADLINE_MS = 4_000_000_000_000  # far in the future


def fill(c):
    c.set("s", "v")
    c.set("ttl", "t", px=3_600_000)
    c.zadd("z", {"a": 1.5, "b": -2})
    c.hset("h", mapping={"f": "1", "g": "2"})
    c.rpush("l", "x", "y")
    c.sadd("st", "m1", "m2")
    c.execute_command("LB.CREATE", "board", "ORDER", "asc", "TIES", "last")
    c.execute_command("LB.ADD", "board", 10, "alice", 10, "bob", 5, "carol")
    c.execute_command("LB.SETMETA", "board", "alice", '{"team":"red"}')
    c.zadd("zd", {"m1": 1, "m2": 2})
    c.execute_command("ZPEXPIREAT", "zd", DEADLINE_MS, "MEMBERS", 1, "m1")
    c.hset("hd", mapping={"f": "1", "g": "2"})
    c.execute_command("HPEXPIREAT", "hd", DEADLINE_MS, "FIELDS", 1, "f")
    c.function_load("#!lua name=lib\nredis.register_function('one', function() return 1 end)")
    redis.Redis(port=c.connection_pool.connection_kwargs["port"], db=3).set("in3", "yes")


def rankd_state(c):
    """What only rankd keeps, beside dump()'s keys and values."""
    return (c.execute_command("LB.INFO", "board"),
            [c.execute_command("LB.RANK", "board", m) for m in ("alice", "bob", "carol")],
            c.execute_command("LB.META", "board", "alice"),
            c.execute_command("ZPEXPIRETIME", "zd", "MEMBERS", 2, "m1", "m2"),
            c.execute_command("HPEXPIRETIME", "hd", "FIELDS", 2, "f", "g"),
            c.fcall("one", 0))


def tool(name, *args):
    path = shutil.which(name)
    if not path:
        pytest.skip(name + " is not installed")
    return subprocess.run([path] + [str(a) for a in args], capture_output=True, text=True)


def plain(d):
    """dump() as redis-server shows it: a board is a plain sorted set."""
    return {k: (v[0], v[1], sorted(v[2], key=lambda m: (m[1], m[0])) if v[0] == b"zset" else v[2])
            for k, v in d.items()}


def test_dump_rdb_is_redis_rdb_with_rankd_extras(server_factory, tmp_path):
    p = start(server_factory, tmp_path, appendonly=False)
    fill(p.client())
    before, extras = dump(p), rankd_state(p.client())
    assert p.client().save()
    crash(p)
    rdb = tmp_path / "dump.rdb"
    assert rdb.read_bytes()[:9] == b"REDIS0010"
    check = tool("redis-check-rdb", rdb)
    assert check.returncode == 0 and "RDB looks OK" in check.stdout, check.stdout
    assert "rankd-entry" in check.stdout  # carried as AUX fields Redis skips

    q = start(server_factory, tmp_path, appendonly=False)
    assert dump(q) == before and rankd_state(q.client()) == extras
    q.stop()

    r = run_redis(tmp_path, "no")
    got = dump(r)
    assert got == plain(before)
    assert r.client().zrange("board", 0, -1, withscores=True) == \
        [(b"carol", 5.0), (b"alice", 10.0), (b"bob", 10.0)]
    assert r.client().fcall("one", 0) == 1
    r.client().set("from-redis", "1")
    assert r.client().save()
    r.stop()
    # And back: rankd loads what redis-server wrote (boards now plain sets).
    q2 = start(server_factory, tmp_path, appendonly=False)
    assert q2.client().get("from-redis") == b"1" and dump(q2)[(0, b"s")] == before[(0, b"s")]


def test_append_only_dir_is_redis_multi_part_aof(server_factory, tmp_path):
    p = start(server_factory, tmp_path)
    c = p.client()
    fill(c)
    aofdir = tmp_path / "appendonlydir"
    names = sorted(os.listdir(aofdir))
    assert names == ["appendonly.aof.1.base.rdb", "appendonly.aof.1.incr.aof",
                     "appendonly.aof.manifest"], names
    incr = (aofdir / "appendonly.aof.1.incr.aof").read_bytes()
    assert incr.startswith(b"*2\r\n$6\r\nSELECT\r\n$1\r\n0\r\n*3\r\n$3\r\nSET\r\n"), incr[:60]
    assert c.bgrewriteaof()
    wait_until(lambda: c.info("persistence")["aof_rewrite_in_progress"] == 0 and
               c.info("persistence")["aof_rewrites"] == 1)
    c.incr("after")
    before, extras = dump(p), rankd_state(c)
    assert (aofdir / "appendonly.aof.manifest").read_text() == (
        "file appendonly.aof.2.base.rdb seq 2 type b\n"
        "file appendonly.aof.2.incr.aof seq 2 type i\n")
    assert (aofdir / "appendonly.aof.2.base.rdb").read_bytes()[:9] == b"REDIS0010"
    crash(p)
    check = tool("redis-check-aof", aofdir / "appendonly.aof.manifest")
    assert check.returncode == 0 and "All AOF files and manifest are valid" in check.stdout, \
        check.stdout

    q = start(server_factory, tmp_path)
    assert dump(q) == before and rankd_state(q.client()) == extras
    q.stop()
    # redis-server on rankd's directory: only Redis's commands were logged
    # since the rewrite (the board lives in the base, as a plain sorted set).
    r = run_redis(tmp_path, "yes")
    assert dump(r) == plain(before)
    r.stop()


def test_old_rankd_files_still_load_and_move_to_redis_formats(server_factory, tmp_path):
    # Files written by rankd's own format (the default before issue 32).
    p = start(server_factory, tmp_path, *RANKD_FORMAT)
    fill(p.client())
    assert p.client().save()
    before, extras = dump(p), rankd_state(p.client())
    crash(p)
    assert (tmp_path / "dump.rdb").read_bytes()[:8] == b"RANKDSNP"
    assert any(n.endswith(".incr.log") for n in os.listdir(tmp_path / "appendonlydir"))

    q = start(server_factory, tmp_path)
    c = q.client()
    assert dump(q) == before and rankd_state(c) == extras
    assert c.bgrewriteaof() and c.save()
    wait_until(lambda: c.info("persistence")["aof_rewrite_in_progress"] == 0 and
               c.info("persistence")["aof_rewrites"] == 1)
    crash(q)
    names = os.listdir(tmp_path / "appendonlydir")
    assert not [n for n in names if n.endswith((".snap", ".log"))], names
    assert (tmp_path / "dump.rdb").read_bytes()[:5] == b"REDIS"
    for appendonly in (True, False):
        q2 = start(server_factory, tmp_path, appendonly=appendonly)
        assert dump(q2) == before and rankd_state(q2.client()) == extras
        crash(q2)


def test_expired_members_in_extras_drop_the_key(server_factory, tmp_path):
    p = start(server_factory, tmp_path, appendonly=False)
    c = p.client()
    c.zadd("gone", {"m": 1})
    c.execute_command("ZPEXPIRE", "gone", 300, "MEMBERS", 1, "m")
    c.set("kept", "1")
    assert c.save()
    crash(p)
    time.sleep(0.5)  # the member's deadline passes while the server is down
    q = start(server_factory, tmp_path, appendonly=False)
    assert q.client().exists("gone") == 0 and q.client().get("kept") == b"1"
    info = q.client().info("keyspace")
    assert info["db0"]["keys"] == 1


def test_check_aof_reads_the_redis_format_directory(server_factory, tmp_path):
    """rankd --check-aof on what rankd writes by default: the RDB base and the
    RESP incr checked; a torn last command reported and cut by --fix; bytes
    that are not RESP reported as damage --fix leaves to redis-check-aof."""
    p = start(server_factory, tmp_path)
    p.client().set("a", "1")
    p.client().set("b", "2")
    crash(p)
    aofdir = tmp_path / "appendonlydir"

    def check(*args):
        return subprocess.run([rankd_binary(), "--check-aof", *args, str(aofdir)],
                              capture_output=True, text=True)
    ok = check()
    assert ok.returncode == 0, ok.stdout
    assert "appendonly.aof.1.base.rdb: Redis RDB OK" in ok.stdout, ok.stdout
    assert "appendonly.aof.1.incr.aof: Redis AOF" in ok.stdout and "3 commands" in ok.stdout, \
        ok.stdout  # SELECT and the two SETs
    incr = aofdir / "appendonly.aof.1.incr.aof"
    whole = incr.read_bytes()
    incr.write_bytes(whole + resp("SET", "c", "3")[:-3])  # a crash cut the last write
    torn = check()
    assert torn.returncode == 1 and "torn tail at offset %d" % len(whole) in torn.stdout, \
        torn.stdout
    fixed = check("--fix")
    assert fixed.returncode == 0 and incr.read_bytes() == whole, fixed.stdout
    q = start(server_factory, tmp_path)
    assert q.client().mget("a", "b", "c") == [b"1", b"2", None]
    crash(q)

    incr.write_bytes(whole + b"garbage\r\n" + resp("SET", "c", "3"))
    bad = check("--fix")
    assert bad.returncode == 1 and "CORRUPT: not RESP at offset %d" % len(whole) in bad.stdout, \
        bad.stdout


@pytest.mark.parametrize("appendonly", [False, True])
def test_expired_fields_in_extras_drop_the_hash(server_factory, tmp_path, appendonly):
    """Every field of a hash past its deadline while the server was down: the
    rankd-entry blob holds no field, so the plain value before it must go too
    (it would bring the fields back without their deadlines)."""
    p = start(server_factory, tmp_path, appendonly=appendonly)
    c = p.client()
    c.hset("gone", mapping={"f": "1", "g": "2"})
    c.execute_command("HPEXPIRE", "gone", 300, "FIELDS", 2, "f", "g")
    c.hset("part", mapping={"f": "1", "g": "2"})
    c.execute_command("HPEXPIRE", "part", 300, "FIELDS", 1, "f")
    c.set("kept", "1")
    if appendonly:
        assert c.bgrewriteaof()
        wait_until(lambda: c.info("persistence")["aof_rewrites"] == 1 and
                   c.info("persistence")["aof_rewrite_in_progress"] == 0)
    else:
        assert c.save()
    crash(p)
    time.sleep(0.5)  # the fields' deadlines pass while the server is down
    q = start(server_factory, tmp_path, appendonly=appendonly)
    d = q.client()
    if appendonly:  # a log's base loads past deadlines too (as Redis's): expiry then runs
        wait_until(lambda: d.exists("gone") == 0 and d.hlen("part") == 1)
    assert d.exists("gone") == 0 and d.hgetall("part") == {b"g": b"2"}
    assert d.get("kept") == b"1" and d.info("keyspace")["db0"]["keys"] == 2
