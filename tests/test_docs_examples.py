"""The documentation's examples run (issue 33): every fenced block of README.md and docs/
says what it is (tests/doc_blocks.py), and each runnable one is executed against a
started rankd, so no example drifts from the binary.

  redis-cli  each file's sessions on one connection; the output redis-cli would print
           (tests/cli_format.py) compared with the block's
  sh       the redis-cli command lines, which must answer no error
  python   run with /usr/bin/python3 (redis-py), after FLUSHALL
  js       run with node and ioredis (tests/js, shared with the cluster client test; installed by the npm_modules fixture,
           skipped when node, npm or the registry is missing)
"""

import os
import re
import shlex
import shutil
import subprocess

import pytest

import cli_format
import doc_blocks
from resp_client import RespError
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

PROMPT = re.compile(r"^(?:127\.0\.0\.1:\d+(?:\[\d+\])?)?> (.*)$")


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
    s = server.raw()
    try:
        for block in blocks:
            for args, expected in sessions(block):
                reply = s.execute(*args)
                got = cli_format.reply(reply)
                where = "%s, %s" % (block.id, " ".join(args))
                is_error = isinstance(reply, RespError)
                if "abridged" in block.flags:
                    shows_error = bool(expected) and expected[0].startswith("(error)")
                    assert is_error == shows_error, "%s: %s" % (where, got)
                elif expected:
                    assert got.rstrip("\n").split("\n") == expected, \
                        "%s printed:\n%s" % (where, got)
                else:
                    assert not is_error, "%s: %s" % (where, got)
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
            if not line.strip().startswith("redis-cli "):
                continue  # set-up (make, rankd ...), not split: it may quote otherwise
            argv = cli_args(line)
            if "-p" in argv:
                argv[argv.index("-p") + 1] = str(server.port)
            else:
                argv[1:1] = ["-p", str(server.port)]
            # redis-cli exits 0 on an error reply; --no-raw prints it as "(error) ..."
            # whatever its prefix (NOPERM, BUSYKEY ...), apart from any string reply.
            p = subprocess.run(argv[:1] + ["--no-raw"] + argv[1:], capture_output=True,
                               text=True, timeout=20)
            errors = [l for l in p.stdout.split("\n") if l.startswith("(error)")]
            assert p.returncode == 0 and not errors, \
                "%s: %s -> %s" % (block.id, line, p.stdout + p.stderr)
