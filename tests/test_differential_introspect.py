"""Differential tests for error texts (issue 19) and introspection (issue 11): fixed
command lists and seeded random sequences, rankd vs redis-server 7.0, RESP2 and RESP3.

Replay one failure: /usr/bin/python3 -m pytest -q tests/test_differential_introspect.py -k NAME
"""

import re

import pytest

import diffgen_introspect as gi
from differential import run_commands
from server_process import reference_redis, target_is_redis

pytestmark = pytest.mark.differential


def run_on_fresh_servers(server_factory, cases, label, proto=2, args=()):
    """run_commands on a new rankd and a new redis-server, both started with `args`."""
    target = server_factory(list(args))
    ref = reference_redis(list(args)).start()
    try:
        run_commands(target, ref, cases, proto=proto, label=label)
    finally:
        ref.stop()


@pytest.mark.parametrize("proto", [2, 3])
def test_error_texts(server_factory, proto):
    run_on_fresh_servers(server_factory, gi.ERROR_TEXT_CASES, "error-texts", proto)


@pytest.mark.parametrize("proto", [2, 3])
def test_before_auth(server_factory, proto):
    run_on_fresh_servers(server_factory, gi.NOAUTH_CASES, "before-auth", proto,
                         ["--requirepass", "pw"])


# ---------------------------------------------------------------------------
# COMMAND: every command rankd has, described as redis-server 7.0 describes it.

from differential import Runner, Pools, canon, seeds  # noqa: E402
from resp_client import Map, RespClient  # noqa: E402

# rankd's deliberate arity differences (tests/deliberate_differences.py: ZRANK WITHSCORE).
ARITY_DIFFERENCES = {"zrank": -3, "zrevrank": -3}


def _sorted_canon(v):
    """canon(), with maps and subcommand lists in name order (Redis lists them in its
    hash table's order)."""
    if isinstance(v, Map):
        return ("map", tuple(sorted((canon(k), _sorted_canon(x)) for k, x in v.pairs)))
    if isinstance(v, list):
        return ("array", tuple(_sorted_canon(x) for x in v))
    return canon(v)


def _only_subcommands(reply, names, info):
    """Drops the subcommands rankd does not have from redis's COMMAND INFO / DOCS reply."""
    if info and isinstance(reply, list) and len(reply) == 10 and isinstance(reply[9], list):
        reply[9] = sorted((s for s in reply[9] if s[0].decode() in names), key=lambda s: s[0])
        for s in reply[9]:
            s[9] = sorted(s[9], key=lambda x: x[0]) if isinstance(s[9], list) else s[9]
    if not info and isinstance(reply, Map):
        for _, doc in reply.pairs:
            for i, (k, v) in enumerate(doc.pairs):
                if k == b"subcommands":
                    doc.pairs[i] = (k, Map([p for p in v.pairs if p[0].decode() in names]))
    return reply


@pytest.fixture(scope="module")
def both(server, redis_ref):
    a, b = RespClient(server.host, server.port), RespClient(redis_ref.host, redis_ref.port)
    a.execute("HELLO", "3")
    b.execute("HELLO", "3")
    yield a, b
    a.close()
    b.close()


# COMMAND DOCS fields that hold words: rankd writes its own (scripts/command_docs_prose.txt),
# with the history entries' texts and the key specs' notes (COMMAND INFO). Everything else
# is a fact, the interface clients read, and must match Redis's exactly.
WORD_FIELDS = (b"summary", b"complexity", b"replaced_by")


def _doc_facts(doc, path, words):
    """One command's COMMAND DOCS map with its words moved into `words`, keyed by
    (path, field): history keeps its versions, subcommands are split the same way."""
    facts = []
    for k, v in doc.pairs:
        if k in WORD_FIELDS:
            words[(path, k)] = v
        elif k == b"history":
            facts.append((k, [version for version, _ in v]))
            for i, (_, text) in enumerate(v):
                words[(path, b"history %d" % i)] = text
        elif k == b"subcommands":
            facts.append((k, Map([(n, _doc_facts(sub, n, words)) for n, sub in v.pairs])))
        else:
            facts.append((k, v))
    return Map(facts)


