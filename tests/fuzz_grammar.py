"""What the command fuzzer sends (issue 18): the command table, argument pools,
per-command shapes, the deny-list and the seeded generator.

The command list comes from the server's own `COMMAND` reply (name, arity, flags,
first/last/step key positions), so a command added to rankd later is fuzzed without a
change here: with no shape below it gets arguments drawn from the pools at its key
positions and elsewhere. SHAPES only adds grammar (option tokens, which slot takes a
score, a lex bound, a count, ...) for the commands rankd documents.

Every command is generated valid first, then mutated with probability P_MUTATE
(arguments dropped, duplicated, swapped, replaced from another pool, a token inserted,
the name's case changed), so valid, boundary and invalid forms all occur.

Generation depends on the seed and the command table only, never on replies: the same
seed against the same binary sends the same commands.

Bounds (so that a reply or a value never grows to gigabytes; known separate issue):
  * COUNT_DRIVEN commands (one reply item per count unit: ZRANDMEMBER, SRANDMEMBER,
    HRANDFIELD) get no 64-bit integer below -NEG_COUNT_BOUND (-100) anywhere in their
    arguments; INT64_MIN and huge negatives become -100. Values that do not parse as a
    64-bit integer at all ("-9223372036854775809", "1.5", "nan") are still sent.
    Members are at most 70 KB, so such a reply stays under ~7 MB.
    Every other count/offset/rank slot gets the full pool, INT64 min/max and overflows
    included, since those only get an error or a reply bounded by the set's size.
  * MEMORY_DRIVEN commands (a value grows to the offset: SETRANGE, SETBIT, BITFIELD)
    get no integer in [100001, 2^32 - 1]: offsets are small, or past the 512 MB string
    limit (an error).
  * Values of 1 MB and 3 MB are rare and only in value slots, never members.
"""

import hashlib
import random

# ---------------------------------------------------------------------------
# The deny-list: commands that legitimately destroy the canary, the connection, or
# the generator's idea of the connection state. Kept short; each with its reason.

DENY = {
    "shutdown": "stops the server",
    "flushall": "deletes the canary",
    "flushdb": "deletes the canary (sent only in bursts, in databases 1-14: burst())",
    "swapdb": "moves the canary out of its database (bursts swap only 1-14)",
    "debug": "DEBUG SLEEP/SEGFAULT/RELOAD... stop or restart by design",
    "quit": "closes the fuzz connection",
    "reset": "resets RESP version, db and MULTI behind the generator's back",
    "monitor": "turns the connection into a command feed",
    "subscribe": "pub/sub mode: the connection then receives messages, not replies",
    "psubscribe": "pub/sub mode", "ssubscribe": "pub/sub mode",
    "unsubscribe": "pub/sub mode", "punsubscribe": "pub/sub mode",
    "sunsubscribe": "pub/sub mode",
    "lb.watch": "pub/sub mode (a leaderboard's top): messages, not replies",
    "lb.unwatch": "pub/sub mode: one confirmation per key, pushes under RESP3",
    "sync": "replication handshake", "psync": "replication handshake",
    "replconf": "replication handshake",
    "replicaof": "makes the server a replica", "slaveof": "makes the server a replica",
    "failover": "replication role change",
    "migrate": "connects to another server and waits up to its timeout",
    "module": "loads shared objects",
    "pfselftest": "redis-server's ~1 s HyperLogLog self test: takes no input, only time",
    "client|kill": "kills connections, the canary checker's included",
    "client|pause": "pauses every client: reads as a hang",
    "client|reply": "OFF/SKIP breaks the pairing of requests and replies",
    "client|tracking": "RESP2 invalidation messages would interleave with replies",
    "config|set": "generated only from CONFIG_SAFE below (dir, port, requirepass, "
                  "maxmemory, timeout, query-buffer limits... would break the run)",
    "script|kill": "issue 18: excluded (kills the running script)",
    "function|kill": "issue 18: excluded (kills the running function)",
    "script|debug": "enters the Lua debugger",
    "acl|setuser": "can lock the canary checker out",
    "acl|load": "can lock the canary checker out",
}

# Blocking commands: where the timeout is (argument index, 1 = first after the name;
# -1 = last). A blocking command not listed here is not sent (e.g. XREAD ... BLOCK).
# Timeouts are 0.001-0.1 s, or invalid; 0 (forever) only inside MULTI or a script.
BLOCKING_TIMEOUT_POS = {
    "bzpopmin": -1, "bzpopmax": -1, "bzmpop": 1,
    "blpop": -1, "brpop": -1, "brpoplpush": -1, "blmove": -1, "blmpop": 1,
}

COUNT_DRIVEN = {"zrandmember", "srandmember", "hrandfield"}
NEG_COUNT_BOUND = 100
MEMORY_DRIVEN = {"setrange", "setbit", "bitfield"}

# Settings CONFIG SET may change, with the defaults the epoch reset writes back.
CONFIG_SAFE = {
    "zset-max-listpack-entries": "128", "zset-max-listpack-value": "64",
    "zset-max-ziplist-entries": "128", "zset-max-ziplist-value": "64",
    "set-max-intset-entries": "512", "hz": "10", "slowlog-log-slower-than": "10000",
    "slowlog-max-len": "128", "appendonly": "no", "appendfsync": "everysec",
    "busy-reply-threshold": "5000", "loglevel": "notice",
}
CONFIG_RESET = ["zset-max-listpack-entries", "zset-max-listpack-value",
                "set-max-intset-entries", "hz", "slowlog-log-slower-than",
                "slowlog-max-len", "appendonly", "appendfsync", "loglevel"]

# Container commands whose subcommands rankd's COMMAND reply does not list.
SUBCOMMANDS = {
    "client": ["id", "getname", "setname", "list", "info", "no-evict", "help", "unpause",
               "unblock", "trackinginfo", "getredir", "caching"],
    "command": ["count", "info", "docs", "list", "getkeys", "getkeysandflags", "help"],
    "config": ["get", "set", "resetstat", "rewrite", "help"],
    "function": ["load", "list", "delete", "flush", "dump", "restore", "stats", "help"],
    "memory": ["usage", "stats", "doctor", "purge", "malloc-stats", "help"],
    "object": ["encoding", "refcount", "idletime", "freq", "help"],
    "script": ["load", "exists", "flush", "help"],
    "slowlog": ["get", "len", "reset", "help"],
}

