"""Persistence: restart round trips, snapshots, log rewrite, damaged files.

Every test runs rankd on a data directory of its own (--dir overrides the
fixture's), restarts it there and compares full dataset dumps, TTLs
included. The crash and disk-failure tests are in test_persistence_crash.py.
Formats: docs/file-formats.md. Behaviour: docs/persistence.md.
"""

import os
import random
import subprocess
import threading
import time

import pytest
import redis

from server_process import ServerStartError, rankd_binary, target_is_redis
from util import wait_until

pytestmark = pytest.mark.skipif(target_is_redis(), reason="rankd's own file formats")

LONG_TTL_MS = 3600 * 1000  # no key of the workload expires during a test


# ---------------------------------------------------------------- helpers ---

# rankd's own checksummed formats (persist-format rankd), for the tests of
# what its records detect; the default files are Redis's (test_redis_aof.py).
RANKD_FORMAT = ("--persist-format", "rankd")


def start_fails(server_factory, data_dir, *extra, appendonly=True):
    """Starts rankd expecting it to refuse; returns the start-up error text."""
    p = start(server_factory, data_dir, *extra, appendonly=appendonly, start=False)
    with pytest.raises(ServerStartError) as e:
        p.start()
    return str(e.value)


def start(server_factory, data_dir, *extra, appendonly=True, fsync="always", start=True):
    """rankd on `data_dir` (kept across restarts)."""
    args = ["--dir", str(data_dir), "--appendonly", "yes" if appendonly else "no",
            "--appendfsync", fsync] + [str(a) for a in extra]
    return server_factory(extra_args=args, start=start)


def crash(proc):
    """SIGKILL: no final save, no flush."""
    proc.proc.kill()
    proc.proc.wait(10)


def dump(proc, dbs=range(16)):
    """{(db, key): (type, pexpiretime, value)} of every key of every database."""
    out = {}
    for db in dbs:
        c = proc.client(db=db)
        for key in c.scan_iter(count=1000):
            kind = c.type(key)
            pexp = c.execute_command("PEXPIRETIME", key)
            if kind == b"string":
                value = c.get(key)
            elif kind == b"zset":
                value = c.zrange(key, 0, -1, withscores=True)
            elif kind == b"set":
                value = sorted(c.smembers(key))
            elif kind == b"hash":
                value = sorted(c.hgetall(key).items())
            elif kind == b"list":
                value = c.lrange(key, 0, -1)
            else:
                value = None
            out[(db, key)] = (kind, pexp, value)
        c.close()
    return out


def incr_logs(data_dir):
    """Paths of the incremental logs named by the manifest, in order."""
    d = os.path.join(str(data_dir), "appendonlydir")
    with open(os.path.join(d, "appendonly.aof.manifest")) as f:
        lines = [l.split() for l in f if l.strip()]
    return [os.path.join(d, l[1]) for l in lines if l[5] == "i"]


def score():
    return repr(random.choice([random.uniform(-100, 100), float(random.randint(-5, 5)),
                               1e300, -0.0]))


