"""Differential generators for hashes, lists and SORT (issue 15).

Families (each skipped while the server under test answers its probe with
"ERR unknown command"):
  hash   HSET HSETNX HMSET HGET HMGET HDEL HLEN HSTRLEN HEXISTS HKEYS HVALS HGETALL
         HINCRBY HINCRBYFLOAT HRANDFIELD HSCAN, OBJECT ENCODING, wrong arity
"""

from differential import Cmd, family, generator
from diffgen_foundation import wrong_arity

family("hash", ("HLEN", "__probe__"))

HASH_ARITY = {
    "HSET": -4, "HSETNX": 4, "HMSET": -4, "HGET": 3, "HMGET": -3, "HDEL": -3, "HLEN": 2,
    "HSTRLEN": 3, "HEXISTS": 3, "HKEYS": 2, "HVALS": 2, "HGETALL": 2, "HINCRBY": 4,
    "HINCRBYFLOAT": 4, "HRANDFIELD": -2, "HSCAN": -3,
}

FIELDS = ["f1", "f2", "f3", "f4", "f5", "name", "age", "", "n", "x"]
LONG = ["L" * 65, "V" * 100]


def field(g):
    if g.scenario.get("big") and g.chance(0.5):
        return "bf%03d" % g.randint(0, 299)
    if g.chance(0.02):
        return g.choice(LONG)
    return g.choice(FIELDS)


def hvalue(g):
    if g.chance(0.03):
        return g.choice(LONG)
    if g.chance(0.3):
        return str(g.randint(-100, 100))
    return g.value()


@generator("hash", "HSET", weight=4)
def _hset(g):
    name = g.choice(["HSET", "HSET", "HMSET", "hset"])
    args = [name, g.key("hash")]
    for _ in range(g.randint(1, 4)):
        args += [field(g), hvalue(g)]
    if g.chance(0.03):
        args.append("dangling")
    return args


@generator("hash", "HSET bulk", weight=0.1)
def _hset_bulk(g):
    args = ["HSET", g.key("hash")]
    for i in g.sample(range(700), g.randint(20, 300)):
        args += ["bf%03d" % i, str(i)]
    return args


@generator("hash", "HSETNX")
def _hsetnx(g):
    return ["HSETNX", g.key("hash"), field(g), hvalue(g)]


@generator("hash", "HGET", weight=2)
def _hget(g):
    r = g.rng.random()
    if r < 0.4:
        return ["HGET", g.key("hash"), field(g)]
    if r < 0.6:
        return ["HEXISTS", g.key("hash"), field(g)]
    if r < 0.8:
        return ["HSTRLEN", g.key("hash"), field(g)]
    return ["HMGET", g.key("hash")] + [field(g) for _ in range(g.randint(1, 4))]


@generator("hash", "HDEL", weight=1.5)
def _hdel(g):
    return ["HDEL", g.key("hash")] + [field(g) for _ in range(g.randint(1, 3))]


@generator("hash", "HLEN")
def _hlen(g):
    return ["HLEN", g.key("hash")]


@generator("hash", "HGETALL", tx=False)
def _hgetall(g):
    return [g.choice(["HGETALL", "HKEYS", "HVALS"]), g.key("hash")]


@generator("hash", "HINCRBY", weight=1.5)
def _hincrby(g):
    if g.chance(0.5):
        return ["HINCRBY", g.key("hash"), field(g), g.int_arg()]
    return ["HINCRBYFLOAT", g.key("hash"), field(g), g.float_arg()]


@generator("hash", "HRANDFIELD", tx=False)
def _hrandfield(g):
    args = ["HRANDFIELD", g.key("hash")]
    if g.chance(0.8):
        args.append(g.choice(["1", "2", "3", "5", "100", "-1", "-3", "-5", "0",
                              "-9223372036854775808", "9223372036854775807", "abc"]))
        if g.chance(0.5):
            args.append(g.choice(["WITHVALUES", "withvalues", "WITHSCORES"]))
    return args


@generator("hash", "HSCAN", weight=0.5, tx=False)
def _hscan(g):
    args = ["HSCAN", g.key("hash"), g.choice(["0", "0", "0", "x"])]
    if g.chance(0.3):
        args += ["MATCH", g.choice(["*", "f*", "bf1*", "?"])]
    return args + ["COUNT", "1000"]


@generator("hash", "HASH ENCODING", weight=0.5)
def _hash_encoding(g):
    return ["OBJECT", "ENCODING", g.key("hash")]


@generator("hash", "HASH ARITY", weight=0.2)
def _hash_arity(g):
    name = g.choice(sorted(HASH_ARITY))
    return wrong_arity(g, name, HASH_ARITY[name])


