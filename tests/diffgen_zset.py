"""Differential generators for the sorted-set family and plain sets (issue 4).

Families (each skipped while the server under test answers its probe with
"ERR unknown command"):
  zset          ZADD ZINCRBY ZREM ZCARD ZSCORE ZMSCORE ZRANK ZREVRANK ZCOUNT ZRANGE
                (rank/BYSCORE, REV, LIMIT, WITHSCORES) ZREVRANGE ZRANGEBYSCORE
                ZREVRANGEBYSCORE ZREMRANGEBYRANK ZREMRANGEBYSCORE, OBJECT ENCODING,
                bulk loads across the listpack/skiplist threshold, wrong arity
  zset-lex      ZADD (score 0 only) ZLEXCOUNT ZRANGEBYLEX ZREVRANGEBYLEX ZRANGE BYLEX
                ZREMRANGEBYLEX — on "lex" keys only: Redis leaves lex ranges over
                mixed scores undefined
  zset-pop      ZPOPMIN ZPOPMAX ZMPOP, and BZPOPMIN BZPOPMAX BZMPOP with short timeouts
  zset-store    ZRANGESTORE ZUNION ZINTER ZDIFF ZUNIONSTORE ZINTERSTORE ZDIFFSTORE
                ZINTERCARD (WEIGHTS, AGGREGATE, sets as inputs)
  zset-random   ZRANDMEMBER (shape and membership only)
  zset-scan     ZSCAN
  set           SADD SREM SCARD SISMEMBER SMISMEMBER SMEMBERS SSCAN
  zrank-withscore  ZRANK/ZREVRANK ... WITHSCORE: a deliberate difference (Redis 7.2),
                validated against the target's own ZRANK + ZSCORE
"""

from differential import NULL, Cmd, RespError, family, generator
from diffgen_foundation import wrong_arity

family("zset", ("ZCARD", "__probe__"))
family("zset-lex", ("ZLEXCOUNT", "__probe__", "-", "+"))
family("zset-pop", ("ZPOPMIN", "__probe__"))
family("zset-store", ("ZUNIONSTORE", "__probe__", "1", "__probe2__"))
family("zset-random", ("ZRANDMEMBER", "__probe__"))
family("zset-scan", ("ZSCAN", "__probe__", "0"))
family("set", ("SCARD", "__probe__"))
family("zrank-withscore",
       lambda c: not isinstance(c.execute("ZRANK", "__probe__", "m", "WITHSCORE"), RespError))

ZSET_ARITY = {
    "ZADD": -4, "ZINCRBY": 4, "ZREM": -3, "ZCARD": 2, "ZSCORE": 3, "ZMSCORE": -3,
    "ZCOUNT": 4, "ZRANGE": -4, "ZREVRANGE": -4, "ZRANGEBYSCORE": -4,
    "ZREVRANGEBYSCORE": -4, "ZREMRANGEBYRANK": 4, "ZREMRANGEBYSCORE": 4,
}
ZSET_LEX_ARITY = {"ZLEXCOUNT": 4, "ZRANGEBYLEX": -4, "ZREVRANGEBYLEX": -4,
                  "ZREMRANGEBYLEX": 4}
ZSET_POP_ARITY = {"ZPOPMIN": -2, "ZPOPMAX": -2, "ZMPOP": -4, "BZPOPMIN": -3,
                  "BZPOPMAX": -3, "BZMPOP": -5}
ZSET_STORE_ARITY = {"ZRANGESTORE": -5, "ZUNION": -3, "ZINTER": -3, "ZDIFF": -3,
                    "ZUNIONSTORE": -4, "ZINTERSTORE": -4, "ZDIFFSTORE": -4, "ZINTERCARD": -3}
SET_ARITY = {"SADD": -3, "SREM": -3, "SCARD": 2, "SISMEMBER": 3, "SMISMEMBER": -3,
             "SMEMBERS": 2, "SSCAN": -3}

# ---------------------------------------------------------------------------
# argument helpers

SCORES_WEIRD = ["0", "-0", "1.5", "-2.5", "0.1", "1.1", "1e3", "1E-2", ".5", "5.", "0x10",
                "3.3333333333333335", "123456789012345678", "1e308", "5e-324", "inf", "-inf",
                "+inf", "1e400", "1e-400", "nan", "abc", "1.5x", " 1", "1 ", "", "(1"]


