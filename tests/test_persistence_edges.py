"""Durability edges (issue 19): damage in the log's last record, the
aof-load-truncated setting, and background jobs that report what they can
know up front in their reply and the rest in INFO persistence, as Redis.

Helpers come from test_persistence.py. Behaviour: docs/persistence.md.
"""

import os
import subprocess

import pytest

from server_process import rankd_binary, target_is_redis
from test_persistence import RANKD_FORMAT, crash, dump, incr_logs, start, start_fails
from util import wait_until

pytestmark = pytest.mark.skipif(target_is_redis(), reason="rankd's own file formats")


def record_offsets(path):
    data = open(path, "rb").read()
    off, records = 0, []
    while off < len(data):
        records.append(off)
        off += 9 + int.from_bytes(data[off + 4:off + 8], "little")
    return records


def check_aof(*args):
    return subprocess.run([rankd_binary(), "--check-aof", *map(str, args)],
                          capture_output=True, text=True)


@pytest.mark.parametrize("where", ["crc", "length", "type", "payload", "last byte"])
def test_flipped_byte_in_the_last_record_stops_startup(server_factory, tmp_path, where):
    p = start(server_factory, tmp_path, *RANKD_FORMAT)
    c = p.client()
    for i in range(5):
        c.zadd("lb", {"m%d" % i: i})  # each acknowledged, fsynced: one record each
    crash(p)
    log = incr_logs(tmp_path)[-1]
    last = record_offsets(log)[-1]
    data = bytearray(open(log, "rb").read())
    pos = {"crc": last, "length": last + 4, "type": last + 8, "payload": last + 12,
           "last byte": len(data) - 1}[where]
    data[pos] ^= 0x01
    open(log, "wb").write(bytes(data))

    error = start_fails(server_factory, tmp_path, *RANKD_FORMAT)
    assert os.path.basename(log) in error and "offset %d" % last in error, error
    assert "not a torn write" in error or "length damaged" in error, error
    check = check_aof(tmp_path / "appendonlydir")
    assert check.returncode == 1 and "CORRUPT" in check.stdout, check.stdout
    assert os.path.getsize(log) == len(data)  # start-up and the check changed nothing
    fix = check_aof("--fix", tmp_path / "appendonlydir")
    assert fix.returncode == 0, fix.stdout
    q = start(server_factory, tmp_path, *RANKD_FORMAT)
    assert q.client().zrange("lb", 0, -1) == [b"m0", b"m1", b"m2", b"m3"]


def append_torn_record(log):
    with open(log, "ab") as f:  # header says 1000 bytes, 7 follow
        f.write(b"\x11\x22\x33\x44" + (1000).to_bytes(4, "little") + b"\x02" + b"*1\r\n$3\r")


def test_aof_load_truncated_no_refuses_a_torn_tail(server_factory, tmp_path):
    p = start(server_factory, tmp_path, *RANKD_FORMAT)
    p.client().zadd("lb", {"a": 1, "b": 2})
    before = dump(p)
    crash(p)
    log = incr_logs(tmp_path)[-1]
    good = os.path.getsize(log)
    append_torn_record(log)
    error = start_fails(server_factory, tmp_path, *RANKD_FORMAT, "--aof-load-truncated", "no")
    assert "Unexpected end of file" in error and "aof-load-truncated" in error, error
    assert os.path.getsize(log) == good + 16  # not truncated
    q = start(server_factory, tmp_path, *RANKD_FORMAT, "--aof-load-truncated", "yes")
    assert dump(q) == before
    assert os.path.getsize(log) == good
    assert q.client().config_get("aof-load-truncated") == {"aof-load-truncated": "yes"}


# ------------------------------------------------------- background jobs ---

REWRITE_REFUSED = "Can't execute an AOF background rewriting"


def info(c):
    return c.info("persistence")


@pytest.mark.parametrize("appendonly", [False, True])
def test_bgrewriteaof_on_an_unwritable_directory_is_refused_at_once(server_factory, tmp_path,
                                                                   appendonly):
    p = start(server_factory, tmp_path, appendonly=appendonly)
    c = p.client()
    c.zadd("lb", {"a": 1})
    aof_dir = tmp_path / "appendonlydir"
    if aof_dir.exists():  # the running log stays open; the directory is replaced
        os.rename(aof_dir, tmp_path / "moved")
    aof_dir.write_text("a file where the log directory should be")  # unwritable, even for root
    with pytest.raises(Exception) as e:
        c.bgrewriteaof()
    assert REWRITE_REFUSED in str(e.value)
    assert info(c)["aof_last_bgrewrite_status"] == "err"
    assert info(c)["aof_rewrite_scheduled"] == 0 and info(c)["aof_rewrite_in_progress"] == 0
    assert c.zadd("lb", {"b": 2}) == 1  # the server goes on
    # Writable again: the next BGREWRITEAOF starts and succeeds.
    aof_dir.unlink()
    if appendonly:
        os.rename(tmp_path / "moved", aof_dir)
    assert c.bgrewriteaof() in (True, b"Background append only file rewriting started")

    wait_until(lambda: info(c)["aof_rewrite_in_progress"] == 0
               and info(c)["aof_rewrite_scheduled"] == 0, timeout=10)
    assert info(c)["aof_last_bgrewrite_status"] == "ok"


def test_bgsave_failure_shows_in_info(server_factory, tmp_path):
    p = start(server_factory, tmp_path, appendonly=False)
    c = p.client()
    c.set("k", "v")
    os.mkdir(tmp_path / "dump.rdb")  # the child cannot rename its file over a directory
    assert c.bgsave() in (True, b"Background saving started")  # Redis: known only later

    wait_until(lambda: info(c)["rdb_bgsave_in_progress"] == 0, timeout=10)
    assert info(c)["rdb_last_bgsave_status"] == "err"