# ---------------------------------------------------------------------------
# Lists

family("list", ("LLEN", "__probe__"))

LIST_ARITY = {
    "LPUSH": -3, "RPUSH": -3, "LPUSHX": -3, "RPUSHX": -3, "LPOP": -2, "RPOP": -2, "LLEN": 2,
    "LRANGE": 4, "LINDEX": 3, "LSET": 4, "LINSERT": 5, "LREM": 4, "LTRIM": 4, "LPOS": -3,
    "LMOVE": 5, "RPOPLPUSH": 3, "LMPOP": -4, "BLPOP": -3, "BRPOP": -3, "BLMOVE": 6,
    "BRPOPLPUSH": 4, "BLMPOP": -5,
}
ELEMENTS = ["a", "b", "c", "a", "1", "2", "", "hello", "-5"]
BLOCK_TIMEOUTS = ["0.01", "0.01", "0.02", "-1", "abc", "0.001"]
INDEXES = ["0", "1", "2", "-1", "-2", "3", "5", "-10", "100", "x", "9223372036854775807",
           "-9223372036854775808"]


# Compressible elements (list-compress-depth scenarios): chunks of a few of
# them pass Redis's 48-byte minimum and shrink under LZF.
COMPRESSIBLE = ['{"user":%d,"name":"player","state":"waiting"}' % i for i in range(4)]


def element(g):
    if g.scenario.get("compress") and g.chance(0.5):
        return g.choice(COMPRESSIBLE)
    if g.chance(0.02):
        return g.choice(LONG)
    return g.choice(ELEMENTS)


def end(g):
    return g.choice(["LEFT", "RIGHT", "left", "right"] + (["MIDDLE"] if g.chance(0.05) else []))


def index(g):
    if g.scenario.get("compress") and g.chance(0.4):
        return str(g.randint(-400, 400))  # the compressed interior of long lists
    return g.choice(INDEXES) if g.chance(0.3) else str(g.randint(-6, 6))


def list_keys(g, most=3):
    n = g.randint(1, most)
    keys = [g.key("list") for _ in range(n)]
    numkeys = str(n) if g.chance(0.9) else g.choice(["0", "-1", "x", str(n + 1)])
    return numkeys, keys


@generator("list", "LPUSH", weight=4)
def _lpush(g):
    name = g.choice(["LPUSH", "RPUSH", "LPUSH", "RPUSH", "LPUSHX", "RPUSHX"])
    return [name, g.key("list")] + [element(g) for _ in range(g.randint(1, 5))]


@generator("list", "LPUSH bulk", weight=0.1)
def _lpush_bulk(g):
    return [g.choice(["LPUSH", "RPUSH"]), g.key("list")] + [
        "e%d" % g.randint(0, 50) for _ in range(g.randint(100, 400))]


@generator("list", "LPOP", weight=2)
def _lpop(g):
    args = [g.choice(["LPOP", "RPOP"]), g.key("list")]
    if g.chance(0.4):
        args.append(g.choice(["0", "1", "2", "3", "10", "-1", "x"]))
    return args


@generator("list", "LRANGE", weight=2)
def _lrange(g):
    r = g.rng.random()
    if r < 0.5:
        return ["LRANGE", g.key("list"), index(g), index(g)]
    if r < 0.8:
        return ["LINDEX", g.key("list"), index(g)]
    return ["LLEN", g.key("list")]


@generator("list", "LSET")
def _lset(g):
    return ["LSET", g.key("list"), index(g), element(g)]


@generator("list", "LINSERT")
def _linsert(g):
    where = g.choice(["BEFORE", "AFTER", "before", "after"] + (["X"] if g.chance(0.05) else []))
    return ["LINSERT", g.key("list"), where, element(g), element(g)]


@generator("list", "LREM")
def _lrem(g):
    return ["LREM", g.key("list"), g.choice(["0", "1", "2", "-1", "-2", "5", "x"]), element(g)]


@generator("list", "LTRIM", weight=0.5)
def _ltrim(g):
    return ["LTRIM", g.key("list"), index(g), index(g)]


@generator("list", "LPOS")
def _lpos(g):
    args = ["LPOS", g.key("list"), element(g)]
    for _ in range(g.randint(0, 3)):
        opt = g.choice(["RANK", "COUNT", "MAXLEN", "rank", "FOO"])
        args.append(opt)
        if g.chance(0.95):
            args.append(g.choice(["1", "2", "-1", "-2", "0", "3", "x", "-9223372036854775808"]))
    return args