def workload(proc, rng, n):
    """Random writes over every family, including MULTI/EXEC, scripts,
    relative TTLs, random pops and moves between databases."""
    clients = [proc.client(db=db) for db in (0, 1, 2)]
    random.seed(rng.random())

    def key(kind):
        return "%s%d" % (kind, rng.randint(0, 7))

    ops = [
        lambda c: c.execute_command("ZADD", key("z"), *rng.choice(
            [[], ["NX"], ["XX"], ["GT"], ["LT"], ["CH"]]), score(), "m%d" % rng.randint(0, 30)),
        lambda c: c.execute_command("ZADD", key("z"), *sum(
            (["%d.%d" % (i % 13, i), "big%d" % i] for i in range(rng.randint(1, 300))), [])),
        lambda c: c.execute_command("ZINCRBY", key("z"), score(), "m%d" % rng.randint(0, 30)),
        lambda c: c.execute_command("ZADD", key("z"), "INCR", "0.1", "m1"),
        lambda c: c.execute_command("ZREM", key("z"), "m%d" % rng.randint(0, 30)),
        lambda c: c.execute_command(rng.choice(["ZPOPMIN", "ZPOPMAX"]), key("z"), rng.randint(1, 3)),
        lambda c: c.execute_command("ZMPOP", 2, key("z"), key("z"), "MIN", "COUNT", 2),
        lambda c: c.execute_command("ZREMRANGEBYRANK", key("z"), 0, rng.randint(0, 3)),
        lambda c: c.execute_command("ZREMRANGEBYSCORE", key("z"), "-inf", rng.randint(-50, 0)),
        lambda c: c.execute_command("ZUNIONSTORE", key("z"), 2, key("z"), key("s"), "WEIGHTS", 2, 1),
        lambda c: c.execute_command("ZINTERSTORE", key("z"), 2, key("z"), key("z")),
        lambda c: c.execute_command("ZRANGESTORE", key("z"), key("z"), 0, rng.randint(0, 5)),
        lambda c: c.execute_command("SADD", key("s"), *[str(rng.randint(0, 40)) for _ in range(3)]),
        lambda c: c.execute_command("SADD", key("s"), "x%d" % rng.randint(0, 9)),
        lambda c: c.execute_command("SPOP", key("s"), rng.randint(1, 2)),
        lambda c: c.execute_command("SREM", key("s"), str(rng.randint(0, 40))),
        lambda c: c.execute_command("SMOVE", key("s"), key("s"), str(rng.randint(0, 40))),
        lambda c: c.execute_command("SUNIONSTORE", key("s"), key("s"), key("s")),
        lambda c: c.execute_command("SET", key("k"), "v%d" % rng.randint(0, 99)),
        lambda c: c.execute_command("SET", key("k"), "ttl", "EX", rng.randint(1000, 9000)),
        lambda c: c.execute_command("SET", key("k"), "ttl", "PX", rng.randint(10**6, 10**7)),
        lambda c: c.execute_command("SETEX", key("k"), rng.randint(1000, 9000), "sx"),
        lambda c: c.execute_command("GETEX", key("k"), "PX", rng.randint(10**6, 10**7)),
        lambda c: c.execute_command("EXPIRE", key(rng.choice("zsk")), rng.randint(1000, 9000)),
        lambda c: c.execute_command("PEXPIREAT", key("k"), int(time.time() * 1000) + LONG_TTL_MS),
        lambda c: c.execute_command("PERSIST", key(rng.choice("zsk"))),
        lambda c: c.execute_command("INCRBYFLOAT", key("n"), score()),
        lambda c: c.execute_command("INCRBY", key("i"), rng.randint(-9, 9)),
        lambda c: c.execute_command("APPEND", key("k"), "+"),
        lambda c: c.execute_command("SETRANGE", key("k"), rng.randint(0, 5), "r"),
        lambda c: c.execute_command("DEL", key(rng.choice("zsk"))),
        lambda c: c.execute_command("RENAME", key(rng.choice("zsk")), key("z")),
        lambda c: c.execute_command("COPY", key("z"), key("z"), "DB", rng.randint(0, 2), "REPLACE"),
        lambda c: c.execute_command("MOVE", key(rng.choice("zsk")), rng.randint(0, 2)),
        lambda c: c.execute_command("EVAL", "redis.call('ZADD', KEYS[1], ARGV[1], ARGV[2]) "
                                    "return redis.call('ZINCRBY', KEYS[1], 1.5, ARGV[2])",
                                    1, key("z"), score(), "lua"),
    ]
    for _ in range(n):
        c = rng.choice(clients)
        try:
            if rng.random() < 0.05:
                p = c.pipeline(transaction=True)
                p.execute_command("ZADD", key("z"), score(), "tx")
                p.execute_command("ZINCRBY", key("z"), 2, "tx")
                p.execute_command("SET", key("k"), "tx", "PX", 5000000)
                p.execute()
            elif rng.random() < 0.005:
                c.execute_command("SWAPDB", 0, 1)
            else:
                rng.choice(ops)(c)
        except (redis.ResponseError, ValueError):
            pass  # WRONGTYPE and friends (ValueError: redis-py parsing ZADD INCR)
    for c in clients:
        c.close()


