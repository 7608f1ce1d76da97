"""Differential generators for the foundation (issue 2): strings, keys, expiry (long
TTLs only), databases, MULTI/EXEC/WATCH, and malformed commands.

Each generator returns the arguments of one command (or Cmd objects); see
tests/differential.py for the registry and the Gen helpers."""

from differential import Cmd, family, generator

family("strings", ("GET", "__probe__"), "GET SET ... INCRBYFLOAT APPEND STRLEN")
family("keys", ("EXISTS", "__probe__"), "DEL EXISTS TYPE KEYS SCAN RENAME COPY OBJECT ...")
family("expire", ("TTL", "__probe__"), "EXPIRE* TTL* EXPIRETIME* PERSIST (long TTLs)")
family("db", ("DBSIZE",), "SELECT DBSIZE SWAPDB MOVE FLUSHDB FLUSHALL")
family("tx", ("DISCARD",), "MULTI EXEC DISCARD WATCH UNWATCH")
family("errors", ("PING",), "unknown commands, wrong arity, PING, ECHO")

# Redis 7.0 arities (COMMAND INFO): N = exactly N args incl. the name, -N = at least N.
FOUNDATION_ARITY = {
    "GET": 2, "SET": -3, "SETNX": 3, "SETEX": 4, "PSETEX": 4, "GETDEL": 2, "GETEX": -2,
    "MGET": -2, "MSET": -3, "MSETNX": -3, "INCR": 2, "INCRBY": 3, "INCRBYFLOAT": 3,
    "DECR": 2, "DECRBY": 3, "APPEND": 3, "STRLEN": 2, "DEL": -2, "UNLINK": -2,
    "EXISTS": -2, "TYPE": 2, "KEYS": 2, "SCAN": -2, "RANDOMKEY": 1, "RENAME": 3,
    "RENAMENX": 3, "COPY": -3, "MOVE": 3, "TOUCH": -2, "DBSIZE": 1, "SELECT": 2,
    "SWAPDB": 3, "EXPIRE": -3, "PEXPIRE": -3, "EXPIREAT": -3, "PEXPIREAT": -3, "TTL": 2,
    "PTTL": 2, "EXPIRETIME": 2, "PEXPIRETIME": 2, "PERSIST": 2, "WATCH": -2,
    "UNWATCH": 1, "PING": -1, "ECHO": 2,
}


def wrong_arity(g, name, arity):
    """Arguments for `name` with a wrong number of arguments."""
    if arity > 0:
        counts = [n for n in range(1, arity + 3) if n != arity]
    else:
        counts = list(range(1, -arity))
    n = g.choice(counts)
    args = [name if g.chance(0.7) else name.lower()]
    args += [g.choice(["k1", "k2", "1", "x", "10"]) for _ in range(n - 1)]
    return args


def bad_command(g, arity_table=FOUNDATION_ARITY):
    if g.chance(0.4):
        name = g.choice(["FOO", "foo", "GETT", "ZZADD", "SETX", "X" * 10, "EXPIRES"])
        return Cmd(name, *[g.choice(["a", "b", "k1", "x" * 70, "1\r\n2"])
                           for _ in range(g.randint(0, 3))])
    name = g.choice(sorted(n for n, a in arity_table.items() if a != -1))
    return Cmd(*wrong_arity(g, name, arity_table[name]))


def expiry_option(g, allow_past=True):
    """An expiry option group. SET with a past EXAT/PXAT leaves a logically expired key
    that DBSIZE counts until active expiry reclaims it (timing-dependent in redis), so
    SET never gets past times; GETEX deletes at once, so it may."""
    r = g.rng.random()
    if not allow_past and 0.82 <= r < 0.86:
        r = 0.0
    if r < 0.25:
        return ["EX", g.ttl_s()]
    if r < 0.45:
        return ["PX", g.ttl_ms()]
    if r < 0.58:
        return ["EXAT", g.far_unix()]
    if r < 0.70:
        return ["PXAT", g.far_unix() * 1000 + g.randint(0, 999)]
    if r < 0.82:
        return ["KEEPTTL"]
    if r < 0.86:
        return [g.choice(["EXAT", "PXAT"]), g.past_unix()]  # in the past: deletes
    return [g.choice(["EX", "PX", "EXAT", "PXAT", "ex"]),
            g.choice(["0", "-1", "abc", "1.5", "", "9223372036854775807",
                      "9223372036854775", "4611686018427387904"])]


def flatten(groups):
    out = []
    for grp in groups:
        out.extend(grp)
    return out


# ---------------------------------------------------------------------------
# strings

