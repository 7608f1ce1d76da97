"""Due-item pops (issue 17): ZPOPDUE and BZPOPDUE on delay queues whose
scores are Unix times in milliseconds (docs/commands.md, "Beyond Redis")."""

import threading
import time

import pytest
import redis

from resp_client import RespClient, resp3_client
from server_process import target_is_redis
from util import wait_until

pytestmark = pytest.mark.skipif(target_is_redis(), reason="ZPOPDUE is rankd's own")


def now_ms():
    return int(time.time() * 1000)


def test_zpopdue_with_now(r):
    r.zadd("q", {"a": 100, "b": 200, "c": 300})
    assert r.execute_command("ZPOPDUE", "q", "NOW", 150) == [b"a", b"100"]
    assert r.execute_command("ZPOPDUE", "q", "NOW", 150) == []
    assert r.execute_command("ZPOPDUE", "q", "COUNT", 5, "NOW", 250) == [b"b", b"200"]
    assert r.execute_command("ZPOPDUE", "q", "COUNT", 0, "NOW", 999) == []
    assert r.execute_command("ZPOPDUE", "q", "now", 300, "count", 9) == [b"c", b"300"]
    assert not r.exists("q")  # emptied: deleted
    assert r.execute_command("ZPOPDUE", "missing") == []


def test_zpopdue_uses_the_server_clock(r):
    t = now_ms()
    r.zadd("q", {"late": t + 600_000, "due1": t - 5000, "due2": t - 1000})
    assert r.execute_command("ZPOPDUE", "q", "COUNT", 10) == [
        b"due1", str(t - 5000).encode(), b"due2", str(t - 1000).encode()]
    assert r.zrange("q", 0, -1) == [b"late"]


def test_zpopdue_resp3_shapes(server):
    with resp3_client(server.port) as c:
        c.send_command("ZADD", "q", 1, "a", 2, "b")
        c.read_reply()
        c.send_command("ZPOPDUE", "q", "NOW", 5)
        assert c.read_reply() == [b"a", 1.0]
        c.send_command("ZPOPDUE", "q", "COUNT", 2, "NOW", 5)
        assert c.read_reply() == [[b"b", 2.0]]


@pytest.mark.parametrize("args, error", [
    (["COUNT", -1], "ERR value is out of range, must be positive"),
    (["COUNT", "x"], "ERR value is not an integer or out of range"),
    (["NOW", "1.5"], "ERR value is not an integer or out of range"),
    (["COUNT"], "ERR syntax error"),
    (["LIMIT", 1], "ERR syntax error"),
])
def test_zpopdue_errors_change_nothing(r, args, error):
    r.zadd("q", {"a": 1})
    with pytest.raises(redis.ResponseError, match="^" + error.replace("ERR ", "") + "$"):
        r.execute_command("ZPOPDUE", "q", *args)
    assert r.zrange("q", 0, -1, withscores=True) == [(b"a", 1.0)]


def test_wrong_type_and_empty_board(r):
    r.set("s", "x")
    with pytest.raises(redis.ResponseError, match="WRONGTYPE"):
        r.execute_command("ZPOPDUE", "s")
    with pytest.raises(redis.ResponseError, match="WRONGTYPE"):
        r.execute_command("BZPOPDUE", "s", 0.01)
    r.execute_command("LB.CREATE", "lb")
    assert r.execute_command("ZPOPDUE", "lb", "NOW", 10**15) == []
    assert r.execute_command("BZPOPDUE", "lb", 0.01) is None
    assert r.exists("lb")


def test_bzpopdue_serves_a_due_member_at_once(r):
    r.zadd("q", {"x": now_ms() - 10, "y": now_ms() + 600_000})
    assert r.execute_command("BZPOPDUE", "other", "q", 1) [:2] == [b"q", b"x"]
    assert r.execute_command("BZPOPDUE", "q", 0.05) is None  # y is not due


