"""A stock redis.conf starts rankd (issue 19).

Debian's /etc/redis/redis.conf (redis-server 7.0), copied with only port,
dir, pidfile and logfile changed so the test can run, every other line
kept (daemonize yes, bind 127.0.0.1 -::1, protected-mode yes, ...). The same
test runs against redis-server with RANKD_TARGET_REDIS=1. Settings rankd
refuses because ignoring them would be unsafe are checked too.
"""

import os
import re
import signal
import subprocess
import time

import pytest
import redis

from server_process import free_port, target_is_redis, under_test_binary
from util import wait_until

STOCK = "/etc/redis/redis.conf"
pytestmark = pytest.mark.skipif(not os.path.exists(STOCK), reason="no stock redis.conf")


def stock_config(tmp_path, port, extra=""):
    text = open(STOCK).read()
    for name, value in [("port", str(port)), ("dir", str(tmp_path)),
                        ("pidfile", str(tmp_path / "server.pid")),
                        ("logfile", str(tmp_path / "server.log"))]:
        text, n = re.subn(r"(?m)^%s .*$" % name, "%s %s" % (name, value), text)
        assert n == 1, name
    path = tmp_path / "redis.conf"
    path.write_text(text + extra)
    return path


def test_stock_redis_conf_starts_daemonized_and_serves(tmp_path):
    port = free_port()
    conf = stock_config(tmp_path, port)
    # daemonize yes: the launched process exits 0 at once, the server lives on.
    assert subprocess.run([under_test_binary(), str(conf)], timeout=30).returncode == 0
    pidfile = tmp_path / "server.pid"
    wait_until(lambda: pidfile.exists() and pidfile.read_text().strip(), timeout=10)
    pid = int(pidfile.read_text())
    try:
        c = redis.Redis(host="127.0.0.1", port=port, socket_timeout=10)
        wait_until(lambda: _ping(c), timeout=10)
        assert c.zadd("lb", {"alice": 10, "bob": 20}) == 2
        assert c.zrange("lb", 0, -1, withscores=True) == [(b"alice", 10.0), (b"bob", 20.0)]
        got = c.config_get("aof-load-truncated")
        assert got == {"aof-load-truncated": "yes"}
        assert c.config_get("aof-use-rdb-preamble") == {"aof-use-rdb-preamble": "yes"}
        assert c.config_get("hz") == {"hz": "10"}
        assert c.config_get("jemalloc-bg-thread") == {"jemalloc-bg-thread": "yes"}
        assert c.config_get("tls-port") == {"tls-port": "0"}
        assert c.config_get("maxmemory") == {"maxmemory": "0"}
        try:
            c.shutdown(nosave=True)
        except redis.exceptions.ConnectionError:
            pass
        wait_until(lambda: not os.path.exists("/proc/%d" % pid) or
                   open("/proc/%d/stat" % pid).read().split()[2] == "Z", timeout=10)
        assert not pidfile.exists(), "the pid file is removed at a clean exit"
    finally:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


def start_fails(tmp_path, extra):
    port = free_port()
    conf = stock_config(tmp_path, port, "\ndaemonize no\n" + extra + "\n")
    p = subprocess.run([under_test_binary(), str(conf)], capture_output=True, text=True,
                       timeout=30)
    log = (tmp_path / "server.log").read_text() if (tmp_path / "server.log").exists() else ""
    return p.returncode, p.stdout + p.stderr + log


@pytest.mark.skipif(target_is_redis(), reason="rankd's refusals")
@pytest.mark.parametrize("line,reason", [
    ("loadmodule /usr/lib/redis/modules/x.so", "modules"),
])
def test_settings_unsafe_to_ignore_stop_startup_with_a_reason(tmp_path, line, reason):
    rc, out = start_fails(tmp_path, line)
    assert rc != 0 and reason in out, out


def test_cluster_enabled_starts_a_cluster_node(tmp_path):
    """cluster-enabled yes in a stock redis.conf: a cluster node (issue 29), alone at first,
    with its nodes.conf written in the data directory."""
    port = free_port()
    conf = stock_config(tmp_path, port, "\ndaemonize no\ncluster-enabled yes\n"
                        "cluster-port %d\n" % free_port())
    p = subprocess.Popen([under_test_binary(), str(conf)])
    try:
        c = redis.Redis(host="127.0.0.1", port=port, socket_timeout=10)
        wait_until(lambda: _ping(c), timeout=10)
        assert c.info("cluster")["cluster_enabled"] == 1
        assert b"cluster_known_nodes:1\r\n" in c.execute_command("CLUSTER", "INFO")
        wait_until(lambda: (tmp_path / "nodes.conf").exists(), timeout=10)
    finally:
        p.kill()
        p.wait(10)


@pytest.mark.skipif(target_is_redis(), reason="rankd's warnings")
def test_promises_rankd_does_not_keep_are_logged_at_startup(tmp_path):
    port = free_port()
    conf = stock_config(tmp_path, port, "\ndaemonize no\nmaxmemory 100mb\n"
                        "maxmemory-policy allkeys-lru\nsupervised systemd\n")
    p = subprocess.Popen([under_test_binary(), str(conf)])
    try:
        c = redis.Redis(host="127.0.0.1", port=port, socket_timeout=10)
        wait_until(lambda: _ping(c), timeout=10)
        log = (tmp_path / "server.log").read_text()
        assert "maxmemory" not in log, log  # enforced: nothing to warn about
        assert "supervised systemd is not implemented" in log, log
    finally:
        p.kill()
        p.wait(10)


def test_include_reads_another_file(tmp_path):
    port = free_port()
    (tmp_path / "local.conf").write_text("zset-max-listpack-entries 7\nhz 20\n")
    conf = stock_config(tmp_path, port, "\ndaemonize no\ninclude %s\n" % (tmp_path / "local.conf"))
    p = subprocess.Popen([under_test_binary(), str(conf)])
    try:
        c = redis.Redis(host="127.0.0.1", port=port, socket_timeout=10)
        wait_until(lambda: _ping(c), timeout=10)
        assert c.config_get("zset-max-listpack-entries") == {"zset-max-listpack-entries": "7"}
        assert c.config_get("hz") == {"hz": "20"}
    finally:
        p.kill()
        p.wait(10)


def _ping(c):
    try:
        return c.ping()
    except redis.exceptions.ConnectionError:
        return False
