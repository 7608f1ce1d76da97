"""Differential testing: the same seeded random command sequences go to the server under
test (rankd) and to a reference redis-server 7.0; the raw replies must be identical.

Pieces
------
* A registry of command *families*. A family has a probe command; when the server under
  test answers the probe with "ERR unknown command", the whole family is skipped (so the
  sorted-set generators can be written before the commands exist).
* *Generators*: small functions registered with @generator(family, name). Each gets a
  `Gen` context (seeded RNG, key and member pools, argument helpers) and returns the
  argument list of one command, a `Cmd` (to set a compare mode or validator), or a list
  of `Cmd`s (several steps, e.g. WATCH ... MULTI ... EXEC).
* *Compare modes*, chosen by the check name (the upper-case command, plus subcommand for
  OBJECT/CONFIG/...): "exact" (default: raw bytes identical), "sorted" (order
  unspecified: KEYS, SMEMBERS), "scan" (cursor-0 results compared as sorted sets),
  "sort-open" (SORT: exact on a list, else as "sorted"), ("approx", tol) for TTL-like
  integers, "randomkey" / "randmember" (shape and
  membership only), "ignore".
* tests/deliberate_differences.py: the one list of check names whose replies are not
  compared (optionally validated against the target's own state instead).

Adding a command later takes a few lines:

    @generator("zset", "ZCARD")
    def _zcard(g):
        return ["ZCARD", g.key("zset")]

A failure prints the seed, the protocol, the command index, both raw replies and the
commands that led there, so it replays exactly.
"""

import collections
import random

from deliberate_differences import DELIBERATE_DIFFERENCES
from resp_client import (NULL, BigNumber, Bool, Double, Map, Push, RespClient, RespError,
                         Set, SimpleString, Verbatim, encode_command, to_bytes)

# ---------------------------------------------------------------------------
# Scale: RANKD_DIFF_SCALE=N runs N times the seeds (a deeper local or nightly run);
# RANKD_DIFF_SEED_BASE=B shifts every seed by B (explore new sequences).

import os

SCALE = max(1, int(os.environ.get("RANKD_DIFF_SCALE", "1")))
SEED_BASE = int(os.environ.get("RANKD_DIFF_SEED_BASE", "0"))


def seeds(n):
    """The seeds of a test case list: n * RANKD_DIFF_SCALE, from RANKD_DIFF_SEED_BASE."""
    return range(SEED_BASE, SEED_BASE + n * SCALE)


# ---------------------------------------------------------------------------
# Registry

CONTAINER_COMMANDS = {"OBJECT", "CONFIG", "CLIENT", "COMMAND", "MEMORY", "DEBUG", "SCRIPT",
                      "SLOWLOG", "XINFO", "FUNCTION", "ACL", "CLUSTER"}

# Compare mode by check name; generators may override per command.
DEFAULT_MODES = {
    "KEYS": "sorted",
    "SMEMBERS": "sorted",
    "SINTER": "sorted", "SUNION": "sorted", "SDIFF": "sorted",
    "SCAN": "scan", "SSCAN": "scan", "ZSCAN": "scan", "HSCAN": "scan",
    "RANDOMKEY": "randomkey",
    "ZRANDMEMBER": "randmember", "SRANDMEMBER": "randmember",
    "TTL": ("approx", 2), "PTTL": ("approx", 2000),
    "EXPIRETIME": ("approx", 2), "PEXPIRETIME": ("approx", 2000),
    "OBJECT IDLETIME": "ignore", "OBJECT FREQ": "ignore", "MEMORY USAGE": "ignore",
    "HGETALL": "hash", "HKEYS": "hash", "HVALS": "hash",
    "HRANDFIELD": "randmember",
    "TIME": "ignore", "INFO": "ignore", "CLIENT ID": "ignore", "CLIENT LIST": "ignore",
    "CLIENT INFO": "ignore", "HELLO": "ignore",
}


class Family:
    def __init__(self, name, probe, doc=""):
        self.name = name
        self.probe = probe if callable(probe) else tuple(probe)
        self.doc = doc
        self.generators = []   # list of Generator

    def __repr__(self):
        return "<Family %s: %d generators>" % (self.name, len(self.generators))


class Generator:
    def __init__(self, family, name, fn, weight, tx):
        self.family = family
        self.name = name
        self.fn = fn
        self.weight = weight
        self.tx = tx           # may be queued inside MULTI (exact replies only)


