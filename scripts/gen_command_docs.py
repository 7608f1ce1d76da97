#!/usr/bin/python3
"""Writes src/commands/command_docs_*.cc: the description of every Redis command rankd has
(COMMAND DOCS and the COMMAND INFO fields rankd's tables do not carry).

    scripts/gen_command_docs.py --redis-port 6379 --rankd-port 6380

Two sources, kept apart:
- the facts, which are the interface (name, since, group, arity, flags, ACL categories,
  tips, key specs, arguments, doc flags, history versions), are read from a running
  redis-server 7.0, for the commands a running rankd lists;
- the words (summary, complexity, replaced_by, each history entry's text, key-spec notes)
  are rankd's own, read from scripts/command_docs_prose.txt. A Redis field with no text
  there stops the script: a new command needs its words written first.

rankd's own commands (LB.*) are described by hand in command_docs_leaderboard.cc.
The grammars of the generated strings are documented in src/commands/command_docs.h."""

import argparse
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests"))
from resp_client import RespClient, RespError  # noqa: E402

REPO = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
PROSE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "command_docs_prose.txt")

# Flags rankd's CommandFlags carry (command.h); every other flag Redis reports is
# written into the docs table. movablekeys is derived from the key specs.
RANKD_FLAGS = {"write", "readonly", "denyoom", "admin", "noscript", "blocking", "loading",
               "stale", "fast", "no_auth", "movablekeys"}

# Flags Redis reports that the scripting table (scripting_family.cc) does not carry
# yet; documented here until it does.
TABLE_LACKS = {n: ["stale"] for n in ("eval", "evalsha", "eval_ro", "evalsha_ro", "fcall",
                                        "fcall_ro")}

# Redis 7.0's getkeys_proc fallbacks (db.c), as "store count first step" for
# genericGetKeys, or "set" for setGetKeys, "migrate" for migrateGetKeys.
GETKEYS = {
    "zunionstore": "1 2 3 1", "zinterstore": "1 2 3 1", "zdiffstore": "1 2 3 1",
    "zunion": "0 1 2 1", "zinter": "0 1 2 1", "zdiff": "0 1 2 1", "zintercard": "0 1 2 1",
    "eval": "0 2 3 1", "evalsha": "0 2 3 1", "eval_ro": "0 2 3 1", "evalsha_ro": "0 2 3 1",
    "fcall": "0 2 3 1", "fcall_ro": "0 2 3 1", "sintercard": "0 1 2 1",
    "zmpop": "0 1 2 1", "bzmpop": "0 2 3 1", "set": "set", "migrate": "migrate",
}

ALL = lambda name: True  # noqa: E731
# A container's own flags (COMMAND INFO client) are all documented: its table
# entry's flags only serve the arity error of a bare "CLIENT".
# Containers whose handler parses the subcommand itself (no subcommand table in
# the family file): every Redis subcommand is documented, with all its flags.
UNTABLED = {"script", "function", "slowlog"}

FILES = [  # file suffix, function name, Redis groups, which names (files stay < 500 lines)
    ("keys", "KeyCommandDocs", ["generic"], ALL),
    ("strings", "StringCommandDocs", ["string"], ALL),
    ("zset", "ZSetCommandDocs", ["sorted-set"], lambda n: n < "zrange"),
    ("zset_range", "ZSetRangeCommandDocs", ["sorted-set"], lambda n: n >= "zrange"),
    ("set", "SetCommandDocs", ["set"], ALL),
    ("server", "ServerCommandDocs", ["server"], lambda n: n < "latency"),
    ("server_admin", "ServerAdminCommandDocs", ["server"], lambda n: n >= "latency"),
    ("connection", "ConnectionCommandDocs", ["connection", "transactions"], ALL),
    ("scripting", "ScriptingCommandDocs", ["scripting"], ALL),
    ("bitmap", "BitmapCommandDocs", ["bitmap"], ALL),
    ("geo", "GeoCommandDocs", ["geo"], ALL),
    ("hash", "HashCommandDocs", ["hash"], ALL),
    ("hyperloglog", "HyperLogLogCommandDocs", ["hyperloglog"], ALL),
    ("list", "ListCommandDocs", ["list"], ALL),
    ("pubsub", "PubSubCommandDocs", ["pubsub"], ALL),
    ("cluster", "ClusterCommandDocs", ["cluster"], ALL),
    ("stream", "StreamCommandDocs", ["stream"], ALL),
]

SPECIAL = " ()@=^!?*+%:|\n\"\\"


def esc(s):
    return "".join("%%%02X" % ord(ch) if ch in SPECIAL else ch for ch in s)


