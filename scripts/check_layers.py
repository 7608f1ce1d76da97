#!/usr/bin/env python3
"""The layering check: every #include under src/ against the rule of its folder.

Each folder src/<dir>/ has a README.md whose line `May include: a, b, c` (or
`May include: nothing ...`) names the other src/ folders its files may
include; that line is the only place the rule is written. The check fails,
naming file and line, when

  * a file includes a header of a src/ folder its own folder may not include;
  * a folder has no README.md or no `May include:` line, or names an unknown
    folder;
  * the rules themselves form a cycle (a layer order must exist);
  * a non-test source file is longer than MAX_LINES (one idea per file).

Includes of other roots (<vector>, "absl/...", "gtest/...") are not checked.
It prints the map of which folder uses which (what the code does, not what
the rules allow). Exit status 0 when clean, 1 otherwise.

  scripts/check_layers.py [--src DIR] [--quiet]
"""

import argparse
import os
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s+"([a-z_]+)/[^"]+"')
SOURCES = (".h", ".cc", ".cpp", ".hpp")
MAX_LINES = 500
TEST_FILE = re.compile(r"(_test\.cc|_bench\.cc|test_util\.h)$")


def read_rules(src, folders, errors):
    rules = {}
    for d in folders:
        readme = os.path.join(src, d, "README.md")
        line = None
        if os.path.exists(readme):
            with open(readme) as f:
                line = next((l for l in f if l.startswith("May include:")), None)
        if line is None:
            errors.append("%s: no 'May include:' line (every src/ folder states its rule)" %
                          os.path.relpath(readme))
            rules[d] = set()
            continue
        names = [n.strip() for n in line[len("May include:"):].split(",")]
        allowed = set()
        for n in names:
            if n.startswith("nothing"):
                continue
            if n not in folders:
                errors.append("%s: 'May include:' names '%s', which is no folder of src/" %
                              (os.path.relpath(readme), n))
            allowed.add(n)
        rules[d] = allowed
    return rules


def find_cycle(rules):
    state = {}

    def visit(d, path):
        state[d] = 1
        for n in sorted(rules.get(d, ())):
            if state.get(n) == 1:
                return path + [d, n]
            if n in rules and not state.get(n):
                found = visit(n, path + [d])
                if found:
                    return found
        state[d] = 2
        return None

    for d in sorted(rules):
        if not state.get(d):
            found = visit(d, [])
            if found:
                return found[found.index(found[-1]):]
    return None


def check(src):
    folders = sorted(d for d in os.listdir(src) if os.path.isdir(os.path.join(src, d)))
    errors = []
    rules = read_rules(src, folders, errors)
    cycle = find_cycle(rules)
    if cycle:
        errors.append("the rules form a cycle: %s" % " -> ".join(cycle))
    uses = {d: set() for d in folders}
    for d in folders:
        for root, _, files in os.walk(os.path.join(src, d)):
            for name in sorted(files):
                if not name.endswith(SOURCES):
                    continue
                path = os.path.join(root, name)
                with open(path, errors="replace") as f:
                    lines = f.readlines()
                if len(lines) > MAX_LINES and not TEST_FILE.search(name):
                    errors.append("%s: %d lines; split it along its seams (at most %d)" % (
                        os.path.relpath(path), len(lines), MAX_LINES))
                for lineno, text in enumerate(lines, 1):
                    m = INCLUDE.match(text)
                    if not m or m.group(1) not in folders or m.group(1) == d:
                        continue
                    target = m.group(1)
                    uses[d].add(target)
                    if target not in rules[d]:
                        errors.append("%s:%d: src/%s may not include src/%s (%s)" % (
                            os.path.relpath(path), lineno, d, target, text.strip()))
    return folders, uses, errors


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    default_src = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "src")
    parser.add_argument("--src", default=default_src)
    parser.add_argument("--quiet", action="store_true", help="print errors only")
    a = parser.parse_args()
    folders, uses, errors = check(a.src)
    if not a.quiet:
        print("layers: which src/ folder uses which")
        for d in folders:
            print("  %-11s -> %s" % (d, ", ".join(sorted(uses[d])) or "-"))
    for e in errors:
        print("layering error: " + e, file=sys.stderr)
    if errors:
        print("layers: %d error(s); each folder's rule is the 'May include:' line of its "
              "README.md" % len(errors), file=sys.stderr)
        return 1
    if not a.quiet:
        print("layers: ok (%d folders)" % len(folders))
    return 0


if __name__ == "__main__":
    sys.exit(main())
