"""Lua scripting (EVAL, EVALSHA, SCRIPT, FUNCTION, FCALL) against rankd and, side by side,
against the reference redis-server 7.0: replies must be byte-identical.

Covers the four leaderboard scripts of seed 000 and the delay-queue / sliding-window
patterns of seed 004, seeded random scripts built from implemented commands (with the
error paths: unknown command, wrong arity, WRONGTYPE, Lua runtime errors), and a busy
script answered with -BUSY and stopped by SCRIPT KILL.
"""

import random
import threading
import time

import pytest

from resp_client import RespClient, RespError
from server_process import target_is_redis
from util import seed_script

pytestmark = pytest.mark.differential

# ---- seed 000: leaderboard scripts, verbatim --------------------------------------------

SEED000_ADD = seed_script("seed000_add.lua")

SEED000_RANK = seed_script("seed000_rank.lua")

SEED000_PAGE = seed_script("seed000_page.lua")

# The seed's three-command rank lookup (zscore, zrevrangebyscore limit, zrevrank) as one script.
SEED000_STEPS = """local s = redis.call('zscore', KEYS[1], KEYS[2])
if not s then return false end
local first = redis.call('zrevrangebyscore', KEYS[1], s + 1, s, 'limit', 0, 1)
return {s, first[1], redis.call('zrevrank', KEYS[1], first[1])}"""

# ---- seed 004: delay queue atomic pop, sliding-window limiter --------------------------

DELAY_POP = """local items = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, 1)
if #items == 0 then return false end
redis.call('ZREM', KEYS[1], items[1])
redis.call('ZADD', KEYS[2], ARGV[1], items[1])
return items[1]"""

LIMITER = """redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', tonumber(ARGV[1]) - tonumber(ARGV[2]))
local n = redis.call('ZCARD', KEYS[1])
if n < tonumber(ARGV[3]) then
  redis.call('ZADD', KEYS[1], ARGV[1], ARGV[4])
  redis.call('EXPIRE', KEYS[1], ARGV[5])
  return {1, n + 1}
end
return {0, n}"""


def test_seed000_leaderboard_scripts(pair):
    shas = {name: pair.run("SCRIPT", "LOAD", body) for name, body in
            [("add", SEED000_ADD), ("rank", SEED000_RANK), ("page", SEED000_PAGE),
             ("steps", SEED000_STEPS)]}
    rng = random.Random(0)
    teams = ["team%d" % i for i in range(12)]
    for step in range(120):
        team = rng.choice(teams)
        frac = "%.13f" % ((2**31 - 1 - (1700000000 + step)) * 1e-13)  # (Integer.MAX - ts) * 10^-13
        pair.run("EVALSHA", shas["add"], 2, "board", team, rng.choice([1, 2, 5, 10]), frac)
    for team in teams + ["nobody"]:
        pair.run("EVALSHA", shas["rank"], 2, "board", team)
        pair.run("EVALSHA", shas["steps"], 2, "board", team)
    for start in (0, 5, 10):
        pair.run("EVALSHA", shas["page"], 1, "board", start, start + 9)
    pair.run("EVAL", SEED000_PAGE, 1, "board", 0, -1)
    pair.run("ZREVRANGE", "board", 0, -1, "WITHSCORES")


def test_seed004_delay_queue_and_limiter(pair):
    for i in range(20):
        pair.run("ZADD", "delay:queue", 1000 + 10 * i, "job%d" % i)
    for now in (995, 1000, 1055, 1055, 1300, 1300, 5000):
        pair.run("EVAL", DELAY_POP, 2, "delay:queue", "processing", now)
    pair.run("ZRANGE", "processing", 0, -1, "WITHSCORES")
    for i in range(30):
        pair.run("EVAL", LIMITER, 1, "limit:user:1001", 1735689600 + 7 * i, 60, 5, "req:%d" % i, 70)
    pair.run("ZRANGE", "limit:user:1001", 0, -1, "WITHSCORES")