# ---------------------------------------------------------------------------
# Keys. The fuzzer only ever names these keys (and the canary never uses the fz:
# prefix), so whatever it does, the canary keys stay untouched.

KEYS = ["fz:z", "fz:zbig", "fz:b", "fz:b0", "fz:bz", "fz:bexp", "fz:bp", "fz:s", "fz:sh",
        "fz:str", "fz:int", "fz:exp", "fz:sexp", "fz:x", "fz:y", "fz:r1", "fz:r2", ""]
DATABASES = 16


def epoch_setup():
    """Commands that (re)create the typed keys at the start of every epoch."""
    big = ["ZADD", "fz:zbig"]
    for i in range(200):
        big += [str(i % 37 - 5), "m%d" % i]          # ties: 37 distinct scores
    return [
        ["ZADD", "fz:z", "1", "a", "2", "b", "2", "c", "-inf", "lo", "inf", "hi"],
        big,
        ["LB.CREATE", "fz:b", "ORDER", "DESC", "TIES", "FIRST"],
        ["LB.ADD", "fz:b", "5", "a", "5", "b", "1", "c", "7", "d", "5", "e"],
        ["LB.CREATE", "fz:b0"],                               # an empty board
        ["LB.CREATE", "fz:bz", "ORDER", "ASC", "TIES", "LAST"],
        ["LB.ADD", "fz:bz", "1", "a", "2", "b"],
        ["ZREM", "fz:bz", "a", "b"],                          # emptied by ZREM
        ["LB.CREATE", "fz:bp", "PERIOD", "1", "RETAIN", "3"],  # a periodic board
        ["LB.ADD", "fz:bp", "3", "a", "1", "b"],
        ["LB.ADD", "fz:bexp", "INCR", "3", "a", "4", "b"],
        ["PEXPIRE", "fz:bexp", "30"],
        ["SADD", "fz:s", "1", "2", "3", "-5", "9223372036854775807"],   # intset
        ["SADD", "fz:sh", "a", "b", "c", "1"],                          # hashtable
        ["SET", "fz:str", "hello"],
        ["SET", "fz:int", "10"],
        ["ZADD", "fz:exp", "1", "a", "2", "b"],
        ["PEXPIRE", "fz:exp", "50"],
        ["SET", "fz:sexp", "v", "PX", "20"],
    ]


def epoch_reset(in_multi):
    """Commands that bring the fuzz connection and the fuzz keys back to a known
    state, so an epoch replays on its own. Deterministic."""
    cmds = [["DISCARD"]] if in_multi else []
    cmds += [["UNWATCH"], ["HELLO", "2"]]
    for db in range(DATABASES - 1, -1, -1):
        cmds += [["SELECT", str(db)], ["DEL"] + KEYS]
    cfg = ["CONFIG", "SET"]
    for name in CONFIG_RESET:
        cfg += [name, CONFIG_SAFE[name]]
    cmds += [cfg, ["SCRIPT", "FLUSH"], ["FUNCTION", "FLUSH"]]
    return cmds + epoch_setup()


# ---------------------------------------------------------------------------
# Argument pools.

INT64_MAX = "9223372036854775807"
INT64_MIN = "-9223372036854775808"
INTS = ["0", "1", "-1", "2", "3", "5", "10", "100", "-2", "-3", "-100", "1000", "7"]
INTS_EDGE = [INT64_MAX, INT64_MIN, "9223372036854775808", "-9223372036854775809",
             "18446744073709551615", "18446744073709551616", "4294967296",
             "2147483648", "-2147483649", "99999999999999999999999", "4611686018427387904",
             "-4611686018427387905", "9223372036854775806"]
NOT_INTS = ["1.5", "nan", "inf", "-inf", "", "abc", " 1", "1 ", "01", "+1", "-0", "0x10",
            "1e3", "\x001", "--1", b"\xff"]
FLOATS = ["0.5", "-0.5", "1.5", "2.5", "3.14159", "-7.25", "0.1", "1.1", "1e308",
          "-1e308", "1e309", "5e-324", "-0", "0.0", "1e-300", "1.7976931348623157e308",
          "0x1p3", "inf", "-inf", "+inf", "nan", "-nan", "NaN", "Infinity", "+INF",
          "1e400", ".5", "5.", "1E-2"]
NOT_FLOATS = ["", "abc", "1.5x", " 1", "1 ", "(1", "[1", "1,5", "--1", "0x", "e5"]
SCORE_BOUNDS_X = ["(1", "(-inf", "(+inf", "(inf", "(nan", "(", "(1.5", "(-0", "(abc",
                  "[1", "-", "+", "(" + INT64_MAX]
LEX = ["-", "+", "[a", "(a", "[b", "(c", "[m10", "(m5", "[", "(", b"[\xff", "(\x00",
       "[lo", "(hi"]
NOT_LEX = ["a", "", "1", "-inf", "+inf", "*", "[" + "x" * 100]
MEMBERS = ["a", "b", "c", "d", "e", "lo", "hi", "m1", "m7", "m150", "m199", "x", "", "1",
           "2", "-5", "10", INT64_MAX, "\x00", b"\xff\xfe", "a b", "MODE", "WITHSCORES",
           "\r\n"]
PATTERNS = ["*", "fz:*", "fz:?", "fz:[sz]*", "fz:[^s]*", "[", "\\", "*\\", "a*b*c*d*e*f",
            "*" * 30, "", "[a-", "?" * 10, "fz:\\*", "[z-a]*"]
CURSORS = ["0", "1", "7", "100", "18446744073709551615", "18446744073709551616", "-1",
           INT64_MIN, "abc", "", "1.5"]
TIMEOUTS = ["0.01", "0.05", "0.1", "0.001", "0.02", "-1", "-0.5", "nan", "inf", "-inf",
            "abc", "", "1e300", INT64_MAX, "1e-20x"]
TIMEOUTS_MS = ["1", "5", "10", "50", "-1", "abc", "", "1.5"]
DBS = ["0", "1", "2", "15", "16", "-1", "100", INT64_MAX, "abc", ""]
TTL_MS = ["1", "5", "10", "20", "50", "100", "1000", "100000", "0", "-1", "-100",
          INT64_MAX, INT64_MIN, "9223372036854775", "9223372036854776", "abc", "1.5", ""]
