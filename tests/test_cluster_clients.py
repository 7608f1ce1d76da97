"""Cluster-aware clients run a leaderboard workload across slots (issue 29): redis-py's
RedisCluster and ioredis's Cluster (tests/js, installed by scripts/setup.sh with npm;
the ioredis test skips when tests/js/node_modules is absent). Boards use hash tags
({board:N}:scores, {board:N}:total, {board:N}:meta) so one board's keys share a slot
while the boards spread over every master.
"""

import json
import os
import shutil
import subprocess

import pytest

from cluster_util import cluster_fixture, key_slot

pytestmark = pytest.mark.slow

JS_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "js")
BOARDS, PLAYERS, ROUNDS = 8, 20, 5


cluster = cluster_fixture(6, replicas=1)


@pytest.fixture
def clean(cluster):
    yield
    for m in cluster.masters():
        m.call("FLUSHALL")


def expected_board():
    """ZRANGE WITHSCORES of one board after the workload: ascending score, ties by
    member."""
    scores = {"player:%d" % p: ROUNDS * (p % 5 + 1) for p in range(PLAYERS)}
    return sorted(scores.items(), key=lambda kv: (kv[1], kv[0].encode()))


def test_boards_spread_over_every_master(cluster):
    owners = {cluster.owner_of_key("{board:%d}:scores" % b) for b in range(BOARDS)}
    assert owners == set(cluster.masters())
    for b in range(BOARDS):
        assert key_slot("{board:%d}:scores" % b) == key_slot("{board:%d}:meta" % b)


def test_redis_py_cluster_leaderboard(cluster, clean):
    rc = cluster.cluster_client(decode_responses=True)
    try:
        for _ in range(ROUNDS):
            pipe = rc.pipeline()           # split per node by the client
            for b in range(BOARDS):
                for p in range(PLAYERS):
                    pipe.zincrby("{board:%d}:scores" % b, p % 5 + 1, "player:%d" % p)
            pipe.execute()
        want = expected_board()
        for b in range(BOARDS):
            scores = "{board:%d}:scores" % b
            got = rc.zrange(scores, 0, -1, withscores=True)
            assert [(m, int(s)) for m, s in got] == want
            assert rc.zunionstore("{board:%d}:total" % b, [scores]) == PLAYERS
            top = rc.zrevrange("{board:%d}:total" % b, 0, 2, withscores=True)
            assert [(m, int(s)) for m, s in top] == want[::-1][:3]
            assert rc.zrevrank(scores, "player:9") == 0
            rc.hset("{board:%d}:meta" % b, "name", "board %d" % b)
        # Every master holds some boards.
        for m in cluster.masters():
            assert m.call("DBSIZE") > 0
    finally:
        rc.close()


def js_ready():
    return shutil.which("node") and os.path.isdir(os.path.join(JS_DIR, "node_modules",
                                                               "ioredis"))


@pytest.mark.skipif(not js_ready(), reason="ioredis not installed (scripts/setup.sh "
                    "installs it with npm into tests/js/node_modules)")
def test_ioredis_cluster_leaderboard(cluster, clean):
    entry = cluster.masters()[0]
    p = subprocess.run(["node", os.path.join(JS_DIR, "leaderboard_cluster.js"), entry.addr,
                        str(BOARDS), str(PLAYERS), str(ROUNDS)], capture_output=True,
                       text=True, timeout=120, cwd=JS_DIR)
    assert p.returncode == 0, p.stdout + p.stderr
    out = json.loads(p.stdout)
    want = expected_board()
    flat = [x for m, s in want for x in (m, str(s))]
    desc = want[::-1]
    for b in range(BOARDS):
        assert out["boards"][str(b)] == flat
        top = out["top"][str(b)]
        assert top == [x for m, s in desc[:3] for x in (m, str(s))]
        assert out["multi"][str(b)] == [[None, 1], [None, PLAYERS]]
    assert out["crossslot"] == "CROSSSLOT Keys in request don't hash to the same slot"
    # What the client wrote is where the slot map says.
    for b in range(BOARDS):
        owner = cluster.owner_of_key("{board:%d}:meta" % b)
        assert owner.call("HGET", "{board:%d}:meta" % b, "name") == b"board %d" % b
