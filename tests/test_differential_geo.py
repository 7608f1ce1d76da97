"""Differential tests for geo (issue 15) against redis-server 7.0, in RESP2 and RESP3:
every geo command and option, small sets (listpack) and, with tiny conversion
thresholds, skiplists; with keys, expiry and MULTI mixed in. Replay one failure with its
id, e.g. -k "geo-small-seed3-resp2"."""

import pytest

import diffgen_foundation  # noqa: F401  (registers the foundation families)
import diffgen_geo  # noqa: F401
from differential import Cmd, Pools, Runner, probe_families, require_families, seeds

pytestmark = pytest.mark.differential

POOLS = Pools(geo=["g1", "g2", "g3"], str=["s1"])
MEMBERS = {"geo": ["Palermo", "Catania", "a", "b", "c", "d", "e", "f", "g", "h", "i", "j",
                   "k", "l", "m", "n", "o", "p", "q", "r", "longer-member-name-1", ""]}
MIX = ["keys", "expire", "tx"]
WEIGHTS = {"keys": 0.15, "expire": 0.1, "tx": 0.3}
RESET = [("CONFIG", "SET", "zset-max-listpack-entries", "128"),
         ("CONFIG", "SET", "zset-max-listpack-value", "64")]
SCENARIOS = {
    "small": [],
    "tiny": [Cmd("CONFIG", "SET", "zset-max-listpack-entries", "4"),
             Cmd("CONFIG", "SET", "zset-max-listpack-value", "8")],
}
CASES = [(sc, seed, proto) for sc in SCENARIOS for seed in seeds(6) for proto in (2, 3)]


@pytest.fixture(scope="module")
def family_status(server):
    return probe_families(server, ["geo"] + MIX)


@pytest.mark.parametrize("scenario,seed,proto", CASES,
                         ids=["geo-%s-seed%d-resp%d" % c for c in CASES])
def test_geo_sequence(server, redis_ref, family_status, scenario, seed, proto):
    families = require_families(family_status, ["geo"], MIX)
    Runner(server, redis_ref, families, POOLS, members=MEMBERS, seed=seed, proto=proto,
           length=600, setup=[Cmd("SET", "s1", "x")] + SCENARIOS[scenario], teardown=RESET,
           label=scenario, family_weights=WEIGHTS).run()