FAMILIES = {}


def family(name, probe, doc=""):
    """Declares a family. `probe` is a command that answers anything except
    "ERR unknown command" on a server that implements the family, or a function
    fn(conn) -> bool."""
    if name not in FAMILIES:
        FAMILIES[name] = Family(name, probe, doc)
    return FAMILIES[name]


def generator(family_name, name=None, weight=1.0, tx=True):
    """Registers fn(g) -> args | Cmd | [Cmd, ...] in a family."""
    def deco(fn):
        fam = FAMILIES[family_name]
        fam.generators.append(Generator(fam, name or fn.__name__.strip("_").upper(), fn,
                                        weight, tx))
        return fn
    return deco


def check_name(args):
    name = to_bytes(args[0]).decode("utf-8", "replace").upper()
    if name in CONTAINER_COMMANDS and len(args) > 1:
        name += " " + to_bytes(args[1]).decode("utf-8", "replace").upper()
    return name


class Cmd:
    """One command to send to both servers.

    check:    name used for compare modes and deliberate differences
    mode:     compare mode (see module doc); None = DEFAULT_MODES or "exact"
    validate: fn(conn, reply) -> None | error string, run on the target's connection
              when the check is a deliberate difference (or for randmember modes)
    """
    __slots__ = ("args", "check", "mode", "validate")

    def __init__(self, *args, check=None, mode=None, validate=None):
        self.args = tuple(to_bytes(a) for a in args)
        self.check = check or check_name(self.args)
        self.mode = mode if mode is not None else DEFAULT_MODES.get(self.check, "exact")
        self.validate = validate

    def __repr__(self):
        return " ".join(_show_arg(a) for a in self.args)


def _show_arg(a):
    s = a.decode("utf-8", "backslashreplace")
    if not s or any(c in s for c in " \"'\\\r\n\t") or len(s) > 60:
        if len(s) > 60:
            s = s[:40] + "...(%d bytes)" % len(a)
        return '"%s"' % s.replace("\\", "\\\\").replace('"', '\\"').replace(
            "\r", "\\r").replace("\n", "\\n")
    return s


# ---------------------------------------------------------------------------
# Generation context

class Pools:
    """Key pools by kind. Keys of kind "lex" hold only equal-score sorted sets (Redis
    leaves lex ranges over mixed scores undefined), so values only flow lex -> lex."""

    def __init__(self, **kinds):
        self.kinds = {k: list(v) for k, v in kinds.items()}

    def all(self):
        out = []
        for v in self.kinds.values():
            out.extend(v)
        return out


