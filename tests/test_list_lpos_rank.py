"""LPOS with a RANK of LLONG_MIN (found by the differential sequences at RANKD_DIFF_SCALE=5):
Redis 7.0 accepts it, scans from the tail, and its COUNT stop test (matches - rank + 1 >=
count) overflows and never holds, so any COUNT returns every match (within MAXLEN). Runs
against rankd and redis-server 7.0 with the same expected replies."""

import pytest

from resp_client import RespClient

TARGETS = ["rankd", "redis"]
LLONG_MIN = "-9223372036854775808"


@pytest.fixture(params=TARGETS)
def c(request, server, redis_ref):
    proc = server if request.param == "rankd" else redis_ref
    with RespClient(proc.host, proc.port) as client:
        client.execute("FLUSHALL")
        client.execute("RPUSH", "l", "a", "b", "a", "c", "a", "a")
        yield client


def test_llong_min_rank_with_count_returns_every_match(c):
    assert c.execute("LPOS", "l", "a", "RANK", LLONG_MIN, "COUNT", "2") == [5, 4, 2, 0]
    assert c.execute("LPOS", "l", "a", "RANK", LLONG_MIN, "COUNT", "1") == [5, 4, 2, 0]
    assert c.execute("LPOS", "l", "a", "COUNT", "1", "RANK", LLONG_MIN) == [5, 4, 2, 0]
    assert c.execute("LPOS", "l", "a", "RANK", LLONG_MIN, "COUNT", "0") == [5, 4, 2, 0]


def test_llong_min_rank_respects_maxlen_and_single_reply(c):
    assert c.execute("LPOS", "l", "a", "RANK", LLONG_MIN) == 5
    assert c.execute("LPOS", "l", "a", "RANK", LLONG_MIN, "COUNT", "1", "MAXLEN", "3") == [5, 4]
    assert c.execute("LPOS", "l", "zz", "RANK", LLONG_MIN, "COUNT", "2") == []


def test_other_large_negative_ranks_still_count(c):
    assert c.execute("LPOS", "l", "a", "RANK", "-9223372036854775807", "COUNT", "2") == []
    assert c.execute("LPOS", "l", "a", "RANK", "-2", "COUNT", "2") == [4, 2]