def test_bzpopdue_waits_for_the_due_time(server, r):
    due = now_ms() + 300
    r.zadd("q", {"job": due})
    with RespClient(port=server.port) as c:
        c.send_command("BZPOPDUE", "q", 10)
        reply = c.read_reply(timeout=10)
        served_at = now_ms()
    assert reply == [b"q", b"job", str(due).encode()]
    assert served_at >= due  # never before it is due
    assert not r.exists("q")


def test_bzpopdue_rearms_when_an_earlier_item_arrives(server, r):
    r.zadd("q", {"later": now_ms() + 600_000})
    with RespClient(port=server.port) as c:
        c.send_command("BZPOPDUE", "q", 10)
        wait_until(lambda: r.info("clients")["blocked_clients"] == 1)
        soon = now_ms() + 200
        r.zadd("q", {"soon": soon})  # not yet due: the client stays blocked
        assert r.info("clients")["blocked_clients"] == 1
        assert c.read_reply(timeout=10) == [b"q", b"soon", str(soon).encode()]
    assert r.zrange("q", 0, -1) == [b"later"]


def test_bzpopdue_woken_by_a_write_of_a_due_item(server, r):
    with RespClient(port=server.port) as c:
        c.send_command("BZPOPDUE", "q", 10)
        wait_until(lambda: r.info("clients")["blocked_clients"] == 1)
        r.zadd("q", {"now": 5})
        assert c.read_reply(timeout=10) == [b"q", b"now", b"5"]


def test_bzpopdue_timeout_and_multi(r):
    r.zadd("q", {"later": now_ms() + 600_000})
    assert r.execute_command("BZPOPDUE", "q", 0.05) is None
    p = r.pipeline(transaction=True)
    p.execute_command("BZPOPDUE", "q", 0)
    assert p.execute() == [None]  # inside MULTI: never blocks


def test_bzpopdue_serves_consumers_in_blocking_order(server, r):
    due = now_ms() + 250
    r.zadd("q", {"j1": due, "j2": due + 1, "j3": now_ms() + 600_000})
    clients = [RespClient(port=server.port) for _ in range(3)]
    try:
        for i, c in enumerate(clients):
            c.send_command("BZPOPDUE", "q", 10)
            wait_until(lambda: r.info("clients")["blocked_clients"] == i + 1)
        assert clients[0].read_reply(timeout=10)[1] == b"j1"
        assert clients[1].read_reply(timeout=10)[1] == b"j2"
        clients[2].send_command("PING")  # still blocked: queued behind the pop
        time.sleep(0.2)
        assert r.info("clients")["blocked_clients"] == 1
    finally:
        for c in clients:
            c.close()


def test_concurrent_consumers_pop_each_item_once(server, r):
    t = now_ms()
    items = {"job%d" % i: t - 1000 + i for i in range(300)}
    r.zadd("q", items)
    got = []

    def consume():
        c = redis.Redis(port=server.port)
        while True:
            reply = c.execute_command("BZPOPDUE", "q", 0.2)
            if reply is None:
                return
            got.append(reply[1])

    threads = [threading.Thread(target=consume) for _ in range(4)]
    for th in threads:
        th.start()
    for th in threads:
        th.join(30)
    assert sorted(got) == sorted(k.encode() for k in items)


def test_pops_replay_from_the_log_as_removals(server_factory, tmp_path):
    args = ["--dir", str(tmp_path), "--appendonly", "yes", "--appendfsync", "always"]
    p = server_factory(extra_args=args)
    c = p.client()
    c.zadd("q", {"a": 1, "b": 2, "c": 10**15})
    assert c.execute_command("ZPOPDUE", "q", "COUNT", 5) == [b"a", b"1", b"b", b"2"]
    # NOW in the far future pops c too; a replay must not depend on any clock.
    c.zadd("r", {"x": 10**15})
    assert c.execute_command("ZPOPDUE", "r", "NOW", 10**16)[0] == b"x"
    p.proc.kill()
    p.proc.wait(10)
    q = server_factory(extra_args=args)
    d = q.client()
    assert d.zrange("q", 0, -1) == [b"c"]
    assert not d.exists("r")


