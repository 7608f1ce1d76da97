"""Differential generators for HyperLogLog (issue 31).

Family "hll" (skipped while the server under test answers PFCOUNT with "ERR unknown
command"): PFADD (single elements to batches large enough to cross the sparse -> dense
promotion), PFCOUNT of one and several keys, PFMERGE, PFDEBUG ENCODING / DECODE / TODENSE,
GET (the stored bytes, cached count included), hll-sparse-max-bytes changes, and a few
corruptions (SETRANGE, APPEND, SET of a non-HLL string) so the error paths are compared
too. Keys of kind "hll" hold HLLs; other kinds give type errors."""

from differential import Cmd, family, generator
from diffgen_foundation import wrong_arity

family("hll", ("PFCOUNT", "__probe__"))

HLL_ARITY = {"PFADD": -2, "PFCOUNT": -2, "PFMERGE": -2, "PFDEBUG": 3}


def hkey(g):
    return g.key("hll")


def element(g):
    # A small pool (repeats: PFADD answering 0) and a large one (new registers).
    if g.chance(0.4):
        return "m%d" % g.randint(0, 40)
    return "e%d" % g.randint(0, 10 ** 7)


def maybe_arity(g, name):
    if g.chance(0.02):
        return Cmd(*wrong_arity(g, name, HLL_ARITY[name]))
    return None


@generator("hll", "PFADD", weight=6)
def _pfadd(g):
    n = g.choice([0, 1, 1, 2, 5, 20, 100, 400])
    return maybe_arity(g, "PFADD") or ["PFADD", hkey(g)] + [element(g) for _ in range(n)]


@generator("hll", "PFCOUNT", weight=4)
def _pfcount(g):
    keys = [hkey(g) for _ in range(g.choice([1, 1, 1, 2, 3]))]
    return maybe_arity(g, "PFCOUNT") or ["PFCOUNT"] + keys


@generator("hll", "PFMERGE", weight=2)
def _pfmerge(g):
    keys = [hkey(g) for _ in range(g.choice([0, 1, 2, 3]))]
    return maybe_arity(g, "PFMERGE") or ["PFMERGE", hkey(g)] + keys


@generator("hll", "PFDEBUG", weight=1.5)
def _pfdebug(g):
    sub = g.choice(["ENCODING", "DECODE", "TODENSE", "encoding", "decode", "FOO"])
    return maybe_arity(g, "PFDEBUG") or ["PFDEBUG", sub, hkey(g)]


@generator("hll", "GETHLL", weight=3)
def _get(g):
    return ["GET", hkey(g)]


@generator("hll", "SPARSEMAX", weight=0.3, tx=False)
def _sparse_max(g):
    return ["CONFIG", "SET", "hll-sparse-max-bytes", g.choice(["0", "50", "300", "3000", "3000",
                                                              "10000"])]


@generator("hll", "CORRUPT", weight=0.4)
def _corrupt(g):
    r = g.rng.random()
    key = hkey(g)
    if r < 0.5:
        # Within the header or the first opcodes: both servers see the same bytes.
        return ["SETRANGE", key, str(g.randint(0, 24)), bytes([g.randint(0, 255)])]
    if r < 0.7:
        return ["APPEND", key, g.choice([b"\x00", b"\x7f", b"\xff", b"hello"])]
    return ["SET", key, g.choice([b"HYLL", b"HYLL\x01" + b"\x00" * 11 + b"\x7f\xff", b"abc",
                                  b"HYLL\x00" + b"\x00" * 11])]