UNIX_TIMES = ["0", "1", "1000", "1700000000", "4102444800", "1700000000000",
              "4102444800000", "-1", INT64_MAX, INT64_MIN, "abc", ""]
SECTIONS = ["server", "clients", "memory", "persistence", "stats", "replication", "cpu",
            "commandstats", "keyspace", "all", "everything", "default", "errorstats",
            "bogus", ""]
LONG = {
    "65": b"L" * 65,
    "200": b"M" * 200,
    "70k": b"N" * 70000,       # over zset-max-listpack-value and the inline limits
    "1m": b"O" * (1 << 20),
    "3m": b"P" * (3 << 20),
}

# Option tokens per family (also inserted by mutations into other commands).
TOKENS = {
    "zset": ["WITHSCORES", "WITHSCORE", "LIMIT", "BYSCORE", "BYLEX", "REV", "NX", "XX",
             "GT", "LT", "CH", "INCR", "WEIGHTS", "AGGREGATE", "SUM", "MIN", "MAX",
             "COUNT", "MATCH"],
    "lb": ["ORDER", "DESC", "ASC", "TIES", "FIRST", "LAST", "MODE", "ORDINAL",
           "COMPETITION", "DENSE", "SET", "BEST", "INCR", "AT", "OFFSET", "NEXTSEQ"],
    "keys": ["TYPE", "MATCH", "COUNT", "REPLACE", "DB", "EX", "PX", "EXAT", "PXAT",
             "KEEPTTL", "PERSIST", "GET", "NX", "XX", "GT", "LT", "ASYNC", "SYNC",
             "SCHEDULE", "WITHCODE", "LIBRARYNAME", "FLUSH", "APPEND", "SAMPLES"],
}
ALL_TOKENS = sorted({t for ts in TOKENS.values() for t in ts})
MODES = ["ORDINAL", "COMPETITION", "DENSE", "ordinal", "dense", "bogus", ""]


def _sha(body):
    return hashlib.sha1(body.encode() if isinstance(body, str) else body).hexdigest()


# Lua bodies: each runs the generated command(s) it is given in ARGV. Every loop is
# bounded by #ARGV, whatever a mutation did to the counts (a script that never ends
# would read as a hang: SCRIPT KILL is not sent).
SCRIPTS = [
    "return redis.call(unpack(ARGV))",
    "return redis.pcall(unpack(ARGV))",
    "redis.setresp(3)\nreturn redis.pcall(unpack(ARGV))",
    "#!lua flags=no-writes\nreturn redis.pcall(unpack(ARGV))",
    "local r = redis.pcall(unpack(ARGV))\n"
    "if type(r) == 'table' and r.err then return redis.error_reply(r.err) end\n"
    "return {type(r), r}",
    # Several commands: ARGV = n1, args1..., n2, args2...
    "local out, i = {}, 1\n"
    "while i <= #ARGV do\n"
    "  local n = math.min(math.max(tonumber(ARGV[i]) or 0, 0), #ARGV - i); local c = {}\n"
    "  for j = 1, n do c[j] = ARGV[i + j] end\n"
    "  out[#out + 1] = redis.pcall(unpack(c)); i = i + n + 1\n"
    "end\nreturn out",
    "local out, i = {}, 1\n"
    "while i <= #ARGV do\n"
    "  local n = math.min(math.max(tonumber(ARGV[i]) or 0, 0), #ARGV - i); local c = {}\n"
    "  for j = 1, n do c[j] = ARGV[i + j] end\n"
    "  out[#out + 1] = redis.call(unpack(c)); i = i + n + 1\n"
    "end\nreturn out",
]
MULTI_SCRIPTS = (5, 6)
SCRIPTS_FIXED = [  # return-value conversions and script errors
    "return {1, 2.5, 'x', true, false, nil, 3}", "return 1e308", "return 0/0",
    "return -0/0", "return 9007199254740993", "return redis.status_reply('OK')",
    "return redis.error_reply('ERR fz')", "return {err='fz'}", "return string.rep('x', 70000)",
    "return (", "error('boom')", "return redis.call()", "return redis.call('ZADD')",
    "return redis.call('nosuchcmd')", "return redis.sha1hex('')",
    "return redis.call('ZADD', KEYS[1], 'nan', 'a')", "return tonumber('inf')",
    "redis.setresp(3); return redis.call('LB.INFO', KEYS[1])",
    "return cjson.encode({1, 2})", "return bit.band(7, 3)", "return math.random()",
]
SHAS = [_sha(s) for s in SCRIPTS + SCRIPTS_FIXED] + ["0" * 40, "abc", "", "F" * 40]
FUNCTION_LIB = ("#!lua name=fzlib\n"
                "redis.register_function('fzcall', function(keys, args) "
                "return redis.call(unpack(args)) end)\n"
                "redis.register_function{function_name='fzro', callback=function(keys, args) "
                "return redis.pcall(unpack(args)) end, flags={'no-writes'}}")
FUNCTION_LIBS = [FUNCTION_LIB, FUNCTION_LIB.replace("fzlib", "fzlib2"),
                 "#!lua name=fzbad\nreturn (", "#!lua\nreturn 1", "no shebang",
                 "#!lua name=fzempty\n", "#!lua name=fzlib\nredis.call('PING')"]
FUNCTIONS = ["fzcall", "fzro", "nosuch", ""]


# ---------------------------------------------------------------------------
# Shapes: tiny combinators over the generator `g`. An item is a literal token (str),
# a slot (a function of g returning a list of arguments) or a list of items.

def expand(g, item):
    if isinstance(item, str):
        return [g.token(item)]
    if callable(item):
        return item(g)
    out = []
    for it in item:
        out += expand(g, it)
    return out


def opt(*items, p=0.5):
    return lambda g: expand(g, items) if g.chance(p) else []


def one_of(*alts):
    return lambda g: expand(g, g.rng.choice(alts))


def rep(*items, lo=1, hi=4):
    return lambda g: expand(g, [items] * g.rng.randint(lo, hi))


def opts(*groups, p=0.35):
    """Each group with probability p, in random order."""
    def slot(g):
        chosen = [gr for gr in groups if g.chance(p)]
        g.rng.shuffle(chosen)
        return expand(g, chosen)
    return slot


def pool(values):
    return lambda g: [g.rng.choice(values)]