def score(g):
    if g.chance(0.1):
        return g.choice(SCORES_WEIRD)
    if g.chance(0.75):
        return str(g.randint(-3, 6))          # small integers: many ties
    return g.choice(["0.5", "2.5", "-1.5", "0.1", "10", "100", "-7", "3.25"])


def zmember(g):
    if g.scenario.get("big") and g.chance(0.5):
        return g.member("big")
    if g.chance(0.03):
        return g.member("long")
    return g.member("small")


def lexmember(g):
    if g.scenario.get("big") and g.chance(0.4):
        return g.member("big")
    return g.member("lex")


RANKS = ["0", "1", "2", "3", "-1", "-2", "-3", "5", "10", "-100", "100"]
RANKS_WEIRD = ["a", "1.5", "", "9223372036854775807", "-9223372036854775808",
               "9223372036854775808"]


def rank(g):
    if g.chance(0.05):
        return g.choice(RANKS_WEIRD)
    if g.scenario.get("big") and g.chance(0.3):
        return str(g.randint(-250, 250))
    return g.choice(RANKS)


SCORE_BOUNDS = ["-inf", "+inf", "inf", "-inf", "+inf", "0", "1", "2", "3", "-1", "(1", "(2",
                "(0", "(-1", "1.5", "(1.5", "5", "(5", "-3", "10", "(inf", "(-inf"]
SCORE_BOUNDS_WEIRD = ["abc", "(", "((1", "(abc", "", "nan", "1e400", "[1", "1 ", "-"]


def score_bound(g):
    if g.chance(0.05):
        return g.choice(SCORE_BOUNDS_WEIRD)
    return g.choice(SCORE_BOUNDS)


LEX_BOUNDS = ["-", "+", "[a", "(a", "[b", "(b", "[c", "(c", "[aa", "(ab", "[b0", "[zzz", "(e",
              "[", "(", "[m050", "(m100", "[m2"]
LEX_BOUNDS_WEIRD = ["a", "", "-a", "+a", "b", "1", "]a"]


def lex_bound(g):
    if g.chance(0.05):
        return g.choice(LEX_BOUNDS_WEIRD)
    return g.choice(LEX_BOUNDS)


def _lex_key(b):
    if b == "-":
        return (0, "")
    if b == "+":
        return (2, "")
    return (1, b[1:], 0 if b[:1] == "[" else 1)


def _score_key(b):
    try:
        return float(b.lstrip("("))
    except ValueError:
        return 0.0


def lex_pair(g, rev=False):
    """Two lex bounds, in range order most of the time (max first when rev)."""
    a, b = lex_bound(g), lex_bound(g)
    if g.chance(0.75):
        a, b = sorted((a, b), key=_lex_key, reverse=rev)
    return [a, b]


def score_pair(g, rev=False):
    a, b = score_bound(g), score_bound(g)
    if g.chance(0.75):
        a, b = sorted((a, b), key=_score_key, reverse=rev)
    return [a, b]


def limit(g):
    if g.chance(0.06):
        return ["LIMIT", g.choice(["0", "x", "1"]), g.choice(["y", "", "1.5"])]
    return ["LIMIT", g.choice(["0", "0", "1", "2", "-1", "5", "100"]),
            g.choice(["-1", "0", "1", "2", "3", "10", "-5"])]


def withscores(g, p=0.4):
    return [g.choice(["WITHSCORES", "withscores"])] if g.chance(p) else []


def zkey(g):
    """A key to read as a sorted set: score keys, lex keys, now and then others."""
    return g.key("zset", "lex")


def numkeys_and_keys(g, kinds=("zset", "set", "lex"), most=3):
    keys = [g.key(*kinds) for _ in range(g.randint(1, most))]
    n = str(len(keys))
    if g.chance(0.05):
        n = g.choice(["0", "-1", "x", str(len(keys) + 1), "1"])
    return n, keys


WEIGHTS = ["1", "2", "0", "-1", "0.5", "3", "1", "inf", "-inf", "1.5"]
WEIGHTS_WEIRD = ["x", "", "nan"]


def weights(g, n, finite=False):
    out = ["WEIGHTS"]
    for _ in range(n):
        if not finite and g.chance(0.03):
            out.append(g.choice(WEIGHTS_WEIRD))
        else:
            out.append(g.choice(WEIGHTS[:7] if finite else WEIGHTS))
    if g.chance(0.04):
        out.pop() if len(out) > 1 and g.chance(0.5) else out.append("1")
    return out


