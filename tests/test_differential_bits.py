"""Differential tests for bitmaps and string ranges (issue 15) against redis-server 7.0, in
RESP2 and RESP3: SETBIT GETBIT BITCOUNT BITPOS BITOP BITFIELD BITFIELD_RO SETRANGE GETRANGE
SUBSTR GETSET LCS, mixed with the string, key, expiry and transaction generators so the
values they read were written by every other string command too.

Replay one failure with its id, e.g. -k "bits-seed3-resp2"."""

import pytest

import diffgen_bits as bg
import diffgen_foundation  # noqa: F401  (registers the foundation families)
from differential import Cmd, Pools, Runner, probe_families, seeds

pytestmark = pytest.mark.differential

POOLS = Pools(str=["b1", "b2", "b3", "b4"], set=["s1"])
SETUP = [Cmd("SADD", "s1", "x")]
MIX = ["strings", "keys", "expire", "tx"]
WEIGHTS = {"strings": 0.3, "keys": 0.3, "expire": 0.2, "tx": 0.4}

CASES = [(fam, seed, proto) for fam in ["all"] + bg.BITS_FAMILIES for seed in seeds(4)
         for proto in (2, 3)]


@pytest.fixture(scope="module")
def family_status(server):
    return probe_families(server, bg.BITS_FAMILIES + MIX)


@pytest.mark.parametrize("focus,seed,proto", CASES, ids=["%s-seed%d-resp%d" % c for c in CASES])
def test_bits_sequence(server, redis_ref, family_status, focus, seed, proto):
    own = bg.BITS_FAMILIES if focus == "all" else [focus]
    families = [f for f in own if family_status[f]]
    if not families:
        pytest.skip("not implemented by the server under test: %s" % own)
    weights = dict(WEIGHTS)
    if focus == "all":
        families = families + [f for f in MIX if family_status[f]]
    else:
        families = sorted(set(families) | {"bits"} if family_status["bits"] else families)
    Runner(server, redis_ref, families, POOLS, seed=seed, proto=proto, length=500,
           setup=SETUP, label=focus, family_weights=weights).run()
