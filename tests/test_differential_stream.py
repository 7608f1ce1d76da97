"""Differential tests for streams (issue 31) against redis-server 7.0, in RESP2 and RESP3:
random sequences of every non-blocking stream command and option (tests/diffgen_stream.py)
on a few keys, with keys, expiry and MULTI mixed in, under the default node size and with
tiny nodes (stream-node-max-entries 3, so approximate trims remove whole nodes often).
Replay one failure with its id, e.g. -k "stream-tiny-seed3-resp2"."""

import pytest

import diffgen_foundation  # noqa: F401  (registers the foundation families)
import diffgen_stream  # noqa: F401
from differential import Cmd, Pools, Runner, probe_families, require_families, seeds

pytestmark = pytest.mark.differential

POOLS = Pools(stream=["x1", "x2", "x3"], str=["s1"])
MIX = ["keys", "tx"]
WEIGHTS = {"keys": 0.1, "tx": 0.2}
RESET = [("CONFIG", "SET", "stream-node-max-entries", "100"),
         ("CONFIG", "SET", "stream-node-max-bytes", "4096")]
SCENARIOS = {
    "default": [],
    "tiny": [Cmd("CONFIG", "SET", "stream-node-max-entries", "3")],
    "unbounded": [Cmd("CONFIG", "SET", "stream-node-max-entries", "0")],
}
CASES = [(sc, seed, proto) for sc in SCENARIOS for seed in seeds(5) for proto in (2, 3)]


@pytest.fixture(scope="module")
def family_status(server):
    return probe_families(server, ["stream"] + MIX)


@pytest.mark.parametrize("scenario,seed,proto", CASES,
                         ids=["stream-%s-seed%d-resp%d" % c for c in CASES])
def test_stream_sequence(server, redis_ref, family_status, scenario, seed, proto):
    families = require_families(family_status, ["stream"], MIX)
    Runner(server, redis_ref, families, POOLS, seed=seed, proto=proto, length=600,
           setup=[Cmd("SET", "s1", "x")] + SCENARIOS[scenario], teardown=RESET,
           label=scenario, family_weights=WEIGHTS).run()