def aggregate(g):
    return ["AGGREGATE", g.choice(["SUM", "MIN", "MAX", "sum", "max", "AVG"])]


def groups(g, *gs):
    """Shuffles option groups (lists) and flattens them."""
    out = []
    for grp in g.shuffled([x for x in gs if x]):
        out.extend(grp)
    return out


# ---------------------------------------------------------------------------
# zset

@generator("zset", "ZADD", weight=8)
def _zadd(g):
    flags = [f for f in ("NX", "XX", "GT", "LT", "CH", "INCR") if g.chance(0.12)]
    flags = [f.lower() if g.chance(0.2) else f for f in flags]
    n = 1 if "INCR" in [f.upper() for f in flags] and g.chance(0.85) else g.randint(1, 4)
    pairs = []
    for _ in range(n):
        pairs += [score(g), zmember(g)]
    if g.chance(0.03):
        pairs.pop()
    return ["ZADD", g.key("zset")] + g.shuffled(flags) + pairs


@generator("zset", "ZADD bulk", weight=0.25)
def _zadd_bulk(g):
    """Many members at once: crosses the listpack threshold (128 by default)."""
    args = ["ZADD", g.key("zset")]
    pool = g.members.get("big") or g.members["small"]
    for m in g.sample(pool, g.randint(20, 150)):
        args += [str(g.randint(0, 30)) if g.chance(0.8) else score(g), m]
    return args


@generator("zset", "ZINCRBY", weight=2)
def _zincrby(g):
    return ["ZINCRBY", g.key("zset"), score(g), zmember(g)]


@generator("zset", "ZREM", weight=1.5)
def _zrem(g):
    return ["ZREM", g.key("zset", "lex")] + [zmember(g) if g.chance(0.7) else lexmember(g)
                                             for _ in range(g.randint(1, 3))]


@generator("zset", "ZCARD")
def _zcard(g):
    return ["ZCARD", zkey(g)]


@generator("zset", "ZSCORE", weight=1.5)
def _zscore(g):
    if g.chance(0.5):
        return ["ZSCORE", zkey(g), zmember(g)]
    return ["ZMSCORE", zkey(g)] + [zmember(g) for _ in range(g.randint(1, 4))]


@generator("zset", "ZRANK", weight=1.5)
def _zrank(g):
    return [g.choice(["ZRANK", "ZREVRANK"]), zkey(g), zmember(g)]


@generator("zset", "ZCOUNT")
def _zcount(g):
    return ["ZCOUNT", zkey(g)] + score_pair(g)


@generator("zset", "ZRANGE", weight=3)
def _zrange(g):
    key = zkey(g)
    r = g.rng.random()
    rev = [["REV"]] if g.chance(0.3) else []
    if r < 0.5:     # by rank
        lim = [limit(g)] if g.chance(0.05) else []           # error: LIMIT needs BY*
        return ["ZRANGE", key, rank(g), rank(g)] + groups(g, *rev, *lim, withscores(g))
    by = [g.choice(["BYSCORE", "byscore"])]
    lim = [limit(g)] if g.chance(0.4) else []
    extra = [["BYLEX"]] if g.chance(0.02) else []             # BYSCORE + BYLEX: error
    return ["ZRANGE", key] + score_pair(g, bool(rev)) + groups(
        g, by, *rev, *lim, withscores(g), *extra)


@generator("zset", "ZREVRANGE")
def _zrevrange(g):
    return ["ZREVRANGE", zkey(g), rank(g), rank(g)] + withscores(g)


@generator("zset", "ZRANGEBYSCORE", weight=2)
def _zrangebyscore(g):
    name = g.choice(["ZRANGEBYSCORE", "ZREVRANGEBYSCORE"])
    lim = [limit(g)] if g.chance(0.4) else []
    bad = [[g.choice(["REV", "BYSCORE", "FOO"])]] if g.chance(0.03) else []
    return [name, zkey(g)] + score_pair(g, name == "ZREVRANGEBYSCORE") + groups(
        g, withscores(g), *lim, *bad)


@generator("zset", "ZREMRANGE")
def _zremrange(g):
    if g.chance(0.5):
        return ["ZREMRANGEBYRANK", g.key("zset", "lex"), rank(g), rank(g)]
    return ["ZREMRANGEBYSCORE", g.key("zset", "lex")] + score_pair(g)