@generator("strings", "SET", weight=4)
def _set(g):
    groups = []
    if g.chance(0.3):
        groups.append([g.choice(["NX", "XX", "nx", "xx"])])
    if g.chance(0.04):
        groups.append([g.choice(["NX", "XX"])])
    if g.chance(0.2):
        groups.append(["GET"])
    if g.chance(0.4):
        groups.append(expiry_option(g, allow_past=False))
    if g.chance(0.04):
        groups.append(expiry_option(g, allow_past=False))
    if g.chance(0.03):
        groups.append([g.choice(["FOO", "EX", "PX", "GETT"])])
    return ["SET", g.key("str"), g.value()] + flatten(g.shuffled(groups))


@generator("strings", "GET", weight=3)
def _get(g):
    return ["GET", g.key("str")]


@generator("strings", "SETNX")
def _setnx(g):
    return ["SETNX", g.key("str"), g.value()]


@generator("strings", "SETEX")
def _setex(g):
    if g.chance(0.5):
        ttl = g.ttl_s() if g.chance(0.8) else g.choice(["0", "-5", "abc", "9223372036854775807"])
        return ["SETEX", g.key("str"), ttl, g.value()]
    ttl = g.ttl_ms() if g.chance(0.8) else g.choice(["0", "-5", "1.5", "9223372036854775807"])
    return ["PSETEX", g.key("str"), ttl, g.value()]


@generator("strings", "GETDEL")
def _getdel(g):
    return ["GETDEL", g.key("str")]


@generator("strings", "GETEX", weight=1.5)
def _getex(g):
    opts = []
    r = g.rng.random()
    if r < 0.5:
        opts = expiry_option(g)
        if opts == ["KEEPTTL"]:
            opts = ["PERSIST"]
    elif r < 0.65:
        opts = ["PERSIST"]
    elif r < 0.72:
        opts = expiry_option(g) + ["PERSIST"]
    elif r < 0.76:
        opts = [g.choice(["FOO", "EX", "KEEPTTL"])]
    return ["GETEX", g.key("str")] + opts


@generator("strings", "MGET", weight=1.5)
def _mget(g):
    return ["MGET"] + g.keys(g.randint(1, 4), "str")


@generator("strings", "MSET")
def _mset(g):
    name = g.choice(["MSET", "MSET", "MSETNX"])
    args = [name]
    for _ in range(g.randint(1, 3)):
        args += [g.key("str"), g.value()]
    if g.chance(0.05):
        args.pop()
    return args


@generator("strings", "INCR", weight=3)
def _incr(g):
    r = g.rng.random()
    if r < 0.25:
        return [g.choice(["INCR", "DECR"]), g.key("str")]
    if r < 0.6:
        return [g.choice(["INCRBY", "DECRBY"]), g.key("str"), g.int_arg()]
    return ["INCRBYFLOAT", g.key("str"), g.float_arg()]


@generator("strings", "APPEND", weight=1.5)
def _append(g):
    if g.chance(0.5):
        return ["APPEND", g.key("str"), g.value()]
    return ["STRLEN", g.key("str")]


# ---------------------------------------------------------------------------
# keys

@generator("keys", "DEL", weight=1.5)
def _del(g):
    return [g.choice(["DEL", "UNLINK", "EXISTS", "TOUCH", "EXISTS"])] + g.keys(g.randint(1, 4))


@generator("keys", "TYPE")
def _type(g):
    return ["TYPE", g.key()]


KEY_PATTERNS = ["*", "k*", "k?", "*1", "[kz]*", "k[^1]*", "nomatch", "\\*", "*:*", "?", "",
                "k[1-2]", "[", "z*", "s*", "l*", "missing*"]


@generator("keys", "KEYS")
def _keys(g):
    return ["KEYS", g.choice(KEY_PATTERNS)]


@generator("keys", "SCAN")
def _scan(g):
    args = ["SCAN", "0"]
    if g.chance(0.05):
        args[1] = g.choice(["abc", "-", "18446744073709551616"])
    if g.chance(0.4):
        args += ["MATCH", g.choice(KEY_PATTERNS)]
    args += ["COUNT", "1000"] if g.chance(0.9) else ["COUNT", g.choice(["0", "-1", "x"])]
    if g.chance(0.3):
        args += ["TYPE", g.choice(["string", "zset", "set", "none", "foo", "STRING"])]
    if g.chance(0.03):
        args.append("FOO")
    return args


@generator("keys", "RANDOMKEY", weight=0.5, tx=False)
def _randomkey(g):
    return ["RANDOMKEY"]


@generator("keys", "RENAME")
def _rename(g):
    src = g.key()
    return [g.choice(["RENAME", "RENAMENX"]), src, g.dest_key(src) if g.chance(0.9) else src]


@generator("keys", "COPY")
def _copy(g):
    src = g.key()
    args = ["COPY", src, g.dest_key(src) if g.chance(0.9) else src]
    if g.chance(0.3):
        args += ["DB", g.choice(["0", "1", "2", "16", "x"])]
    if g.chance(0.4):
        args.append("REPLACE")
    if g.chance(0.03):
        args.append("FOO")
    return args