class Gen:
    """What a generator sees: a seeded RNG and helpers for plausible arguments."""

    TTL_GRID_MS = 1_000_000   # relative TTLs are distinct multiples of 1000 s
    FAR_SECONDS = 4_000_000_000

    def __init__(self, rng, pools, members=None, scenario=None, families=None):
        self.rng = rng
        self.pools = pools
        self.members = members or {}
        self.scenario = scenario or {}
        self.families = families or {}
        self._used_ttls = set()
        self.tx_generators = []

    # -- randomness -----------------------------------------------------------
    def chance(self, p):
        return self.rng.random() < p

    def choice(self, seq):
        return self.rng.choice(list(seq))

    def randint(self, a, b):
        return self.rng.randint(a, b)

    def sample(self, seq, k):
        seq = list(seq)
        return self.rng.sample(seq, min(k, len(seq)))

    def shuffled(self, seq):
        seq = list(seq)
        self.rng.shuffle(seq)
        return seq

    # -- keys -----------------------------------------------------------------
    def key(self, *kinds):
        """A key of one of `kinds` (any kind when none is given). Now and then a key of
        another kind (type errors) or a missing key. Lex keys are only returned when
        "lex" is asked for (or no kind is given): writers that could store unequal
        scores must not pick them."""
        r = self.rng.random()
        if r < 0.04:
            return "missing:%d" % self.randint(1, 3)
        if not kinds:
            pool = self.pools.all()
        elif r < 0.12:
            pool = [k for kind, ks in self.pools.kinds.items()
                    if kind != "lex" or "lex" in kinds for k in ks]
        else:
            pool = [k for kind in kinds for k in self.pools.kinds.get(kind, ())]
        return self.choice(pool or self.pools.all())

    def keys(self, n, *kinds):
        return [self.key(*kinds) for _ in range(n)]

    def kind_of(self, key):
        for kind, ks in self.pools.kinds.items():
            if key in ks:
                return kind
        return None

    def dest_key(self, *src_keys):
        """A destination for data copied from src_keys: lex keys only receive data when
        every source is a lex key (so lex keys always hold equal scores)."""
        if src_keys and all(self.kind_of(k) == "lex" for k in src_keys) and self.chance(0.7):
            return self.key("lex")
        if self.chance(0.05):
            return "missing:%d" % self.randint(1, 3)
        pool = [k for kind, ks in self.pools.kinds.items() if kind != "lex" for k in ks]
        return self.choice(pool or ["dest"])

    def tx_command(self, tries=20):
        """One random single command that may be queued inside MULTI: exact compare
        mode, not a deliberate difference (EXEC's reply is compared byte for byte)."""
        for _ in range(tries):
            gen = self.choice(self.tx_generators)
            cmds = _as_cmds(gen.fn(self))
            if len(cmds) == 1 and cmds[0].mode == "exact" \
                    and cmds[0].check not in DELIBERATE_DIFFERENCES \
                    and cmds[0].check not in ("MULTI", "EXEC", "DISCARD", "WATCH"):
                return cmds[0]
        return Cmd("PING")

    def member(self, pool="small"):
        return self.choice(self.members.get(pool) or self.members.get("small") or ["m"])

    # -- values ----------------------------------------------------------------
    STRING_VALUES = ["0", "1", "-5", "10", "123", "007", "+1", " 1", "1.5", "-0", "3.0e3",
                     "abc", "", "hello world", "9223372036854775807",
                     "-9223372036854775808", "99999999999999999999", "x" * 44, "y" * 45,
                     "0x10", "\x00bin\r\n", "1e3"]

    def value(self):
        if self.chance(0.1):
            return str(self.randint(-1000, 1000))
        return self.choice(self.STRING_VALUES)

    INT_ARGS = ["0", "1", "-1", "2", "5", "10", "-10", "100", "9223372036854775807",
                "-9223372036854775808", "9223372036854775808", "1.5", "abc", "", " 1", "0x10"]

    def int_arg(self, p_weird=0.15):
        if self.chance(p_weird):
            return self.choice(self.INT_ARGS)
        return str(self.randint(-20, 20))

    FLOAT_ARGS = ["0", "1", "-1", "0.1", "0.2", "1.5", "-2.5", "1e3", "1E-2", "3.0e3",
                  ".5", "5.", "-0", "0x10", "1e308", "1e400", "1e-400", "5e-324", "inf",
                  "-inf", "+inf", "nan", "abc", "1.5x", " 1", "1 ", "", "10", "100",
                  "1.1", "3.3333333333333335", "123456789012345678"]

    def float_arg(self, p_weird=0.2):
        if self.chance(p_weird):
            return self.choice(self.FLOAT_ARGS)
        if self.chance(0.5):
            return str(self.randint(-10, 10))
        return self.choice(["0.5", "1.25", "-3.75", "2.5", "0.1", "7", "-1", "1e2"])

    # -- expiry ------------------------------------------------------------------
    def ttl_ms(self):
        """A relative TTL in ms, distinct within the sequence, a multiple of 1000 s, so
        GT/LT comparisons never depend on how many ms passed between two commands."""
        while True:
            v = self.randint(1, 10_000) * self.TTL_GRID_MS
            if v not in self._used_ttls:
                self._used_ttls.add(v)
                return v

    def ttl_s(self):
        return self.ttl_ms() // 1000

    def far_unix(self):
        """An absolute unix time (s) in the far future; distinct values."""
        return self.FAR_SECONDS + self.randint(0, 1_000_000) * 7

    def past_unix(self):
        return self.randint(1, 1_000_000)

    def cmd(self, *args, **kw):
        return Cmd(*args, **kw)


# ---------------------------------------------------------------------------
# Comparing replies

