"""The documentation's examples run (issue 33): every fenced block of README.md and docs/
says what it is (tests/doc_blocks.py), and each runnable one is executed against a
started rankd, so no example drifts from the binary.

  python   run with /usr/bin/python3 (redis-py), after FLUSHALL
  js       run with node and ioredis (tests/js, shared with the cluster client test; installed by the npm_modules fixture,
           skipped when node, npm or the registry is missing)
"""

import os
import shutil
import subprocess

import pytest

import doc_blocks
from server_process import target_is_redis

pytestmark = pytest.mark.skipif(target_is_redis(), reason="rankd's documentation")

NODE_DIR = os.path.join(doc_blocks.ROOT, "tests", "js")
BLOCKS = doc_blocks.all_blocks()


def of_kind(kind):
    return [pytest.param(b, id=b.id) for b in BLOCKS if b.kind == kind and "no-run" not in b.flags]


def with_port(text, port):
    return text.replace("6379", str(port))


def flush(server):
    with server.raw() as c:
        assert c.execute("FLUSHALL") == b"OK"


def run(argv, env=None, timeout=60):
    p = subprocess.run(argv, capture_output=True, text=True, timeout=timeout, env=env)
    return p.returncode, p.stdout + p.stderr


def test_every_block_says_what_it_is():
    unmarked = [b.id for b in BLOCKS
                if b.kind not in doc_blocks.RUNNABLE | doc_blocks.NOT_RUN]
    assert unmarked == [], "blocks without a known info string (doc_blocks.py): %s" % unmarked


@pytest.mark.parametrize("block", of_kind("python"))
def test_python_block(server, block, tmp_path):
    flush(server)
    script = tmp_path / "example.py"
    script.write_text(with_port(block.text, server.port))
    rc, out = run(["/usr/bin/python3", str(script)])
    assert rc == 0, "%s failed:\n%s" % (block.id, out)


@pytest.fixture(scope="session")
def node_modules():
    """tests/node/node_modules with ioredis, installed on first use."""
    if not shutil.which("node"):
        pytest.skip("node is not installed")
    have = os.path.isdir(os.path.join(NODE_DIR, "node_modules", "ioredis"))
    if not have and shutil.which("npm"):
        try:
            subprocess.run(["npm", "install", "--no-audit", "--no-fund", "--silent"],
                           cwd=NODE_DIR, capture_output=True, timeout=180)
        except subprocess.TimeoutExpired:
            pass
        have = os.path.isdir(os.path.join(NODE_DIR, "node_modules", "ioredis"))
    if not have:
        pytest.skip("ioredis could not be installed into tests/js (npm install)")
    return os.path.join(NODE_DIR, "node_modules")


@pytest.mark.parametrize("block", of_kind("js"))
def test_js_block(server, block, node_modules, tmp_path):
    flush(server)
    script = tmp_path / "example.js"
    script.write_text(with_port(block.text, server.port))
    env = dict(os.environ, NODE_PATH=node_modules)
    rc, out = run(["node", str(script)], env=env)
    assert rc == 0, "%s failed:\n%s" % (block.id, out)


# ---- redis-cli sessions and shell lines ----------------------------------------------

import re
import shlex
import socket

PROMPT = re.compile(r"^(?:127\.0\.0\.1:\d+(?:\[\d+\])?)?> (.*)$")


def encode(args):
    out = [b"*%d\r\n" % len(args)]
    for a in args:
        a = a.encode() if isinstance(a, str) else a
        out.append(b"$%d\r\n%s\r\n" % (len(a), a))
    return b"".join(out)


class Session:
    """One connection, replies kept with their RESP2 type (status vs bulk matters to
    redis-cli's output)."""

    def __init__(self, port):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        self.buf = b""

    def close(self):
        self.sock.close()

    def _line(self):
        while b"\r\n" not in self.buf:
            chunk = self.sock.recv(65536)
            assert chunk, "connection closed"
            self.buf += chunk
        line, self.buf = self.buf.split(b"\r\n", 1)
        return line

    def _exact(self, n):
        while len(self.buf) < n + 2:
            chunk = self.sock.recv(65536)
            assert chunk, "connection closed"
            self.buf += chunk
        data, self.buf = self.buf[:n], self.buf[n + 2:]
        return data

    def read(self):
        line = self._line()
        t, rest = line[:1], line[1:]
        if t == b"+":
            return ("status", rest)
        if t == b"-":
            return ("error", rest)
        if t == b":":
            return ("int", int(rest))
        if t == b"$":
            return ("nil", None) if int(rest) < 0 else ("bulk", self._exact(int(rest)))
        if t == b"*":
            n = int(rest)
            return ("nil", None) if n < 0 else ("array", [self.read() for _ in range(n)])
        raise AssertionError("unexpected reply %r" % line)

    def run(self, args):
        self.sock.sendall(encode(args))
        return self.read()


