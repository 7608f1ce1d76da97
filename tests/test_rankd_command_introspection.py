"""Introspection of the commands rankd adds to Redis 7.0 (issue 33): LB.*, member expiry
(Z*EXPIRE*, ZTTL ...), due pops (ZPOPDUE, BZPOPDUE) and Redis 7.4's hash field expiry.

The list of "rankd's own" commands is what COMMAND LIST has beyond redis-server 7.0's, so a
command added later without a sample invocation here fails the first test. For each one
COMMAND GETKEYS / GETKEYSANDFLAGS find the keys of a sample line, COMMAND INFO has flags,
ACL categories and key specs that agree, COMMAND DOCS has rankd's words, and ACL rules by
category and key pattern apply to it (ACL DRYRUN)."""

import pytest

from resp_client import RespClient, RespError
from server_process import target_is_redis

pytestmark = pytest.mark.skipif(target_is_redis(), reason="rankd's own commands")

NO_KEYS = "ERR The command has no key arguments"

# name: (sample line, the keys COMMAND GETKEYS finds, or NO_KEYS)
SAMPLES = {
    "lb.create": (["LB.CREATE", "b", "PERIOD", "DAILY", "RETAIN", "7"], ["b"]),
    "lb.alter": (["LB.ALTER", "b", "SNAPSHOT", "EVERY", "5"], ["b"]),
    "lb.add": (["LB.ADD", "b", "NX", "5", "a", "META", "x", "3", "c"], ["b"]),
    "lb.load": (["LB.LOAD", "b", "ORDER", "desc", "TIES", "first", "NEXTSEQ", "9",
                 "5", "a", "1", "1000"], ["b"]),
    "lb.rank": (["LB.RANK", "b", "a", "MODE", "DENSE"], ["b"]),
    "lb.top": (["LB.TOP", "b", "10", "OFFSET", "2", "WITHMETA"], ["b"]),
    "lb.range": (["LB.RANGE", "b", "1", "10"], ["b"]),
    "lb.around": (["LB.AROUND", "b", "a", "2"], ["b"]),
    "lb.ranks": (["LB.RANKS", "b", "a", "c"], ["b"]),
    "lb.percentile": (["LB.PERCENTILE", "b", "a"], ["b"]),
    "lb.rankfor": (["LB.RANKFOR", "b", "7"], ["b"]),
    "lb.scoreat": (["LB.SCOREAT", "b", "1"], ["b"]),
    "lb.info": (["LB.INFO", "b"], ["b"]),
    "lb.stamp": (["LB.STAMP", "b", "a"], ["b"]),
    "lb.watch": (["LB.WATCH", "b", "TOP", "5"], ["b"]),
    "lb.unwatch": (["LB.UNWATCH", "b"], NO_KEYS),  # its names are channels, as UNSUBSCRIBE's
    "lb.periods": (["LB.PERIODS", "b"], ["b"]),
    "lb.snapshot": (["LB.SNAPSHOT", "b"], ["b"]),
    "lb.roll": (["LB.ROLL", "b", "2026-01-02"], ["b"]),
    "lb.setmeta": (["LB.SETMETA", "b", "a", "x"], ["b"]),
    "lb.meta": (["LB.META", "b", "a", "c"], ["b"]),
    "zpopdue": (["ZPOPDUE", "q", "COUNT", "2"], ["q"]),
    "bzpopdue": (["BZPOPDUE", "q1", "q2", "0.01", "UNIT", "S"], ["q1", "q2"]),
}
for _cmd, _time in (("zexpire", "10"), ("zpexpire", "10000"), ("zexpireat", "4000000000"),
                    ("zpexpireat", "4000000000000")):
    SAMPLES[_cmd] = ([_cmd.upper(), "z", _time, "GT", "MEMBERS", "2", "m", "n"], ["z"])
    _h = "h" + _cmd[1:]
    SAMPLES[_h] = ([_h.upper(), "h", _time, "NX", "FIELDS", "1", "f"], ["h"])
for _cmd in ("zttl", "zpttl", "zexpiretime", "zpexpiretime", "zpersist"):
    SAMPLES[_cmd] = ([_cmd.upper(), "z", "MEMBERS", "1", "m"], ["z"])
    _h = "h" + _cmd[1:]
    SAMPLES[_h] = ([_h.upper(), "h", "FIELDS", "1", "f"], ["h"])

# The category each family's commands are found by (Redis 7.4 puts H*EXPIRE in @hash).
GROUP_CATEGORY = {"sorted-set": "sortedset", "hash": "hash"}


@pytest.fixture(scope="module")
def own(server, redis_ref):
    a = RespClient(server.host, server.port)
    b = RespClient(redis_ref.host, redis_ref.port)
    redis_names = set(b.execute("COMMAND", "LIST"))
    names = sorted(n.decode() for n in a.execute("COMMAND", "LIST") if n not in redis_names)
    b.close()
    yield a, names
    a.close()


def _info(c, name):
    entry = c.execute("COMMAND", "INFO", name)[0]
    return {"arity": entry[1], "flags": [f.decode() for f in entry[2]],
            "first": entry[3], "last": entry[4], "step": entry[5],
            "categories": [x.decode() for x in entry[6]], "key_specs": entry[8]}


def _docs(c, name):
    fields = c.execute("COMMAND", "DOCS", name)[1]
    return {k.decode(): v for k, v in zip(fields[::2], fields[1::2])}


def test_every_own_command_has_a_sample(own):
    _, names = own
    assert "zpopdue" in names and "lb.add" in names and "hexpire" in names
    assert sorted(SAMPLES) == names