def _info_facts(entry, words):
    """One command's COMMAND INFO entry with its key-spec notes moved into `words`."""
    if not isinstance(entry, list):
        return entry
    for i, spec in enumerate(entry[8]):
        for k, v in spec.pairs:
            if k == b"notes":
                words[(entry[0], b"note %d" % i)] = v
        spec.pairs = [(k, v) for k, v in spec.pairs if k != b"notes"]
    for sub in entry[9] if isinstance(entry[9], list) else ():
        _info_facts(sub, words)
    return entry


def _docs_facts(reply, words):
    """A COMMAND DOCS reply (RESP3 map of name to doc) with its words moved into `words`."""
    return Map([(n, _doc_facts(doc, n, words)) for n, doc in reply.pairs])


def _plain(text):
    return re.sub(rb"[^a-z0-9]", b"", text.lower())


def assert_words_are_rankds(ours, theirs):
    """Same word fields as Redis (which ones a command has is a fact), each in other words:
    not Redis's sentence, even with other case or punctuation. A single word may be the
    same: a bare big-O ("O(1)") or a command's name (SLAVEOF's "REPLICAOF") is a fact."""
    assert sorted(ours) == sorted(theirs)
    for key, text in theirs.items():
        if target_is_redis() or b" " not in text.strip():
            continue
        assert _plain(ours[key]) != _plain(text), "Redis's words in rankd: %r %r" % (key, text)


def test_command_info_and_docs_match_redis(both):
    """The facts of COMMAND INFO and DOCS are Redis's for every command both servers have;
    the words are rankd's own."""
    a, b = both
    names = {n.decode() for n in a.execute("COMMAND", "LIST")}
    assert "client|list" in names and "zadd" in names
    compared = 0
    words_a, words_b = {}, {}
    for name in sorted(names):
        ib = b.execute("COMMAND", "INFO", name)[0]
        if not isinstance(ib, list):
            continue   # rankd's own (LB.*)
        ia = _only_subcommands(a.execute("COMMAND", "INFO", name)[0], names, True)
        ib = _only_subcommands(ib, names, True)
        if name in ARITY_DIFFERENCES and not target_is_redis():
            assert ia[1] == ARITY_DIFFERENCES[name]
            ia[1] = ib[1]
        ia, ib = _info_facts(ia, words_a), _info_facts(ib, words_b)
        assert _sorted_canon(ia) == _sorted_canon(ib), "COMMAND INFO %s:\n%r\n%r" % (name, ia, ib)
        da = _docs_facts(_only_subcommands(a.execute("COMMAND", "DOCS", name), names, False),
                         words_a)
        db = _docs_facts(_only_subcommands(b.execute("COMMAND", "DOCS", name), names, False),
                         words_b)
        assert _sorted_canon(da) == _sorted_canon(db), "COMMAND DOCS %s:\n%r\n%r" % (name, da, db)
        compared += 1
    assert compared > 150
    assert len(words_b) > 600   # summaries, complexities, history texts, notes
    assert_words_are_rankds(words_a, words_b)


def test_command_docs_of_several_names(both):
    """Several names at once, unknown ones skipped, in the order asked: the facts as
    Redis's, the words rankd's."""
    a, b = both
    args = ["COMMAND", "DOCS", "nosuch", "get", "ZADD", "eval", "client|list", "zunionstore"]
    words_a, words_b = {}, {}
    da, db = _docs_facts(a.execute(*args), words_a), _docs_facts(b.execute(*args), words_b)
    assert [n for n, _ in da.pairs] == [b"get", b"zadd", b"eval", b"client|list", b"zunionstore"]
    assert _sorted_canon(da) == _sorted_canon(db)
    assert_words_are_rankds(words_a, words_b)


def test_command_docs_summary_is_rankds(both):
    """The sentence redis-cli shows for ZADD is rankd's (a copy of Redis's fails here)."""
    a, b = both
    ours = dict(a.execute("COMMAND", "DOCS", "zadd").pairs[0][1].pairs)
    theirs = dict(b.execute("COMMAND", "DOCS", "zadd").pairs[0][1].pairs)
    assert theirs[b"summary"].startswith(b"Add one or more members to a sorted set")
    if not target_is_redis():
        assert ours[b"summary"] == (b"Adds scored members to a sorted set or changes their "
                                    b"scores, under optional conditions.")
        assert ours[b"complexity"] == (b"O(log N) per member written, N being the size of "
                                       b"the sorted set.")
    assert ours[b"since"] == theirs[b"since"] == b"1.2.0"


