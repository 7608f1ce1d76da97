"""Randomized differential run of the HyperLogLog commands (issue 31) against
redis-server 7.0, in RESP2 and RESP3, mixed with the string, key, expiry and transaction
generators (so HLLs are copied, renamed, expired, and PF* commands run inside MULTI).

Replay one failure with its id, e.g. -k "hll-seed3-resp2"."""

import pytest

import diffgen_foundation  # noqa: F401  (registers the foundation families)
import diffgen_hll  # noqa: F401
from differential import Cmd, Pools, Runner, probe_families, require_families, seeds

pytestmark = pytest.mark.differential

POOLS = Pools(hll=["h1", "h2", "h3", "h4"], str=["s1"], set=["set1"])
SETUP = [Cmd("SADD", "set1", "x"), Cmd("SET", "s1", "plain"),
         Cmd("CONFIG", "SET", "hll-sparse-max-bytes", "3000")]
TEARDOWN = [Cmd("CONFIG", "SET", "hll-sparse-max-bytes", "3000")]
MIX = ["strings", "keys", "expire", "tx"]
WEIGHTS = {"strings": 0.2, "keys": 0.3, "expire": 0.1, "tx": 0.3}

CASES = [(fam, seed, proto) for fam in ("hll", "mixed") for seed in seeds(4)
         for proto in (2, 3)]


@pytest.fixture(scope="module")
def family_status(server):
    return probe_families(server, ["hll"] + MIX)


@pytest.mark.parametrize("focus,seed,proto", CASES, ids=["%s-seed%d-resp%d" % c for c in CASES])
def test_hll_sequence(server, redis_ref, family_status, focus, seed, proto):
    families = require_families(family_status, ["hll"], MIX if focus == "mixed" else ())
    Runner(server, redis_ref, families, POOLS, seed=seed, proto=proto, length=400,
           setup=SETUP, teardown=TEARDOWN, label=focus, family_weights=WEIGHTS).run()