def canon(v):
    """A hashable, type-preserving form of a parsed reply."""
    if isinstance(v, RespError):
        return ("err", v.message)
    if isinstance(v, SimpleString):
        return ("simple", bytes(v))
    if isinstance(v, Verbatim):
        return ("verbatim", v.format, bytes(v))
    if isinstance(v, (bytes, bytearray)):
        return ("bulk", bytes(v))
    if isinstance(v, Bool):
        return ("bool", v.value)
    if isinstance(v, BigNumber):
        return ("bignum", int(v))
    if isinstance(v, Double):
        return ("double", bytes(v.raw))
    if isinstance(v, int):
        return ("int", v)
    if v is None:
        return ("nil",)
    if v is NULL:
        return ("null",)
    if isinstance(v, Map):
        return ("map", tuple((canon(k), canon(x)) for k, x in v.pairs))
    if isinstance(v, Set):
        return ("set", tuple(canon(x) for x in v))
    if isinstance(v, Push):
        return ("push", tuple(canon(x) for x in v))
    if isinstance(v, list):
        return ("array", tuple(canon(x) for x in v))
    return ("other", repr(v))


def skeleton(v):
    """The shape of a reply: types and lengths, no values."""
    c = canon(v)

    def strip(x):
        if x[0] in ("array", "set", "push"):
            return (x[0], tuple(strip(e) for e in x[1]))
        if x[0] == "map":
            return ("map", tuple((strip(k), strip(e)) for k, e in x[1]))
        if x[0] == "err":
            return x
        return (x[0],)
    return strip(c)


def _sorted_canon(v):
    c = canon(v)
    if c[0] in ("array", "set"):
        return (c[0], tuple(sorted(c[1], key=repr)))
    return c


def _pairs(seq):
    return [(seq[i], seq[i + 1]) for i in range(0, len(seq) - 1, 2)]


def _stale_errno_sort(cmd, raw_a, raw_b):
    """Whether redis-server refused a SORT that rankd answered with the conversion error
    Redis's stale errno can raise (see Runner._rerun_reference_with_errno_reset)."""
    return cmd.check in ("SORT", "SORT_RO") and not raw_a.startswith(b"-") and \
        raw_b.startswith(b"-ERR One or more scores can't be converted into double")


def compare(cmd, ra, raw_a, rb, raw_b, conn_a, conn_b):
    """Returns None when the replies agree under cmd.mode, else a reason string.
    a = server under test, b = reference."""
    mode = cmd.mode
    if cmd.check in DELIBERATE_DIFFERENCES:
        if cmd.validate is not None:
            problem = cmd.validate(conn_a, ra)
            if problem:
                return "deliberate difference %r: rankd's reply fails validation: %s" % (
                    cmd.check, problem)
        return None
    if raw_a == raw_b:
        return None
    if mode == "exact":
        return "replies differ"
    if mode == "ignore":
        return None
    if isinstance(ra, RespError) or isinstance(rb, RespError):
        return "replies differ (error)"
    if mode == "sorted":
        return None if _sorted_canon(ra) == _sorted_canon(rb) else "replies differ (sorted)"
    if mode == "sort-open":
        # A SORT whose order Redis leaves open when its source holds a set or a sorted
        # set (read in Redis's randomly seeded hash table order); a list's is exact.
        if conn_b.execute("TYPE", cmd.args[1]) == b"list":
            return "replies differ (SORT of a list)"
        return None if _sorted_canon(ra) == _sorted_canon(rb) else "replies differ (sorted)"
    if isinstance(mode, tuple) and mode[0] == "masked":
        # Replies with clock readings in them (idle times, delivery times): compared
        # after mode[1] blanks those out.
        return None if mode[1](ra) == mode[1](rb) else "replies differ (masked)"
    if isinstance(mode, tuple) and mode[0] == "approx":
        if isinstance(ra, int) and isinstance(rb, int) and type(ra) is type(rb):
            if ra == rb or (ra >= 0 and rb >= 0 and abs(ra - rb) <= mode[1]):
                return None
        return "replies differ (beyond tolerance %s)" % mode[1]
    if mode == "scan":
        if not (isinstance(ra, list) and isinstance(rb, list) and len(ra) == 2 and len(rb) == 2):
            return "scan replies differ in shape"
        if ra[0] != b"0" or rb[0] != b"0":
            return None  # a partial iteration: cursors and pages may legitimately differ
        ea, eb = ra[1], rb[1]
        if cmd.check in ("ZSCAN", "HSCAN"):
            ea, eb = _pairs(ea), _pairs(eb)
            ka = sorted((canon(m), canon(s)) for m, s in ea)
            kb = sorted((canon(m), canon(s)) for m, s in eb)
        else:
            ka = sorted(canon(x) for x in ea)
            kb = sorted(canon(x) for x in eb)
        return None if ka == kb else "scan results differ"
    if mode == "randomkey":
        if skeleton(ra) != skeleton(rb):
            return "RANDOMKEY reply shapes differ"
        if isinstance(ra, bytes):
            if conn_a.execute("EXISTS", ra) != 1:
                return "RANDOMKEY returned a key that does not exist: %r" % ra
        return None
    if mode == "randmember":
        if cmd.check == "HRANDFIELD":
            return _compare_hrandfield(cmd, ra, rb, conn_a)
        return _compare_randmember(cmd, ra, rb, conn_a)
    if mode == "hash":
        return _compare_hash(cmd, ra, rb, conn_b)
    return "replies differ (mode %r)" % (mode,)