def test_getkeys_finds_the_keys_of_each_sample(own):
    c, names = own
    for name in names:
        line, want = SAMPLES[name]
        got = c.execute("COMMAND", "GETKEYS", *line)
        if want == NO_KEYS:
            assert got == RespError(NO_KEYS), name
            continue
        assert got == [k.encode() for k in want], (name, got)
        flagged = c.execute("COMMAND", "GETKEYSANDFLAGS", *line)
        assert [k for k, _ in flagged] == got, name
        info = _info(c, name)
        for _, flags in flagged:
            flags = {f.decode() for f in flags}
            if "write" in info["flags"]:
                assert flags & {"RW", "OW", "RM"}, (name, flags)
            else:
                assert "RO" in flags and "access" in flags, (name, flags)


def test_info_and_docs_describe_each_command(own):
    c, names = own
    all_categories = {x.decode() for x in c.execute("ACL", "CAT")}
    for name in names:
        info, docs = _info(c, name), _docs(c, name)
        assert set(info["flags"]) & {"write", "readonly", "pubsub"}, name
        cats = info["categories"]
        assert cats and all(x.startswith("@") and x[1:] in all_categories for x in cats), \
            (name, cats)
        assert "@" + GROUP_CATEGORY[docs["group"].decode()] in cats, name
        assert ("@write" in cats) == ("write" in info["flags"]), name
        assert ("@fast" in cats) == ("fast" in info["flags"]), name
        assert ("@slow" in cats) != ("@fast" in cats), name
        if SAMPLES[name][1] != NO_KEYS:
            assert info["key_specs"] and info["first"] == 1 and info["step"] == 1, name
        summary = docs["summary"].decode()
        assert summary.endswith(".") and len(summary) > 20, name
        assert docs["since"] and docs["complexity"] and docs["arguments"], name


def test_hash_field_expiry_has_redis_7_4_facts(own):
    c, _ = own
    for name in ("hexpire", "hpexpire", "hexpireat", "hpexpireat"):
        info = _info(c, name)
        assert (info["arity"], info["flags"], info["categories"]) == \
            (-6, ["write", "denyoom", "fast"], ["@write", "@hash", "@fast"]), name
        assert _docs(c, name)["since"] == b"7.4.0"
    for name in ("httl", "hpttl", "hexpiretime", "hpexpiretime"):
        info = _info(c, name)
        assert (info["arity"], info["flags"], info["categories"]) == \
            (-5, ["readonly", "fast"], ["@read", "@hash", "@fast"]), name
    info = _info(c, "hpersist")
    assert (info["arity"], info["flags"], info["categories"]) == \
        (-5, ["write", "fast"], ["@write", "@hash", "@fast"])
    # The FIELDS block as 7.4 documents it: HEXPIRE key seconds [NX|XX|GT|LT] FIELDS ...
    args = _docs(c, "hexpire")["arguments"]
    fields = dict(zip(args[-1][::2], args[-1][1::2]))
    assert fields[b"token"] == b"FIELDS" and fields[b"type"] == b"block"


def test_acl_categories_and_key_patterns_apply(own):
    c, names = own
    try:
        for name in names:
            line, want = SAMPLES[name]
            group = GROUP_CATEGORY[_docs(c, name)["group"].decode()]
            c.execute("ACL", "SETUSER", "cat", "reset", "on", "nopass", "~*", "&*",
                      "+@" + group)
            assert c.execute("ACL", "DRYRUN", "cat", *line) == b"OK", name
            c.execute("ACL", "SETUSER", "nocat", "reset", "on", "nopass", "~*", "&*",
                      "+@all", "-@" + group)
            denied = c.execute("ACL", "DRYRUN", "nocat", *line)
            assert b"no permissions to run" in denied, (name, denied)
            if want == NO_KEYS:
                continue
            c.execute("ACL", "SETUSER", "keys", "reset", "on", "nopass", "+@all",
                      "~" + want[0], "&*")
            allowed = c.execute("ACL", "DRYRUN", "keys", *line)
            if len(want) == 1:
                assert allowed == b"OK", (name, allowed)
            else:  # BZPOPDUE q1 q2: the second key is refused
                assert allowed == ("This user has no permissions to access the '%s' key"
                                   % want[1]).encode(), name
        assert c.execute("ACL", "SETUSER", "cat", "reset", "on", "nopass", "~*",
                         "+@sortedset") == b"OK"
        assert c.execute("ACL", "DRYRUN", "cat", "ZEXPIRE", "z", "1", "MEMBERS", "1",
                         "m") == b"OK"
        assert b"no permissions" in c.execute("ACL", "DRYRUN", "cat", "HEXPIRE", "h", "1",
                                              "FIELDS", "1", "f")
    finally:
        for user in ("cat", "nocat", "keys"):
            c.execute("ACL", "DELUSER", user)


def test_samples_are_commands_rankd_accepts(own, server):
    """The sample lines are real: none is refused for its arity or syntax."""
    c, names = own
    with server.raw() as w:
        w.execute("FLUSHALL")
        w.execute("LB.CREATE", "b")
        w.execute("ZADD", "z", "1", "m", "2", "n")
        w.execute("HSET", "h", "f", "v")
        for name in names:
            if name in ("lb.watch", "lb.unwatch", "lb.create", "lb.load"):
                continue  # a subscribed context, or a board already there
            reply = w.execute(*SAMPLES[name][0])
            if isinstance(reply, RespError):
                assert not any(s in reply.message for s in
                               ("syntax", "wrong number", "unknown command")), (name, reply)
        w.execute("FLUSHALL")
        for name in ("lb.create", "lb.load"):
            assert not isinstance(w.execute(*SAMPLES[name][0]), RespError), name
