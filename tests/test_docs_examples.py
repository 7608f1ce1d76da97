"""The documentation's examples run (issue 33): every fenced block of README.md and docs/
says what it is (tests/doc_blocks.py), and each runnable one is executed against a
started rankd, so no example drifts from the binary.

  python   run with /usr/bin/python3 (redis-py), after FLUSHALL
  js       run with node and ioredis (tests/node; installed by the npm_modules fixture,
           skipped when node, npm or the registry is missing)
"""

import os
import shutil
import subprocess

import pytest

import doc_blocks
from server_process import target_is_redis

pytestmark = pytest.mark.skipif(target_is_redis(), reason="rankd's documentation")

NODE_DIR = os.path.join(doc_blocks.ROOT, "tests", "node")
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
        pytest.skip("ioredis could not be installed into tests/node (npm install)")
    return os.path.join(NODE_DIR, "node_modules")


@pytest.mark.parametrize("block", of_kind("js"))
def test_js_block(server, block, node_modules, tmp_path):
    flush(server)
    script = tmp_path / "example.js"
    script.write_text(with_port(block.text, server.port))
    env = dict(os.environ, NODE_PATH=node_modules)
    rc, out = run(["node", str(script)], env=env)
    assert rc == 0, "%s failed:\n%s" % (block.id, out)
