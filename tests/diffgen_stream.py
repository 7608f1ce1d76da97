"""Differential generators for streams (issue 31): XADD (NOMKSTREAM, MAXLEN / MINID with
= and ~, LIMIT, explicit and <ms>-* ids), XRANGE / XREVRANGE (exclusive bounds, COUNT),
XLEN, XDEL, XTRIM, XSETID, consumer groups (XGROUP CREATE / SETID / DESTROY /
CREATECONSUMER / DELCONSUMER, XREADGROUP without BLOCK, XACK, XPENDING, XCLAIM,
XAUTOCLAIM), XREAD without BLOCK, XINFO. Ids are explicit (never "*", which reads the
clock); replies holding idle or delivery times are compared with those blanked out."""

from differential import Cmd, family, generator
from diffgen_foundation import wrong_arity

family("stream", ("XLEN", "__probe__"))

STREAM_ARITY = {"XADD": -5, "XRANGE": -4, "XREVRANGE": -4, "XLEN": 2, "XDEL": -3,
                "XTRIM": -4, "XREAD": -4, "XREADGROUP": -7, "XACK": -4, "XPENDING": -3,
                "XCLAIM": -6, "XAUTOCLAIM": -6, "XSETID": -3}
GROUPS = ["g1", "g2", "g3"]
CONSUMERS = ["alice", "bob", "carol", "dave"]


def skey(g):
    return g.key("stream")


def sid(g, strict=False):
    r = g.rng.random()
    if r < 0.55:
        return "%d-%d" % (g.randint(0, 80), g.randint(0, 3))
    if r < 0.75:
        return str(g.randint(0, 80))
    if r < 0.85 and not strict:
        return g.choice(["-", "+"])
    if r < 0.93:
        return g.choice(["0-0", "0", "18446744073709551615-18446744073709551615",
                         "18446744073709551615", "1-18446744073709551615"])
    return g.choice(["abc", "1-x", "-1", "1-", "", "1--1", "+1", " 1", "1.5", "99999999999999999999"])


def bound(g):
    b = sid(g)
    if g.chance(0.25):
        b = "(" + b
    return b


def fields(g):
    n = g.choice([1, 1, 2, 2, 3])
    out = []
    for _ in range(n):
        out += [g.choice(["f", "name", "x", "a" * g.randint(1, 30)]), g.value()]
    if g.chance(0.03):
        out = out[:-1]
    return out


def trim_opts(g, xadd):
    if xadd and g.chance(0.55):
        return []
    out = [g.choice(["MAXLEN", "MINID", "maxlen"])]
    if g.chance(0.6):
        out.append(g.choice(["~", "=", "~", "="]))
    if out[0].upper() == "MAXLEN":
        out.append(g.choice([str(g.randint(0, 30)), str(g.randint(0, 5)), "-1", "x"]))
    else:
        out.append(sid(g, strict=True))
    if g.chance(0.25):
        out += ["LIMIT", g.choice(["0", "1", "5", "100", "-1"])]
    return out


@generator("stream", "XADD", weight=6)
def _xadd(g):
    args = ["XADD", skey(g)]
    if g.chance(0.1):
        args.append("NOMKSTREAM")
    args += trim_opts(g, True)
    if g.chance(0.3):
        args.append("%d-*" % g.randint(0, 90))
    elif g.chance(0.9):
        ms = g.randint(0, 90)
        args.append("%d-%d" % (ms, g.randint(0, 5)) if g.chance(0.7) else str(ms))
    else:
        args.append(sid(g, strict=True))
    return args + fields(g)


@generator("stream", "XRANGE", weight=3)
def _xrange(g):
    args = [g.choice(["XRANGE", "XREVRANGE"]), skey(g), bound(g), bound(g)]
    if g.chance(0.3):
        args[2:4] = (["-", "+"] if args[0] == "XRANGE" else ["+", "-"])
    if g.chance(0.4):
        args += ["COUNT", g.choice(["0", "1", "3", "10", "-1", "x"])]
    return args


@generator("stream", "XLEN")
def _xlen(g):
    return ["XLEN", skey(g)]


@generator("stream", "XDEL", weight=2)
def _xdel(g):
    return ["XDEL", skey(g)] + [sid(g, strict=True) for _ in range(g.randint(1, 3))]


@generator("stream", "XTRIM")
def _xtrim(g):
    return ["XTRIM", skey(g)] + trim_opts(g, False)


@generator("stream", "XSETID", weight=0.5)
def _xsetid(g):
    args = ["XSETID", skey(g), sid(g, strict=True)]
    if g.chance(0.3):
        args += ["ENTRIESADDED", g.choice(["0", "5", "100", "-1"])]
    if g.chance(0.3):
        args += ["MAXDELETEDID", sid(g, strict=True)]
    return args