# ------------------------------------------------------------ round trips ---

@pytest.mark.parametrize("mode", ["log", "snapshot", "both", "shutdown"])
def test_restart_round_trip(server_factory, tmp_path, mode):
    rng = random.Random(hash(mode) & 0xffff)
    appendonly = mode in ("log", "both")
    p = start(server_factory, tmp_path, appendonly=appendonly)
    workload(p, rng, 400)
    if mode == "both":
        assert p.client().bgrewriteaof()
        wait_until(lambda: p.client().info("persistence")["aof_rewrite_in_progress"] == 0
                   and p.client().info("persistence")["aof_rewrites"] == 1)
        workload(p, rng, 400)
    if mode == "snapshot":
        assert p.client().save()
    before = dump(p)
    assert len(before) > 10
    if mode == "shutdown":
        p.stop()  # SIGTERM: save points are configured, so a final snapshot
    else:
        crash(p)
    q = start(server_factory, tmp_path, appendonly=appendonly)
    assert dump(q) == before
    if mode == "both":
        assert "DB loaded from incr file" in q.log_tail()


def test_log_wins_over_snapshot_and_restart_keeps_appending(server_factory, tmp_path):
    p = start(server_factory, tmp_path)
    c = p.client()
    c.zadd("lb", {"a": 1})
    c.save()  # dump.rdb has a=1
    c.zadd("lb", {"a": 2, "b": 3})
    crash(p)
    q = start(server_factory, tmp_path)
    assert q.client().zrange("lb", 0, -1, withscores=True) == [(b"a", 2.0), (b"b", 3.0)]
    q.client().zadd("lb", {"c": 4})
    crash(q)
    r = start(server_factory, tmp_path)
    assert r.client().zcard("lb") == 3


def test_expired_keys_are_not_resurrected(server_factory, tmp_path):
    for appendonly in (True, False):
        d = tmp_path / ("log" if appendonly else "snap")
        d.mkdir()
        p = start(server_factory, d, appendonly=appendonly)
        c = p.client()
        c.set("short", "x", px=300)
        c.zadd("zshort", {"m": 1})
        c.pexpire("zshort", 300)
        c.set("long", "y", ex=3600)
        c.save()
        crash(p)
        time.sleep(0.5)
        q = start(server_factory, d, appendonly=appendonly)
        c = q.client()
        assert c.exists("short", "zshort") == 0
        assert c.get("long") == b"y" and 3500 < c.ttl("long") <= 3600


def test_blocked_pop_served_later_replays_as_its_effect(server_factory, tmp_path):
    p = start(server_factory, tmp_path)
    got = []
    t = threading.Thread(target=lambda: got.append(p.client().bzpopmin(["q1", "q2"], 5)))
    t.start()
    wait_until(lambda: p.client().info("clients")["blocked_clients"] == 1)
    c = p.client()
    c.zadd("q2", {"a": 1, "b": 2})
    t.join()
    assert got == [(b"q2", b"a", 1.0)]
    c.zadd("q1", {"z": 0})  # would change what a replayed BZPOPMIN pops
    before = dump(p)
    crash(p)
    assert dump(start(server_factory, tmp_path)) == before


# ------------------------------------------------------ background children ---

def test_bgsave_and_bgrewriteaof_while_writing(server_factory, tmp_path):
    p = start(server_factory, tmp_path)
    stop = threading.Event()
    acked = []

    def writer():
        c = p.client()
        i = 0
        while not stop.is_set():
            c.zadd("w", {"m%d" % i: i})
            acked.append(i)
            i += 1

    t = threading.Thread(target=writer)
    t.start()
    c = p.client()
    c.zadd("big", {"e%d" % i: i for i in range(20000)})
    for _ in range(2):
        assert c.bgsave()
        wait_until(lambda: c.info("persistence")["rdb_bgsave_in_progress"] == 0)
        assert c.info("persistence")["rdb_last_bgsave_status"] == "ok"
        assert c.bgrewriteaof()
        wait_until(lambda: c.info("persistence")["aof_rewrite_in_progress"] == 0
                   and c.info("persistence")["aof_rewrite_scheduled"] == 0)
        assert c.info("persistence")["aof_last_bgrewrite_status"] == "ok"
    stop.set()
    t.join()
    info = c.info("persistence")
    assert info["aof_rewrites"] == 2 and info["rdb_saves"] >= 2
    assert len(os.listdir(tmp_path / "appendonlydir")) == 3  # base, incr, manifest
    before = dump(p)
    crash(p)
    q = start(server_factory, tmp_path)
    assert dump(q) == before
    assert q.client().zcard("w") == len(acked)