def K(g): return [g.key()]
def M(g): return [g.member()]
def S(g): return [g.score()]
def B(g): return [g.bound()]
def L(g): return [g.lex()]
def I(g): return [g.int_arg()]
def V(g): return [g.value()]
def C(g): return [g.count()]
def T(g): return [g.timeout()]
def NK(g): return g.numkeys()
def D(g): return [g.rng.choice(DBS)]
def MS(g): return [g.rng.choice(TTL_MS)]
def AT(g): return [g.rng.choice(UNIX_TIMES)]
def PAT(g): return [g.rng.choice(PATTERNS)]
def CUR(g): return [g.rng.choice(CURSORS)]
def OFF(g): return [g.offset()]
def CMD(g): return g.inner_command()
def X(g): return [g.rng.choice([g.int_arg, g.bound, g.lex])()]   # ZRANGE start/stop


def NMEM(g):  # MEMBERS n member ... (member expiry), the count sometimes wrong
    ms = [g.member() for _ in range(g.rng.randint(1, 3))]
    n = len(ms) if g.rng.random() < 0.9 else g.rng.choice([0, -1, len(ms) + 1])
    return ["MEMBERS", str(n)] + ms


MODE = opt("MODE", pool(MODES), p=0.4)
LIMIT = ("LIMIT", I, I)
ZSTORE_OPTS = opts(("WEIGHTS", rep(S, lo=1, hi=4)),
                   ("AGGREGATE", pool(["SUM", "MIN", "MAX", "sum", "AVG", ""])))
SCAN_OPTS = opts(("MATCH", PAT), ("COUNT", I))
EXPIRE_FLAGS = opt(pool(["NX", "XX", "GT", "LT", "nx", "BAD"]), p=0.4)
SET_EXPIRY = one_of(("EX", MS), ("PX", MS), ("EXAT", AT), ("PXAT", AT), "KEEPTTL")