ERROR_CASES = [
    "return x", "x = 1", "return redis.call('nosuch')", "return redis.call('get')",
    "return redis.call('zadd', KEYS[1], 1, 'a')", "return redis.pcall('zadd', KEYS[1], 1, 'a')",
    "error('boom')", "error({err='X boom'})", "error('boom', 0)", "return 1 +",
    "local t = nil; return t.x", "return redis.call('multi')", "return redis.call('shutdown')",
    "return redis.call('eval', 'return 1', '0')", "return redis.call()", "return redis.pcall()",
    "return redis.call('set', 'k', {})", "return redis.error_reply('My err')",
    "return redis.error_reply('nospace')", "return {err='nope'}", "return redis.status_reply('FINE')",
    "return {1, 2, nil, 4}", "return 3.99", "return -3.99", "return {true, false}",
    "return {double=1.5}", "return {map={a=1}}", "return redis.setresp(4)",
    "return redis.sha1hex('abc')", "return redis.log(99, 'x')", "return type(os)",
    "return type(loadfile)", "return cjson.encode({a=1, b={1, 2, 3}, c='x', d=1.5})",
    "return cjson.decode('[1,2,{\"a\":null}]')[2]", "return bit.band(0xff, 0x0f)",
    "local ok, e = pcall(redis.call, 'nosuch') return e",
    "redis.setresp(3) return redis.call('zscore', KEYS[1], 'a')",
    "#!lua flags=no-writes\nreturn redis.call('set', 'a', 'b')", "#!lua flags=bogus\nreturn 1",
    "#!lua\nreturn x",
]


def test_error_and_conversion_shapes(pair):
    pair.run("SET", "str", "1")
    for script in ERROR_CASES:
        pair.run("EVAL", script, 1, "str")
    pair.run("EVAL", "return 1", -1)
    pair.run("EVAL", "return 1", 2, "a")
    pair.run("EVAL", "return 1", "x")
    pair.run("EVALSHA", "ffffffffffffffffffffffffffffffffffffffff", 0)
    pair.run("EVAL_RO", "return redis.call('set', 'a', 'b')", 0)
    pair.run("EVAL_RO", "return redis.pcall('set', 'a', 'b')", 0)
    pair.run("EVAL_RO", "#!lua\nreturn 1", 0)
    sha = pair.run("SCRIPT", "LOAD", "return 1")
    pair.run("SCRIPT", "EXISTS", sha, sha.upper(), "nope")
    pair.run("EVALSHA", sha.upper(), 0)
    pair.run("SCRIPT", "FLUSH", "bad")
    pair.run("SCRIPT", "KILL")
    pair.run("SCRIPT", "HELP")


def test_script_debug(pair):
    """SCRIPT DEBUG as Redis 7.0 answers it without entering the debugger: NO, a bad mode,
    the arity, from a script; a pipelined one or one inside EXEC (replies still unsent) is
    refused before its argument is looked at."""
    pair.run("SCRIPT", "DEBUG", "no")
    pair.run("SCRIPT", "DEBUG", "NO")
    pair.run("SCRIPT", "DEBUG", "maybe")
    pair.run("SCRIPT", "DEBUG")
    pair.run("SCRIPT", "DEBUG", "no", "x")
    pair.run("EVAL", "return redis.call('script', 'debug', 'no')", 0)
    pair.run("EVAL", "return redis.pcall('script', 'debug', 'no')", 0)
    for batch in ([["SCRIPT", "DEBUG", "NO"], ["SCRIPT", "DEBUG", "NO"], ["PING"],
                   ["SCRIPT", "DEBUG", "bad"]],
                  [["PING"], ["SCRIPT", "DEBUG", "NO"]],
                  [["MULTI"], ["SCRIPT", "DEBUG", "NO"], ["SCRIPT", "DEBUG", "x"], ["EXEC"]]):
        got = [[raw for _, raw in c.pipeline_raw(batch)] for c in (pair.a, pair.b)]
        assert got[0] == got[1], (batch, got)