@generator("zset", "OBJECT ENCODING")
def _encoding(g):
    return ["OBJECT", "ENCODING", g.key("zset", "lex", "set")]


@generator("zset", "TYPE", weight=0.5)
def _type(g):
    return [g.choice(["TYPE", "EXISTS"]), g.key()]


@generator("zset", "ZSET ARITY", weight=0.5)
def _zset_arity(g):
    name = g.choice(sorted(ZSET_ARITY))
    return wrong_arity(g, name, ZSET_ARITY[name])


# ---------------------------------------------------------------------------
# zset-lex (lex keys hold score 0 only)

@generator("zset-lex", "ZADD lex", weight=5)
def _zadd_lex(g):
    flags = [f for f in ("NX", "XX", "GT", "LT", "CH") if g.chance(0.1)]
    pairs = []
    for _ in range(g.randint(1, 4)):
        pairs += ["0" if g.chance(0.95) else "-0", lexmember(g)]
    return ["ZADD", g.key("lex")] + flags + pairs


@generator("zset-lex", "ZADD lex bulk", weight=0.2)
def _zadd_lex_bulk(g):
    args = ["ZADD", g.key("lex")]
    pool = g.members.get("big") or g.members["lex"]
    for m in g.sample(pool, g.randint(20, 150)):
        args += ["0", m]
    return args


def lexkey(g):
    """Lex reads go to lex keys only (or a missing key): any other key may hold a
    mixed-score sorted set, where lex ranges are undefined (they depend on the random
    skiplist levels even between two redis-servers)."""
    if g.chance(0.05):
        return "absent:lex"        # no generator ever writes this key
    return g.choice(g.pools.kinds["lex"])


@generator("zset-lex", "SET lexkey", weight=0.15)
def _set_lexkey(g):
    """A string at a lex key (the only other type lex keys may hold): WRONGTYPE paths."""
    return ["SET", g.choice(g.pools.kinds["lex"]), g.choice(["v", "1"])]


@generator("zset-lex", "ZLEXCOUNT")
def _zlexcount(g):
    return ["ZLEXCOUNT", lexkey(g)] + lex_pair(g)


@generator("zset-lex", "ZRANGEBYLEX", weight=2)
def _zrangebylex(g):
    name = g.choice(["ZRANGEBYLEX", "ZREVRANGEBYLEX"])
    args = [name, lexkey(g)] + lex_pair(g, name == "ZREVRANGEBYLEX")
    if g.chance(0.4):
        args += limit(g)
    if g.chance(0.03):
        args.append(g.choice(["WITHSCORES", "FOO"]))
    return args


@generator("zset-lex", "ZRANGE BYLEX", weight=2)
def _zrange_bylex(g):
    rev = [["REV"]] if g.chance(0.3) else []
    lim = [limit(g)] if g.chance(0.4) else []
    ws = [["WITHSCORES"]] if g.chance(0.04) else []          # error with BYLEX
    return ["ZRANGE", lexkey(g)] + lex_pair(g, bool(rev)) + groups(g, ["BYLEX"], *rev,
                                                                   *lim, *ws)


@generator("zset-lex", "ZRANGE lexkey", weight=1)
def _zrange_lexkey_rank(g):
    return ["ZRANGE", lexkey(g), rank(g), rank(g)] + withscores(g)


@generator("zset-lex", "ZREMRANGEBYLEX")
def _zremrangebylex(g):
    return ["ZREMRANGEBYLEX", lexkey(g)] + lex_pair(g)


@generator("zset-lex", "ZSET LEX ARITY", weight=0.3)
def _zset_lex_arity(g):
    name = g.choice(sorted(ZSET_LEX_ARITY))
    return wrong_arity(g, name, ZSET_LEX_ARITY[name])


# ---------------------------------------------------------------------------
# zset-pop

def pop_count(g):
    return g.choice(["0", "1", "1", "2", "3", "5", "1000", "-1", "x"])


@generator("zset-pop", "ZPOPMIN", weight=2)
def _zpop(g):
    args = [g.choice(["ZPOPMIN", "ZPOPMAX"]), g.key("zset", "lex")]
    if g.chance(0.6):
        args.append(pop_count(g))
    if g.chance(0.02):
        args.append("1")
    return args


