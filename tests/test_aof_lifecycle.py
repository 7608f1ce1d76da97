"""The append-only directory's life as Redis 7.0 runs it (issue 32): turning
the log on at run time through a background rewrite and a temporary incr,
a rewrite with the log off (a base alone), history files under
aof-disable-auto-gc, BGREWRITEAOF inside MULTI, what the incr records for
GETEX PERSIST and PUBLISH, keys found expired at load, SHUTDOWN during the
first rewrite, and redis-cli --functions-rdb (REPLCONF rdb-filter-only).

Runs against redis-server too (RANKD_TARGET_REDIS=1): the expectations are
7.0.15's. Behaviour: docs/persistence.md ("Turning it on and off", "Log
rewrite").
"""

import os
import shutil
import signal
import subprocess
import time

import pytest
import redis

from util import wait_until


def start(server_factory, tmp_path, *extra, appendonly="no"):
    args = ["--dir", str(tmp_path), "--appendonly", appendonly, "--save", "",
            "--enable-debug-command", "yes"] + [str(a) for a in extra]
    return server_factory(extra_args=args)


def manifest(tmp_path):
    path = tmp_path / "appendonlydir" / "appendonly.aof.manifest"
    return path.read_text().splitlines() if path.exists() else None


def aof_files(tmp_path):
    return sorted(os.listdir(tmp_path / "appendonlydir"))


def persistence(c, field):
    return c.info("persistence")[field]


def rewrite_done(c):
    return persistence(c, "aof_rewrite_in_progress") == 0 and \
        persistence(c, "aof_rewrite_scheduled") == 0


def child_pid(p):
    out = subprocess.run(["pgrep", "-P", str(p.pid)], capture_output=True, text=True).stdout
    return int(out.split()[0]) if out.split() else None


def test_turning_the_log_on_rewrites_in_the_background(server_factory, tmp_path):
    p = start(server_factory, tmp_path)
    c = p.client()
    c.set("before", "1")
    c.config_set("rdb-key-save-delay", 1_000_000)  # the child writes 1 key a second
    c.config_set("appendonly", "yes")
    # The base comes from a child; writes meanwhile wait in a temporary incr
    # and the manifest is not written until the child succeeds.
    assert persistence(c, "aof_rewrite_in_progress") == 1
    assert persistence(c, "aof_enabled") == 1
    assert "temp-appendonly.aof.incr" in aof_files(tmp_path)
    assert manifest(tmp_path) is None
    c.set("during", "2")
    c.config_set("rdb-key-save-delay", 0)
    os.kill(child_pid(p), signal.SIGKILL)  # the first attempt fails ...
    # aof_rewrites counts the children started: the failed one and the retry.
    wait_until(lambda: persistence(c, "aof_rewrites") == 2 and rewrite_done(c), timeout=10)
    # ... its temporary incr is dropped; the retry's fork holds "during".
    assert manifest(tmp_path) == ["file appendonly.aof.1.base.rdb seq 1 type b",
                                  "file appendonly.aof.1.incr.aof seq 1 type i"]
    c.set("after", "3")
    c.execute_command("DEBUG", "LOADAOF")
    assert [c.get(k) for k in ("before", "during", "after")] == [b"1", b"2", b"3"]
    assert persistence(c, "rdb_changes_since_last_save") == 0


def test_turning_the_log_on_during_bgsave_waits_for_it(server_factory, tmp_path):
    p = start(server_factory, tmp_path)
    c = p.client()
    c.set("k1", "v1")
    c.config_set("rdb-key-save-delay", 1_000_000)
    assert c.bgsave()
    c.config_set("appendonly", "yes")
    assert persistence(c, "aof_rewrite_scheduled") == 1
    assert persistence(c, "aof_rewrite_in_progress") == 0
    forks = c.info("stats")["total_forks"]
    c.config_set("rdb-key-save-delay", 0)
    os.kill(child_pid(p), signal.SIGKILL)
    wait_until(lambda: c.info("stats")["total_forks"] == forks + 1 and rewrite_done(c),
               timeout=10)
    assert manifest(tmp_path) == ["file appendonly.aof.1.base.rdb seq 1 type b",
                                  "file appendonly.aof.1.incr.aof seq 1 type i"]


def test_history_files_and_a_rewrite_with_the_log_off(server_factory, tmp_path):
    p = start(server_factory, tmp_path, appendonly="yes")
    c = p.client()
    c.set("k", "v")
    c.config_set("aof-disable-auto-gc", "yes")
    for _ in range(2):
        assert c.bgrewriteaof()
        wait_until(lambda: rewrite_done(c))
    # Replaced files stay, newest first, as "type h" between base and incr.
    assert manifest(tmp_path) == ["file appendonly.aof.3.base.rdb seq 3 type b",
                                  "file appendonly.aof.2.incr.aof seq 2 type h",
                                  "file appendonly.aof.2.base.rdb seq 2 type h",
                                  "file appendonly.aof.1.incr.aof seq 1 type h",
                                  "file appendonly.aof.1.base.rdb seq 1 type h",
                                  "file appendonly.aof.3.incr.aof seq 3 type i"]
    assert "appendonly.aof.1.base.rdb" in aof_files(tmp_path)
    c.config_set("aof-disable-auto-gc", "no")  # collected at once
    assert manifest(tmp_path) == ["file appendonly.aof.3.base.rdb seq 3 type b",
                                  "file appendonly.aof.3.incr.aof seq 3 type i"]
    wait_until(lambda: aof_files(tmp_path) == ["appendonly.aof.3.base.rdb",
                                               "appendonly.aof.3.incr.aof",
                                               "appendonly.aof.manifest"])
    # With the log off a rewrite writes a base alone.
    c.config_set("appendonly", "no")
    assert c.bgrewriteaof()
    wait_until(lambda: rewrite_done(c))
    assert manifest(tmp_path) == ["file appendonly.aof.4.base.rdb seq 4 type b"]
    wait_until(lambda: aof_files(tmp_path) == ["appendonly.aof.4.base.rdb",
                                               "appendonly.aof.manifest"])
    c.set("k", "changed")
    c.execute_command("DEBUG", "LOADAOF")
    assert c.get("k") == b"v"