def d(m):
    return {k.decode(): v for k, v in m.pairs}


def s(v):
    return v.decode() if isinstance(v, bytes) else str(v)


def arg_grammar(args):
    out = []
    for a in args:
        m = d(a)
        assert set(m) <= {"name", "type", "key_spec_index", "token", "since", "flags",
                          "deprecated_since", "arguments"}, m.keys()
        t = esc(s(m["name"])) + ":" + s(m["type"])
        if "key_spec_index" in m:
            t += "@%d" % m["key_spec_index"]
        if "token" in m:
            t += "=" + esc(s(m["token"]))
        if "since" in m:
            t += "^" + s(m["since"])
        if "deprecated_since" in m:
            t += "!" + s(m["deprecated_since"])
        for f in m.get("flags", ()):
            t += {"optional": "?", "multiple": "*", "multiple_token": "+"}[s(f)]
        if "arguments" in m:
            t += "(" + arg_grammar(m["arguments"]) + ")"
        out.append(t)
    return " ".join(out)


def key_spec_grammar(specs, notes):
    if not set(notes) <= set(range(len(specs))):
        raise SystemExit("a key-spec note for a key spec Redis does not have")
    out = []
    for i, spec in enumerate(specs):
        m = d(spec)
        bs, fk = d(m["begin_search"]), d(m["find_keys"])
        bsp, fkp = d(bs["spec"]), d(fk["spec"])
        if s(bs["type"]) == "index":
            b = "index %d" % bsp["index"]
        elif s(bs["type"]) == "keyword":
            b = "keyword %s %d" % (esc(s(bsp["keyword"])), bsp["startfrom"])
        else:
            b = "unknown"
        if s(fk["type"]) == "range":
            f = "range %d %d %d" % (fkp["lastkey"], fkp["keystep"], fkp["limit"])
        elif s(fk["type"]) == "keynum":
            f = "keynum %d %d %d" % (fkp["keynumidx"], fkp["firstkey"], fkp["keystep"])
        else:
            f = "unknown"
        flags = " ".join(s(x) for x in m["flags"])
        if ("notes" in m) != (i in notes):
            raise SystemExit("key spec %d: a note in Redis iff one in the prose file" % i)
        out.append("|".join([flags, b, f, esc(notes.get(i, ""))]))
    return "\n".join(out)


def cstr(text):
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def read_prose(path):
    """{name: {"summary": text, ..., "history": [(version, text)], "notes": {index: text}}}
    from the prose file: a command name alone on a line, then indented "field: text",
    "history VERSION: text" and "note INDEX: text" lines; '#' starts a comment line."""
    prose, cur = {}, None
    with open(path) as f:
        for line in f:
            if not line.strip() or line.startswith("#"):
                continue
            if not line[0].isspace():
                cur = prose.setdefault(line.strip(), {"history": [], "notes": {}})
                continue
            key, text = line.strip().split(": ", 1)
            if key.startswith("history "):
                cur["history"].append((key.split()[1], text))
            elif key.startswith("note "):
                cur["notes"][int(key.split()[1])] = text
            else:
                cur[key] = text
    return prose


WORDS = ("summary", "complexity", "replaced_by")


def prose_of(name, doc, prose):
    """rankd's words for `name`, checked against the fields Redis's doc has."""
    if name not in prose:
        raise SystemExit("%s: no entry in %s" % (name, PROSE))
    p = prose[name]
    for k in WORDS:
        if (k in doc) != (k in p):
            raise SystemExit("%s: %s in Redis's doc iff in the prose file" % (name, k))
    versions = [s(v) for v, _ in doc.get("history", [])]
    if versions != [v for v, _ in p["history"]]:
        raise SystemExit("%s: history versions %s, prose file has %s" % (name, versions,
                                                                          p["history"]))
    return p


