"""The layering check (scripts/check_layers.py, issue 10): the real tree is
clean, and a deliberately wrong include, a missing rule or a cyclic rule
makes it fail, naming the file and line."""

import os
import shutil
import subprocess
import sys

import pytest

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCRIPT = os.path.join(REPO, "scripts", "check_layers.py")


def run(src):
    return subprocess.run([sys.executable, SCRIPT, "--src", str(src)],
                          capture_output=True, text=True, timeout=60)


@pytest.fixture
def tree(tmp_path):
    dst = tmp_path / "src"
    shutil.copytree(os.path.join(REPO, "src"), dst)
    return dst


def test_real_tree_is_clean():
    p = run(os.path.join(REPO, "src"))
    assert p.returncode == 0, p.stderr
    assert "core        -> base\n" in p.stdout  # the map is printed
    assert "layers: ok" in p.stdout


def test_upward_include_fails_with_file_and_line(tree):
    path = tree / "core" / "sorted_set.h"
    lines = path.read_text().split("\n")
    at = next(i for i, l in enumerate(lines) if l.startswith("#include \"core/"))
    lines.insert(at, '#include "server/server.h"')
    path.write_text("\n".join(lines))
    p = run(tree)
    assert p.returncode == 1
    assert "core/sorted_set.h:%d: src/core may not include src/server" % (at + 1) in p.stderr


def test_sideways_include_fails(tree):
    # net/ and core/ know nothing of each other.
    path = tree / "net" / "reply.cc"
    path.write_text('#include "core/sorted_set.h"\n' + path.read_text())
    p = run(tree)
    assert p.returncode == 1
    assert "net/reply.cc:1: src/net may not include src/core" in p.stderr


def test_folder_without_rule_fails(tree):
    (tree / "pubsub").mkdir()
    (tree / "pubsub" / "hub.h").write_text('#include "base/status.h"\n')
    p = run(tree)
    assert p.returncode == 1
    assert "pubsub/README.md: no 'May include:' line" in p.stderr


def test_cyclic_rules_fail(tree):
    readme = tree / "base" / "README.md"
    readme.write_text(readme.read_text().replace("May include: nothing (the bottom layer)",
                                                 "May include: core"))
    p = run(tree)
    assert p.returncode == 1
    assert "the rules form a cycle: base -> core -> base" in p.stderr or \
           "the rules form a cycle: core -> base -> core" in p.stderr


def test_overlong_source_file_fails(tree):
    path = tree / "db" / "value.cc"
    path.write_text(path.read_text() + "// filler\n" * 600)
    p = run(tree)
    assert p.returncode == 1
    assert "db/value.cc:" in p.stderr and "split it along its seams (at most 500)" in p.stderr
