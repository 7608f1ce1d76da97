"""The Lua debugger (SCRIPT DEBUG SYNC / YES, what `redis-cli --ldb` drives): the same
session on rankd and on redis-server 7.0, transcripts compared byte for byte.

Each session: SCRIPT DEBUG <mode>, EVAL (the first stop comes back as the EVAL's
answer), then debugger commands, each answered by an array of status lines; the
session ends with "<endsession>", the EVAL's own reply, and the server closes the
connection."""

import pytest

from resp_client import RespClient, RespError
from server_process import target_is_redis

pytestmark = pytest.mark.differential

SCRIPT = """local a = 10
local t = {1, 'two', {k='v'}}
redis.debug('note', a, t)
redis.call('set', KEYS[1], ARGV[1])
redis.breakpoint()
local got = redis.call('get', KEYS[1])
local big = string.rep('x', 300)
return {got, a}
"""

# Debugger commands after the first stop (line 1). Not `help`: its lines are each
# server's own words.
COMMANDS = [
    ["list"], ["l", "3", "1"], ["whole"], ["b", "6"], ["b", "99"], ["b", "x"], ["b"],
    ["print"], ["p", "KEYS"], ["p", "ARGV"], ["p", "nosuch"],
    ["s"], ["p", "a"], ["s"], ["print"], ["s"],        # redis.debug on line 3 logs
    ["s"],                                             # line 4: the SET and its reply
    ["e", "a", "+", "1"], ["eval", "redis.call('get', KEYS[1])"], ["e", "bad("],
    ["e", "error('boom')"],
    ["r", "set", "other", "1"], ["redis", "get", "other"], ["r", "hgetall", "nohash"],
    ["r", "incr", "dbg:str"],
    ["maxlen"], ["maxlen", "10"], ["maxlen", "0"],
    ["nosuchcommand"], ["t"], ["trace"],
    ["c"],                                             # redis.breakpoint(): stops at 6
    ["b", "-6"], ["b", "0"], ["s"], ["s"], ["p", "big"], ["maxlen", "100"], ["p", "big"],
    ["c"],
]


def session(port, mode, commands, script=SCRIPT):
    c = RespClient("127.0.0.1", port)
    out = [c.execute("FLUSHALL"), c.execute("SET", "dbg:str", "notanumber"),
           c.execute("SCRIPT", "DEBUG", mode)]
    c.send_command("EVAL", script, 1, "dbg:key", "value")
    out.append(c.read_reply_raw())
    for cmd in commands:
        c.send_command(*cmd)
        out.append(c.read_reply_raw())
    rest = c.read_until_close()
    c.close()
    return out, rest


def test_sync_session_matches_redis(server, redis_ref):
    got = session(server.port, "sync", COMMANDS)
    want = session(redis_ref.port, "sync", COMMANDS)
    for i, (a, b) in enumerate(zip(got[0], want[0])):
        assert a == b, (i, a, b)
    assert got[1] == want[1]
    assert b"<endsession>" in got[0][-1][1]
    # A SYNC session's writes stay.
    for port in (server.port, redis_ref.port):
        with RespClient("127.0.0.1", port) as c:
            assert c.execute("GET", "dbg:key") == b"value"
            assert c.execute("GET", "other") == b"1"


def test_forked_session_keeps_nothing(server, redis_ref):
    cmds = [["s"], ["s"], ["s"], ["s"], ["r", "set", "forked", "1"], ["c"], ["c"]]
    got = session(server.port, "yes", cmds)
    want = session(redis_ref.port, "yes", cmds)
    assert got == want
    for port in (server.port, redis_ref.port):
        with RespClient("127.0.0.1", port) as c:
            assert c.execute("GET", "dbg:key") is None
            assert c.execute("GET", "forked") is None
            assert c.execute("PING") == b"PONG"


def test_abort_protocol_and_evalsha(server, redis_ref):
    for cmds in ([["abort"]], [["s"], ["a"]]):
        assert session(server.port, "sync", cmds) == session(redis_ref.port, "sync", cmds)
    results = []
    for port in (server.port, redis_ref.port):
        with RespClient("127.0.0.1", port) as c:
            sha = c.execute("SCRIPT", "LOAD", "return 1")
            c.execute("SCRIPT", "DEBUG", "sync")
            r = [c.execute("EVALSHA", sha, 0), c.execute("SCRIPT", "DEBUG", "no"),
                 c.execute("EVAL", "return 2", 0)]
            results.append(r)
    assert results[0] == results[1]
    assert isinstance(results[0][0], RespError)


def test_unknown_command_and_big_redis_call(server, redis_ref):
    """As the suite's protocol-parsing and stack-overflow cases: odd command names get
    the unknown-command line; a 100-argument `redis` call reaches redis.call."""
    outs = []
    for port in (server.port, redis_ref.port):
        c = RespClient("127.0.0.1", port)
        c.execute("SCRIPT", "DEBUG", "sync")
        c.send_command("EVAL", "return 'hello'", 0)
        c.read_reply_raw()
        got = []
        for name in (b"hello\0world", b"\0hello\0"):
            c.send_command(name)
            got.append(c.read_reply_raw())
        c.send_command("redis", *(["test"] * 100))
        last = c.read_reply_raw()
        assert b"Unknown Redis command called from script" in last[1]
        outs.append(got)
        c.close()
    assert outs[0] == outs[1]
