"""Differential tests for hashes, lists and SORT (issue 15) against redis-server 7.0, in
RESP2 and RESP3, with default thresholds, big preloaded values, tiny thresholds
(conversions all the time), compressed lists (list-compress-depth 1 and 2), and lists
grown at the head by LPUSH (head1, head0). Families the server under test does not know are skipped."""

import random
import warnings

import pytest

import diffgen_foundation  # noqa: F401  (registers the foundation families)
import diffgen_types  # noqa: F401
from differential import Cmd, Pools, Runner, probe_families, seeds

pytestmark = pytest.mark.differential

TYPE_FAMILIES = ["hash", "list", "sort"]
POOLS = Pools(hash=["h1", "h2", "h3"], list=["l1", "l2", "l3"], set=["s1"], zset=["z1"],
              str=["k1"])
MEMBERS = {"small": ["a", "b", "c"]}
FOUNDATION_MIX = ["keys", "strings", "expire", "tx", "db"]
FAMILY_WEIGHTS = {"keys": 0.3, "strings": 0.1, "expire": 0.15, "tx": 0.4, "db": 0.1}

DEFAULT_CONFIG = [("CONFIG", "SET", "hash-max-listpack-entries", "512"),
                  ("CONFIG", "SET", "hash-max-listpack-value", "64"),
                  ("CONFIG", "SET", "list-max-listpack-size", "-2"),
                  ("CONFIG", "SET", "list-compress-depth", "0")]


def big_preload(seed):
    rng = random.Random(seed * 104729 + 3)
    h1 = ["HSET", "h1"]
    for i in rng.sample(range(700), 600):
        h1 += ["bf%03d" % i, str(rng.randint(0, 1000))]
    l1 = ["RPUSH", "l1"] + ["e%d" % rng.randint(0, 99) for _ in range(3000)]
    return [Cmd(*h1), Cmd(*l1)]


def compressed_lists(depth, fill, length, head=False):
    """list-compress-depth `depth` (set before the lists exist, as Redis fixes
    the depth when a list is created) and long lists of compressible elements.
    `head`: the lists grow by LPUSHes of 1-3 elements (the head chunk growing
    at its front, crossing chunk boundaries), not by one RPUSH."""
    def setup(seed):
        rng = random.Random(seed * 7919 + depth)
        cmds = [Cmd("CONFIG", "SET", "list-compress-depth", str(depth)),
                Cmd("CONFIG", "SET", "list-max-listpack-size", fill)]
        for key, n in (("l1", length), ("l2", 250)):
            elems = [rng.choice(diffgen_types.COMPRESSIBLE + ["a", "b", "hello"])
                     for _ in range(n)]
            if not head:
                cmds.append(Cmd("RPUSH", key, *elems))
                continue
            while elems:
                k = rng.randint(1, 3)
                cmds.append(Cmd("LPUSH", key, *elems[:k]))
                del elems[:k]
        return cmds
    return setup


SCENARIOS = {
    "small": (lambda seed: [], {}),
    "big": (big_preload, {"big": True}),
    "tiny": (lambda seed: [Cmd("CONFIG", "SET", "hash-max-listpack-entries", "3"),
                           Cmd("CONFIG", "SET", "hash-max-listpack-value", "4"),
                           Cmd("CONFIG", "SET", "list-max-listpack-size", "2")], {}),
    "depth1": (compressed_lists(1, "4", 600), {"compress": True}),
    "depth2": (compressed_lists(2, "-1", 3000), {"compress": True}),
    "head1": (compressed_lists(1, "-1", 1500, head=True), {"compress": True}),
    "head0": (compressed_lists(0, "4", 400, head=True), {"compress": True}),
}
SEEDS = {"small": seeds(12), "big": seeds(6), "tiny": seeds(8), "depth1": seeds(6),
         "depth2": seeds(6), "head1": seeds(4), "head0": seeds(3)}
LENGTH = {"small": 700, "big": 500, "tiny": 700, "depth1": 600, "depth2": 600, "head1": 600,
          "head0": 600}
CASES = [(sc, seed, proto) for sc in SCENARIOS for seed in SEEDS[sc] for proto in (2, 3)]


@pytest.fixture(scope="module")
def family_status(server):
    status = probe_families(server, TYPE_FAMILIES + FOUNDATION_MIX)
    off = [f for f in TYPE_FAMILIES if not status[f]]
    if off:
        warnings.warn("differential types: families skipped: %s" % ", ".join(off))
    return status


@pytest.mark.parametrize("scenario,seed,proto", CASES,
                         ids=["%s-seed%d-resp%d" % c for c in CASES])
def test_types_sequence(server, redis_ref, family_status, scenario, seed, proto):
    families = [f for f in TYPE_FAMILIES + FOUNDATION_MIX if family_status[f]]
    setup, flags = SCENARIOS[scenario]
    Runner(server, redis_ref, families, POOLS, members=MEMBERS, seed=seed, proto=proto,
           length=LENGTH[scenario], setup=setup(seed), teardown=DEFAULT_CONFIG,
           scenario=flags, label=scenario, family_weights=FAMILY_WEIGHTS).run()