# Pieces of random scripts: each is a Lua statement over KEYS[1] (a zset), KEYS[2] (a string).
PIECES = [
    "redis.call('zadd', KEYS[1], {n}, '{m}')", "redis.call('zincrby', KEYS[1], {n}, '{m}')",
    "r[#r+1] = redis.call('zscore', KEYS[1], '{m}')", "r[#r+1] = redis.call('zrank', KEYS[1], '{m}')",
    "r[#r+1] = redis.call('zrevrank', KEYS[1], '{m}')", "r[#r+1] = redis.call('zcard', KEYS[1])",
    "r[#r+1] = redis.call('zrange', KEYS[1], 0, -1, 'withscores')",
    "r[#r+1] = redis.call('zrevrangebyscore', KEYS[1], '+inf', {n}, 'limit', 0, 2)",
    "r[#r+1] = redis.call('zrem', KEYS[1], '{m}')", "r[#r+1] = redis.call('zcount', KEYS[1], 0, {n})",
    "r[#r+1] = redis.call('set', KEYS[2], '{n}')", "r[#r+1] = redis.call('incr', KEYS[2])",
    "r[#r+1] = redis.call('get', KEYS[2])", "r[#r+1] = redis.call('exists', KEYS[1], KEYS[2])",
    "r[#r+1] = redis.pcall('zadd', KEYS[2], 1, 'x')", "r[#r+1] = redis.pcall('incr', KEYS[1])",
    "r[#r+1] = redis.pcall('nosuchcmd', KEYS[1])", "r[#r+1] = redis.pcall('zadd', KEYS[1])",
    "r[#r+1] = redis.pcall('zadd', KEYS[1], 'nan', 'x')", "r[#r+1] = {n} / 3",
    "r[#r+1] = tostring({n} / 7)", "r[#r+1] = {{ok='s{n}'}}", "r[#r+1] = ({n} > 5)",
    "r[#r+1] = redis.call('ping')",
]
ENDINGS = [
    "return r", "return #r", "return r[1]", "return redis.call('zadd', KEYS[2], 1, 'x')",
    "return redis.call('nosuchcmd')", "return redis.call('zrange', KEYS[1])",
    "local t = nil return t.x", "error('custom ' .. #r)", "return {err='E' .. #r}",
    "return cjson.encode(redis.call('zrange', KEYS[1], 0, -1))",
]


def test_random_scripts_match_redis(pair):
    for seed in range(40):
        rng = random.Random(seed)
        body = ["local r = {}"]
        for _ in range(rng.randint(1, 8)):
            piece = rng.choice(PIECES)
            body.append(piece.format(n=rng.choice([0, 1, 2.5, 7, -3, 1e3]), m=rng.choice("abcde")))
        body.append(rng.choice(ENDINGS))
        pair.run("EVAL", "\n".join(body), 2, "z", "s")
    pair.run("ZRANGE", "z", 0, -1, "WITHSCORES")
    pair.run("GET", "s")


LIB = """#!lua name=board
redis.register_function('bump', function(keys, args)
  return redis.call('zincrby', keys[1], args[1], args[2])
end)
redis.register_function{function_name='top', callback=function(keys, args)
  return redis.call('zrevrange', keys[1], 0, tonumber(args[1]) - 1, 'withscores')
end, flags={'no-writes'}, description='top n'}"""


def test_functions_match_redis(pair):
    pair.run("FUNCTION", "LOAD", LIB)
    pair.run("FUNCTION", "LOAD", LIB)
    pair.run("FUNCTION", "LOAD", "#!lua name=x\nredis.register_function('bump', function() end)")
    pair.run("FUNCTION", "LOAD", "#!lua name=x\nredis.call('ping')")
    pair.run("FUNCTION", "LOAD", "#!lua name=x\nlocal a = 1")
    pair.run("FUNCTION", "LOAD", "nobang")
    for i in range(5):
        pair.run("FCALL", "bump", 1, "lb", i, "p%d" % (i % 3))
    pair.run("FCALL", "top", 1, "lb", 2)
    pair.run("FCALL_RO", "top", 1, "lb", 2)
    pair.run("FCALL_RO", "bump", 1, "lb", 1, "x")
    pair.run("FCALL", "nosuch", 0)
    pair.run("FCALL", "bump", 5, "lb")
    pair.run_list("FUNCTION", "LIST")
    pair.run_list("FUNCTION", "LIST", "WITHCODE", "LIBRARYNAME", "bo*")
    pair.run("FUNCTION", "STATS")
    # Each server restores its own dump; rankd also restores redis's (LZF-compressed) one.
    dump_b = pair.raw(pair.b, "FUNCTION", "DUMP")[0]
    pair.run("FUNCTION", "DELETE", "board")
    pair.run("FUNCTION", "DELETE", "board")
    pair.run("FUNCTION", "RESTORE", dump_b)
    pair.run("FCALL", "top", 1, "lb", 3)
    pair.run("FUNCTION", "RESTORE", dump_b)
    pair.run("FUNCTION", "RESTORE", dump_b, "REPLACE")
    pair.run("FUNCTION", "RESTORE", "garbage")
    dump_a = pair.raw(pair.a, "FUNCTION", "DUMP")[0]
    pair.run("FUNCTION", "FLUSH")
    pair.run("FUNCTION", "RESTORE", dump_a)  # redis restores rankd's dump too
    pair.run_list("FUNCTION", "LIST")