def test_bgsave_replies_and_lastsave(server_factory, tmp_path):
    p = start(server_factory, tmp_path, appendonly=False)
    c = p.client()
    c.set("k", "v")
    first = c.lastsave()
    saves = c.info("persistence")["rdb_saves"]
    raw = p.raw()
    assert raw.execute("BGSAVE") == b"Background saving started"
    wait_until(lambda: c.info("persistence")["rdb_bgsave_in_progress"] == 0)
    info = c.info("persistence")
    assert info["rdb_saves"] == saves + 1 and info["rdb_changes_since_last_save"] == 0
    assert c.lastsave() >= first
    with pytest.raises(redis.ResponseError, match="syntax error"):
        c.execute_command("BGSAVE", "NOW")
    assert raw.execute("BGREWRITEAOF") == b"Background append only file rewriting started"
    wait_until(lambda: c.info("persistence")["aof_rewrite_in_progress"] == 0)
    for field in ("loading", "rdb_bgsave_in_progress", "rdb_last_save_time",
                  "rdb_last_bgsave_status", "aof_enabled", "aof_rewrite_in_progress",
                  "aof_last_write_status", "aof_last_bgrewrite_status"):
        assert field in info



def test_fork_counters(server_factory, tmp_path):
    """INFO stats total_forks / latest_fork_usec count BGSAVE and BGREWRITEAOF children
    (full syncs: test_repl_fullsync.py); CONFIG RESETSTAT zeroes both, as Redis 7.0."""
    p = start(server_factory, tmp_path, appendonly=False)
    c = p.client()
    c.set("k", "v")
    stats = c.info("stats")
    assert (stats["total_forks"], stats["latest_fork_usec"]) == (0, 0)
    assert c.bgsave()
    wait_until(lambda: c.info("persistence")["rdb_bgsave_in_progress"] == 0)
    stats = c.info("stats")
    assert stats["total_forks"] == 1 and stats["latest_fork_usec"] > 0
    assert c.bgrewriteaof()
    wait_until(lambda: c.info("persistence")["aof_rewrite_in_progress"] == 0)
    assert c.info("stats")["total_forks"] == 2
    c.config_resetstat()
    stats = c.info("stats")
    assert (stats["total_forks"], stats["latest_fork_usec"]) == (0, 0)


def test_config_set_appendonly_at_runtime(server_factory, tmp_path):
    p = start(server_factory, tmp_path, "--save", "", appendonly=False)
    c = p.client()
    c.zadd("before", {"a": 1})
    c.config_set("appendonly", "yes")
    assert c.info("persistence")["aof_enabled"] == 1
    c.zadd("after", {"b": 2})
    # As Redis, the log counts once its first (background) rewrite is done.
    wait_until(lambda: c.info("persistence")["aof_rewrite_in_progress"] == 0 and
               c.info("persistence")["aof_rewrite_scheduled"] == 0)
    crash(p)
    q = start(server_factory, tmp_path, "--save", "")
    assert q.client().zscore("before", "a") == 1 and q.client().zscore("after", "b") == 2


def test_automatic_rewrite(server_factory, tmp_path):
    p = start(server_factory, tmp_path, "--auto-aof-rewrite-min-size", "64kb",
              "--auto-aof-rewrite-percentage", "50", fsync="everysec")
    c = p.client()
    pipe = c.pipeline(transaction=False)
    for i in range(3000):
        pipe.zadd("lb", {"member:%d" % (i % 100): i})
    pipe.execute()
    wait_until(lambda: c.info("persistence")["aof_rewrites"] >= 1, timeout=10)
    assert c.zcard("lb") == 100