def test_containers_have_redis_subcommands(both):
    """Every container both servers have lists exactly Redis 7.0's subcommands (each one an
    ACL rule target, "+script|debug")."""
    a, b = both
    ours = {n.decode() for n in a.execute("COMMAND", "LIST")}
    theirs = {n.decode() for n in b.execute("COMMAND", "LIST")}
    containers = {n.split("|")[0] for n in theirs if "|" in n} & ours
    assert {"script", "function", "slowlog", "config", "client", "acl"} <= containers
    for name in sorted(containers):
        sub_a = sorted(n for n in ours if n.startswith(name + "|"))
        sub_b = sorted(n for n in theirs if n.startswith(name + "|"))
        assert sub_a == sub_b, name


def test_command_list_filters_match_redis(both):
    a, b = both
    names = {n for n in a.execute("COMMAND", "LIST")}
    redis_names = set(b.execute("COMMAND", "LIST"))
    for filt in ([], ["FILTERBY", "ACLCAT", "sortedset"], ["FILTERBY", "ACLCAT", "WRITE"],
                 ["FILTERBY", "ACLCAT", "dangerous"], ["FILTERBY", "PATTERN", "z*"],
                 ["FILTERBY", "PATTERN", "*|*"], ["FILTERBY", "PATTERN", "CLIENT*"],
                 ["FILTERBY", "MODULE", "x"]):
        la = sorted(a.execute("COMMAND", "LIST", *filt))
        lb = sorted(n for n in b.execute("COMMAND", "LIST", *filt) if n in names)
        own = [n for n in la if n not in redis_names]  # rankd's own: LB.*, ZPOPDUE, ...
        assert [n for n in la if n not in own] == lb, filt
    count = a.execute("COMMAND", "COUNT")
    assert count == len([n for n in names if b"|" not in n])
    everything = a.execute("COMMAND")
    assert sorted(e[0] for e in everything) == sorted(n for n in names if b"|" not in n)


@pytest.mark.parametrize("proto", [2, 3])
def test_command_fixed_cases(server, redis_ref, proto):
    run_commands(server, redis_ref, gi.COMMAND_CASES, proto=proto, label="command")


@pytest.mark.parametrize("seed,proto", [(s, p) for s in seeds(4) for p in (2, 3)])
def test_getkeys_sequences(server, redis_ref, seed, proto):
    Runner(server, redis_ref, ["introspect"], Pools(k=["a"]), seed=seed, proto=proto,
           length=200, label="introspect").run()


# ---------------------------------------------------------------------------
# INFO, LATENCY, CLIENT LIST fields: field names (and counts that do not depend on
# timing) as redis-server 7.0's, after the same commands on fresh servers.

INFO_WORKLOAD = [("SET", "k", "v"), ("GET", "k"), ("INCR", "k"), ("ZADD", "z", "1", "m"),
                 ("FOO",), ("GET",), ("SELECT", "99"), ("ZADD", "k", "1", "m"),
                 ("CLIENT", "ID"), ("CONFIG", "GET", "hz")]
RANKD_ONLY_INFO_FIELDS = {"rankd_version", "expired_members"}  # rankd's own features
UNORDERED_SECTIONS = {"Commandstats", "Latencystats", "Errorstats"}


def _info(conn, *args):
    text = bytes(conn.execute("INFO", *args)).decode()
    sections, order = {}, []
    for line in text.split("\r\n"):
        if line.startswith("# "):
            order.append(line[2:])
            sections[line[2:]] = []
        elif ":" in line:
            name, value = line.split(":", 1)
            sections[order[-1]].append((name, value))
    return order, sections


@pytest.fixture
def fresh_pair(server_factory):
    target = server_factory()
    ref = reference_redis().start()
    a, b = RespClient(target.host, target.port), RespClient(ref.host, ref.port)
    for cmd in INFO_WORKLOAD:
        assert type(a.execute(*cmd)) is type(b.execute(*cmd)), cmd
    yield a, b
    a.close()
    b.close()
    ref.stop()


@pytest.mark.parametrize("args", [(), ("default",), ("all",), ("everything",),
                                  ("server", "clients"), ("SERVER",), ("commandstats",),
                                  ("errorstats", "stats"), ("cluster", "keyspace"),
                                  ("modules",), ("nosuch",), ("latencystats",),
                                  ("replication", "cpu", "memory", "persistence")])