def _compare_hash(cmd, ra, rb, conn_b):
    """HGETALL / HKEYS / HVALS: a listpack hash replies in insertion order on both
    servers (exact); a hashtable in each one's table order (compared as a multiset)."""
    if conn_b.execute("OBJECT", "ENCODING", cmd.args[1]) == b"listpack":
        return "replies differ (listpack hashes reply in insertion order)"
    if skeleton(ra) != skeleton(rb):
        return "reply shapes differ"
    if isinstance(ra, Map):
        ka = sorted((canon(k), canon(v)) for k, v in ra.pairs)
        kb = sorted((canon(k), canon(v)) for k, v in rb.pairs)
    elif cmd.check == "HGETALL":
        ka = sorted((canon(k), canon(v)) for k, v in _pairs(ra))
        kb = sorted((canon(k), canon(v)) for k, v in _pairs(rb))
    else:
        ka = sorted(canon(x) for x in ra)
        kb = sorted(canon(x) for x in rb)
    return None if ka == kb else "replies differ (as multisets)"


def _compare_hrandfield(cmd, ra, rb, conn_a):
    """HRANDFIELD: same shape; every field of the target's reply is in the target's hash
    (with its value when WITHVALUES)."""
    if skeleton(ra) != skeleton(rb):
        return "HRANDFIELD reply shapes differ"
    if ra is None or ra is NULL or not ra:
        return None
    if isinstance(ra, bytes):
        fields, values = [ra], None
    elif len(cmd.args) > 3:
        if isinstance(ra[0], list):
            fields, values = [p[0] for p in ra], [p[1] for p in ra]
        else:
            fields, values = ra[0::2], ra[1::2]
    else:
        fields, values = list(ra), None
    count = int(cmd.args[2]) if len(cmd.args) > 2 else 1
    if count > 0 and len(set(fields)) != len(fields):
        return "HRANDFIELD with a positive count returned duplicates"
    actual = conn_a.execute("HMGET", cmd.args[1], *fields)
    if any(v is None or v is NULL for v in actual):
        return "HRANDFIELD returned a missing field"
    if values is not None and list(values) != list(actual):
        return "HRANDFIELD values %r differ from HMGET %r" % (values, actual)
    return None


def _compare_randmember(cmd, ra, rb, conn_a):
    """ZRANDMEMBER/SRANDMEMBER: same shape; every member of the target's reply is in the
    target's set (with the right score)."""
    if skeleton(ra) != skeleton(rb):
        return "%s reply shapes differ" % cmd.check
    key = cmd.args[1]
    withscores = len(cmd.args) > 3 and cmd.args[3].upper() == b"WITHSCORES"
    is_z = cmd.check == "ZRANDMEMBER"
    if ra is None or ra is NULL:
        return None
    if isinstance(ra, bytes):
        members, scores = [ra], None
    elif withscores:
        if ra and isinstance(ra[0], list):     # RESP3 pairs
            members = [p[0] for p in ra]
            scores = [p[1] for p in ra]
        else:
            members, scores = ra[0::2], ra[1::2]
    else:
        members, scores = list(ra), None
    if not members:
        return None
    count = int(cmd.args[2]) if len(cmd.args) > 2 else 1
    if count > 0 and len(set(members)) != len(members):
        return "%s with a positive count returned duplicates" % cmd.check
    if is_z:
        actual = conn_a.execute("ZMSCORE", key, *members)
        if any(s is None or s is NULL for s in actual):
            return "ZRANDMEMBER returned a non-member"
        if scores is not None and [canon(s) for s in scores] != [canon(s) for s in actual]:
            return "ZRANDMEMBER scores %r differ from ZMSCORE %r" % (scores, actual)
    else:
        actual = conn_a.execute("SMISMEMBER", key, *members)
        if any(x != 1 for x in actual):
            return "SRANDMEMBER returned a non-member"
    return None