# UNIT (issue 33): queues scored in Unix seconds.

def now_s():
    return time.time()


def test_zpopdue_unit_seconds(r):
    t = int(now_s())
    r.zadd("q", {"past": t - 5, "soon": t + 3600, "frac": t - 0.5})
    # Read as milliseconds (the default), every second-scored item is long due.
    assert r.execute_command("ZPOPDUE", "q", "COUNT", 10, "NOW", 1, "UNIT", "MS") == []
    assert r.execute_command("ZPOPDUE", "q", "COUNT", 10, "UNIT", "S") == [
        b"past", str(t - 5).encode(), b"frac", repr(t - 0.5).encode()]
    assert r.zrange("q", 0, -1) == [b"soon"]
    # NOW is on the queue's scale.
    assert r.execute_command("ZPOPDUE", "q", "unit", "s", "now", t + 3600) == [
        b"soon", str(t + 3600).encode()]


def test_zpopdue_default_is_milliseconds(r):
    t = int(now_s())
    r.zadd("q", {"in-an-hour": t + 3600})  # seconds read as ms: due since 1970
    assert r.execute_command("ZPOPDUE", "q") == [b"in-an-hour", str(t + 3600).encode()]


@pytest.mark.parametrize("cmd", [
    ["ZPOPDUE", "q", "UNIT", "min"],
    ["ZPOPDUE", "q", "UNIT", "1000"],
    ["ZPOPDUE", "q", "COUNT", 1, "UNIT", "seconds"],
    ["BZPOPDUE", "q", 1, "UNIT", "us"],
])
def test_impossible_unit_is_refused(r, cmd):
    r.zadd("q", {"a": 1})
    with pytest.raises(redis.ResponseError, match="^UNIT must be MS .* or S "):
        r.execute_command(*cmd)
    assert r.zcard("q") == 1


def test_bzpopdue_unit_seconds_waits_for_the_second(server, r):
    due = int(now_s()) + 1  # the next whole second
    r.zadd("q", {"job": due, "later": due + 3600})
    with RespClient(port=server.port) as c:
        c.send_command("BZPOPDUE", "q", 10, "UNIT", "S")
        reply = c.read_reply(timeout=10)
        served_at = now_s()
    assert reply == [b"q", b"job", str(due).encode()]
    assert served_at >= due
    assert r.zrange("q", 0, -1) == [b"later"]


def test_bzpopdue_key_named_unit_and_getkeys(raw):
    raw.execute("ZADD", "UNIT", 1, "x")
    # The last argument is a number: UNIT is a key here.
    assert raw.execute("BZPOPDUE", "q", "UNIT", 1) == [b"UNIT", b"x", b"1"]
    assert raw.execute("COMMAND", "GETKEYS", "BZPOPDUE", "a", "b", 5, "UNIT", "S") == \
        [b"a", b"b"]
    assert raw.execute("COMMAND", "GETKEYS", "BZPOPDUE", "a", "UNIT", 5) == \
        [b"a", b"UNIT"]
    assert raw.execute("COMMAND", "GETKEYS", "ZPOPDUE", "q", "UNIT", "S") == [b"q"]


def test_unit_pops_replay_as_removals(server_factory, tmp_path):
    args = ["--dir", str(tmp_path), "--appendonly", "yes", "--appendfsync", "always"]
    p = server_factory(extra_args=args)
    c = p.client()
    t = int(now_s())
    c.zadd("q", {"a": t - 1, "b": t + 3600})
    assert c.execute_command("ZPOPDUE", "q", "UNIT", "S")[0] == b"a"
    p.proc.kill()
    p.proc.wait(10)
    d = server_factory(extra_args=args).client()
    assert d.zrange("q", 0, -1) == [b"b"]
