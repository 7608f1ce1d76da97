"""Differential tests for error texts (issue 19) and introspection (issue 11): fixed
command lists and seeded random sequences, rankd vs redis-server 7.0, RESP2 and RESP3.

Replay one failure: /usr/bin/python3 -m pytest -q tests/test_differential_introspect.py -k NAME
"""

import pytest

import diffgen_introspect as gi
from differential import run_commands
from server_process import reference_redis, target_is_redis

pytestmark = pytest.mark.differential


@pytest.mark.parametrize("proto", [2, 3])
def test_error_texts(server_factory, proto):
    target = server_factory()
    ref = reference_redis().start()
    try:
        run_commands(target, ref, gi.ERROR_TEXT_CASES, proto=proto, label="error-texts")
    finally:
        ref.stop()


@pytest.mark.parametrize("proto", [2, 3])
def test_before_auth(server_factory, proto):
    target = server_factory(["--requirepass", "pw"], password="pw")
    ref = reference_redis(["--requirepass", "pw"]).start()
    try:
        run_commands(target, ref, gi.NOAUTH_CASES, proto=proto, label="before-auth")
    finally:
        ref.stop()


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


def test_command_info_and_docs_match_redis(both):
    a, b = both
    names = {n.decode() for n in a.execute("COMMAND", "LIST")}
    assert "client|list" in names and "zadd" in names
    compared = 0
    for name in sorted(names):
        ib = b.execute("COMMAND", "INFO", name)[0]
        if not isinstance(ib, list):
            continue   # rankd's own (LB.*)
        ia = _only_subcommands(a.execute("COMMAND", "INFO", name)[0], names, True)
        ib = _only_subcommands(ib, names, True)
        if name in ARITY_DIFFERENCES and not target_is_redis():
            assert ia[1] == ARITY_DIFFERENCES[name]
            ia[1] = ib[1]
        assert _sorted_canon(ia) == _sorted_canon(ib), "COMMAND INFO %s:\n%r\n%r" % (name, ia, ib)
        da = _only_subcommands(a.execute("COMMAND", "DOCS", name), names, False)
        db = _only_subcommands(b.execute("COMMAND", "DOCS", name), names, False)
        assert _sorted_canon(da) == _sorted_canon(db), "COMMAND DOCS %s:\n%r\n%r" % (name, da, db)
        compared += 1
    assert compared > 150


def test_command_list_filters_match_redis(both):
    a, b = both
    names = {n for n in a.execute("COMMAND", "LIST")}
    for filt in ([], ["FILTERBY", "ACLCAT", "sortedset"], ["FILTERBY", "ACLCAT", "WRITE"],
                 ["FILTERBY", "ACLCAT", "dangerous"], ["FILTERBY", "PATTERN", "z*"],
                 ["FILTERBY", "PATTERN", "*|*"], ["FILTERBY", "PATTERN", "CLIENT*"],
                 ["FILTERBY", "MODULE", "x"]):
        la = sorted(a.execute("COMMAND", "LIST", *filt))
        lb = sorted(n for n in b.execute("COMMAND", "LIST", *filt) if n in names)
        own = [n for n in la if n.startswith(b"lb.")]
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