# ---------------------------------------------------------------------------
# Probing

def is_unknown_command(reply):
    return isinstance(reply, RespError) and reply.message.startswith("ERR unknown command")


def probe_families(server, names):
    """{family name: True/False} — False when the target says "unknown command" to the
    family's probe."""
    out = {}
    with RespClient(server.host, server.port) as c:
        for name in names:
            fam = FAMILIES[name]
            if callable(fam.probe):
                out[name] = bool(fam.probe(c))
            else:
                out[name] = not is_unknown_command(c.execute(*fam.probe))
        c.execute("FLUSHALL")
    return out


def require_families(status, own, mix=()):
    """The families one differential test runs, from probe_families' `status`: all of
    `own` (the test is skipped when the server under test lacks one of them), then those
    of `mix` the server has."""
    missing = [f for f in own if not status[f]]
    if missing:
        import pytest
        pytest.skip("not implemented by the server under test: %s" % ", ".join(missing))
    return list(own) + [f for f in mix if status[f]]


# ---------------------------------------------------------------------------
# Running a sequence

class Mismatch(AssertionError):
    pass


class Runner:
    """Runs one seeded sequence against target (a) and reference (b)."""

    def __init__(self, target, reference, families, pools, members=None, seed=0, proto=2,
                 length=300, setup=(), teardown=(), dbs=(0, 1, 2), scenario=None,
                 label="", family_weights=None):
        self.target = target
        self.reference = reference
        self.families = [FAMILIES[f] for f in families]
        self.pools = pools
        self.members = members or {}
        self.seed = seed
        self.proto = proto
        self.length = length
        self.setup = list(setup)
        self.teardown = list(teardown)
        self.dbs = dbs
        self.scenario = scenario or {}
        self.label = label
        self.family_weights = family_weights or {}
        self.history = collections.deque(maxlen=25)
        self.index = 0
        self.sent = 0
        self.skipped_deliberate = collections.Counter()
        self.stale_errno_reruns = 0

    # -- I/O ----------------------------------------------------------------------
    def _both(self, cmd):
        data = encode_command(*cmd.args)
        self.a.send_raw(data)
        self.b.send_raw(data)
        ra, raw_a = self.a.read_reply_raw(timeout=30)
        rb, raw_b = self.b.read_reply_raw(timeout=30)
        self.sent += 1
        return ra, raw_a, rb, raw_b

    def step(self, cmd, compare_replies=True):
        ra, raw_a, rb, raw_b = self._both(cmd)
        self.history.append((self.index, cmd, raw_a, raw_b))
        if not compare_replies:
            return ra, rb
        if cmd.check in DELIBERATE_DIFFERENCES:
            self.skipped_deliberate[cmd.check] += 1
        problem = compare(cmd, ra, raw_a, rb, raw_b, self.a, self.b)
        if problem and _stale_errno_sort(cmd, raw_a, raw_b):
            ra, rb, raw_b = self._rerun_reference_with_errno_reset(cmd, ra)
            problem = compare(cmd, ra, raw_a, rb, raw_b, self.a, self.b)
        if problem:
            self.fail(problem, cmd, raw_a, raw_b)
        return ra, rb

    def _rerun_reference_with_errno_reset(self, cmd, ra):
        """Redis 7.0's SORT tests errno after strtod without clearing it first: an ERANGE
        left by an earlier overflow (a weight of 1e400, ...) fails every numeric SORT
        after it until a failing system call overwrites errno; a new connection does
        (its accept loop ends in EAGAIN). The failed SORT changed nothing, so it runs
        again, on the same connection, once a throwaway connection has come and gone."""
        with RespClient(self.reference.host, self.reference.port) as c:
            c.execute("PING")
        self.b.send_raw(encode_command(*cmd.args))
        rb, raw_b = self.b.read_reply_raw(timeout=30)
        self.stale_errno_reruns += 1
        return ra, rb, raw_b

    def fail(self, problem, cmd, raw_a, raw_b):
        lines = ["differential mismatch: %s" % problem,
                 "  scenario=%s seed=%d proto=RESP%d command #%d (check %r, mode %r)"
                 % (self.label or "-", self.seed, self.proto, self.index, cmd.check, cmd.mode),
                 "  command:   %r" % (cmd,),
                 "  rankd:     %r" % (_clip(raw_a),),
                 "  redis 7.0: %r" % (_clip(raw_b),),
                 "  recent commands (index, command, rankd reply, redis reply):"]
        for i, c, xa, xb in list(self.history)[:-1][-20:]:
            same = "==" if xa == xb else "!="
            lines.append("    #%d %r -> %r %s %r" % (i, c, _clip(xa, 80), same, _clip(xb, 80)))
        raise Mismatch("\n".join(lines))

    # -- the sequence -------------------------------------------------------------
    def run(self):
        rng = random.Random(self.seed)
        g = Gen(rng, self.pools, self.members, self.scenario,
                {f.name: f for f in self.families})
        gens = [gen for f in self.families for gen in f.generators]
        if not gens:
            return self
        weights = [gen.weight * self.family_weights.get(gen.family.name, 1.0) for gen in gens]
        g.tx_generators = [gen for gen in gens if gen.tx]
        self.a = RespClient(self.target.host, self.target.port)
        self.b = RespClient(self.reference.host, self.reference.port)
        try:
            for c in (self.a, self.b):
                assert c.execute("FLUSHALL") == b"OK"
            if self.proto == 3:
                self.step(Cmd("HELLO", "3"), compare_replies=False)
            for args in self.setup:
                self.step(args if isinstance(args, Cmd) else Cmd(*args))
            for self.index in range(self.length):
                gen = rng.choices(gens, weights)[0]
                for cmd in _as_cmds(gen.fn(g)):
                    self.step(cmd)
            self.index = self.length
            self.compare_state()
        finally:
            try:
                for args in self.teardown:
                    for c in (self.a, self.b):
                        c.execute(*(args.args if isinstance(args, Cmd) else args))
            finally:
                self.a.close()
                self.b.close()
        return self

    def compare_state(self):
        """Whole-keyspace comparison at the end of a sequence."""
        self.step(Cmd("DISCARD"), compare_replies=False)   # leave any open MULTI
        self.step(Cmd("UNWATCH"), compare_replies=False)
        for db in self.dbs:
            self.step(Cmd("SELECT", db))
            ka, kb = self.step(Cmd("KEYS", "*"))
            for key in sorted(ka or []):
                t, _ = self.step(Cmd("TYPE", key))
                if t == b"string":
                    self.step(Cmd("GET", key))
                elif t == b"zset":
                    self.step(Cmd("ZRANGE", key, 0, -1, "WITHSCORES"))
                elif t == b"set":
                    self.step(Cmd("SMEMBERS", key))
                elif t == b"hash":
                    self.step(Cmd("HGETALL", key))
                elif t == b"list":
                    self.step(Cmd("LRANGE", key, 0, -1))
                self.step(Cmd("OBJECT", "ENCODING", key))
                self.step(Cmd("EXPIRETIME", key, check="EXPIRETIME"))