def cli_repr(b):
    """redis-cli's quoting of a bulk string (sdscatrepr)."""
    out = ['"']
    for ch in b:
        c = chr(ch)
        if c in '\\"':
            out.append("\\" + c)
        elif c == "\n":
            out.append("\\n")
        elif c == "\r":
            out.append("\\r")
        elif c == "\t":
            out.append("\\t")
        elif c == "\a":
            out.append("\\a")
        elif c == "\b":
            out.append("\\b")
        elif 32 <= ch < 127:
            out.append(c)
        else:
            out.append("\\x%02x" % ch)
    out.append('"')
    return "".join(out)


def cli_format(reply, prefix=""):
    """A reply as redis-cli prints it on a terminal (cliFormatReplyTTY, RESP2)."""
    kind, v = reply
    if kind == "status":
        return v.decode() + "\n"
    if kind == "error":
        return "(error) " + v.decode() + "\n"
    if kind == "int":
        return "(integer) %d\n" % v
    if kind == "nil":
        return "(nil)\n"
    if kind == "bulk":
        return cli_repr(v) + "\n"
    if not v:
        return "(empty array)\n"
    width = len(str(len(v)))
    inner = prefix + " " * (width + 2)
    out = ""
    for i, item in enumerate(v):
        out += "%s%*d) " % ("" if i == 0 else prefix, width, i + 1)
        out += cli_format(item, inner)
    return out


def cli_args(line):
    """The command of a prompt line: comments ("  # ...") dropped, redis-cli's quoting."""
    line = re.sub(r"\s{2,}#.*$", "", line).strip()
    return shlex.split(line)


def sessions(block):
    """[(args, expected output lines)] of a redis-cli block."""
    steps = []
    for line in block.text.split("\n"):
        m = PROMPT.match(line)
        if m:
            steps.append((cli_args(m.group(1)), []))
        elif steps and line.strip():
            steps[-1][1].append(line)
    return steps


def blocks_by_file(kinds):
    files = {}
    for b in BLOCKS:
        if b.kind in kinds and "no-run" not in b.flags:
            files.setdefault(b.path, []).append(b)
    return [pytest.param(path, bs, id=path) for path, bs in sorted(files.items())]


@pytest.mark.parametrize("path, blocks", blocks_by_file({"redis-cli"}))
def test_redis_cli_sessions(server, path, blocks):
    """Each file's sessions in order, on one connection, from an empty server: the reader
    of a page types them in that order. A plain "redis-cli" block must print exactly
    what it shows; an abridged one must not answer an error it does not show."""
    flush(server)
    s = Session(server.port)
    try:
        for block in blocks:
            for args, expected in sessions(block):
                reply = s.run(args)
                got = cli_format(reply)
                where = "%s, %s" % (block.id, " ".join(args))
                if "abridged" in block.flags:
                    shows_error = bool(expected) and expected[0].startswith("(error)")
                    assert (reply[0] == "error") == shows_error, "%s: %s" % (where, got)
                elif expected:
                    assert got.rstrip("\n").split("\n") == expected, \
                        "%s printed:\n%s" % (where, got)
                else:
                    assert reply[0] != "error", "%s: %s" % (where, got)
    finally:
        s.close()
        with server.raw() as c:  # users a page made (security.md) go with it
            users = [u for u in c.execute("ACL", "USERS") if u != b"default"]
            if users:
                c.execute("ACL", "DELUSER", *users)


@pytest.mark.parametrize("path, blocks", blocks_by_file({"sh"}))
def test_shell_redis_cli_lines(server, path, blocks):
    """The redis-cli command lines of shell blocks run against the server (other lines,
    such as make or rankd invocations, are set-up and are not run here)."""
    flush(server)
    for block in blocks:
        for line in block.text.split("\n"):
            line = re.sub(r"\s{2,}#.*$", "", line).strip()
            if not line.startswith("redis-cli "):
                continue
            argv = shlex.split(line)
            if "-p" in argv:
                argv[argv.index("-p") + 1] = str(server.port)
            else:
                argv[1:1] = ["-p", str(server.port)]
            rc, out = run(argv, timeout=20)
            assert rc == 0 and not out.startswith(("ERR", "(error)", "WRONGTYPE")), \
                "%s: %s -> %s" % (block.id, line, out)