@generator("zset-pop", "ZMPOP", weight=1.5)
def _zmpop(g):
    n, keys = numkeys_and_keys(g, ("zset", "lex"), most=3)
    args = ["ZMPOP", n] + keys + [g.choice(["MIN", "MAX", "min", "max", "FOO"])
                                  if g.chance(0.97) else "MID"]
    if g.chance(0.5):
        args += ["COUNT", pop_count(g)]
    if g.chance(0.02):
        args += ["COUNT", "1"]
    return args


BLOCK_TIMEOUTS = ["0.01", "0.01", "0.02", "-1", "abc", "0.001"]


@generator("zset-pop", "BZPOPMIN", weight=0.4)
def _bzpop(g):
    keys = [g.key("zset", "lex") for _ in range(g.randint(1, 3))]
    return [g.choice(["BZPOPMIN", "BZPOPMAX"])] + keys + [g.choice(BLOCK_TIMEOUTS)]


@generator("zset-pop", "BZMPOP", weight=0.3)
def _bzmpop(g):
    n, keys = numkeys_and_keys(g, ("zset", "lex"), most=3)
    args = ["BZMPOP", g.choice(BLOCK_TIMEOUTS), n] + keys + [g.choice(["MIN", "MAX"])]
    if g.chance(0.5):
        args += ["COUNT", pop_count(g)]
    return args


@generator("zset-pop", "ZSET POP ARITY", weight=0.2)
def _zset_pop_arity(g):
    name = g.choice(["ZPOPMIN", "ZPOPMAX", "ZMPOP"])
    return wrong_arity(g, name, ZSET_POP_ARITY[name])


# ---------------------------------------------------------------------------
# zset-store

@generator("zset-store", "ZRANGESTORE", weight=1.5)
def _zrangestore(g):
    src = g.key("zset", "lex")
    dst = g.dest_key(src)
    rev = [["REV"]] if g.chance(0.3) else []
    r = g.rng.random()
    if r < 0.4:
        return ["ZRANGESTORE", dst, src, rank(g), rank(g)] + groups(g, *rev)
    if r < 0.75 or g.kind_of(src) != "lex":
        lim = [limit(g)] if g.chance(0.4) else []
        return ["ZRANGESTORE", dst, src] + score_pair(g, bool(rev)) + groups(
            g, ["BYSCORE"], *rev, *lim)
    lim = [limit(g)] if g.chance(0.4) else []
    ws = [["WITHSCORES"]] if g.chance(0.05) else []           # not accepted by ZRANGESTORE
    return ["ZRANGESTORE", dst, src] + lex_pair(g, bool(rev)) + groups(g, ["BYLEX"], *rev,
                                                                       *lim, *ws)


@generator("zset-store", "ZUNION", weight=2)
def _zunion(g):
    name = g.choice(["ZUNION", "ZINTER", "ZDIFF"])
    n, keys = numkeys_and_keys(g)
    opts = []
    if name != "ZDIFF" or g.chance(0.05):
        if g.chance(0.4):
            opts.append(weights(g, len(keys)))
        if g.chance(0.4):
            opts.append(aggregate(g))
    opts.append(withscores(g, 0.5))
    return [name, n] + keys + groups(g, *opts)


@generator("zset-store", "ZUNIONSTORE", weight=2)
def _zunionstore(g):
    name = g.choice(["ZUNIONSTORE", "ZINTERSTORE", "ZDIFFSTORE"])
    n, keys = numkeys_and_keys(g)
    dst = g.dest_key(*keys)
    lex_dst = g.kind_of(dst) == "lex"
    opts = []
    if name != "ZDIFFSTORE" or g.chance(0.05):
        if g.chance(0.4):
            opts.append(weights(g, len(keys), finite=lex_dst))
        if g.chance(0.4):
            opts.append(aggregate(g))
    if g.chance(0.03):
        opts.append(["WITHSCORES"])
    return [name, dst, n] + keys + groups(g, *opts)


@generator("zset-store", "ZINTERCARD")
def _zintercard(g):
    n, keys = numkeys_and_keys(g)
    args = ["ZINTERCARD", n] + keys
    if g.chance(0.4):
        args += ["LIMIT", g.choice(["0", "1", "2", "5", "-1", "x"])]
    return args


@generator("zset-store", "ZSET STORE ARITY", weight=0.2)
def _zset_store_arity(g):
    name = g.choice(sorted(ZSET_STORE_ARITY))
    return wrong_arity(g, name, ZSET_STORE_ARITY[name])


# ---------------------------------------------------------------------------
# zset-random, zset-scan