def test_busy_script_and_script_kill(server_factory):
    proc = server_factory(["--busy-reply-threshold", "100"])
    runner, other = RespClient("127.0.0.1", proc.port), RespClient("127.0.0.1", proc.port)
    try:
        runner.send_command("EVAL", "local i = 0 while true do i = i + 1 end", 0)
        time.sleep(0.4)
        assert other.execute("PING") == RespError(
            "BUSY Redis is busy running a script. You can only call SCRIPT KILL or SHUTDOWN NOSAVE.")
        assert other.execute("FUNCTION", "KILL").message.startswith("BUSY")
        assert other.execute("SCRIPT", "KILL") == b"OK"
        reply = runner.read_reply()
        assert isinstance(reply, RespError)
        assert reply.message.startswith("ERR Script killed by user with SCRIPT KILL...")
        assert other.execute("PING") == b"PONG"
        assert runner.execute("PING") == b"PONG"
        # A script that wrote cannot be killed; SHUTDOWN NOSAVE is the way out.
        runner.send_command("EVAL", "redis.call('set', 'w', 1) while true do end", 0)
        time.sleep(0.4)
        assert other.execute("SCRIPT", "KILL").message.startswith("UNKILLABLE")
        other.send_command("SHUTDOWN", "NOSAVE")
        proc.wait_exit(timeout=10)
    finally:
        runner.close()
        other.close()


def test_big_number_line_breaks_become_spaces(pair):
    """A big number with CR/LF in its digits is sent with spaces, as Redis does: in RESP3
    the line break would otherwise end the reply early and the next reply would be junk."""
    script = "return {big_number='123\\r\\n123'}"
    for c in (pair.a, pair.b):
        c.execute("HELLO", "2")
        assert c.execute("EVAL", script, "0") == b"123  123"
        c.execute("HELLO", "3")
        c.send_command("EVAL", script, "0")
        c.send_command("PING")
        data = b""
        while not data.endswith(b"+PONG\r\n"):
            data += c.sock.recv(4096)
        assert data == b"(123  123\r\n+PONG\r\n"


def test_declared_scripts_under_maxmemory(pair):
    """Over maxmemory a script that declared flags is refused before it runs unless it
    said allow-oom or no-writes (Redis 7.0 gives it the deny-oom flag); a script without
    a shebang runs, and only its deny-oom calls fail."""
    pair.run("SET", "x", "123")
    pair.run("FUNCTION", "LOAD", "#!lua name=oomlib\n"
             "redis.register_function('plain', function() return 1 end)\n"
             "redis.register_function{function_name='ro', callback=function() return 2 end,"
             " flags={'no-writes'}}\n"
             "redis.register_function{function_name='oomok', callback=function() return 3 end,"
             " flags={'allow-oom'}}")
    pair.run("CONFIG", "SET", "maxmemory", "1")
    try:
        pair.run("EVAL", "#!lua flags=\nreturn 1", 0)
        pair.run("EVAL", "#!lua\nreturn 1", 0)
        pair.run("EVAL", "#!lua flags=no-writes\nreturn redis.call('get', 'x')", 0)
        pair.run("EVAL", "#!lua flags=allow-oom\nredis.call('set', 'x', 1) return 1", 0)
        pair.run("EVAL", "return redis.call('get', 'x')", 0)
        pair.run("EVAL", "return redis.call('set', 'x', 2)", 0)
        pair.run("EVAL_RO", "#!lua\nreturn 1", 0)
        for fn in ("plain", "ro", "oomok"):
            pair.run("FCALL", fn, 0)
    finally:
        pair.run("CONFIG", "SET", "maxmemory", "0")


def test_exec_of_declared_scripts_on_a_replica(pair):
    """A queued script that declared flags counts as a write in EXEC unless it said
    no-writes: EXEC is refused once the server became a read-only replica."""
    replies = []
    for c in (pair.a, pair.b):
        other = RespClient("127.0.0.1", c.port)
        try:
            got = []
            for body in ("#!lua\nreturn 1", "#!lua flags=no-writes\nreturn 2", "return 3"):
                got += [c.execute("MULTI"), c.execute("EVAL", body, 0)]
                other.execute("REPLICAOF", "127.0.0.1", "1")
                got.append(c.execute("EXEC"))
                other.execute("REPLICAOF", "NO", "ONE")
            replies.append(got)
        finally:
            other.execute("REPLICAOF", "NO", "ONE")
            other.close()
    assert replies[0] == replies[1]
    assert isinstance(replies[0][2], RespError)