def test_bgrewriteaof_inside_multi_is_scheduled(server_factory, tmp_path):
    p = start(server_factory, tmp_path)
    c = p.client()
    c.set_response_callback("BGREWRITEAOF", lambda r, **kw: r)  # the status text as sent
    pipe = c.pipeline(transaction=True)
    pipe.set("foo", "bar")
    pipe.bgrewriteaof()
    res = pipe.execute()
    assert res[1] == b"Background append only file rewriting scheduled"
    wait_until(lambda: c.info("stats")["total_forks"] >= 1 and rewrite_done(c))
    assert manifest(tmp_path) == ["file appendonly.aof.1.base.rdb seq 1 type b"]


def test_incr_records_getex_persist_and_not_publish(server_factory, tmp_path):
    p = start(server_factory, tmp_path, appendonly="yes")
    c = p.client()
    c.set("foo", "bar", ex=100)
    c.execute_command("GETEX", "foo", "PERSIST")
    c.publish("chan", "msg")
    c.set("last", "1")
    c.execute_command("DEBUG", "LOADAOF")  # flushes the incr first
    assert c.ttl("foo") == -1
    incr = (tmp_path / "appendonlydir" / "appendonly.aof.1.incr.aof").read_bytes()
    assert b"$7\r\nPERSIST\r\n$3\r\nfoo\r\n" in incr.replace(b"persist", b"PERSIST"), incr
    assert b"chan" not in incr


def test_keys_expired_while_down_count_at_load(server_factory, tmp_path):
    p = start(server_factory, tmp_path)
    c = p.client()
    c.execute_command("DEBUG", "SET-ACTIVE-EXPIRE", 0)
    for i in range(32):
        c.set("live%d" % i, "v")
        c.set("gone%d" % i, "v", px=10)
    time.sleep(0.05)
    assert c.save()
    p.stop()
    q = start(server_factory, tmp_path)
    info = q.client().info("persistence")
    assert (info["rdb_last_load_keys_loaded"], info["rdb_last_load_keys_expired"]) == (32, 32)
    assert q.client().dbsize() == 32


def test_shutdown_refused_while_the_first_rewrite_runs(server_factory, tmp_path):
    p = start(server_factory, tmp_path)
    c = p.client()
    c.set("k", "v")
    c.config_set("rdb-key-save-delay", 30_000_000)
    c.config_set("appendonly", "yes")
    try:
        c.shutdown()
        raise AssertionError("SHUTDOWN should have been refused")
    except redis.ResponseError as e:
        assert "Errors trying to SHUTDOWN" in str(e)
    assert c.ping()
    with pytest.raises(redis.ConnectionError):
        c.execute_command("SHUTDOWN", "NOSAVE", "FORCE")


def test_functions_only_rdb(server_factory, tmp_path):
    cli = shutil.which("redis-cli")
    if not cli:
        pytest.skip("redis-cli is not installed")
    p = start(server_factory, tmp_path)
    c = p.client()
    c.set("k", "v")
    c.function_load("#!lua name=lib1\nredis.register_function('f1', function() return 1 end)")
    with pytest.raises(redis.ResponseError, match="Unsupported rdb-filter-only option: keys"):
        c.execute_command("REPLCONF", "rdb-filter-only", "keys")
    out = subprocess.run([cli, "-p", str(p.port), "--functions-rdb", str(tmp_path / "f.rdb")],
                         capture_output=True, text=True, timeout=30)
    assert "Transfer finished with success" in out.stdout + out.stderr, out
    other = tmp_path / "other"
    other.mkdir()
    (tmp_path / "f.rdb").rename(other / "dump.rdb")
    q = start(server_factory, other)
    assert q.client().dbsize() == 0
    assert q.client().fcall("f1", 0) == 1


def test_bgsave_child_reports_progress(server_factory, tmp_path):
    p = start(server_factory, tmp_path)
    c = p.client()
    pipe = c.pipeline(transaction=False)
    for i in range(2100):
        pipe.set("key%d" % i, "v" * 100)
    pipe.execute()
    assert persistence(c, "current_save_keys_total") == 0
    c.config_set("rdb-key-save-delay", 700)  # microseconds a key: about 1.5 s
    assert c.bgsave()
    info = wait_until(lambda: (lambda i: i if i["current_save_keys_processed"] > 0 else None)(
        c.info("persistence")))
    assert info["current_save_keys_total"] == 2100
    assert 0 < info["current_fork_perc"] <= 100
    c.config_set("rdb-key-save-delay", 0)
    wait_until(lambda: persistence(c, "rdb_bgsave_in_progress") == 0)
    assert persistence(c, "current_save_keys_total") == 0