@generator("zset-random", "ZRANDMEMBER", tx=False)
def _zrandmember(g):
    args = ["ZRANDMEMBER", zkey(g)]
    if g.chance(0.8):
        args.append(g.choice(["1", "2", "3", "5", "0", "-1", "-3", "-10", "1000", "x"]))
        if g.chance(0.5):
            args.append(g.choice(["WITHSCORES", "WITHSCORES", "FOO"]))
    return args


@generator("zset-scan", "ZSCAN", tx=False)
def _zscan(g):
    args = ["ZSCAN", g.key("zset", "lex"), "0" if g.chance(0.95) else g.choice(["x", "-"])]
    if g.chance(0.4):
        args += ["MATCH", g.choice(["*", "a*", "m1*", "?", "[ab]*", "nomatch", "*0"])]
    args += ["COUNT", "1000"] if g.chance(0.9) else ["COUNT", g.choice(["0", "x"])]
    return args


# ---------------------------------------------------------------------------
# set

def smember(g):
    if g.scenario.get("big") and g.chance(0.3):
        return g.member("big")
    return g.member("set")


@generator("set", "SADD", weight=3)
def _sadd(g):
    return ["SADD", g.key("set")] + [smember(g) for _ in range(g.randint(1, 4))]


@generator("set", "SADD bulk", weight=0.15)
def _sadd_bulk(g):
    pool = [str(i) for i in range(600)] if g.chance(0.5) else (g.members.get("big") or
                                                               g.members["set"])
    return ["SADD", g.key("set")] + g.sample(pool, g.randint(20, 150))


@generator("set", "SREM", weight=1.5)
def _srem(g):
    return ["SREM", g.key("set")] + [smember(g) for _ in range(g.randint(1, 3))]


@generator("set", "SCARD")
def _scard(g):
    r = g.rng.random()
    if r < 0.3:
        return ["SCARD", g.key("set")]
    if r < 0.6:
        return ["SISMEMBER", g.key("set"), smember(g)]
    return ["SMISMEMBER", g.key("set")] + [smember(g) for _ in range(g.randint(1, 4))]


@generator("set", "SMEMBERS", tx=False)
def _smembers(g):
    return ["SMEMBERS", g.key("set")]


@generator("set", "SSCAN", weight=0.5, tx=False)
def _sscan(g):
    args = ["SSCAN", g.key("set"), "0"]
    if g.chance(0.3):
        args += ["MATCH", g.choice(["*", "1*", "a*", "?"])]
    return args + ["COUNT", "1000"]


@generator("set", "SET ARITY", weight=0.2)
def _set_arity(g):
    name = g.choice(sorted(SET_ARITY))
    return wrong_arity(g, name, SET_ARITY[name])


# ---------------------------------------------------------------------------
# ZRANK/ZREVRANK WITHSCORE (Redis 7.2): not compared, validated on the target

def _validate_rank_withscore(cmd):
    name, key, member = cmd.args[0].upper(), cmd.args[1], cmd.args[2]

    def validate(conn, reply):
        rank_reply = conn.execute(name, key, member)
        score_reply = conn.execute("ZSCORE", key, member)
        if isinstance(rank_reply, RespError):
            return None if reply == rank_reply else "expected %r, got %r" % (rank_reply, reply)
        if rank_reply is None or rank_reply is NULL:
            return None if reply is None or reply is NULL else "expected nil, got %r" % (reply,)
        if not (isinstance(reply, list) and len(reply) == 2):
            return "expected [rank, score], got %r" % (reply,)
        if reply[0] != rank_reply:
            return "rank %r != %s %r" % (reply[0], name.decode(), rank_reply)
        if type(reply[1]) is not type(score_reply) or reply[1] != score_reply:
            return "score %r != ZSCORE %r" % (reply[1], score_reply)
        return None
    return validate


@generator("zrank-withscore", "ZRANK WITHSCORE", tx=False)
def _zrank_withscore(g):
    name = g.choice(["ZRANK", "ZREVRANK"])
    cmd = Cmd(name, zkey(g), zmember(g), g.choice(["WITHSCORE", "withscore"]),
              check=name + " WITHSCORE")
    cmd.validate = _validate_rank_withscore(cmd)
    return cmd


ZSET_FAMILIES = ["zset", "zset-lex", "zset-pop", "zset-store", "zset-random", "zset-scan",
                 "set", "zrank-withscore"]
