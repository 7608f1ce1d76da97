"""Redis 7.0's append-only files (issue 32): rankd starts on the appendonlydir
redis-server left (RESP incrs, an RDB base, an old single appendonly.aof),
keeps appending to a Redis .incr.aof in Redis's format so redis-server can
load the files back (rankd's own files: test_persist_redis_format.py). Also
the crash report and RESTORE of hostile payloads.

Behaviour: docs/persistence.md "Redis's append-only files", docs/file-formats.md
section 4.
"""

import os
import signal

import pytest
import redis

from server_process import ServerStartError, reference_redis, target_is_redis
from test_persistence import dump, start, start_fails
from util import wait_until

pytestmark = pytest.mark.skipif(target_is_redis(), reason="rankd reading Redis's files")


def resp(*args):
    out = b"*%d\r\n" % len(args)
    for a in args:
        a = a if isinstance(a, bytes) else str(a).encode()
        out += b"$%d\r\n%s\r\n" % (len(a), a)
    return out


def write_aof(data_dir, incr_bytes, manifest=b"file appendonly.aof.1.incr.aof seq 1 type i\n"):
    d = os.path.join(str(data_dir), "appendonlydir")
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "appendonly.aof.1.incr.aof"), "wb") as f:
        f.write(incr_bytes)
    with open(os.path.join(d, "appendonly.aof.manifest"), "wb") as f:
        f.write(manifest)
    return os.path.join(d, "appendonly.aof.1.incr.aof")


def manifest_lines(data_dir):
    with open(os.path.join(str(data_dir), "appendonlydir", "appendonly.aof.manifest")) as f:
        return [l.rstrip("\n") for l in f if l.strip()]


def run_redis(data_dir, appendonly="yes"):
    """redis-server 7.0 started on `data_dir`, once it has loaded its files."""
    r = reference_redis(["--dir", str(data_dir), "--appendonly", appendonly,
                         "--appendfsync", "always", "--aof-use-rdb-preamble", "yes", "--save", ""])
    r.start()

    def loaded():
        try:
            return r.client().ping()
        except redis.BusyLoadingError:
            return False
    wait_until(loaded)
    return r


def workload(c):
    c.set("s", "v")
    c.zadd("z", {"a": 1.5, "b": -2})
    c.hset("h", mapping={"f": "1", "g": "2"})
    c.rpush("l", "x", "y", "z")
    c.sadd("st", "m1", "m2")
    c.set("ttl", "t", px=3_600_000)
    pipe = c.pipeline(transaction=True)
    pipe.incr("n")
    pipe.incr("n")
    pipe.execute()
    c3 = redis.Redis(host=c.connection_pool.connection_kwargs["host"],
                     port=c.connection_pool.connection_kwargs["port"], db=3)
    c3.set("in3", "yes")
    c.eval("redis.call('set', KEYS[1], 'a'); redis.call('append', KEYS[1], 'b')", 1, "scr")


def test_redis_files_round_trip_through_rankd(server_factory, tmp_path):
    # redis-server writes a multi-part AOF with an RDB base and a RESP incr.
    r = run_redis(tmp_path)
    c = r.client()
    workload(c)
    assert c.bgrewriteaof()
    wait_until(lambda: c.info("persistence")["aof_rewrite_in_progress"] == 0 and
               c.info("persistence")["aof_rewrite_scheduled"] == 0)
    c.set("after-rewrite", "1")
    c.zincrby("z", 2, "a")
    before = dump(r)
    r.stop()
    assert any(".base.rdb" in l for l in manifest_lines(tmp_path))

    # rankd loads them and appends in Redis's format.
    p = start(server_factory, tmp_path)
    assert dump(p) == before
    q = p.client()
    q.set("from-rankd", "1")
    pipe = q.pipeline(transaction=True)
    pipe.zadd("z", {"c": 3})
    pipe.delete("s")
    pipe.execute()
    redis.Redis(port=p.port, db=5).set("in5", "x")
    after = dump(p)
    p.stop()
    assert not any(l.split()[1].endswith((".snap", ".log")) for l in manifest_lines(tmp_path))

    # redis-server reads what rankd wrote; so does rankd again.
    r2 = run_redis(tmp_path)
    assert dump(r2) == after
    r2.stop()
    p2 = start(server_factory, tmp_path)
    assert dump(p2) == after

    # A rewrite writes Redis's files too (an RDB base, a RESP incr) and drops
    # the old ones; redis-server and rankd both read the result.
    assert p2.client().bgrewriteaof()
    wait_until(lambda: p2.client().info("persistence")["aof_rewrite_in_progress"] == 0 and
               p2.client().info("persistence")["aof_rewrites"] == 1)
    p2.client().set("after-rankd-rewrite", "1")
    after = dump(p2)
    lines = manifest_lines(tmp_path)
    assert lines[0].endswith("type b") and lines[0].split()[1].endswith(".base.rdb"), lines
    assert lines[-1].split()[1].endswith(".incr.aof"), lines
    names = os.listdir(tmp_path / "appendonlydir")
    assert len([n for n in names if n.endswith((".aof", ".rdb"))]) == len(lines), names
    p2.stop()
    r3 = run_redis(tmp_path)
    assert dump(r3) == after
    r3.stop()
    assert dump(start(server_factory, tmp_path)) == after