def test_stream_reads_with_block_from_scripts(pair):
    """XREAD / XREADGROUP with BLOCK are refused inside scripts (Redis names the command as
    the script wrote it); inside EXEC the same read simply does not block."""
    pair.run("XADD", "s", "1-1", "f", "v")
    pair.run("XGROUP", "CREATE", "s", "g", "$")
    pair.run("EVAL", "return redis.pcall('xread','BLOCK',0,'STREAMS','s','$')", 1, "s")
    pair.run("EVAL", "return redis.pcall('XREAD','BLOCK','x','STREAMS','s','$')", 1, "s")
    pair.run("EVAL", "return redis.pcall('xreadgroup','group','g','c','BLOCK',0,'STREAMS','s','>')",
             1, "s")
    pair.run("EVAL", "return redis.pcall('xread','COUNT',1,'STREAMS','s','0')", 1, "s")
    pair.run("MULTI")
    pair.run("XREAD", "BLOCK", 0, "STREAMS", "s", "$")
    pair.run("EXEC")


def test_verbatim_reply_through_a_script(pair):
    """A RESP3 verbatim reply a script got from redis.call goes back out as one: a verbatim
    string to a RESP3 caller of a RESP3 script, a bulk otherwise."""
    pair.run("DEBUG", "SET-DISABLE-DENY-SCRIPTS", "1")
    try:
        for client_resp in (2, 3):
            for c in (pair.a, pair.b):
                c.execute("HELLO", client_resp)
            for script_resp in (2, 3):
                pair.run("EVAL", f"redis.setresp({script_resp});"
                         "return redis.call('debug', 'protocol', 'verbatim')", 0)
            pair.run("EVAL", "return {verbatim_string={format='mkd', string='# hi'}}", 0)
            pair.run("EVAL", "return {verbatim_string={format=1}}", 0)
    finally:
        for c in (pair.a, pair.b):
            c.execute("HELLO", 2)
        pair.run("DEBUG", "SET-DISABLE-DENY-SCRIPTS", "0")


def test_subcommands_not_allowed_from_scripts(pair):
    """A subcommand flagged noscript (CLUSTER RESET, CONFIG SET, ...) is refused from a
    script with Redis's text even where its container is allowed."""
    for args in (("cluster", "reset"), ("config", "set", "maxmemory", "0"),
                 ("config", "get", "maxmemory"), ("client", "list")):
        quoted = ", ".join(f"'{a}'" for a in args)
        pair.run("EVAL", f"return type(redis.pcall({quoted}))", 0)
        pair.run("EVAL", f"local r = redis.pcall({quoted}) if type(r) == 'table' and r.err "
                 "then return r.err end return 'ok'", 0)


def test_a_script_that_wrote_keeps_writing_as_itself(pair):
    """Once a script wrote, its later writes are not refused when the replication state
    changes meanwhile (here min-replicas-to-write, set by the script itself), as Redis's
    scriptVerifyWriteCommandAllow; a script that has not written yet is refused. Those later
    writes still run as the script's own, not as a replicated command's: an approximate XADD
    trim keeps its default limit (100 nodes' entries), so the stream keeps 10101 of 20101."""
    pair.run("DEBUG", "SET-DISABLE-DENY-SCRIPTS", "1")
    try:
        pair.run("EVAL", "for i = 1, 20100 do redis.call('xadd', KEYS[1], i, 'f', i) end", 1, "s")
        pair.run("EVAL", "redis.call('set', 'a', 1) "
                 "redis.call('config', 'set', 'min-replicas-to-write', '1') "
                 "redis.call('xadd', KEYS[1], 'MAXLEN', '~', '1', '30000', 'f', 'v') "
                 "redis.call('set', 'b', 1) "
                 "return {redis.call('xlen', KEYS[1]), redis.call('get', 'b')}", 1, "s")
        pair.run("SET", "c", 1)
        pair.run("EVAL", "return redis.pcall('set', 'c', 1)", 0)
        pair.run("EVAL", "redis.call('get', 'a') return redis.pcall('set', 'c', 1)", 0)
        pair.run("GET", "c")
    finally:
        pair.run("CONFIG", "SET", "min-replicas-to-write", "0")
        pair.run("DEBUG", "SET-DISABLE-DENY-SCRIPTS", "0")
