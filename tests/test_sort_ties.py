"""SORT edge cases the differential sequences found (RANKD_DIFF_SCALE=5): several BY options
(a BY without '*' turns sorting off for good, the last BY names the pattern), ties under
BY ... ALPHA (Redis's partial quicksort with LIMIT, its stable qsort without), numeric ties
(the elements compared bytewise), and the order SORT ... STORE leaves for LMOVE / LMPOP.
Every test runs against rankd and redis-server 7.0 with the same expected replies. Lists
only: a set's or sorted set's SORT input order is Redis's hash table order."""

import pytest

from resp_client import RespClient

TARGETS = ["rankd", "redis"]
LETTERS = [chr(c) for c in range(ord("a"), ord("z") + 1)]


@pytest.fixture(params=TARGETS)
def c(request, server, redis_ref):
    proc = server if request.param == "rankd" else redis_ref
    with RespClient(proc.host, proc.port) as client:
        client.execute("FLUSHALL")
        yield client


def strs(reply):
    return [x.decode() for x in reply]


def test_several_by_options_any_nosort_wins(c):
    c.execute("RPUSH", "l", "3", "1", "2")
    c.execute("MSET", "w_1", "30", "w_2", "20", "w_3", "10")
    assert strs(c.execute("SORT", "l", "BY", "w_*")) == ["3", "2", "1"]
    assert strs(c.execute("SORT", "l", "BY", "nosort", "BY", "w_*")) == ["3", "1", "2"]
    assert strs(c.execute("SORT", "l", "BY", "w_*", "BY", "nosort")) == ["3", "1", "2"]
    assert strs(c.execute("SORT", "l", "BY", "#", "BY", "w_*", "DESC")) == ["2", "1", "3"]
    assert c.execute("SORT", "l", "BY", "nosort", "STORE", "d", "BY", "w_*") == 3
    assert strs(c.execute("LRANGE", "d", "0", "-1")) == ["3", "1", "2"]
    # The pattern is read as a C string: a '*' after a NUL does not count.
    assert strs(c.execute("SORT", "l", "BY", "w\x00*")) == ["3", "1", "2"]


def test_numeric_ties_compare_the_elements_bytewise(c):
    c.execute("RPUSH", "l", "b", "9", "a", "10", "c")
    c.execute("MSET", "w_a", "1", "w_b", "1", "w_c", "1", "w_9", "1", "w_10", "1")
    assert strs(c.execute("SORT", "l", "BY", "w_*")) == ["10", "9", "a", "b", "c"]
    assert strs(c.execute("SORT", "l", "BY", "w_*", "DESC")) == ["c", "b", "a", "9", "10"]
    assert strs(c.execute("SORT", "l", "BY", "w_*", "LIMIT", "1", "2")) == ["9", "a"]


def alpha_ties(c):
    c.execute("RPUSH", "m", *LETTERS)
    c.execute("MSET", "v_a", "1", "v_c", "1", "v_e", "2", "v_g", "1", "v_k", "2")


def test_alpha_by_ties_without_limit_keep_list_order(c):
    alpha_ties(c)
    assert "".join(strs(c.execute("SORT", "m", "BY", "v_*", "ALPHA"))) == \
        "bdfhijlmnopqrstuvwxyzacgek"


def test_alpha_by_ties_with_limit_follow_redis_partial_quicksort(c):
    alpha_ties(c)
    assert "".join(strs(c.execute("SORT", "m", "BY", "v_*", "ALPHA", "LIMIT", "0", "10"))) \
        == "zbuvwxydfh"
    got = c.execute("SORT", "m", "BY", "v_*", "ALPHA", "LIMIT", "3", "20", "DESC")
    assert "".join(strs(got)) == "caijlmnopqrstuvwxyzb"
    got = c.execute("SORT", "m", "BY", "nothere_*", "ALPHA", "LIMIT", "1", "5")
    assert "".join(strs(got)) == "bcdef"


def test_sort_store_order_seen_by_lmove_and_lmpop(c):
    alpha_ties(c)
    assert c.execute("SORT", "m", "BY", "v_*", "ALPHA", "LIMIT", "0", "10", "STORE", "d") == 10
    assert "".join(strs(c.execute("LRANGE", "d", "0", "-1"))) == "zbuvwxydfh"
    assert c.execute("LMOVE", "d", "x", "RIGHT", "LEFT") == b"h"
    assert c.execute("LMPOP", "1", "d", "LEFT", "COUNT", "2") == [b"d", [b"z", b"b"]]


@pytest.mark.parametrize("limit, sorted_want, nosort_want", [
    (("1", "9223372036854775807"), "2345", "1254"),
    (("9223372036854775807", "1"), "", ""),
    (("9223372036854775807", "9223372036854775807"), "", ""),
    (("9223372036854775807", "-9223372036854775808"), "", ""),
    (("-9223372036854775808", "2"), "12", "31"),
])
def test_limit_at_the_int64_bounds(c, limit, sorted_want, nosort_want):
    """LIMIT offset + count overflowed int64 (UBSan aborted the sanitizer build at
    LIMIT 9223372036854775807 1): both are cut to the list's size first, as Redis."""
    c.execute("RPUSH", "l", "3", "1", "2", "5", "4")
    assert "".join(strs(c.execute("SORT", "l", "LIMIT", *limit))) == sorted_want
    assert "".join(strs(c.execute("SORT", "l", "BY", "nosort", "LIMIT", *limit))) == nosort_want


def test_nosort_desc_limit_past_the_end(c):
    c.execute("RPUSH", "l", "3", "1", "2", "5", "4")
    assert strs(c.execute("SORT", "l", "BY", "nosort", "DESC", "LIMIT", "1",
                          "9223372036854775807")) == ["5", "2", "1", "3"]