@generator("keys", "OBJECT ENCODING")
def _object(g):
    return ["OBJECT", "ENCODING", g.key()]


# ---------------------------------------------------------------------------
# expire (relative TTLs are distinct multiples of 1000 s; absolute times far away)

EXPIRE_FLAGS = [[], [], [], ["NX"], ["XX"], ["GT"], ["LT"], ["nx"], ["XX", "GT"], ["XX", "LT"],
                ["NX", "XX"], ["GT", "LT"], ["NX", "GT"], ["LT", "LT"], ["FOO"]]


@generator("expire", "EXPIRE", weight=3)
def _expire(g):
    r = g.rng.random()
    if r < 0.3:
        cmd, t = "EXPIRE", g.ttl_s()
    elif r < 0.5:
        cmd, t = "PEXPIRE", g.ttl_ms()
    elif r < 0.65:
        cmd, t = "EXPIREAT", g.far_unix()
    elif r < 0.8:
        cmd, t = "PEXPIREAT", g.far_unix() * 1000 + g.randint(0, 999)
    elif r < 0.9:
        cmd, t = g.choice([("EXPIRE", "0"), ("EXPIRE", "-10"), ("PEXPIRE", "-1"),
                           ("EXPIREAT", g.past_unix()), ("PEXPIREAT", g.past_unix())])
    else:
        cmd = g.choice(["EXPIRE", "PEXPIRE", "EXPIREAT", "PEXPIREAT"])
        t = g.choice(["abc", "1.5", "", "9223372036854775807", "-9223372036854775808",
                      "92233720368547758", "4611686018427388"])
    return [cmd, g.key(), t] + g.choice(EXPIRE_FLAGS)


@generator("expire", "TTL", weight=2)
def _ttl(g):
    return [g.choice(["TTL", "PTTL", "EXPIRETIME", "PEXPIRETIME"]), g.key()]


@generator("expire", "PERSIST")
def _persist(g):
    return ["PERSIST", g.key()]


# ---------------------------------------------------------------------------
# databases

@generator("db", "SELECT", weight=1.5)
def _select(g):
    return ["SELECT", g.choice(["0", "0", "0", "1", "1", "2", "16", "-1", "a"])]


@generator("db", "DBSIZE", weight=0.5)
def _dbsize(g):
    return ["DBSIZE"]


@generator("db", "SWAPDB", weight=0.5)
def _swapdb(g):
    return ["SWAPDB", g.choice(["0", "1", "2", "1", "16", "x"]), g.choice(["0", "1", "2", "y"])]


@generator("db", "MOVE")
def _move(g):
    return ["MOVE", g.key(), g.choice(["0", "1", "2", "16", "x"])]


@generator("db", "FLUSHDB", weight=0.08)
def _flushdb(g):
    return [g.choice(["FLUSHDB", "FLUSHDB", "FLUSHALL"])] + g.choice(
        [[], [], ["ASYNC"], ["SYNC"], ["FOO"]])


# ---------------------------------------------------------------------------
# transactions

@generator("tx", "MULTI", weight=1.5, tx=False)
def _multi(g):
    steps = []
    if g.chance(0.4):
        steps.append(Cmd("WATCH", *g.keys(g.randint(1, 3))))
        for _ in range(g.randint(0, 3)):
            steps.append(g.tx_command())
    steps.append(Cmd("MULTI"))
    for _ in range(g.randint(0, 5)):
        r = g.rng.random()
        if r < 0.04:
            steps.append(Cmd("MULTI"))                 # nested: error, tx continues
        elif r < 0.07:
            steps.append(Cmd("WATCH", g.key()))        # not allowed inside MULTI
        elif r < 0.12:
            steps.append(bad_command(g))               # queue-time error: EXECABORT
        else:
            steps.append(g.tx_command())
    r = g.rng.random()
    if r < 0.78:
        steps.append(Cmd("EXEC"))
    elif r < 0.96:
        steps.append(Cmd("DISCARD"))
    else:
        steps.append(Cmd("EXEC", "x"))
    return steps


@generator("tx", "WATCH", weight=0.5, tx=False)
def _watch(g):
    r = g.rng.random()
    if r < 0.5:
        return ["WATCH"] + g.keys(g.randint(1, 2))
    if r < 0.7:
        return ["UNWATCH"]
    return [g.choice(["EXEC", "DISCARD"])]   # without MULTI: errors


# ---------------------------------------------------------------------------
# malformed commands and the trivial ones

@generator("errors", "ERRORS", weight=1.5)
def _errors(g):
    return bad_command(g)


@generator("errors", "PING", weight=0.3)
def _ping(g):
    if g.chance(0.5):
        return ["PING"] + ([g.value()] if g.chance(0.5) else [])
    return ["ECHO", g.value()]


FOUNDATION_FAMILIES = ["strings", "keys", "expire", "db", "tx", "errors"]