def test_debug_reload_keeps_data_and_encodings(server_factory, tmp_path):
    p = start(server_factory, tmp_path)
    c = p.client()
    c.zadd("small", {"a": 1, "b": 2})
    c.zadd("large", {"m%d" % i: i for i in range(500)})
    c.sadd("ints", 1, 2, 3)
    c.sadd("strs", "x", "y")
    c.set("s", "hello", ex=1000)
    c.hset("hsmall", mapping={"a": 1, "b": "x"})
    c.hset("hlarge", mapping={"f%d" % i: i for i in range(600)})
    c.rpush("list", *["e%d" % i for i in range(5000)])
    before = dump(p)
    enc = {k: c.object("encoding", k)
           for k in (b"small", b"large", b"ints", b"strs", b"hsmall", b"hlarge", b"list")}
    assert c.execute_command("DEBUG", "RELOAD") == b"OK"
    assert dump(p) == before
    assert {k: c.object("encoding", k) for k in enc} == enc
    assert c.execute_command("DEBUG", "LOADAOF") == b"OK"
    assert dump(p) == before


# --------------------------------------------------------- damaged files ---

def test_torn_tail_is_truncated_with_a_log_line(server_factory, tmp_path):
    p = start(server_factory, tmp_path, *RANKD_FORMAT)
    c = p.client()
    for i in range(10):
        c.zadd("lb", {"m%d" % i: i})
    before = dump(p)
    crash(p)
    log = incr_logs(tmp_path)[-1]
    good = os.path.getsize(log)
    with open(log, "ab") as f:  # a record cut short: header says 1000 bytes, 7 follow
        f.write(b"\x11\x22\x33\x44" + (1000).to_bytes(4, "little") + b"\x02" + b"*1\r\n$3\r")
    q = start(server_factory, tmp_path, *RANKD_FORMAT)
    assert dump(q) == before
    assert "16 bytes of a torn last record dropped" in q.log_tail()
    assert os.path.getsize(log) == good


def corrupt_middle_record(path):
    """Flips a byte in the second batch record; returns its offset."""
    data = bytearray(open(path, "rb").read())
    off, records = 0, []
    while off < len(data):
        records.append(off)
        off += 9 + int.from_bytes(data[off + 4:off + 8], "little")
    target = records[2]  # records[0] is the header, [1] the first batch
    data[target + 12] ^= 0x20
    open(path, "wb").write(bytes(data))
    return target


def test_corruption_stops_startup_and_check_aof_repairs(server_factory, tmp_path):
    p = start(server_factory, tmp_path, *RANKD_FORMAT)
    c = p.client()
    for i in range(5):
        c.zadd("lb", {"m%d" % i: i})
    crash(p)
    log = incr_logs(tmp_path)[-1]
    offset = corrupt_middle_record(log)
    error = start_fails(server_factory, tmp_path, *RANKD_FORMAT)
    assert os.path.basename(log) in error and "offset %d" % offset in error
    check = subprocess.run([rankd_binary(), "--check-aof", str(tmp_path / "appendonlydir")],
                           capture_output=True, text=True)
    assert check.returncode == 1 and "CORRUPT" in check.stdout
    fix = subprocess.run([rankd_binary(), "--check-aof", "--fix", str(tmp_path / "appendonlydir")],
                         capture_output=True, text=True)
    assert fix.returncode == 0, fix.stdout
    q = start(server_factory, tmp_path, *RANKD_FORMAT)
    assert q.client().zrange("lb", 0, -1) == [b"m0"]  # the records before the damage


def test_corrupt_snapshot_stops_startup(server_factory, tmp_path):
    p = start(server_factory, tmp_path, appendonly=False)
    p.client().zadd("lb", {"m%d" % i: i for i in range(100)})
    p.client().save()
    crash(p)
    path = tmp_path / "dump.rdb"
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0x01
    path.write_bytes(bytes(data))
    error = start_fails(server_factory, tmp_path, appendonly=False)
    # dump.rdb is an RDB: the damage is found by the structure or the CRC64.
    assert "dump.rdb: RDB: " in error, error
    check = subprocess.run([rankd_binary(), "--check-aof", str(path)], capture_output=True, text=True)
    assert check.returncode == 1 and "CORRUPT" in check.stdout


