"""Differential tests for the foundation commands: rankd and redis-server 7.0 get the same
seeded random sequences (valid and invalid) in RESP2 and RESP3 and must give identical
replies. A family the server under test does not implement yet is skipped (probe).

Replay one failure: the message names the mix, seed and protocol, e.g.
    /usr/bin/python3 -m pytest -q tests/test_differential_foundation.py -k "strings and 7 and 3"
"""

import pytest

import diffgen_foundation as fg
from differential import Pools, Runner, probe_families, seeds

pytestmark = pytest.mark.differential

POOLS = Pools(str=["k1", "k2", "k3", "k4"])

MIXES = {
    "all": fg.FOUNDATION_FAMILIES,
    "strings": ["strings", "errors"],
    "keys": ["keys", "expire", "db", "strings"],
    "tx": ["tx", "strings", "keys", "expire"],
}
SEEDS = {"all": seeds(20), "strings": seeds(8), "keys": seeds(8), "tx": seeds(8)}
LENGTH = 500

CASES = [(mix, seed, proto) for mix in MIXES for seed in SEEDS[mix] for proto in (2, 3)]


@pytest.fixture(scope="module")
def family_status(server):
    return probe_families(server, fg.FOUNDATION_FAMILIES)


@pytest.mark.parametrize("mix,seed,proto", CASES,
                         ids=["%s-seed%d-resp%d" % c for c in CASES])
def test_foundation_sequence(server, redis_ref, family_status, mix, seed, proto):
    families = [f for f in MIXES[mix] if family_status[f]]
    missing = [f for f in MIXES[mix] if not family_status[f]]
    if not families or (missing and mix != "all" and missing[0] == MIXES[mix][0]):
        pytest.skip("families not implemented by the server under test: %s" % missing)
    Runner(server, redis_ref, families, POOLS, seed=seed, proto=proto, length=LENGTH,
           label=mix).run()


def test_harness_detects_a_difference(redis_ref):
    """The harness itself: a reference compared with a server that differs must fail.
    (A second redis with a different config differs in CONFIG GET.)"""
    from differential import Cmd, Mismatch
    from server_process import reference_redis
    other = reference_redis(["--databases", "4"]).start()
    try:
        runner = Runner(other, redis_ref, ["db"], POOLS, seed=1, proto=2, length=0,
                        setup=[Cmd("CONFIG", "GET", "databases")])
        with pytest.raises(Mismatch) as info:
            runner.run()
        assert "seed=1" in str(info.value) and "CONFIG GET" in str(info.value)
    finally:
        other.stop()
