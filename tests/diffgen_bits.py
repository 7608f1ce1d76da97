"""Differential generators for bitmaps and string ranges (issue 15).

Families (each skipped while the server under test answers its probe with
"ERR unknown command"):
  bits      SETBIT GETBIT BITCOUNT (BYTE|BIT) BITPOS BITOP, and binary SETs to give them
            interesting bytes
  bitfield  BITFIELD (GET SET INCRBY OVERFLOW WRAP|SAT|FAIL, "#n" offsets) BITFIELD_RO
  ranges    SETRANGE GETRANGE SUBSTR GETSET
  lcs       LCS (LEN IDX MINMATCHLEN WITHMATCHLEN)

Offsets that are valid stay below a few hundred bits: a valid offset near the 512 MB limit
would make both servers allocate that much. Offsets past the limit are used (errors)."""

from differential import Cmd, family, generator
from diffgen_foundation import wrong_arity

family("bits", ("GETBIT", "__probe__", "0"))
family("bitfield", ("BITFIELD_RO", "__probe__"))
family("ranges", ("GETRANGE", "__probe__", "0", "1"))
family("lcs", ("LCS", "__probe__", "__probe2__"))

BITS_FAMILIES = ["bits", "bitfield", "ranges", "lcs"]

BITS_ARITY = {"SETBIT": 4, "GETBIT": 3, "BITCOUNT": -2, "BITPOS": -3, "BITOP": -4,
              "BITFIELD": -2, "BITFIELD_RO": -2, "SETRANGE": 4, "GETRANGE": 4,
              "SUBSTR": 4, "GETSET": 3, "LCS": -3}

BAD_OFFSETS = ["-1", "abc", "1.5", "", "4294967296", "9223372036854775807", "+1", "0x10"]
INDEXES_WEIRD = ["a", "1.5", "", "9223372036854775807", "-9223372036854775808",
                 "9223372036854775808", "-0"]
BYTES = [b"\x00", b"\xff", b"\x0f", b"\xf0", b"\x80", b"\x01", b"\xaa", b"a", b"7"]


def bkey(g):
    return g.key("str")


def offset(g, limit=200):
    if g.chance(0.06):
        return g.choice(BAD_OFFSETS)
    return str(g.randint(0, limit))


def index(g, span=12):
    if g.chance(0.06):
        return g.choice(INDEXES_WEIRD)
    return str(g.randint(-span, span))


def unit(g):
    r = g.rng.random()
    if r < 0.4:
        return []
    if r < 0.95:
        return [g.choice(["BYTE", "BIT", "bit", "byte"])]
    return [g.choice(["FOO", "BITS", ""])]


def maybe_arity(g, name):
    if g.chance(0.03):
        return Cmd(*wrong_arity(g, name, BITS_ARITY[name]))
    return None


# ---------------------------------------------------------------------------
# bits

@generator("bits", "SETBYTES", weight=1.5)
def _setbytes(g):
    value = b"".join(g.choice(BYTES) for _ in range(g.randint(0, 12)))
    return ["SET", bkey(g), value]


@generator("bits", "SETBIT", weight=3)
def _setbit(g):
    bit = g.choice(["0", "1"]) if g.chance(0.95) else g.choice(["2", "-1", "x", "1.0", ""])
    return maybe_arity(g, "SETBIT") or ["SETBIT", bkey(g), offset(g), bit]


@generator("bits", "GETBIT", weight=2)
def _getbit(g):
    off = offset(g) if g.chance(0.9) else g.choice(["4294967295", "1000000"])
    return maybe_arity(g, "GETBIT") or ["GETBIT", bkey(g), off]


@generator("bits", "BITCOUNT", weight=2)
def _bitcount(g):
    args = ["BITCOUNT", bkey(g)]
    r = g.rng.random()
    if r < 0.75:
        args += [index(g), index(g)] + unit(g)
    elif r < 0.85:
        args += [index(g)]
    elif r < 0.9:
        args += [index(g), index(g), "BIT", "x"]
    return maybe_arity(g, "BITCOUNT") or args


@generator("bits", "BITPOS", weight=3)
def _bitpos(g):
    bit = g.choice(["0", "1"]) if g.chance(0.93) else g.choice(["2", "-1", "x", ""])
    args = ["BITPOS", bkey(g), bit]
    n = g.choice([0, 1, 2, 3, 3, 4])
    if n >= 1:
        args.append(index(g))
    if n >= 2:
        args.append(index(g))
    if n >= 3:
        args += unit(g) or ["BYTE"]
    if n >= 4:
        args.append("x")
    return maybe_arity(g, "BITPOS") or args