@generator("list", "LMOVE", weight=1.5)
def _lmove(g):
    if g.chance(0.3):
        return ["RPOPLPUSH", g.key("list"), g.key("list")]
    return ["LMOVE", g.key("list"), g.key("list"), end(g), end(g)]


@generator("list", "LMPOP")
def _lmpop(g):
    n, keys = list_keys(g)
    args = ["LMPOP", n] + keys + [end(g)]
    if g.chance(0.5):
        args += ["COUNT", g.choice(["1", "2", "5", "0", "-1", "x"])]
    return args


@generator("list", "BLPOP", weight=0.5)
def _blpop(g):
    r = g.rng.random()
    t = g.choice(BLOCK_TIMEOUTS)
    if r < 0.4:
        keys = [g.key("list") for _ in range(g.randint(1, 3))]
        return [g.choice(["BLPOP", "BRPOP"])] + keys + [t]
    if r < 0.6:
        return ["BRPOPLPUSH", g.key("list"), g.key("list"), t]
    if r < 0.8:
        return ["BLMOVE", g.key("list"), g.key("list"), end(g), end(g), t]
    n, keys = list_keys(g)
    args = ["BLMPOP", t, n] + keys + [end(g)]
    if g.chance(0.5):
        args += ["COUNT", g.choice(["1", "2", "5", "0"])]
    return args


@generator("list", "LIST ENCODING", weight=0.3)
def _list_encoding(g):
    return ["OBJECT", "ENCODING", g.key("list")]


@generator("list", "LIST ARITY", weight=0.2)
def _list_arity(g):
    name = g.choice(sorted(LIST_ARITY))
    return wrong_arity(g, name, LIST_ARITY[name])


# ---------------------------------------------------------------------------
# SORT / SORT_RO over lists, sets and sorted sets

family("sort", ("SORT_RO", "__probe__"))

SORT_ELEMS = ["a", "b", "c", "1", "2", "10", "-3", "1.5", "", "x y"]
WEIGHTS = ["1", "2", "3", "-1", "0", "10", "1.5", "2.5", "7", "abc", "1e400", ""]


@generator("sort", "SORT data", weight=2)
def _sort_data(g):
    r = g.rng.random()
    e = g.choice(SORT_ELEMS)
    if r < 0.35:
        return ["RPUSH", g.key("list")] + [g.choice(SORT_ELEMS) for _ in range(g.randint(1, 4))]
    if r < 0.5:
        return ["SADD", g.key("set")] + [g.choice(SORT_ELEMS) for _ in range(g.randint(1, 3))]
    if r < 0.6:
        return ["ZADD", g.key("zset"), str(g.randint(0, 5)), e]
    if r < 0.85:
        return ["SET", "w_" + e, g.choice(WEIGHTS) if g.chance(0.3) else str(g.randint(-5, 9))]
    return ["HSET", "o_" + e, "f", g.choice(WEIGHTS) if g.chance(0.3) else str(g.randint(-5, 9)),
            "n", g.choice(SORT_ELEMS)]


@generator("sort", "SORT", weight=3)
def _sort(g):
    name = g.choice(["SORT", "SORT", "SORT_RO", "sort"])
    key = g.key("list", "set", "zset")
    args = [name, key]
    by = alpha = None
    opts = []
    for _ in range(g.randint(0, 4)):
        r = g.rng.random()
        if r < 0.2:
            by = g.choice(["w_*", "o_*->f", "o_*->n", "nosort", "w_*->", "o_*->missing", "#"])
            opts.append(["BY", by])
        elif r < 0.35:
            opts.append(["LIMIT", g.choice(["0", "1", "2", "-1", "5", "x"]),
                         g.choice(["1", "2", "0", "-1", "10", "x"])])
        elif r < 0.55:
            opts.append(["GET", g.choice(["#", "w_*", "o_*->n", "o_*->f", "nokey", "w_*->x"])])
        elif r < 0.7:
            opts.append([g.choice(["ASC", "DESC", "desc"])])
        elif r < 0.85:
            alpha = True
            opts.append(["ALPHA"])
        elif r < 0.95:
            opts.append(["STORE", g.key("list") if g.chance(0.8) else g.key()])
        else:
            opts.append([g.choice(["FOO", "LIMIT", "BY", "GET"])])
    for o in opts:
        args += o
    nosort = by is not None and "*" not in by
    mode = None
    if (alpha and by and not nosort) or (nosort and g.kind_of(key) == "set"):
        mode = "sorted"   # ties / set order: Redis leaves the order open
    return Cmd(*args, mode=mode)