@generator("stream", "XGROUP", weight=2)
def _xgroup(g):
    key, grp = skey(g), g.choice(GROUPS)
    sub = g.choice(["CREATE", "CREATE", "SETID", "DESTROY", "CREATECONSUMER", "DELCONSUMER"])
    if sub == "CREATE":
        args = ["XGROUP", "CREATE", key, grp, g.choice(["$", "0", sid(g)])]
        if g.chance(0.4):
            args.append("MKSTREAM")
        if g.chance(0.3):
            args += ["ENTRIESREAD", g.choice(["0", "3", "-1", "-2"])]
        return args
    if sub == "SETID":
        args = ["XGROUP", "SETID", key, grp, g.choice(["$", "0", sid(g)])]
        if g.chance(0.3):
            args += ["ENTRIESREAD", g.choice(["0", "3", "-1", "-2"])]
        return args
    if sub == "DESTROY":
        return ["XGROUP", "DESTROY", key, grp]
    return ["XGROUP", sub, key, grp, g.choice(CONSUMERS)]


@generator("stream", "XREADGROUP", weight=4)
def _xreadgroup(g):
    args = ["XREADGROUP", "GROUP", g.choice(GROUPS), g.choice(CONSUMERS)]
    if g.chance(0.5):
        args += ["COUNT", g.choice(["1", "2", "5", "0"])]
    if g.chance(0.2):
        args.append("NOACK")
    n = g.choice([1, 1, 2])
    keys = [skey(g) for _ in range(n)]
    ids = [g.choice([">", ">", ">", "0", sid(g)]) for _ in range(n)]
    return args + ["STREAMS"] + keys + ids


@generator("stream", "XREAD", weight=2)
def _xread(g):
    args = ["XREAD"]
    if g.chance(0.5):
        args += ["COUNT", g.choice(["1", "2", "5", "0"])]
    n = g.choice([1, 1, 2])
    keys = [skey(g) for _ in range(n)]
    ids = [g.choice(["$", "0", sid(g)]) for _ in range(n)]
    return args + ["STREAMS"] + keys + ids


@generator("stream", "XACK", weight=2)
def _xack(g):
    return ["XACK", skey(g), g.choice(GROUPS)] + [sid(g, strict=True)
                                                  for _ in range(g.randint(1, 3))]


def _mask_pending(reply):
    if isinstance(reply, list):
        return [[r[0], r[1], 0, r[3]] if isinstance(r, list) and len(r) == 4 else r
                for r in reply]
    return reply


@generator("stream", "XPENDING", weight=2)
def _xpending(g):
    args = ["XPENDING", skey(g), g.choice(GROUPS)]
    if g.chance(0.5):
        return args
    if g.chance(0.2):
        args += ["IDLE", "0"]
    args += [bound(g), bound(g), g.choice(["1", "5", "100", "-1"])]
    if g.chance(0.4):
        args.append(g.choice(CONSUMERS))
    return Cmd(*args, mode=("masked", _mask_pending))


@generator("stream", "XCLAIM", weight=2)
def _xclaim(g):
    args = ["XCLAIM", skey(g), g.choice(GROUPS), g.choice(CONSUMERS), g.choice(["0", "0", "1000000"])]
    args += [sid(g, strict=True) for _ in range(g.randint(1, 3))]
    for opt in g.sample(["FORCE", "JUSTID", "RETRYCOUNT", "LASTID", "IDLE"], g.randint(0, 2)):
        if opt == "RETRYCOUNT":
            args += ["RETRYCOUNT", g.choice(["0", "7"])]
        elif opt == "LASTID":
            args += ["LASTID", sid(g, strict=True)]
        elif opt == "IDLE":
            args += ["IDLE", "5000"]
        else:
            args.append(opt)
    return args


@generator("stream", "XAUTOCLAIM", weight=2)
def _xautoclaim(g):
    args = ["XAUTOCLAIM", skey(g), g.choice(GROUPS), g.choice(CONSUMERS),
            g.choice(["0", "0", "1000000", "-5"]), bound(g)]
    if g.chance(0.5):
        args += ["COUNT", g.choice(["1", "2", "10", "0"])]
    if g.chance(0.3):
        args.append("JUSTID")
    return args


def _mask_info(reply):
    """XINFO: blank radix-tree-nodes (rankd has no radix tree) and idle times."""
    if isinstance(reply, dict):
        reply = [x for kv in getattr(reply, "pairs", reply.items()) for x in kv]
    if not isinstance(reply, list):
        return reply
    out = []
    for i, x in enumerate(reply):
        if i > 0 and reply[i - 1] in (b"radix-tree-nodes", b"radix-tree-keys", b"idle",
                                      b"seen-time"):
            x = 0
        out.append(_mask_info(x))
    return out


@generator("stream", "XINFO", weight=1.5)
def _xinfo(g):
    sub = g.choice(["STREAM", "GROUPS", "CONSUMERS"])
    if sub == "CONSUMERS":
        return Cmd("XINFO", "CONSUMERS", skey(g), g.choice(GROUPS), mode=("masked", _mask_info))
    return Cmd("XINFO", sub, skey(g), mode=("masked", _mask_info))


@generator("stream", "XARITY", weight=0.3)
def _xarity(g):
    name = g.choice(sorted(STREAM_ARITY))
    return wrong_arity(g, name, STREAM_ARITY[name])