SHAPES = {
    # sorted sets
    "zadd": [K, opts("NX", "XX", "GT", "LT", "CH", "INCR", p=0.2), rep(S, M)],
    "zincrby": [K, S, M],
    "zrem": [K, rep(M)],
    "zremrangebyrank": [K, I, I],
    "zremrangebyscore": [K, B, B],
    "zremrangebylex": [K, L, L],
    "zcard": [K], "zscore": [K, M], "zmscore": [K, rep(M)],
    "zrank": [K, M, opt("WITHSCORE", p=0.3)],
    "zrevrank": [K, M, opt("WITHSCORE", p=0.3)],
    "zcount": [K, B, B], "zlexcount": [K, L, L],
    "zrange": [K, X, X, opts(one_of("BYSCORE", "BYLEX"), "REV", LIMIT, "WITHSCORES")],
    "zrevrange": [K, I, I, opt("WITHSCORES")],
    "zrangebyscore": [K, B, B, opts("WITHSCORES", LIMIT)],
    "zrevrangebyscore": [K, B, B, opts("WITHSCORES", LIMIT)],
    "zrangebylex": [K, L, L, opt(*LIMIT)],
    "zrevrangebylex": [K, L, L, opt(*LIMIT)],
    "zrangestore": [K, K, X, X, opts(one_of("BYSCORE", "BYLEX"), "REV", LIMIT)],
    "zunion": [NK, ZSTORE_OPTS, opt("WITHSCORES")],
    "zinter": [NK, ZSTORE_OPTS, opt("WITHSCORES")],
    "zdiff": [NK, opt("WITHSCORES")],
    "zunionstore": [K, NK, ZSTORE_OPTS],
    "zinterstore": [K, NK, ZSTORE_OPTS],
    "zdiffstore": [K, NK],
    "zintercard": [NK, opt("LIMIT", I)],
    "zpopmin": [K, opt(I)], "zpopmax": [K, opt(I)],
    "zmpop": [NK, pool(["MIN", "MAX", "min", "BOTH"]), opt("COUNT", I)],
    "bzpopmin": [rep(K, lo=1, hi=3), T], "bzpopmax": [rep(K, lo=1, hi=3), T],
    "bzmpop": [T, NK, pool(["MIN", "MAX", "max", "BOTH"]), opt("COUNT", I)],
    "zrandmember": [K, opt(C, opt("WITHSCORES"), p=0.7)],
    "zscan": [K, CUR, SCAN_OPTS],
    # leaderboards (docs/leaderboards.md)
    "lb.create": [K, opts(("ORDER", pool(["DESC", "ASC", "asc", "UP"])),
                          ("TIES", pool(["FIRST", "LAST", "last", "NONE"])),
                          ("PERIOD", pool(["DAILY", "weekly", "MONTHLY", "1", "0", "HOURLY"])),
                          ("TZ", pool(["UTC", "Europe/London", "Mars/Base", "../x"])),
                          ("WEEKSTART", pool(["MON", "sun", "TUE"])),
                          ("RETAIN", pool(["0", "3", "-1"])))],
    "lb.periods": [K],
    "lb.roll": [K, pool(["0", "2026-03-08", "2026-03", "9999999999999", "x"])],
    "lb.add": [K, opts(one_of("NX", "XX"), one_of("SET", "BEST", "INCR"), ("AT", AT), p=0.3),
               rep(S, M, opt("META", V, p=0.2))],
    "lb.rank": [K, M, MODE],
    "lb.top": [K, I, opts(("OFFSET", I), ("MODE", pool(MODES)), "WITHMETA",
                          ("PERIOD", pool(["0", "-1", "-9", "1", "2026-03-08", "x"])))],
    "lb.range": [K, I, I, MODE, opt("WITHMETA", p=0.3)],
    "lb.around": [K, M, I, MODE, opt("WITHMETA", p=0.3)],
    "lb.ranks": [K, rep(M), MODE],
    "lb.percentile": [K, M],
    "lb.rankfor": [K, S, MODE],
    "lb.scoreat": [K, I, MODE],
    "lb.info": [K], "lb.stamp": [K, M],
    "lb.setmeta": [K, rep(M, V)], "lb.meta": [K, rep(M)],
    # member expiry (docs/commands.md "Beyond Redis: member expiry")
    "zexpire": [K, I, EXPIRE_FLAGS, NMEM], "zpexpire": [K, MS, EXPIRE_FLAGS, NMEM],
    "zexpireat": [K, AT, EXPIRE_FLAGS, NMEM], "zpexpireat": [K, AT, EXPIRE_FLAGS, NMEM],
    "zttl": [K, NMEM], "zpttl": [K, NMEM], "zexpiretime": [K, NMEM],
    "zpexpiretime": [K, NMEM], "zpersist": [K, NMEM],
    "lb.load": [K, "ORDER", pool(["DESC", "ASC", "x"]), "TIES", pool(["FIRST", "LAST", "x"]),
                "NEXTSEQ", I, rep(S, M, pool(INTS + ["0", "-1", INT64_MAX]), AT, lo=0, hi=4)],
    # sets
    "sadd": [K, rep(M)], "srem": [K, rep(M)], "smove": [K, K, M], "scard": [K],
    "sismember": [K, M], "smismember": [K, rep(M)], "smembers": [K],
    "sinter": [rep(K)], "sunion": [rep(K)], "sdiff": [rep(K)],
    "sinterstore": [K, rep(K)], "sunionstore": [K, rep(K)], "sdiffstore": [K, rep(K)],
    "sintercard": [NK, opt("LIMIT", I)],
    "srandmember": [K, opt(C, p=0.7)], "spop": [K, opt(I, p=0.6)],
    "sscan": [K, CUR, SCAN_OPTS],
    # keys and expiry
    "del": [rep(K)], "unlink": [rep(K)], "exists": [rep(K)], "touch": [rep(K)],
    "type": [K], "keys": [PAT],
    "scan": [CUR, opts(("MATCH", PAT), ("COUNT", I),
                       ("TYPE", pool(["zset", "set", "string", "none", "list", "bad"])))],
    "rename": [K, K], "renamenx": [K, K],
    "copy": [K, K, opts(("DB", D), "REPLACE")],
    "move": [K, D], "select": [D],
    "expire": [K, MS, EXPIRE_FLAGS], "pexpire": [K, MS, EXPIRE_FLAGS],
    "expireat": [K, AT, EXPIRE_FLAGS], "pexpireat": [K, AT, EXPIRE_FLAGS],
    # strings
    "set": [K, V, opts(SET_EXPIRY, one_of("NX", "XX"), "GET")],
    "setnx": [K, V], "setex": [K, MS, V], "psetex": [K, MS, V], "getset": [K, V],
    "getex": [K, opt(one_of(("EX", MS), ("PX", MS), ("EXAT", AT), ("PXAT", AT), "PERSIST"))],
    "mget": [rep(K)], "mset": [rep(K, V)], "msetnx": [rep(K, V)],
    "incrby": [K, I], "decrby": [K, I], "incrbyfloat": [K, S], "append": [K, V],
    "getrange": [K, I, I], "substr": [K, I, I], "setrange": [K, OFF, V],
    "setbit": [K, OFF, pool(["0", "1", "2", "-1"])], "getbit": [K, OFF],
    # transactions and scripts
    "watch": [rep(K)],
    "eval": lambda g: g.eval_args(ro=False), "eval_ro": lambda g: g.eval_args(ro=True),
    "evalsha": lambda g: g.evalsha_args(), "evalsha_ro": lambda g: g.evalsha_args(),
    "fcall": [pool(FUNCTIONS), lambda g: g.script_payload()],
    "fcall_ro": [pool(FUNCTIONS), lambda g: g.script_payload()],
    "script|load": [lambda g: [g.rng.choice(SCRIPTS + SCRIPTS_FIXED)]],
    "script|exists": [rep(pool(SHAS))],
    "script|flush": [opt(pool(["ASYNC", "SYNC", "BAD"]))],
    "function|load": [opt("REPLACE"), pool(FUNCTION_LIBS)],
    "function|list": [opts("WITHCODE", ("LIBRARYNAME", PAT))],
    "function|delete": [pool(["fzlib", "fzlib2", "nosuch", ""])],
    "function|flush": [opt(pool(["ASYNC", "SYNC", "BAD"]))],
    "function|restore": [pool(["", "garbage", "\xf5\x00"]),
                         opt(pool(["FLUSH", "APPEND", "REPLACE", "BAD"]))],
    # server and connection
    "ping": [opt(V, p=0.3)], "echo": [V],
    "hello": [opt(pool(["2", "3", "1", "4", "abc"]), opts(("SETNAME", pool(["fz", "a b", ""])),
                                                         ("AUTH", pool(["default", "x"]), V),
                                                         p=0.2), p=0.8)],
    "auth": [opt(pool(["default", "nouser"])), V],
    "info": [rep(pool(SECTIONS), lo=0, hi=2)],
    "bgsave": [opt("SCHEDULE", p=0.2)],
    "wait": [pool(["0", "1", "2", "-1", INT64_MAX, "abc"]), lambda g: [g.timeout_ms()]],
    "client|setname": [pool(["fz", "", "a b", "x" * 100])],
    "client|list": [opts(("TYPE", pool(["normal", "pubsub", "bad"])), ("ID", rep(I)))],
    "client|no-evict": [pool(["on", "off", "bad"])],
    "client|unblock": [I, opt(pool(["TIMEOUT", "ERROR", "BAD"]))],
    "command|info": [rep(lambda g: [g.rng.choice(g.names)], lo=0, hi=3)],
    "command|docs": [rep(lambda g: [g.rng.choice(g.names)], lo=0, hi=2)],
    "command|list": [opt("FILTERBY", pool(["PATTERN", "ACLCAT", "MODULE", "BAD"]), PAT)],
    "command|getkeys": [CMD], "command|getkeysandflags": [CMD],
    "config|get": [rep(pool(["*", "zset*", "hz", "save", "nosuch", "dir", ""] +
                            sorted(CONFIG_SAFE)))],
    "config|set": [rep(lambda g: g.config_pair(), lo=1, hi=2)],
    "memory|usage": [K, opt("SAMPLES", I)],
    "object|encoding": [K], "object|refcount": [K], "object|idletime": [K],
    "object|freq": [K],
    "slowlog|get": [opt(I)],
}

FAMILY_OF = {}
for _n in SHAPES:
    if _n.startswith("z") or _n.startswith("bz"):
        FAMILY_OF[_n] = "zset"
    elif _n.startswith("lb."):
        FAMILY_OF[_n] = "lb"
HEAVY = 3.0     # weight of the sorted-set and leaderboard commands (1 for the rest)


# ---------------------------------------------------------------------------
# The command table.

class CommandInfo:
    def __init__(self, name, arity, flags, first, last, step):
        self.name, self.arity, self.flags = name, arity, set(flags)
        self.first, self.last, self.step = first, last, step

    def __repr__(self):
        return "CommandInfo(%s %d)" % (self.name, self.arity)