def test_missing_log_file_named_by_manifest_stops_startup(server_factory, tmp_path):
    p = start(server_factory, tmp_path)
    p.client().set("k", "v")
    crash(p)
    os.remove(incr_logs(tmp_path)[-1])
    # Redis's wording: the file's name, then the errno text.
    assert "No such file or directory" in start_fails(server_factory, tmp_path)


LIB = """#!lua name=ranks
redis.register_function('bump', function(keys, args)
  return redis.call('ZINCRBY', keys[1], args[1], args[2])
end)"""


@pytest.mark.parametrize("via", ["log", "snapshot", "rewrite"])
def test_function_libraries_survive_restart(server_factory, tmp_path, via):
    p = start(server_factory, tmp_path, appendonly=via != "snapshot")
    c = p.client()
    assert c.execute_command("FUNCTION", "LOAD", LIB) == b"ranks"
    c.execute_command("FCALL", "bump", 1, "lb", 5, "alice")
    if via == "snapshot":
        c.save()
    if via == "rewrite":
        c.bgrewriteaof()
        wait_until(lambda: c.info("persistence")["aof_rewrites"] == 1)
    crash(p)
    q = start(server_factory, tmp_path, appendonly=via != "snapshot")
    c = q.client()
    assert c.zscore("lb", "alice") == 5
    assert c.execute_command("FCALL", "bump", 1, "lb", 1, "alice") == b"6"
    c.execute_command("FUNCTION", "DELETE", "ranks")
    crash(q)
    if via != "snapshot":
        r = start(server_factory, tmp_path)
        assert r.client().execute_command("FUNCTION", "LIST") == []


def test_shutdown_save_and_nosave(server_factory, tmp_path):
    p = start(server_factory, tmp_path, "--save", "", appendonly=False)
    p.client().set("k", "1")
    p.client().shutdown(save=True)  # SHUTDOWN SAVE: a snapshot even without save points
    assert p.wait_exit() == 0
    q = start(server_factory, tmp_path, appendonly=False)  # default save points
    assert q.client().get("k") == b"1"
    q.client().set("k", "2")
    q.client().shutdown(nosave=True)
    assert q.wait_exit() == 0
    assert start(server_factory, tmp_path, appendonly=False).client().get("k") == b"1"


def test_flushall_with_save_points_empties_the_snapshot(server_factory, tmp_path):
    p = start(server_factory, tmp_path, appendonly=False)  # default save points
    c = p.client()
    c.set("k", "v")
    c.save()
    c.flushall()
    crash(p)
    assert start(server_factory, tmp_path, appendonly=False).client().dbsize() == 0


def test_flushall_aborts_a_bgsave_without_save_points(server_factory, tmp_path):
    """FLUSHALL kills a running BGSAVE child (its snapshot is of data now
    gone) whether or not save points exist, as redis-server 7.0 does
    (integration/rdb 'Test FLUSHALL aborts bgsave')."""
    p = start(server_factory, tmp_path, "--save", "", appendonly=False)
    c = p.client()
    c.config_set("rdb-key-save-delay", 100000)  # 0.1 s a key: 20 s for 200
    pipe = c.pipeline(transaction=False)
    for i in range(200):
        pipe.set("k%d" % i, i)
    pipe.execute()
    assert c.bgsave()
    assert c.info("persistence")["rdb_bgsave_in_progress"] == 1
    c.flushall()
    wait_until(lambda: c.info("persistence")["rdb_bgsave_in_progress"] == 0, timeout=2)
    info = c.info("persistence")
    # Not a save error (Redis kills the child with SIGUSR1, which it does not count).
    assert info["rdb_changes_since_last_save"] >= 200 and info["rdb_last_bgsave_status"] == "ok"
    assert not os.path.exists(tmp_path / "dump.rdb")
    c.set("x", "xx")  # still writable