def test_info_sections_and_fields_match_redis(fresh_pair, args):
    a, b = fresh_pair
    order_a, secs_a = _info(a, *args)
    order_b, secs_b = _info(b, *args)
    assert order_a == order_b
    for name in order_b:
        fa = [f for f, _ in secs_a[name] if f not in RANKD_ONLY_INFO_FIELDS]
        fb = [f for f, _ in secs_b[name]]
        if name in UNORDERED_SECTIONS:
            fa, fb = sorted(fa), sorted(fb)
        assert fa == fb, "INFO section %s" % name


def test_info_values_that_do_not_depend_on_timing(fresh_pair):
    a, b = fresh_pair
    _, sa = _info(a, "everything")
    _, sb = _info(b, "everything")
    va = {f: v for s in sa.values() for f, v in s}
    vb = {f: v for s in sb.values() for f, v in s}
    for field in ("role", "connected_slaves", "cluster_enabled", "redis_version",
                  "redis_git_sha1", "redis_git_dirty", "redis_mode", "master_repl_offset",
                  "errorstat_ERR", "errorstat_WRONGTYPE", "total_error_replies",
                  "number_of_cached_scripts", "db0", "connected_clients", "loading"):
        assert va[field] == vb[field], field
    assert len(va["master_replid"]) == 40 and len(va["run_id"]) == 40
    # calls, rejected_calls (arity) and failed_calls (error replies) per command.
    for field in vb:
        if field.startswith("cmdstat_"):
            sa_, sb_ = (dict(p.split("=") for p in v[field].split(",")) for v in (va, vb))
            for k in ("calls", "rejected_calls", "failed_calls"):
                assert sa_[k] == sb_[k], (field, k)
    assert va["latency_percentiles_usec_get"].startswith("p50=")


LATENCY_CASES = [
    ["LATENCY", "LATEST"], ["LATENCY", "HISTORY", "command"], ["LATENCY", "GRAPH", "command"],
    ["LATENCY", "RESET"], ["LATENCY", "RESET", "a", "b"], ["LATENCY", "DOCTOR"],
    ["LATENCY", "HELP"], ["LATENCY", "FOO"], ["LATENCY"], ["LATENCY", "HISTORY"],
    ["LATENCY", "LATEST", "x"], ["LATENCY", "HISTOGRAM", "nosuch"],
    ["CONFIG", "SET", "latency-monitor-threshold", "abc"],
    ["CONFIG", "SET", "latency-tracking", "maybe"],
    ["CONFIG", "GET", "latency-monitor-threshold"], ["CONFIG", "GET", "latency-tracking"],
    ["CONFIG", "GET", "latency-tracking-info-percentiles"],
]


@pytest.mark.parametrize("proto", [2, 3])
def test_latency_fixed_cases(server, redis_ref, proto):
    run_commands(server, redis_ref, LATENCY_CASES, proto=proto, label="latency")


def test_latency_spikes_and_histograms(fresh_pair):
    from differential import skeleton
    a, b = fresh_pair
    for c in (a, b):
        assert c.execute("CONFIG", "SET", "latency-monitor-threshold", "1") == b"OK"
        assert c.execute("DEBUG", "SLEEP", "0.02") == b"OK"
    for cmd in (("LATENCY", "LATEST"), ("LATENCY", "HISTORY", "command"),
                ("LATENCY", "HISTOGRAM", "get", "set"), ("LATENCY", "HISTOGRAM", "client")):
        ra, rb = a.execute(*cmd), b.execute(*cmd)
        if cmd[1] != "HISTOGRAM":
            assert skeleton(ra) == skeleton(rb), cmd
        else:
            assert sorted(ra[0::2]) == sorted(rb[0::2]), cmd
    latest = a.execute("LATENCY", "LATEST")
    assert latest[0][0] == b"command" and latest[0][2] >= 20 and latest[0][3] >= 20
    graph = bytes(a.execute("LATENCY", "GRAPH", "command")).decode()
    assert graph.startswith("command - high ") and "(all time high " in graph
    doctor = bytes(a.execute("LATENCY", "DOCTOR")).decode()
    assert doctor.startswith("Dave, I have observed latency spikes")
    assert "1. command: 1 latency spikes" in doctor
    assert a.execute("LATENCY", "RESET", "command", "x") == b.execute("LATENCY", "RESET", "command", "x") == 1
    hist = a.execute("LATENCY", "HISTOGRAM", "get")
    assert hist[0] == b"get" and hist[1][1] == 1   # the second GET was rejected (arity)


