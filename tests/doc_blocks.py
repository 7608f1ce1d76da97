"""The fenced code blocks of the documentation, for tests that run them (issue 33).

Every block in README.md and docs/ (guides included) carries an info string that says
what it is:

  redis-cli            a redis-cli session: lines "> COMMAND args" (or
                       "127.0.0.1:6379> ..."), each followed by the exact output redis-cli
                       prints; run and compared (test_docs_examples.py)
  redis-cli abridged   run, each command must not answer an error unless its output
                       says "(error)"; the output shown is abridged and not compared
  python, js           programs run against a started server (port 6379 in the text is
                       replaced by the test server's port)
  text, sh, conf, cpp, c, json ...   not run (shell setup, formats, file layouts)

A block's info string may add "no-run" to a runnable kind, with the reason in the text
around it.
"""

import os
import re
from dataclasses import dataclass, field

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RUNNABLE = {"redis-cli", "python", "js", "sh"}
NOT_RUN = {"text", "conf", "cpp", "c", "json", "diff", "lua"}

_FENCE = re.compile(r"^(\s*)```(.*)$")


@dataclass
class Block:
    path: str           # relative to the repository root
    line: int           # 1-based line of the opening fence
    kind: str           # first word of the info string ("" when none)
    flags: list = field(default_factory=list)
    text: str = ""

    @property
    def id(self):
        return "%s:%d" % (self.path, self.line)


def doc_files():
    """README.md and every .md file under docs/, sorted."""
    out = ["README.md"]
    for d, _, files in os.walk(os.path.join(ROOT, "docs")):
        for f in files:
            if f.endswith(".md"):
                out.append(os.path.relpath(os.path.join(d, f), ROOT))
    return sorted(out)


def blocks(path):
    """The fenced blocks of one file (relative to the root), dedented."""
    out = []
    lines = open(os.path.join(ROOT, path), encoding="utf-8").read().split("\n")
    i = 0
    while i < len(lines):
        m = _FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        indent, info = m.group(1), m.group(2).split()
        body = []
        j = i + 1
        while j < len(lines) and not re.match(r"^\s*```\s*$", lines[j]):
            body.append(lines[j][len(indent):] if lines[j].startswith(indent) else lines[j])
            j += 1
        out.append(Block(path, i + 1, info[0] if info else "", info[1:], "\n".join(body)))
        i = j + 1
    return out


def all_blocks():
    return [b for p in doc_files() for b in blocks(p)]