def _as_cmds(x):
    if isinstance(x, Cmd):
        return [x]
    if isinstance(x, (list, tuple)) and x and isinstance(x[0], Cmd):
        return list(x)
    return [Cmd(*x)]


def _clip(b, n=300):
    if b is None:
        return None
    return b if len(b) <= n else b[:n] + b"...(%d bytes)" % len(b)


def run_differential(target, reference, families, pools, seeds, protos=(2, 3), **kw):
    """Runs every (seed, proto) sequence; returns the runners (for statistics)."""
    runners = []
    for seed in seeds:
        for proto in protos:
            runners.append(Runner(target, reference, families, pools, seed=seed, proto=proto,
                                  **kw).run())
    return runners


def run_commands(target, reference, cmds, proto=2, label="fixed"):
    """Sends a fixed list of commands (argument lists or Cmd) to both servers on fresh
    connections, in order, and compares each reply under its compare mode. No FLUSHALL
    and no keyspace comparison: for error texts, introspection and pre-AUTH replies."""
    runner = Runner(target, reference, [], Pools(), proto=proto, length=0, label=label)
    runner.a = RespClient(target.host, target.port)
    runner.b = RespClient(reference.host, reference.port)
    try:
        if proto == 3:
            runner.step(Cmd("HELLO", "3"), compare_replies=False)
        for runner.index, c in enumerate(cmds):
            runner.step(c if isinstance(c, Cmd) else Cmd(*c))
    finally:
        runner.a.close()
        runner.b.close()
    return runner
