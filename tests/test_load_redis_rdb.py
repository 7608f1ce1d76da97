"""Migration from a Redis dump.rdb (issue 13): a real redis-server 7.0 SAVEs data of
every type in both encodings, with TTLs, several databases and a function library;
rankd loads that file at start with --load-redis-rdb (or finds it as its dbfilename),
then keeps its data in its own format; rankd-check verifies the file and reports a
damaged copy."""

import os
import shutil
import subprocess

import pytest

from server_process import ServerStartError, rankd_binary, reference_redis, target_is_redis
from test_migrate_from_redis import LIBRARY, assert_same, populate

pytestmark = pytest.mark.skipif(target_is_redis(), reason="rankd's loader and checker")


@pytest.fixture(scope="module")
def saved_redis():
    """A stopped-by-nobody redis-server whose dump.rdb holds populate()'s data."""
    proc = reference_redis()
    proc.start()
    c = proc.client()
    populate(c)
    c.function_load(LIBRARY)
    assert c.save()
    path = os.path.join(proc.dir, c.config_get("dbfilename")["dbfilename"])
    yield proc, path
    proc.stop()


def rankd(server_factory, data_dir, *extra, start=True):
    args = ["--dir", str(data_dir)] + [str(a) for a in extra]
    return server_factory(extra_args=args, start=start)


def magic(path):
    with open(path, "rb") as f:
        return f.read(5)


@pytest.mark.parametrize("appendonly", ["no", "yes"])
def test_load_at_start_then_own_format(server_factory, tmp_path, saved_redis, appendonly):
    redis_proc, rdb = saved_redis
    src = redis_proc.client()
    p = rankd(server_factory, tmp_path, "--appendonly", appendonly, "--load-redis-rdb", rdb)
    dst = p.client()
    assert_same(src, dst)
    assert dst.fcall("migrated_add", 1, "z:fn", "m") == 1
    if appendonly == "no":
        assert magic(tmp_path / "dump.rdb") == b"REDIS"  # rankd's dump.rdb, written at once
    dst.set("written-after", "yes")
    if appendonly == "no":
        assert dst.save()
    p.stop()
    # A restart keeps rankd's own data (the Redis file is not loaded again).
    p2 = rankd(server_factory, tmp_path, "--appendonly", appendonly, "--load-redis-rdb", rdb)
    c2 = p2.client()
    assert c2.get("written-after") == b"yes"
    assert c2.exists("z:fn") == 1
    with open(p2.log_path, "rb") as f:
        assert b"Not loading the Redis RDB" in f.read()


def test_dbfilename_holding_a_redis_rdb(server_factory, tmp_path, saved_redis):
    redis_proc, rdb = saved_redis
    shutil.copy(rdb, tmp_path / "dump.rdb")
    p = rankd(server_factory, tmp_path, "--appendonly", "no")
    assert_same(redis_proc.client(), p.client())
    assert p.client().save()
    assert magic(tmp_path / "dump.rdb") == b"REDIS"  # rankd writes RDB too
    redis_check = shutil.which("redis-check-rdb")
    if redis_check:  # and Redis's own checker accepts what it wrote
        out = subprocess.run([redis_check, str(tmp_path / "dump.rdb")], capture_output=True,
                             text=True)
        assert out.returncode == 0 and "RDB looks OK" in out.stdout, out.stdout


def corrupt_copy(rdb, tmp_path):
    data = bytearray(open(rdb, "rb").read())
    data[len(data) // 2] ^= 0x40
    bad = tmp_path / "bad.rdb"
    bad.write_bytes(bytes(data))
    return bad


def test_damaged_file_refuses_to_start(server_factory, tmp_path, saved_redis):
    _, rdb = saved_redis
    bad = corrupt_copy(rdb, tmp_path)
    p = rankd(server_factory, tmp_path / "data", "--load-redis-rdb", bad, start=False)
    os.makedirs(tmp_path / "data")
    with pytest.raises(ServerStartError) as e:
        p.start()
    assert "rankd-check" in str(e.value)
    p2 = rankd(server_factory, tmp_path / "data2", "--load-redis-rdb", tmp_path / "missing.rdb",
               start=False)
    os.makedirs(tmp_path / "data2")
    with pytest.raises(ServerStartError):
        p2.start()


def check_tool():
    return os.path.join(os.path.dirname(rankd_binary()), "rankd-check")


def test_rankd_check_good_and_damaged(tmp_path, saved_redis):
    _, rdb = saved_redis
    for tool in ([check_tool()], [rankd_binary(), "--check-aof"]):
        good = subprocess.run(tool + [rdb], capture_output=True, text=True)
        assert good.returncode == 0, good.stdout
        assert "Redis RDB OK" in good.stdout
        assert "version 0010" in good.stdout and "written by redis 7.0" in good.stdout
        assert "db3: 2 keys" in good.stdout and "1 function libraries" in good.stdout
        assert "checksum verified" in good.stdout
        bad = subprocess.run(tool + [str(corrupt_copy(rdb, tmp_path))], capture_output=True,
                             text=True)
        assert bad.returncode == 1, bad.stdout
        assert "CORRUPT" in bad.stdout
        cut = tmp_path / "cut.rdb"
        cut.write_bytes(open(rdb, "rb").read()[:-100])
        short = subprocess.run(tool + [str(cut)], capture_output=True, text=True)
        assert short.returncode == 1 and "CORRUPT" in short.stdout, short.stdout


def rdb_file(body):
    """An RDB 10 file: header, SELECT 0, `body` (type, key, value ...), EOF, no checksum."""
    return b"REDIS0010" + b"\xfe\x00" + body + b"\xff" + b"\x00" * 8


def test_empty_keys_skipped_and_a_corrupt_value_stops_the_start(server_factory, tmp_path):
    from test_dump_restore import ziplist
    # A set (type 2) of no members, then a string: the set is skipped, and said so.
    (tmp_path / "ok").mkdir()
    (tmp_path / "ok" / "dump.rdb").write_bytes(rdb_file(b"\x02\x01s\x00" + b"\x00\x01k\x01v"))
    p = rankd(server_factory, tmp_path / "ok")
    c = p.client()
    assert c.dbsize() == 1 and c.get("k") == b"v"
    log = p.log_tail()
    assert "skipping empty key: s" in log and "empty keys skipped: 1" in log, log
    # A zset ziplist (type 12) whose tail offset is not its last entry: no start, the
    # checker's report in the log, and Redis's closing words.
    zl = ziplist([b"a", 1], tail=10)
    (tmp_path / "bad").mkdir()
    (tmp_path / "bad" / "dump.rdb").write_bytes(rdb_file(b"\x0c\x01z" + bytes([len(zl)]) + zl))
    bad = rankd(server_factory, tmp_path / "bad", start=False)
    with pytest.raises(ServerStartError) as e:
        bad.start()
    text = str(e.value)
    assert text.count("Zset ziplist integrity check failed") >= 2, text
    assert "Terminating server after rdb file reading failure." in text