def entry(name, doc, info, untabled, container, prose):
    doc = d(doc)
    p = prose_of(name, doc, prose)
    name_s, arity, flags, first, last, step, acl, tips, specs = info[:9]
    fields = [("name", cstr(name))]
    for k in ("summary", "since", "group", "complexity"):
        if k in doc:
            fields.append((k, cstr(p[k] if k in WORDS else s(doc[k]))))
    if "doc_flags" in doc:
        fields.append(("doc_flags", cstr(" ".join(s(x) for x in doc["doc_flags"]))))
    if "deprecated_since" in doc:
        fields.append(("deprecated_since", cstr(s(doc["deprecated_since"]))))
    if "replaced_by" in doc:
        fields.append(("replaced_by", cstr(p["replaced_by"])))
    if p["history"]:
        fields.append(("history", cstr("\n".join(v + " " + t for v, t in p["history"]))))
    if "arguments" in doc:
        fields.append(("arguments", cstr(arg_grammar(doc["arguments"]))))
    fields.append(("legacy", "{%d, %d, %d, %d}" % (arity, first, last, step)))
    extra = [s(f) for f in flags
             if s(f) not in RANKD_FLAGS or ((untabled or container) and s(f) != "movablekeys")
             or s(f) in TABLE_LACKS.get(name, ())]
    if extra:
        fields.append(("extra_flags", cstr(" ".join(extra))))
    fields.append(("acl_categories", cstr(" ".join(s(x) for x in acl))))
    if tips:
        fields.append(("tips", cstr(" ".join(s(x) for x in tips))))
    if specs:
        fields.append(("key_specs", cstr(key_spec_grammar(specs, p["notes"]))))
    if name in GETKEYS:
        fields.append(("getkeys", cstr(GETKEYS[name])))
    lines = ["    {"]
    for k, v in fields:
        line = "     .%s = %s," % (k, v)
        if len(line) > 100 and v.startswith('"'):
            # Split long strings at spaces for a 100-column file; an escaped note
            # (no spaces) after its escaped ones.
            pieces = []  # text, each ending where a line may break
            for w in v[1:-1].split(" "):
                while len(w) > 78 and "%20" in w[:78]:
                    cut = w[:78].rindex("%20") + 3
                    pieces.append(w[:cut])
                    w = w[cut:]
                pieces.append(w + " ")
            pieces[-1] = pieces[-1][:-1]
            parts, cur = [], ""
            for w in pieces:
                if cur and len(cur) + len(w) > 79:
                    parts.append(cur)
                    cur = ""
                cur += w
            parts.append(cur)
            line = "     .%s =\n" % k + "\n".join('         "%s"' % p for p in parts) + ","
        lines.append(line)
    lines.append("    },")
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--redis-port", type=int, required=True)
    ap.add_argument("--rankd-port", type=int, required=True)
    opts = ap.parse_args()
    redis = RespClient("127.0.0.1", opts.redis_port)
    rankd = RespClient("127.0.0.1", opts.rankd_port)
    redis.execute("HELLO", "3")
    listed = {s(n) for n in rankd.execute("COMMAND", "LIST")}
    names, untabled = [], set()
    for top in sorted(n for n in listed if "|" not in n):
        docs = redis.execute("COMMAND", "DOCS", top)
        if not docs.pairs:
            continue  # rankd's own (LB.*)
        names.append(top)
        subs = d(docs.pairs[0][1]).get("subcommands")
        subs = sorted(s(k) for k, _ in (subs.pairs if subs else []))
        if top not in UNTABLED:
            names += [n for n in subs if n in listed]
        else:
            # A container that parses its subcommands itself (SCRIPT): all of Redis's,
            # with every flag in the docs (no table carries them).
            names += subs
            untabled.update(subs)
    prose = read_prose(PROSE)
    by_group = {}
    for name in names:
        doc = redis.execute("COMMAND", "DOCS", name).pairs[0][1]
        info = redis.execute("COMMAND", "INFO", name)[0]
        by_group.setdefault(s(d(doc)["group"]), []).append(
            (name, entry(name, doc, info, name in untabled, bool(info[9]), prose)))
    for suffix, fn, groups, which in FILES:
        entries = [e for g in groups for n, e in by_group.get(g, []) if which(n)]
        body = "\n".join(entries)
        path = os.path.join(REPO, "src", "commands", "command_docs_%s.cc" % suffix)
        with open(path, "w") as f:
            f.write(HEADER % {"groups": ", ".join(groups)} + "constexpr CommandDoc kDocs[] = {\n"
                    + body + "\n};\n\n}  // namespace\n\nstd::span<const CommandDoc> %s() "
                    "{ return kDocs; }\n\n}  // namespace rankd\n" % fn)
        print("wrote", path, len(entries), "entries")
    unused = sorted(set(prose) - set(names))
    if unused:
        print("prose for commands rankd does not list (left unused):", " ".join(unused))


HEADER = """// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// GENERATED by scripts/gen_command_docs.py, groups: %(groups)s.
// Facts (since, group, arity, flags, ACL categories, key specs, arguments, history
// versions): redis-server 7.0's COMMAND DOCS and COMMAND INFO. Words (summary, complexity,
// replaced_by, history texts, key-spec notes): rankd's own, scripts/command_docs_prose.txt.
// Do not edit: change the prose file and rerun the script.

#include "commands/command_docs.h"

namespace rankd {
namespace {

"""

if __name__ == "__main__":
    main()
