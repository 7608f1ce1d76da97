"""The command-level fuzzer (issue 18) as a bounded test: a few fixed seeds share
RANKD_FUZZ_SECONDS (default 60) of fuzzing, each against a fresh server under test
(rankd, or redis-server 7.0 with RANKD_TARGET_REDIS=1, where the LB.* commands are
simply unknown). The budget is time, not a command count, so the slower ASan build
(`make asan`) sends fewer commands in the same time.

A failure (crash, hang, stuck command, dropped connection, malformed or out-of-step
reply, canary change) fails the seed's test with the seed, the minimised command
sequence (redis-cli ready) and the command line that replays the whole run.

  RANKD_FUZZ_SECONDS=600 ...           a longer budget, still split over the seeds
  RANKD_FUZZ_SEED=42 ...               one seed only, with the whole budget
  RANKD_FUZZ_MINIMIZE_SECONDS=30 ...   bound on minimisation after a failure (default 60)
"""

import os

import pytest

import fuzz_commands
from server_process import server_under_test

SEEDS = [1, 2, 3]


def _seeds():
    seed = os.environ.get("RANKD_FUZZ_SEED", "")
    return [int(seed)] if seed else SEEDS


def _budget():
    return float(os.environ.get("RANKD_FUZZ_SECONDS", "60"))


@pytest.mark.slow
@pytest.mark.parametrize("seed", _seeds())
def test_fuzz_commands(seed):
    seconds = _budget() / len(_seeds())
    print("fuzzing seed %d for %.0fs" % (seed, seconds))
    result = fuzz_commands.run(
        seed, seconds, server_under_test,
        minimize_seconds=float(os.environ.get("RANKD_FUZZ_MINIMIZE_SECONDS", "60")))
    print(result.summary())
    if result.failure is not None:
        pytest.fail(result.report(), pytrace=False)
    assert result.stats.sent > 0


class _Rng:
    """Just what burst() uses of a Generator."""

    def __init__(self, seed):
        import random
        self.rng = random.Random(seed)

    def chance(self, p):
        return self.rng.random() < p


def test_bursts_stay_off_the_canary_databases():
    """A burst selects a database in 1-14 before anything else, names no other
    database (FLUSHDB / SWAPDB would reach the canary in 0 or 15) and closes every
    MULTI it opens."""
    import fuzz_grammar as fg
    for seed in range(300):
        cmds = fg.burst(_Rng(seed))
        assert cmds[0][0] == "SELECT" and cmds[0][1] in fg.BURST_DBS
        in_multi = False
        for cmd in cmds:
            if cmd[0] in ("SELECT", "SWAPDB"):
                assert all(d in fg.BURST_DBS for d in cmd[1:])
            in_multi = fg.next_multi_state(in_multi, cmd)
        assert not in_multi