def test_old_single_file_aof_is_adopted(server_factory, tmp_path):
    (tmp_path / "appendonly.aof").write_bytes(
        b"#TS:1628217470\r\n" + resp("set", "k1", "v1") + resp("select", 2) +
        resp("set", "k2", "v2") + b"#TS:1628217471\r\n")
    p = start(server_factory, tmp_path)
    assert p.client().get("k1") == b"v1"
    assert redis.Redis(port=p.port, db=2).get("k2") == b"v2"
    assert not (tmp_path / "appendonly.aof").exists()
    assert (tmp_path / "appendonlydir" / "appendonly.aof").exists()
    assert manifest_lines(tmp_path) == ["file appendonly.aof seq 1 type b",
                                        "file appendonly.aof.1.incr.aof seq 1 type i"]
    p.client().set("k3", "v3")
    p.stop()
    r = run_redis(tmp_path)
    assert r.client().mget("k1", "k3") == [b"v1", b"v3"]
    r.stop()


def test_torn_redis_aof_is_truncated_like_redis(server_factory, tmp_path):
    whole = resp("incr", "foo") * 3
    path = write_aof(tmp_path, whole + resp("multi") + resp("incr", "foo") +
                     resp("incr", "foo")[:-3])
    assert "Unexpected end of file reading the append only file" in start_fails(
        server_factory, tmp_path, "--aof-load-truncated", "no")
    p = start(server_factory, tmp_path, "--aof-load-truncated", "yes")
    assert p.client().get("foo") == b"3"  # the cut-short MULTI block is dropped whole
    assert os.path.getsize(path) == len(whole)
    assert "short read while loading the AOF file" in p.log_tail()


@pytest.mark.parametrize("content,message", [
    (resp("set", "a", "b") + b"!!!" + resp("set", "a", "c"),
     "Bad file format reading the append only file"),
    (resp("set", "a", "b") + resp("bla", "x"), "Unknown command 'bla' reading the append only file"),
])
def test_damaged_redis_aof_stops_startup(server_factory, tmp_path, content, message):
    write_aof(tmp_path, content)
    assert message in start_fails(server_factory, tmp_path)


@pytest.mark.parametrize("manifest,message", [
    (b"", "Found an empty AOF manifest"),
    (b"file appendonly.aof.1.incr.aof seq 1 type i\n\n", "Invalid AOF manifest file format"),
    (b"file appendonly.aof.1.incr.aof seq 1 type x\n", "Unknown AOF file type"),
    (b"file a.1.base.aof seq 1 type b\nfile b.2.base.aof seq 2 type b\n",
     "Found duplicate base file information"),
    (b"file appendonly.aof.1.incr.aof seq 2 type i\nfile x.aof seq 1 type i\n",
     "Found a non-monotonic sequence number"),
    (b"file appendonly.aof.2.incr.aof seq 2 type i\n", "No such file or directory"),
])
def test_bad_manifest_messages_match_redis(server_factory, tmp_path, manifest, message):
    write_aof(tmp_path, resp("set", "a", "b"), manifest)
    assert message in start_fails(server_factory, tmp_path)


@pytest.mark.parametrize("how", ["DEBUG SEGFAULT", "SIGABRT"])
def test_crash_report_in_the_log(server_factory, tmp_path, how):
    p = server_factory(extra_args=["--enable-debug-command", "yes"])
    if how == "SIGABRT":
        os.kill(p.proc.pid, signal.SIGABRT)
    else:
        with pytest.raises(redis.ConnectionError):
            p.client().execute_command("DEBUG", "SEGFAULT")
    p.proc.wait(10)
    assert p.proc.returncode == -(signal.SIGABRT if how == "SIGABRT" else signal.SIGSEGV)
    log = p.log_tail(20000)
    assert "crashed by signal" in log and "------ STACK TRACE ------" in log, log
    assert "rankd::" in log or "_ZN5rankd" in log  # symbols are exported


# "invalid zlbytes header" of Redis's corrupt-dump unit: a hash ziplist
# whose header counts more bytes than it has.
BAD_ZLBYTES = (b"\x0D\x1B\x25\x00\x00\x00\x16\x00\x00\x00\x04\x00\x00\x02\x61\x00\x04\x02\x62"
               b"\x00\x04\x02\x63\x00\x04\x02\x64\x00\xFF\x09\x00\xB7\xF7\x6E\x9F\x43\x43\x14\xC6")


def test_restore_of_a_bad_ziplist_is_refused_as_redis(server_factory):
    ref = reference_redis(["--sanitize-dump-payload", "yes", "--enable-debug-command", "yes"])
    ref.start()
    try:
        p = server_factory(extra_args=["--enable-debug-command", "yes"])
        for s in (ref, p):
            with pytest.raises(redis.ResponseError, match="Bad data format"):
                s.client().restore("key", 0, BAD_ZLBYTES)
        assert "integrity check failed" in p.log_tail()
        # A wrong checksum is refused unless DEBUG SET-SKIP-CHECKSUM-VALIDATION.
        good = ref.client().dump("nokey") or None
        ref.client().hset("h", "f", "v")
        payload = bytearray(ref.client().dump("h"))
        payload[-1] ^= 0xFF
        for s in (ref, p):
            c = s.client()
            with pytest.raises(redis.ResponseError, match="checksum"):
                c.restore("h2", 0, bytes(payload))
            assert c.execute_command("DEBUG", "SET-SKIP-CHECKSUM-VALIDATION", "1")
            assert c.restore("h2", 0, bytes(payload))
            assert c.hgetall("h2") == {b"f": b"v"}
        assert good is None
    finally:
        ref.stop()
