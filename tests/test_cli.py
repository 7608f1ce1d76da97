"""Real tools against the server: redis-cli (formatted, --raw, RESP3, --pipe) and
redis-benchmark."""

import shutil
import subprocess

import pytest

from resp_client import encode_command

REDIS_CLI = shutil.which("redis-cli") or "/usr/bin/redis-cli"
REDIS_BENCHMARK = shutil.which("redis-benchmark") or "/usr/bin/redis-benchmark"

pytestmark = pytest.mark.skipif(not shutil.which("redis-cli"), reason="redis-cli not installed")


def cli(server, *args, stdin=None, timeout=30):
    cmd = [REDIS_CLI, "-h", server.host, "-p", str(server.port)] + [str(a) for a in args]
    proc = subprocess.run(cmd, input=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          timeout=timeout)
    return proc.returncode, proc.stdout.decode(), proc.stderr.decode()


def test_cli_formatted_replies(server, r):
    assert cli(server, "--no-raw", "PING") == (0, "PONG\n", "")
    assert cli(server, "--no-raw", "SET", "k", "a b") == (0, "OK\n", "")
    assert cli(server, "--no-raw", "GET", "k") == (0, '"a b"\n', "")
    assert cli(server, "--no-raw", "GET", "nokey") == (0, "(nil)\n", "")
    assert cli(server, "--no-raw", "INCR", "n") == (0, "(integer) 1\n", "")
    assert cli(server, "--no-raw", "MGET", "k", "nokey") == (0, '1) "a b"\n2) (nil)\n', "")
    rc, out, _ = cli(server, "--no-raw", "FOO", "a")
    assert out == "(error) ERR unknown command 'FOO', with args beginning with: 'a' \n"


def test_cli_raw_output(server, r):
    r.set("k", "hello world")
    assert cli(server, "--raw", "GET", "k") == (0, "hello world\n", "")
    assert cli(server, "--raw", "INCR", "n") == (0, "1\n", "")
    assert cli(server, "--raw", "MGET", "k", "n") == (0, "hello world\n1\n", "")
    assert cli(server, "--raw", "GET", "nokey") == (0, "\n", "")


def test_cli_error_exit_code_with_e(server):
    rc, out, _ = cli(server, "-e", "FOO")
    assert rc == 1
    assert "ERR unknown command 'FOO'" in out + _


def test_cli_resp3(server, r):
    rc, out, _ = cli(server, "-3", "--no-raw", "HELLO", "3")
    assert rc == 0
    assert '"proto" => (integer) 3' in out
    assert cli(server, "-3", "--no-raw", "GET", "nokey") == (0, "(nil)\n", "")
    assert cli(server, "-3", "--no-raw", "INCRBYFLOAT", "f", "1.5") == (0, '"1.5"\n', "")


def test_cli_stdin_commands(server, r):
    rc, out, _ = cli(server, stdin=b"SET p1 v1\nGET p1\n")
    assert rc == 0 and out == "OK\nv1\n"


def test_cli_info_and_dbsize(server, r):
    r.set("a", 1)
    rc, out, _ = cli(server, "INFO", "keyspace")
    assert rc == 0 and "db0:keys=1" in out
    assert cli(server, "--no-raw", "DBSIZE") == (0, "(integer) 1\n", "")
    assert cli(server, "-n", "3", "--no-raw", "SET", "in3", "v") == (0, "OK\n", "")
    assert cli(server, "-n", "3", "--no-raw", "DBSIZE") == (0, "(integer) 1\n", "")


def test_cli_pipe_mode(server, r):
    data = b"".join(encode_command("SET", "p%d" % i, i) for i in range(5000))
    rc, out, _ = cli(server, "--pipe", stdin=data, timeout=60)
    assert rc == 0
    assert "errors: 0, replies: 5000" in out
    assert r.dbsize() == 5000
    assert r.get("p4999") == b"4999"


def test_cli_scan_and_keys(server, r):
    r.mset({"user:%d" % i: i for i in range(50)})
    rc, out, _ = cli(server, "--scan", "--pattern", "user:1*")
    assert rc == 0
    assert sorted(out.split()) == sorted("user:%d" % i for i in range(50) if str(i).startswith("1"))


@pytest.mark.skipif(not shutil.which("redis-benchmark"), reason="redis-benchmark not installed")
def test_redis_benchmark_runs(server):
    proc = subprocess.run([REDIS_BENCHMARK, "-h", server.host, "-p", str(server.port),
                           "-n", "1000", "-q", "-t", "ping,set,get"],
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=120)
    out = proc.stdout.decode(errors="replace")
    assert proc.returncode == 0, out
    for test in ("PING_INLINE", "PING_MBULK", "SET", "GET"):
        assert test + ":" in out, out


@pytest.mark.skipif(not shutil.which("redis-benchmark"), reason="redis-benchmark not installed")
def test_redis_benchmark_pipelined_csv(server):
    proc = subprocess.run([REDIS_BENCHMARK, "-h", server.host, "-p", str(server.port),
                           "-n", "2000", "-P", "16", "-c", "10", "--csv", "-t", "set,get"],
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=120)
    out = proc.stdout.decode(errors="replace")
    assert proc.returncode == 0, out
    assert '"SET"' in out and '"GET"' in out