def test_client_buffer_fields(fresh_pair):
    a, b = fresh_pair

    def fields(c, *cmd):
        line = bytes(c.execute(*cmd)).decode().strip().split("\n")[0]
        return dict(kv.split("=", 1) for kv in line.split(" "))
    fa, fb = fields(a, "CLIENT", "INFO"), fields(b, "CLIENT", "INFO")
    assert list(fa) == list(fb)
    for f in ("argv-mem", "multi", "obl", "oll", "omem", "qbuf", "cmd", "flags"):
        assert fa[f] == fb[f], f
    assert int(fa["qbuf-free"]) > 0 and int(fa["tot-mem"]) > int(fa["qbuf-free"])
    ida = a.execute("CLIENT", "ID")
    a.execute("MULTI")
    a.execute("SET", "x", "y" * 100)
    other = RespClient(*a.sock.getpeername()[:2])
    fa = fields(other, "CLIENT", "LIST", "ID", str(ida))
    other.close()
    a.execute("DISCARD")
    assert fa["multi"] == "1" and int(fa["multi-mem"]) >= 100 and fa["argv-mem"] == "0"


# ---------------------------------------------------------------------------
# DEBUG and enable-debug-command

@pytest.mark.parametrize("proto", [2, 3])
def test_debug_subcommands(server_factory, proto):
    run_on_fresh_servers(server_factory, gi.DEBUG_CASES, "debug", proto)


@pytest.mark.parametrize("mode", ["no", "local", "yes"])
def test_enable_debug_command(server_factory, mode):
    cases = [["DEBUG", "SLEEP", "0"], ["DEBUG"], ["MULTI"], ["DEBUG", "DIGEST"], ["EXEC"],
             ["CONFIG", "GET", "enable-debug-command"],
             ["CONFIG", "SET", "enable-debug-command", "yes"]]
    run_on_fresh_servers(server_factory, cases, "enable-debug-command-" + mode,
                         args=["--enable-debug-command", mode])


def test_debug_object_and_active_expire(r):
    r.zadd("z", {"a": 1})
    line = r.execute_command("DEBUG", "OBJECT", "z").decode()
    assert line.startswith("Value at:") and " encoding:listpack " in line
    assert "serializedlength:" in line and "lru_seconds_idle:" in line
    assert r.execute_command("DEBUG", "SET-ACTIVE-EXPIRE", "0") == b"OK"
    assert r.execute_command("DEBUG", "SET-ACTIVE-EXPIRE", "1") == b"OK"


def test_compat_config_names(server_factory):
    run_on_fresh_servers(server_factory, gi.CONFIG_CASES, "config-names")


@pytest.mark.skipif(target_is_redis(), reason="rankd's own commands")
def test_rankd_commands_report_their_key_positions(both):
    # COMMAND INFO's legacy first/last/step for LB.* agree with their key specs,
    # as Redis's do for its own commands (clients such as redis-py's cluster
    # mode route by them).
    a, _ = both
    for name in (n.decode() for n in a.execute("COMMAND", "LIST")):
        if not name.startswith("lb."):
            continue
        info = a.execute("COMMAND", "INFO", name)[0]
        arity, first, last, step = info[1], info[3], info[4], info[5]
        specs = info[8]
        if specs and name != "lb.unwatch":
            assert first >= 1 and step >= 1 and (last >= first or last < 0), (name, info)
        assert abs(arity) >= 1, name


def test_fork_is_a_latency_event(fresh_pair):
    """BGSAVE's fork stops the main thread: both servers record it as the 'fork' event."""
    import time
    for c in fresh_pair:
        assert c.execute("CONFIG", "SET", "latency-monitor-threshold", "1") == b"OK"
        assert c.execute("DEBUG", "POPULATE", "1000000") == b"OK"  # ~100 MB: a fork of ms
        assert c.execute("BGSAVE") == b"Background saving started"
        for _ in range(600):
            if b"rdb_bgsave_in_progress:0" in bytes(c.execute("INFO", "persistence")):
                break
            time.sleep(0.05)
        info = bytes(c.execute("INFO", "stats")).decode()
        fork_ms = int(info.split("latest_fork_usec:")[1].split("\r\n")[0]) // 1000
        assert fork_ms >= 1, "a fork this size takes a millisecond or more"
        events = {bytes(e[0]): e for e in c.execute("LATENCY", "LATEST")}
        assert b"fork" in events, events
        assert events[b"fork"][2] == fork_ms  # the latest sample is this fork