def _text(v):
    return v.decode() if isinstance(v, (bytes, bytearray)) else str(v)


def command_table(client):
    """{name: CommandInfo} from `COMMAND`, subcommands as "container|sub"."""
    table = {}
    for e in client.execute("COMMAND"):
        name = _text(e[0]).lower()
        table[name] = CommandInfo(name, int(e[1]), [_text(f).lower() for f in e[2]],
                                  int(e[3]), int(e[4]), int(e[5]))
        subs = e[9] if len(e) > 9 and isinstance(e[9], list) else []
        for s in subs:
            sname = _text(s[0]).lower()
            table[sname] = CommandInfo(sname, int(s[1]), [_text(f).lower() for f in s[2]],
                                       int(s[3]), int(s[4]), int(s[5]))
        for sub in SUBCOMMANDS.get(name, ()):
            full = "%s|%s" % (name, sub)
            table.setdefault(full, CommandInfo(full, 2 if sub == "help" else -2,
                                               [], 0, 0, 0))
    return table


class Entry:
    """One thing the generator can pick: a command or a container's subcommand."""

    def __init__(self, info, weight):
        self.info = info
        self.weight = weight
        parts = info.name.split("|")
        self.words = [p.upper() for p in parts]    # ["CONFIG", "GET"]
        self.shape = SHAPES.get(info.name)
        self.is_container = False


def entries(table):
    """The weighted list of commands to fuzz, and the names skipped (with reasons)."""
    out, skipped = [], {}
    containers = {n.split("|")[0] for n in table if "|" in n}
    for name in sorted(table):
        info = table[name]
        top = name.split("|")[0]
        if name in DENY or top in DENY:
            skipped[name] = DENY.get(name) or DENY[top]
            continue
        if "blocking" in info.flags and name not in BLOCKING_TIMEOUT_POS:
            skipped[name] = "blocking, timeout position unknown"
            continue
        if name in containers:
            # The container itself: only with a bogus or missing subcommand.
            e = Entry(info, 0.1)
            e.is_container = True
            out.append(e)
            continue
        w = HEAVY if FAMILY_OF.get(name) in ("zset", "lb") else 1.0
        if name in ("eval", "evalsha", "fcall"):
            w = 2.0
        if "|" in name:
            w = 1.5 / max(1, sum(1 for n in table if n.startswith(top + "|")))
        out.append(Entry(info, w))
    if "config" in containers:   # CONFIG SET, from CONFIG_SAFE only
        out.append(Entry(CommandInfo("config|set", -4, [], 0, 0, 0), 0.3))
    return out, skipped


# ---------------------------------------------------------------------------
# The generator.

P_MUTATE = 0.2
P_MULTI = 0.03
P_BURST = 0.01


# ---------------------------------------------------------------------------
# Bursts: a run of commands on the same few keys and members, pipelined in one write
# with the rest of their chunk, where the server's look-ahead (net/connection.cc
# Lookahead, server/prefetch.cc) peeks up to 8 commands ahead and prefetches their
# keys and members while the keyspace changes under it: DEL, SELECT, FLUSHDB, SWAPDB,
# EXPIRE, MULTI/EXEC between ZSCORE/ZRANK/ZINCRBY/HGET on those keys. FLUSHDB and
# SWAPDB (on the deny-list elsewhere) are safe here: a burst first selects a database
# in BURST_DBS and only ever names those, and the canary lives in 0 and 15.

BURST_DBS = [str(d) for d in range(1, 15)]
BURST_KEYS = ["fz:zbig", "fz:z", "fz:x", "fz:y"]
BURST_MEMBERS = ["m0", "m1", "m7", "m150", "m199", "a", "b", "x", "", "\x00",
                 "m" + "q" * 80, "m" + "r" * 200]


def _burst_zset(g, key):
    """A sorted set for the burst's database: over 128 members (the tree encoding,
    which prefetches members) or a few (the compact one)."""
    n = g.rng.choice([3, 200, 300])
    cmd = ["ZADD", key]
    for i in range(n):
        cmd += [str(i % 23 - 3), "m%d" % i]
    return cmd


def _burst_command(g):
    k, m = g.rng.choice(BURST_KEYS), g.rng.choice(BURST_MEMBERS)
    r = g.rng.randrange(22)
    if r < 3:
        return ["ZSCORE", k, m]
    if r < 5:
        return [g.rng.choice(["ZRANK", "ZREVRANK"]), k, m] + (
            ["WITHSCORE"] if g.chance(0.3) else [])
    if r < 7:
        return ["ZINCRBY", k, g.rng.choice(["1", "-2.5", "inf", "nan"]), m]
    if r == 7:
        return ["ZADD", k, g.rng.choice(["1", "2", "-inf"]), m]
    if r == 8:
        return ["ZREM", k, m]
    if r == 9:
        return ["ZMSCORE", k, m, g.rng.choice(BURST_MEMBERS)]
    if r == 10:
        return ["HGET", k, m]
    if r == 11:
        return ["HSET", k, m, "v"]
    if r == 12:
        return [g.rng.choice(["DEL", "UNLINK"]), k]
    if r == 13:
        return ["SELECT", g.rng.choice(BURST_DBS)]
    if r == 14:
        return ["FLUSHDB"] + (["ASYNC"] if g.chance(0.3) else [])
    if r == 15:
        return ["SWAPDB", g.rng.choice(BURST_DBS), g.rng.choice(BURST_DBS)]
    if r == 16:
        return [g.rng.choice(["PEXPIRE", "EXPIRE"]), k, g.rng.choice(["0", "1", "-1"])]
    if r == 17:
        return ["ZPEXPIRE", k, g.rng.choice(["0", "1"]), "MEMBERS", "1", m]
    if r == 18:
        return ["WATCH", k]
    if r == 19:
        return [g.rng.choice(["RENAME", "COPY"]), k, g.rng.choice(BURST_KEYS)]
    if r == 20:
        return _burst_zset(g, k)
    return ["ZPOPMIN", k]


