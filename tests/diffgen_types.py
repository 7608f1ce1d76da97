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
