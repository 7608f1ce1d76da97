"""Differential tests for the sorted-set family and plain sets (issue 4) against
redis-server 7.0, in RESP2 and RESP3, with small sets (listpack), big sets (> 128 members,
skiplist) and tiny conversion thresholds (conversions all the time).

Skipped automatically while the server under test answers "ERR unknown command" to ZCARD;
families that land later (ZMPOP, ZRANGESTORE, sets, ...) are skipped one by one by their
probes (see diffgen_zset.py), and the skipped ones are listed in the test's output.
"""

import random
import warnings

import pytest

import diffgen_foundation  # noqa: F401  (registers the foundation families)
import diffgen_zset as zg
from differential import Cmd, Pools, Runner, probe_families, seeds
from resp_client import RespError
from server_process import target_is_redis

pytestmark = pytest.mark.differential

POOLS = Pools(zset=["z1", "z2", "z3"], lex=["lx1", "lx2"], set=["s1", "s2"], str=["k1"])
MEMBERS = {
    "small": ["a", "b", "c", "d", "e", "f", "g", "h"],
    "big": ["m%03d" % i for i in range(300)],
    "lex": ["a", "b", "c", "d", "e", "aa", "ab", "b0", "", "zz"],
    "long": ["L" * 65, "M" * 70],
    "set": ["1", "2", "3", "10", "-5", "100000000000", "a", "b", "c", "dd"],
}
FOUNDATION_MIX = ["keys", "strings", "expire", "tx", "db"]
FAMILY_WEIGHTS = {"keys": 0.35, "strings": 0.12, "expire": 0.2, "tx": 0.5, "db": 0.15}

DEFAULT_CONFIG = [("CONFIG", "SET", "zset-max-listpack-entries", "128"),
                  ("CONFIG", "SET", "zset-max-listpack-value", "64"),
                  ("CONFIG", "SET", "set-max-intset-entries", "512")]


def big_preload(seed):
    rng = random.Random(seed * 7919 + 1)
    big = MEMBERS["big"]
    z1 = ["ZADD", "z1"]
    for m in rng.sample(big, 200):
        z1 += [str(rng.randint(0, 30)), m]
    z2 = ["ZADD", "z2"]
    for m in rng.sample(big, 140):
        z2 += [str(rng.randint(-5, 5)) if rng.random() < 0.8 else "%d.5" % rng.randint(0, 9), m]
    lx = ["ZADD", "lx1"]
    for m in rng.sample(big, 180) + MEMBERS["lex"]:
        lx += ["0", m]
    s1 = ["SADD", "s1"] + rng.sample(big, 150)
    s2 = ["SADD", "s2"] + [str(i) for i in rng.sample(range(1000), 200)]
    return [Cmd(*c) for c in (z1, z2, lx, s1, s2)]


SCENARIOS = {
    # name: (setup(seed) -> commands, scenario flags)
    "small": (lambda seed: [], {}),
    "big": (big_preload, {"big": True}),
    "tiny": (lambda seed: [Cmd("CONFIG", "SET", "zset-max-listpack-entries", "4"),
                           Cmd("CONFIG", "SET", "zset-max-listpack-value", "8"),
                           Cmd("CONFIG", "SET", "set-max-intset-entries", "4")], {}),
}
SEEDS = {"small": seeds(20), "big": seeds(10), "tiny": seeds(12)}
LENGTH = {"small": 800, "big": 600, "tiny": 800}

CASES = [(sc, seed, proto) for sc in SCENARIOS for seed in SEEDS[sc] for proto in (2, 3)]


@pytest.fixture(scope="module")
def family_status(server):
    names = zg.ZSET_FAMILIES + FOUNDATION_MIX
    status = probe_families(server, names)
    if not status["zset"]:
        pytest.skip("the server under test has no sorted sets yet (ZCARD: unknown command)")
    off = [f for f in zg.ZSET_FAMILIES if not status[f]]
    if off and not (target_is_redis() and off == ["zrank-withscore"]):
        warnings.warn("differential zset: families skipped (not implemented by the server "
                      "under test): %s" % ", ".join(off))
    return status


@pytest.mark.parametrize("scenario,seed,proto", CASES,
                         ids=["%s-seed%d-resp%d" % c for c in CASES])
def test_zset_sequence(server, redis_ref, family_status, scenario, seed, proto):
    families = [f for f in zg.ZSET_FAMILIES + FOUNDATION_MIX if family_status[f]]
    setup, flags = SCENARIOS[scenario]
    Runner(server, redis_ref, families, POOLS, members=MEMBERS, seed=seed, proto=proto,
           length=LENGTH[scenario], setup=setup(seed), teardown=DEFAULT_CONFIG,
           scenario=flags, label=scenario, family_weights=FAMILY_WEIGHTS).run()


@pytest.mark.parametrize("fam", [f for f in zg.ZSET_FAMILIES if f != "zrank-withscore"])
def test_zset_family_focus(server, redis_ref, family_status, fam):
    """Each family on its own (plus ZADD to give it data), so a rare command still gets
    hundreds of calls."""
    if not family_status[fam]:
        pytest.skip("%s not implemented by the server under test" % fam)
    families = sorted({fam, "zset"} | ({"zset-lex"} if family_status["zset-lex"] else set())
                      | ({"set"} if family_status["set"] else set()))
    for seed in seeds(2):
        proto = 2 + seed % 2
        Runner(server, redis_ref, families, POOLS, members=MEMBERS, seed=1000 + seed,
               proto=proto, length=600, setup=big_preload(seed) if proto == 3 else [],
               teardown=DEFAULT_CONFIG, scenario={"big": proto == 3}, label="focus-" + fam,
               family_weights={fam: 4.0}).run()


def test_zrank_withscore_supported(server, family_status):
    """ZRANK/ZREVRANK WITHSCORE (Redis 7.2) is required of rankd (issue 4); redis 7.0
    lacks it, so this runs only against rankd."""
    if target_is_redis():
        pytest.skip("redis-server 7.0 has no ZRANK WITHSCORE (deliberate difference)")
    with server.raw() as c:
        c.execute("DEL", "wz")
        c.execute("ZADD", "wz", "1.5", "a", "2", "b")
        assert c.execute("ZRANK", "wz", "b", "WITHSCORE") == [1, b"2"]
        assert c.execute("ZREVRANK", "wz", "b", "WITHSCORE") == [0, b"2"]
        assert c.execute("ZRANK", "wz", "nosuch", "WITHSCORE") is None
        assert c.execute("ZRANK", "wz", "a", "FOO") == RespError("ERR syntax error")
        c.execute("HELLO", "3")
        reply, raw = c.execute_raw("ZRANK", "wz", "a", "WITHSCORE")
        assert raw == b"*2\r\n:0\r\n,1.5\r\n"
        c.execute("DEL", "wz")
