"""A client blocked on several keys is served from the key that became ready.

Redis 7.0 serves the waiters of each signalled key from that key, in the order
the keys became ready, not from the first of the client's keys that holds
data. Each case runs on rankd and on redis-server 7.0 and compares."""

import threading

import pytest

from util import wait_until

CASES = [
    # (blocking command, the writes made ready in one transaction: second key first)
    (["BZPOPMIN", "k1", "k2", "0"], [["ZADD", "k2", "2", "b"], ["ZADD", "k1", "1", "a"]]),
    (["BZPOPMAX", "k1", "k2", "0"], [["ZADD", "k2", "2", "b"], ["ZADD", "k1", "1", "a"]]),
    (["BZMPOP", "0", "2", "k1", "k2", "MIN"], [["ZADD", "k2", "2", "b"], ["ZADD", "k1", "1", "a"]]),
    (["BLPOP", "k1", "k2", "0"], [["RPUSH", "k2", "b"], ["RPUSH", "k1", "a"]]),
    (["BLMPOP", "0", "2", "k1", "k2", "LEFT"], [["RPUSH", "k2", "b"], ["RPUSH", "k1", "a"]]),
]


def blocked_count(c):
    return int(c.info("clients")["blocked_clients"])


def run_case(srv, command, writes):
    waiter, writer = srv.client(), srv.client()
    writer.flushall()
    got = {}
    t = threading.Thread(target=lambda: got.setdefault("r", waiter.execute_command(*command)))
    t.start()
    wait_until(lambda: blocked_count(writer) == 1, message="the client to block")
    pipe = writer.pipeline(transaction=True)
    for w in writes:
        pipe.execute_command(*w)
    pipe.execute()
    t.join(10)
    assert not t.is_alive()
    left = sorted(writer.keys("*"))
    waiter.close()
    writer.close()
    return got["r"], left


@pytest.mark.parametrize("command,writes", CASES, ids=[c[0][0] for c in CASES])
def test_served_from_the_key_that_became_ready(server, redis_ref, command, writes):
    mine = run_case(server, command, writes)
    ref = run_case(redis_ref, command, writes)
    assert mine == ref
    assert mine[0][0] == b"k2"  # the key made ready first, not the first argument
