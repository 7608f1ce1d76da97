"""What a script's run does beside its reply, as Redis 7.0: redis.set_repl narrows where
the effects of its next calls go (here the append-only file), key expiry sees one instant
for the whole run, a call's error counts in INFO errorstats / commandstats once (when the
call fails, caught by pcall or not), and a client a script's write readied is served only
when the script ends, even while the script is busy serving the event loop.

One server (append-only file on) for the module; RANKD_TARGET_REDIS=1 runs the same
checks against redis-server 7.0.
"""

import threading
import time

import pytest

from server_process import server_under_test


@pytest.fixture(scope="module")
def srv():
    proc = server_under_test(["--appendonly", "yes", "--aof-use-rdb-preamble", "no"])
    proc.start()
    yield proc
    proc.stop()


@pytest.fixture
def c(srv):
    client = srv.client()
    client.flushall()
    yield client
    client.config_set("maxmemory", "0")
    client.close()


def stat(c, section, name):
    return c.info(section).get(name)


def test_set_repl_none_keeps_effect_out_of_the_log(c):
    c.eval("""
        redis.call('set', 'a', '1')
        redis.set_repl(redis.REPL_NONE)
        redis.call('set', 'b', '2')
        redis.set_repl(redis.REPL_AOF)
        redis.call('set', 'c', '3')
        redis.set_repl(redis.REPL_ALL)
        redis.call('set', 'd', '4')""", 0)
    assert c.mget("a", "b", "c", "d") == [b"1", b"2", b"3", b"4"]
    c.execute_command("DEBUG", "LOADAOF")
    assert c.mget("a", "b", "c", "d") == [b"1", None, b"3", b"4"]
    # The choice ends with the script: the next one is logged whole.
    c.eval("redis.call('set', 'e', '5')", 0)
    c.execute_command("DEBUG", "LOADAOF")
    assert c.get("e") == b"5"


def test_set_repl_rejects_bad_flags(c):
    with pytest.raises(Exception, match="Invalid replication flags"):
        c.eval("redis.set_repl(7)", 0)


def test_script_sees_one_instant(c):
    # A key whose deadline passes while the script runs stays alive for the script.
    c.execute_command("DEBUG", "SET-DISABLE-DENY-SCRIPTS", "1")  # DEBUG SLEEP in a script
    assert c.eval("""
        redis.call('set', 'k', 'v', 'px', 1)
        redis.call('debug', 'sleep', 0.01)
        return redis.call('exists', 'k')""", 0) == 1
    c.execute_command("DEBUG", "SET-DISABLE-DENY-SCRIPTS", "0")
    assert c.exists("k") == 0


def test_call_errors_count_once(c):
    c.execute_command("CONFIG", "RESETSTAT")
    c.config_set("maxmemory", "1")
    # Caught by pcall: counted when the call failed.
    assert c.eval("""
        local t = redis.pcall('set', 'x', 'y')
        return t['err']""", 1, "x").startswith(b"OOM command not allowed")
    assert stat(c, "errorstats", "errorstat_OOM") == "count=1"
    assert stat(c, "stats", "total_error_replies") == 1
    set_stats = stat(c, "commandstats", "cmdstat_set")
    assert (set_stats["calls"], set_stats["rejected_calls"], set_stats["failed_calls"]) == (0, 1, 0)
    # Raised by redis.call and answered as the script's error: still once.
    c.execute_command("CONFIG", "RESETSTAT")
    with pytest.raises(Exception, match="OOM command not allowed"):
        c.eval("return redis.call('set', 'x', 'y')", 1, "x")
    assert stat(c, "errorstats", "errorstat_OOM") == "count=1"
    assert stat(c, "stats", "total_error_replies") == 1
    assert stat(c, "commandstats", "cmdstat_eval")["failed_calls"] == 1
    c.config_set("maxmemory", "0")
    # A command that ran and failed, caught by pcall.
    c.execute_command("CONFIG", "RESETSTAT")
    assert c.eval("return redis.pcall('select', 99)['err']", 0) == b"ERR DB index is out of range"
    assert stat(c, "errorstats", "errorstat_ERR") == "count=1"
    assert stat(c, "stats", "total_error_replies") == 1
    # The script's own error is counted as its reply.
    c.execute_command("CONFIG", "RESETSTAT")
    with pytest.raises(Exception, match="My Error"):
        c.eval("return redis.error_reply('My Error')", 0)
    assert stat(c, "errorstats", "errorstat_My") == "count=1"


def test_busy_script_does_not_serve_blocked_clients(srv, c):
    popped = []
    blocker = srv.client()
    waiter = threading.Thread(target=lambda: popped.append(blocker.blpop("x", 0)))
    waiter.start()
    deadline = time.time() + 5
    while stat(c, "clients", "blocked_clients") < 1 and time.time() < deadline:
        time.sleep(0.01)
    c.execute_command("DEBUG", "SET-DISABLE-DENY-SCRIPTS", "1")
    c.config_set("busy-reply-threshold", "10")
    script_client = srv.client()
    result = []
    runner = threading.Thread(target=lambda: result.append(script_client.eval("""
        redis.call('lpush', KEYS[1], 'y')
        while not string.find(redis.call('client', 'list'), 'endscript') do end
        redis.call('lpush', KEYS[1], 'z')
        return 1""", 1, "x")))
    runner.start()
    time.sleep(0.2)
    other = srv.client()
    # HELLO may run while the script is busy; its name ends the script's loop.
    other.execute_command("HELLO", "2", "SETNAME", "endscript")
    runner.join(5)
    waiter.join(5)
    assert result == [1]
    assert popped == [(b"x", b"z")]
    c.execute_command("DEBUG", "SET-DISABLE-DENY-SCRIPTS", "0")
    c.config_set("busy-reply-threshold", "5000")
    for client in (blocker, script_client, other):
        client.close()
