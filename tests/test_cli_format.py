"""cli_format (the fuzzer's command lines, the documentation test's expected output)
checked against redis-cli itself: what it prints for each byte, and what it reads back
from an argument as cli_format writes it."""

import shutil
import subprocess

import pytest

import cli_format

pytestmark = pytest.mark.skipif(not shutil.which("redis-cli"), reason="no redis-cli")

VALUES = [bytes(range(256)), b"plain", b"with space", b"'single'", b'"double"', b"\\", b""]


def redis_cli(port, *argv, stdin=None):
    p = subprocess.run(["redis-cli", "-p", str(port)] + list(argv), input=stdin,
                       capture_output=True, timeout=20)
    assert p.returncode == 0, p.stderr
    return p.stdout


def test_reply_is_what_redis_cli_prints(server):
    with server.raw() as c:
        for v in VALUES:
            assert c.execute("SET", "k", v) == b"OK"
            want = redis_cli(server.port, "--no-raw", "GET", "k").decode()
            assert cli_format.reply(c.execute("GET", "k")) == want
        c.execute("RPUSH", "l", *VALUES[:3])
        want = redis_cli(server.port, "--no-raw", "LRANGE", "l", "0", "-1").decode()
        assert cli_format.reply(c.execute("LRANGE", "l", "0", "-1")) == want


def test_line_reads_back_in_redis_cli(server):
    with server.raw() as c:
        for v in VALUES:
            c.execute("DEL", "k")
            line = cli_format.line(["SET", "k", v]) + "\n"
            redis_cli(server.port, stdin=line.encode())
            assert c.execute("GET", "k") == v, line