@generator("bits", "BITOP", weight=2)
def _bitop(g):
    op = g.choice(["AND", "OR", "XOR", "NOT", "and", "or", "xor", "not"])
    if g.chance(0.04):
        op = g.choice(["FOO", "NAND", ""])
    n = 1 if op.upper() == "NOT" and g.chance(0.9) else g.randint(1, 4)
    return maybe_arity(g, "BITOP") or ["BITOP", op, bkey(g)] + g.keys(n, "str")


# ---------------------------------------------------------------------------
# bitfield

FIELD_TYPES_WEIRD = ["u64", "i65", "i0", "u0", "I8", "x8", "", "i08", "u-1", "i"]


def field_type(g):
    if g.chance(0.05):
        return g.choice(FIELD_TYPES_WEIRD)
    sign = g.choice(["i", "u"])
    widths = [1, 2, 3, 4, 5, 7, 8, 8, 8, 13, 16, 16, 31, 32, 63] + ([64] if sign == "i" else [])
    bits = g.choice(widths)
    return "%s%d" % (sign, bits)


def field_offset(g):
    if g.chance(0.25):
        return "#%d" % g.randint(0, 20)
    if g.chance(0.04):
        return g.choice(BAD_OFFSETS + ["#-1", "#", "#536870912", "#x"])
    return str(g.randint(0, 160))


def field_value(g):
    if g.chance(0.2):
        return g.choice(["9223372036854775807", "-9223372036854775808", "255", "256", "-129",
                         "127", "128", "-1", "x", "1.5", "", "18446744073709551615"])
    return str(g.randint(-300, 300))


def field_ops(g, write=True):
    ops = []
    for _ in range(g.randint(0, 5)):
        r = g.rng.random()
        if r < 0.15:
            ops += ["OVERFLOW", g.choice(["WRAP", "SAT", "FAIL", "wrap", "sat", "fail"])
                    if g.chance(0.95) else "FOO"]
        elif r < 0.45 or not write:
            ops += [g.choice(["GET", "get"]), field_type(g), field_offset(g)]
        else:
            ops += [g.choice(["SET", "INCRBY", "incrby", "set"]), field_type(g),
                    field_offset(g), field_value(g)]
    if g.chance(0.04):
        ops += g.choice([["GET", "u8"], ["SET", "u8", "0"], ["FOO"], ["OVERFLOW"]])
    return ops


@generator("bitfield", "BITFIELD", weight=3)
def _bitfield(g):
    return maybe_arity(g, "BITFIELD") or ["BITFIELD", bkey(g)] + field_ops(g)


@generator("bitfield", "BITFIELD_RO")
def _bitfield_ro(g):
    return maybe_arity(g, "BITFIELD_RO") or \
        ["BITFIELD_RO", bkey(g)] + field_ops(g, write=g.chance(0.1))


# ---------------------------------------------------------------------------
# ranges

@generator("ranges", "SETRANGE", weight=2)
def _setrange(g):
    off = str(g.randint(0, 30)) if g.chance(0.9) else g.choice(
        ["-1", "abc", "536870912", "536870911", "9223372036854775807", "1.5"])
    value = g.value() if g.chance(0.85) else ""
    if off == "536870911" and value:
        value = "xy"  # one byte past the limit: an error, nothing allocated
    return maybe_arity(g, "SETRANGE") or ["SETRANGE", bkey(g), off, value]


@generator("ranges", "GETRANGE", weight=2)
def _getrange(g):
    name = g.choice(["GETRANGE", "GETRANGE", "SUBSTR"])
    return maybe_arity(g, name) or [name, bkey(g), index(g, 50), index(g, 50)]


@generator("ranges", "GETSET")
def _getset(g):
    return maybe_arity(g, "GETSET") or ["GETSET", bkey(g), g.value()]


# ---------------------------------------------------------------------------
# lcs

@generator("lcs", "LCS", weight=2)
def _lcs(g):
    args = ["LCS", bkey(g), bkey(g)]
    opts = []
    if g.chance(0.4):
        opts.append(["IDX"])
    if g.chance(0.25):
        opts.append(["LEN"])
    if g.chance(0.3):
        opts.append(["MINMATCHLEN", g.choice(["0", "1", "2", "3", "-1", "x", "100"])])
    if g.chance(0.3):
        opts.append(["WITHMATCHLEN"])
    if g.chance(0.04):
        opts.append([g.choice(["FOO", "MINMATCHLEN"])])
    for o in g.shuffled(opts):
        args += o
    return maybe_arity(g, "LCS") or args