def burst(g):
    """A burst (see above); starts outside MULTI and ends outside it."""
    out = [["SELECT", g.rng.choice(BURST_DBS)], _burst_zset(g, "fz:zbig")]
    for _ in range(g.rng.randint(4, 14)):
        if g.chance(0.15):
            out.append(["MULTI"])
            out += [_burst_command(g) for _ in range(g.rng.randint(0, 4))]
            out.append(["DISCARD"] if g.chance(0.2) else ["EXEC"])
        else:
            out.append(_burst_command(g))
    return out


class Generator:
    def __init__(self, seed, table, exclude=()):
        self.seed = seed
        self.rng = random.Random(seed)
        self.table = table
        self.entries, self.skipped = entries(table)
        for e in [e for e in self.entries if e.info.name in exclude]:
            self.entries.remove(e)
            self.skipped[e.info.name] = "excluded by the caller"
        self.names = sorted(n for n in table if "|" not in n)
        self.weights = [e.weight for e in self.entries]
        self.by_name = {e.info.name: e for e in self.entries}
        self.in_multi = False
        self.in_script = 0          # > 0 while generating a script's inner command

    # -- small helpers -------------------------------------------------------
    def chance(self, p):
        return self.rng.random() < p

    def token(self, t):
        r = self.rng.random()
        if r < 0.05:
            return t.lower()
        if r < 0.07:
            return "".join(c.lower() if self.rng.random() < 0.5 else c for c in t)
        return t

    def tier(self, typical, edge, bad, p_edge=0.15, p_bad=0.08):
        r = self.rng.random()
        if r < p_bad:
            return self.rng.choice(bad)
        if r < p_bad + p_edge:
            return self.rng.choice(edge)
        return self.rng.choice(typical)

    # -- slots ---------------------------------------------------------------
    def key(self):
        return self.rng.choice(KEYS)

    def member(self):
        r = self.rng.random()
        if r < 0.03:
            return LONG[self.rng.choice(["65", "200", "70k"])]
        return self.rng.choice(MEMBERS)

    def value(self):
        r = self.rng.random()
        if r < 0.002:
            return LONG["3m"]
        if r < 0.008:
            return LONG["1m"]
        if r < 0.04:
            return LONG[self.rng.choice(["65", "200", "70k"])]
        return self.tier(["v", "hello", "12", "-7", "3.5", "", "a b"] + MEMBERS,
                         INTS_EDGE + FLOATS, NOT_INTS)

    def int_arg(self):
        return self.tier(INTS, INTS_EDGE, NOT_INTS)

    def score(self):
        return self.tier(INTS + ["0.5", "2.5", "-1.5"], FLOATS + INTS_EDGE, NOT_FLOATS)

    def bound(self):
        return self.tier(INTS + ["-inf", "+inf", "(1", "(2", "1.5"],
                         FLOATS + SCORE_BOUNDS_X + INTS_EDGE, NOT_FLOATS)

    def lex(self):
        return self.tier(LEX, LEX, NOT_LEX)

    def count(self):
        """A count for a COUNT_DRIVEN command: never below -NEG_COUNT_BOUND."""
        r = self.rng.random()
        if r < 0.6:
            return self.rng.choice(["0", "1", "2", "3", "5", "10", "-1", "-2", "-5", "-10",
                                    "-100", "1000", "250"])
        if r < 0.8:   # huge positive: bounded by the set's size
            return self.rng.choice([INT64_MAX, "4294967296", "2147483648",
                                    "9223372036854775806", "4611686018427387904"])
        # does not parse as a 64-bit integer at all
        return self.rng.choice(["-9223372036854775809", "18446744073709551616",
                                "-99999999999999999999", "1.5", "-1.5", "nan", "abc", "",
                                "-inf", " -1"])

    def offset(self):
        """An offset for MEMORY_DRIVEN commands: small, or past the 512 MB limit."""
        return self.rng.choice(["0", "1", "5", "64", "100", "1000", "65536", "100000",
                                "-1", "536870912", "4294967296", "4294967295000",
                                INT64_MAX, INT64_MIN, "abc", ""])

    def timeout(self):
        if (self.in_multi or self.in_script) and self.chance(0.3):
            return "0"          # answers at once there
        return self.rng.choice(TIMEOUTS)

    def timeout_ms(self):
        if (self.in_multi or self.in_script) and self.chance(0.3):
            return "0"
        return self.rng.choice(TIMEOUTS_MS)

    def numkeys(self):
        n = self.rng.choice([1, 1, 2, 2, 3, 4])
        keys = [self.key() for _ in range(n)]
        r = self.rng.random()
        if r < 0.85:
            nk = str(n)
        else:
            nk = self.rng.choice([str(n + 1), str(n - 1), "0", "-1", INT64_MAX, INT64_MIN,
                                  "2147483648", "abc", ""])
        return [nk] + keys

    def config_pair(self):
        name = self.rng.choice(sorted(CONFIG_SAFE))
        if self.chance(0.05):
            name = self.rng.choice(["nosuch", "", "ZSET-MAX-LISTPACK-ENTRIES"])
        if name in ("appendonly",):
            val = self.rng.choice(["yes", "no", "maybe", ""])
        elif name == "appendfsync":
            val = self.rng.choice(["always", "everysec", "no", "bad"])
        elif name == "loglevel":
            val = self.rng.choice(["debug", "verbose", "notice", "warning", "bad"])
        else:
            val = self.tier(["0", "1", "2", "3", "16", "64", "128", "200", "500", "1000"],
                            INTS_EDGE + ["1mb", "1gb", "-1"], NOT_INTS)
        return [name, val]

    # -- commands ------------------------------------------------------------
    def generic_args(self, info):
        """Arguments for a command without a shape: pool keys at its key positions,
        other pools elsewhere, arity respected 90% of the time."""
        nwords = len(info.name.split("|"))
        a = info.arity
        if a > 0:
            n = a - nwords
        else:
            n = -a - nwords + self.rng.choice([0, 0, 0, 1, 2, 3])
        if self.chance(0.1):
            n = n + self.rng.choice([-1, 1, 2])
        total = nwords + max(0, n)
        last = info.last if info.last >= 0 else total + info.last
        args = []
        for i in range(nwords, total):
            is_key = (info.first > 0 and info.first <= i <= last and
                      (i - info.first) % max(1, info.step) == 0)
            args.append(self.key() if is_key else self.any_arg())
        return args

    def any_arg(self):
        r = self.rng.random()
        if r < 0.25:
            return self.key()
        if r < 0.5:
            return self.member()
        if r < 0.75:
            return self.int_arg()
        if r < 0.85:
            return self.score()
        if r < 0.95:
            return self.rng.choice(ALL_TOKENS)
        return self.rng.choice(["", "0", "*", "-", "+", "(1", "[a"])

    def command(self, entry=None):
        """One command as a list of str/bytes, the name first."""
        e = entry or self.rng.choices(self.entries, self.weights)[0]
        name = e.info.name
        if e.is_container:
            args = [self.rng.choice(["BOGUS", "", "help-me"])] if self.chance(0.7) else []
        elif e.shape is None:
            args = self.generic_args(e.info)
        elif callable(e.shape):
            args = e.shape(self)
        else:
            args = expand(self, e.shape)
        cmd = list(e.words) + args
        if self.chance(P_MUTATE):
            cmd = self.mutate(cmd, len(e.words))
        return self.enforce_bounds(name, cmd, len(e.words))

    def mutate(self, cmd, nwords):
        head, args = cmd[:nwords], cmd[nwords:]
        for _ in range(self.rng.randint(1, 3)):
            op = self.rng.randrange(7)
            if op == 0 and args:
                del args[self.rng.randrange(len(args))]
            elif op == 1 and args:
                i = self.rng.randrange(len(args))
                args.insert(i, args[i])
            elif op == 2 and len(args) >= 2:
                i, j = self.rng.sample(range(len(args)), 2)
                args[i], args[j] = args[j], args[i]
            elif op == 3 and args:
                args[self.rng.randrange(len(args))] = self.any_arg()
            elif op == 4:
                args.insert(self.rng.randint(0, len(args)), self.rng.choice(ALL_TOKENS))
            elif op == 5 and args:
                args = args[:self.rng.randrange(len(args))]
            elif op == 6:
                head = [w.lower() if self.chance(0.5) else w for w in head]
        return head + args

    def enforce_bounds(self, name, cmd, nwords):
        """Re-applies the bounds a mutation may have broken (see the module doc)."""
        if name in BLOCKING_TIMEOUT_POS and len(cmd) > nwords:
            cmd[BLOCKING_TIMEOUT_POS[name]] = self.timeout()
        elif name == "wait" and len(cmd) > 2:
            cmd[2] = self.timeout_ms()
        if name in COUNT_DRIVEN:
            for i in range(nwords + 1, len(cmd)):
                if _int_below(cmd[i], -NEG_COUNT_BOUND):
                    cmd[i] = "-%d" % NEG_COUNT_BOUND
        if name in MEMORY_DRIVEN:
            for i in range(nwords + 1, len(cmd)):
                if _int_between(cmd[i], 100001, 4294967295):
                    cmd[i] = "100000"
        return cmd

    def inner_command(self):
        """A command for COMMAND GETKEYS or a script: any entry but EVAL-likes."""
        self.in_script += 1
        try:
            for _ in range(20):
                e = self.rng.choices(self.entries, self.weights)[0]
                if not e.info.name.startswith(("eval", "fcall")):
                    return self.command(e)
            return ["PING"]
        finally:
            self.in_script -= 1

    def script_payload(self, multi=False):
        """[numkeys, keys..., argv...] running one (or several) generated commands."""
        cmds = [self.inner_command() for _ in range(self.rng.randint(1, 3) if multi else 1)]
        keys = []
        for c in cmds:
            keys += [a for a in c[1:] if isinstance(a, str) and a in KEYS and a not in keys]
        argv = []
        for c in cmds:
            argv += ([str(len(c))] if multi else []) + c
        nk = str(len(keys))
        if self.chance(0.05):
            nk = self.rng.choice(["-1", "1000", INT64_MAX, "abc"])
        return [nk] + keys + argv

    def eval_args(self, ro):
        if self.chance(0.15):
            return [self.rng.choice(SCRIPTS_FIXED), "1", self.key()]
        i = self.rng.choice([3] if ro and self.chance(0.7) else range(len(SCRIPTS)))
        return [SCRIPTS[i]] + self.script_payload(multi=i in MULTI_SCRIPTS)

    def evalsha_args(self):
        i = self.rng.randrange(len(SCRIPTS))
        sha = _sha(SCRIPTS[i]) if self.chance(0.85) else self.rng.choice(SHAS)
        return [sha] + self.script_payload(multi=i in MULTI_SCRIPTS)

    def _emit(self, out, cmd):
        out.append(cmd)
        self.in_multi = next_multi_state(self.in_multi, cmd)

    def batch(self, n):
        """About n commands; sometimes a MULTI ... EXEC|DISCARD block or a burst (both
        kept whole). Each command is generated knowing whether it runs inside MULTI."""
        out = []
        while len(out) < n:
            if not self.in_multi and self.chance(P_BURST):
                for cmd in burst(self):
                    self._emit(out, cmd)
                continue
            if not self.chance(P_MULTI):
                self._emit(out, self.command())
                continue
            self._emit(out, ["MULTI"])
            for _ in range(self.rng.randint(0, 5)):
                self._emit(out, self.command())
            self._emit(out, ["DISCARD"] if self.chance(0.1) else ["EXEC"])
        return out

    def reset(self):
        cmds = epoch_reset(self.in_multi)
        self.in_multi = False
        return cmds


def _as_int(a):
    try:
        s = a.decode() if isinstance(a, bytes) else a
        if s.strip() != s or not s or s.startswith("+") or (len(s) > 1 and s[0] == "0"):
            return None
        return int(s)
    except (ValueError, UnicodeDecodeError):
        return None


def _int_below(a, limit):
    """True for a 64-bit integer below limit (what a server would accept)."""
    v = _as_int(a)
    return v is not None and -(1 << 63) <= v < limit


def _int_between(a, lo, hi):
    v = _as_int(a)
    return v is not None and lo <= v <= hi


def next_multi_state(in_multi, cmd):
    """Whether the connection is inside MULTI after `cmd`, given it was `in_multi`
    before. Exact for what the generator sends: MULTI / DISCARD with the right arity,
    and EXEC with any (Redis aborts the transaction on a rejected EXEC) change it;
    RESET, the only other way, is never sent."""
    name = cmd[0].upper() if isinstance(cmd[0], str) else cmd[0].decode("latin-1").upper()
    if name == "EXEC" and in_multi:
        return False
    if len(cmd) != 1:
        return in_multi
    if name == "MULTI":
        return True
    if name in ("EXEC", "DISCARD"):
        return False
    return in_multi
