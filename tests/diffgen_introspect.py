"""Differential cases for error texts and introspection (issues 11 and 19): fixed command
lists sent to rankd and redis-server 7.0 in order (differential.run_commands), and random
generators for the "introspect" family (COMMAND GETKEYS / INFO / DOCS / LIST / COUNT).

A fixed list is the right tool where a random sequence would rarely hit the one argument
that matters (SELECT 2147483648) or where the state matters (before AUTH)."""

from differential import Cmd, family, generator

# Error texts that once differed from Redis 7.0 (issue 19). Needs a fresh server with no
# functions loaded.
ERROR_TEXT_CASES = [
    ["FCALL", "nofn", "-1"], ["FCALL", "nofn", "abc"], ["FCALL_RO", "nofn", "-1"],
    ["SELECT", "2147483648"], ["SELECT", "-2147483649"], ["SELECT", "9223372036854775808"],
    ["SELECT", "16"], ["SELECT", "-1"],
    ["FUNCTION", "LOAD", "#!lua name=\n"], ["FUNCTION", "LOAD", "#!lua name=\nreturn 1"],
    ["FUNCTION", "LOAD", "#!lua\n"], ["FUNCTION", "LOAD", "#!lua name=a name=b\n"],
    ["FUNCTION", "LOAD", "#!lua NAME=\n"], ["FUNCTION", "LOAD", "#!foo\n"],
    ["FUNCTION", "LOAD", "#!foo name=x\n"], ["FUNCTION", "LOAD", "#!lua name"],
    ["FUNCTION", "LOAD", "#!\n"], ["FUNCTION", "LOAD", "#! name=x\n"],
    ["FUNCTION", "LOAD", "#!lua name=x\n"],
    ["CLIENT", "LIST", "ID", "-1"], ["CLIENT", "LIST", "ID", "0", "99999"],
    ["CLIENT", "LIST", "ID", "abc"], ["CLIENT", "LIST", "ID"], ["CLIENT", "LIST", "foo"],
    ["CLIENT", "LIST", "TYPE", "normal", "x"], ["CLIENT", "LIST", "TYPE", "slave"],
    ["CLIENT", "LIST", "TYPE", "bogus"],
    ["SCAN", "-1"], ["SCAN", "18446744073709551615"], ["SCAN", "18446744073709551616"],
    ["SCAN", "abc"],
    ["EXEC", "x"], ["EXEC"], ["DISCARD"],
]

# Sent before AUTH to servers started with --requirepass pw.
NOAUTH_CASES = [
    ["GET", "a"], ["MULTI"], ["GET", "a"], ["EXEC"], ["EXEC"], ["EXEC", "x"],
    ["MONITOR"], ["SUBSCRIBE", "a"], ["PSUBSCRIBE", "a*"], ["PUBLISH", "a", "b"],
    ["ACL", "WHOAMI"], ["ACL", "LIST"], ["CLIENT", "PAUSE", "1"], ["CLIENT", "FOO"],
    ["FOOBAR"], ["GET"], ["PING"], ["HELLO", "3"],
    ["AUTH", "wrong"], ["AUTH", "pw"], ["EXEC", "x"], ["EXEC"], ["GET", "a"],
]

# COMMAND GETKEYS / GETKEYSANDFLAGS / INFO / DOCS / LIST / COUNT forms whose replies do not
# depend on the order of Redis's command table.
KEYS300 = ["k%d" % i for i in range(300)]
COMMAND_CASES = [
    ["COMMAND", "GETKEYS", "EVAL", "x", "9223372036854775807"],
    ["COMMAND", "GETKEYS", "EVAL", "x", "1", "a"], ["COMMAND", "GETKEYS", "EVAL", "x", "0"],
    ["COMMAND", "GETKEYS", "EVAL", "x", "-1"], ["COMMAND", "GETKEYS", "EVAL", "x", "2", "a"],
    ["COMMAND", "GETKEYS", "EVALSHA", "x", "2", "a", "b", "c"],
    ["COMMAND", "GETKEYS", "EVAL_RO", "x", "2", "a", "b", "c"],
    ["COMMAND", "GETKEYS", "EVALSHA_RO", "x", "1", "a", "b"],
    ["COMMAND", "GETKEYS", "FCALL", "f", "2", "a", "b", "c"],
    ["COMMAND", "GETKEYS", "FCALL_RO", "f", "1", "a", "b", "c"],
    ["COMMAND", "GETKEYS", "EVAL", "x", "abc", "a"],
    ["COMMAND", "GETKEYS", "EVAL", "x", "2abc", "a", "b"],
    ["COMMAND", "GETKEYS", "ZUNIONSTORE", "d", "2147483647", "a"],
    # numkeys near INT_MAX overflowed first + numkeys - 1 (UBSan); Redis casts to int
    ["COMMAND", "GETKEYS", "ZUNIONSTORE", "d", "2147483646", "a"],
    ["COMMAND", "GETKEYS", "ZUNIONSTORE", "d", "4294967297", "a"],
    ["COMMAND", "GETKEYS", "ZINTERCARD", "2147483647", "a"],
    ["COMMAND", "GETKEYS", "SINTERCARD", "4294967298", "a", "b"],
    ["COMMAND", "GETKEYS", "EVAL", "x", "2147483647", "a"],
    ["COMMAND", "GETKEYS", "LMPOP", "9223372036854775807", "a", "LEFT"],
    ["COMMAND", "GETKEYS", "ZUNIONSTORE", "d", "1", "a"],
    ["COMMAND", "GETKEYS", "ZUNIONSTORE", "d", "0", "a"],
    ["COMMAND", "GETKEYS", "ZUNIONSTORE", "d", "2", "a"],
    ["COMMAND", "GETKEYS", "ZUNIONSTORE", "d", "2", "a", "b", "WEIGHTS", "1", "2"],
    ["COMMAND", "GETKEYS", "ZINTERSTORE", "d", "2", "a", "b"],
    ["COMMAND", "GETKEYS", "ZDIFFSTORE", "d", "2", "a", "b"],
    ["COMMAND", "GETKEYS", "ZUNION", "2", "a", "b", "WITHSCORES"],
    ["COMMAND", "GETKEYS", "ZINTER", "2", "a", "b"], ["COMMAND", "GETKEYS", "ZDIFF", "3", "a", "b", "c"],
    ["COMMAND", "GETKEYS", "ZINTERCARD", "2", "a", "b", "LIMIT", "1"],
    ["COMMAND", "GETKEYS", "ZINTERCARD", "0", "a"],
    ["COMMAND", "GETKEYS", "ZMPOP", "2", "a", "b", "MIN", "COUNT", "2"],
    ["COMMAND", "GETKEYS", "ZMPOP", "3", "a", "b", "MIN"],
    ["COMMAND", "GETKEYS", "BZMPOP", "0", "2", "a", "b", "MIN"],
    ["COMMAND", "GETKEYS", "BZMPOP", "0", "x", "a", "b", "MIN"],
    ["COMMAND", "GETKEYS", "SINTERCARD", "2", "a", "b"],
    ["COMMAND", "GETKEYS", "SINTERCARD", "3", "a", "b"],
    ["COMMAND", "GETKEYS", "MSET", "a", "1", "b", "2"], ["COMMAND", "GETKEYS", "MSET", "a", "1", "b"],
    ["COMMAND", "GETKEYS", "MGET"] + KEYS300, ["COMMAND", "GETKEYS", "DEL"] + KEYS300,
    ["COMMAND", "GETKEYS", "ZUNIONSTORE", "d", "300"] + KEYS300,
    ["COMMAND", "GETKEYS", "EVAL", "x", "300"] + KEYS300 + ["arg"],
    ["COMMAND", "GETKEYSANDFLAGS", "MSET"] + [x for k in KEYS300 for x in (k, "v")],
    ["COMMAND", "GETKEYS", "BZPOPMIN", "a", "b", "0"],
    ["COMMAND", "GETKEYS", "SET", "a", "b"], ["COMMAND", "GETKEYS", "SET", "a", "b", "GET"],
    ["COMMAND", "GETKEYSANDFLAGS", "SET", "a", "b", "get"],
    ["COMMAND", "GETKEYSANDFLAGS", "SET", "a", "b", "EX", "10"],
    ["COMMAND", "GETKEYSANDFLAGS", "ZUNIONSTORE", "d", "2", "a", "b"],
    ["COMMAND", "GETKEYSANDFLAGS", "EVAL", "x", "2", "a", "b"],
    ["COMMAND", "GETKEYSANDFLAGS", "ZRANGESTORE", "d", "s", "0", "-1"],
    ["COMMAND", "GETKEYSANDFLAGS", "RENAME", "a", "b"],
    ["COMMAND", "GETKEYSANDFLAGS", "ZADD", "z", "1", "m"],
    ["COMMAND", "GETKEYSANDFLAGS", "BZMPOP", "0", "2", "a", "b", "MAX"],
    ["COMMAND", "GETKEYS", "OBJECT", "ENCODING", "k"], ["COMMAND", "GETKEYS", "OBJECT", "HELP"],
    ["COMMAND", "GETKEYS", "OBJECT"], ["COMMAND", "GETKEYS", "OBJECT", "FOO", "k"],
    ["COMMAND", "GETKEYS", "MEMORY", "USAGE", "k", "SAMPLES", "5"],
    ["COMMAND", "GETKEYS", "CLIENT", "LIST"], ["COMMAND", "GETKEYS", "PING"],
    ["COMMAND", "GETKEYS", "GET"], ["COMMAND", "GETKEYS", "GET", "a", "b"],
    ["COMMAND", "GETKEYS", "NOSUCH", "a"], ["COMMAND", "GETKEYS", "client|list"],
    ["COMMAND", "GETKEYS", "WATCH", "a", "b"], ["COMMAND", "GETKEYS", "COPY", "a", "b", "DB", "1"],
    ["COMMAND", "GETKEYS", "SMOVE", "a", "b", "m"], ["COMMAND", "GETKEYS", "SUBSTR", "a", "0", "1"],
    ["COMMAND", "GETKEYS"], ["COMMAND", "GETKEYS", "GET", "a"], ["COMMAND", "GETKEYSANDFLAGS"],
    ["COMMAND", "GETKEYSANDFLAGS", "GET"], ["COMMAND", "COUNT", "x"],
    # Facts only: EVAL's key-spec note and every DOCS summary are in rankd's own words
    # (test_differential_introspect.py compares the facts of those).
    ["COMMAND", "INFO", "nosuch", "get", "client|list", "ZADD", "bzmpop"],
    ["COMMAND", "DOCS", "nosuch"], ["COMMAND", "DOCS"] + ["nosuch%d" % i for i in range(3)],
    ["COMMAND", "LIST", "FILTERBY"], ["COMMAND", "LIST", "FILTERBY", "foo", "bar"],
    ["COMMAND", "LIST", "FILTERBY", "PATTERN"], ["COMMAND", "LIST", "FILTERBY", "MODULE", "foo"],
    ["COMMAND", "LIST", "x"], ["COMMAND", "LIST", "FILTERBY", "ACLCAT", "nosuch"],
    ["COMMAND", "LIST", "FILTERBY", "PATTERN", "zadd"],
    ["COMMAND", "LIST", "FILTERBY", "PATTERN", "client|l*"],
    ["COMMAND", "LIST", "FILTERBY", "pattern", "ZRANGEBYSCORE"],
    ["COMMAND", "HELP"], ["COMMAND", "HELP", "x"], ["COMMAND", "FOO"],
]

family("introspect", ("COMMAND", "COUNT"), "COMMAND GETKEYS / GETKEYSANDFLAGS")

MOVABLE = {  # command: (args before numkeys, args after the keys)
    "EVAL": (["return 1"], ["a1"]), "EVALSHA": (["x" * 40], []), "EVAL_RO": (["s"], []),
    "EVALSHA_RO": (["s"], []), "FCALL": (["f"], ["a"]), "FCALL_RO": (["f"], []),
    "ZUNIONSTORE": (["d"], ["AGGREGATE", "MAX"]), "ZINTERSTORE": (["d"], []),
    "ZDIFFSTORE": (["d"], []), "ZUNION": ([], ["WITHSCORES"]), "ZINTER": ([], []),
    "ZDIFF": ([], []), "ZINTERCARD": ([], ["LIMIT", "3"]), "ZMPOP": ([], ["MIN"]),
    "BZMPOP": (["0"], ["MAX", "COUNT", "2"]), "SINTERCARD": ([], []),
}


@generator("introspect", "COMMAND GETKEYS", weight=3)
def _getkeys(g):
    name = g.choice(sorted(MOVABLE))
    before, after = MOVABLE[name]
    nkeys = g.randint(0, 5)
    numkeys = g.choice([str(nkeys)] * 4 + [str(nkeys + 1), str(nkeys - 1), "abc", "-1",
                                           "2147483648", "9223372036854775807", ""])
    keys = ["key%d" % i for i in range(nkeys)]
    args = [name] + before + [numkeys] + keys + (after if g.chance(0.7) else [])
    sub = "GETKEYSANDFLAGS" if g.chance(0.3) else "GETKEYS"
    return Cmd("COMMAND", sub, *args, check="COMMAND " + sub)

# DEBUG subcommands test tools use; DIGEST follows Redis's algorithm, so equal datasets
# give equal digests. Needs an empty server with DEBUG enabled.
DEBUG_CASES = [
    ["DEBUG", "DIGEST"], ["ZADD", "z", "0.1", "a", "1.5", "b", "1e20", "c", "-0.0", "d", "3", "e"],
    ["SADD", "s", "1", "2", "3", "x"], ["SADD", "i", "5", "10", "-3"], ["SET", "str", "hello"],
    ["SET", "n", "12345"], ["SET", "e", "v", "EX", "100000"],
    ["ZADD", "big"] + [x for i in range(200) for x in (str(i / 7), "m%d" % i)],
    ["DEBUG", "DIGEST-VALUE", "z", "s", "i", "str", "n", "e", "big", "nokey"],
    ["DEBUG", "DIGEST"], ["DEBUG", "DIGEST-VALUE"], ["DEBUG", "OBJECT", "nokey"],
    ["DEBUG", "ERROR", "FOO bar"], ["DEBUG", "SET-ACTIVE-EXPIRE", "0"],
    ["DEBUG", "SET-ACTIVE-EXPIRE", "1"], ["DEBUG", "POPULATE", "3"],
    ["DEBUG", "POPULATE", "2", "p", "3"], ["DEBUG", "POPULATE", "2", "q", "20"],
    ["DEBUG", "POPULATE", "-1"], ["DEBUG", "POPULATE", "x"],
    ["MGET", "key:0", "key:2", "p:0", "q:1"], ["DEBUG", "DIGEST"], ["SELECT", "3"],
    ["SET", "k", "v"], ["DEBUG", "DIGEST"], ["SELECT", "0"],
    ["DEBUG", "LOG", "hello"], ["DEBUG", "CHANGE-REPL-ID"], ["DEBUG", "FOO"],
    ["DEBUG", "SLEEP", "0"], ["DEBUG", "SLEEP", "x"], ["DEBUG"],
    ["MULTI"], ["DEBUG", "DIGEST"], ["EXEC"],
]

# Config names Redis 7.0 has that rankd accepts without acting on them (Config::Compat),
# and the introspection knobs. Needs a fresh server (CONFIG SET changes it).
COMPAT_CONFIGS = [
    "active-expire-effort", "dynamic-hz", "activerehashing", "enable-module-command",
    "enable-protected-configs", "lfu-log-factor", "lfu-decay-time", "maxmemory-samples",
    "maxmemory-eviction-tenacity", "tcp-backlog", "supervised", "always-show-logo",
    "crash-log-enabled", "crash-memcheck-enabled", "io-threads", "io-threads-do-reads",
    "jemalloc-bg-thread", "disable-thp", "set-proc-title", "proc-title-template",
    "syslog-enabled", "syslog-ident", "syslog-facility", "oom-score-adj",
    "oom-score-adj-values", "ignore-warnings", "latency-monitor-threshold",
    "latency-tracking", "latency-tracking-info-percentiles",
]
CONFIG_CASES = [["CONFIG", "GET", name] for name in COMPAT_CONFIGS] + [
    ["CONFIG", "SET", "active-expire-effort", "11"], ["CONFIG", "SET", "active-expire-effort", "0"],
    ["CONFIG", "SET", "active-expire-effort", "5"], ["CONFIG", "SET", "tcp-backlog", "10"],
    ["CONFIG", "SET", "maxmemory-samples", "65"], ["CONFIG", "SET", "oom-score-adj", "foo"],
    ["CONFIG", "SET", "oom-score-adj", "yes"], ["CONFIG", "SET", "dynamic-hz", "maybe"],
    ["CONFIG", "SET", "lfu-decay-time", "-1"], ["CONFIG", "SET", "enable-debug-command", "yes"],
    ["CONFIG", "SET", "latency-tracking-info-percentiles", "50 99"],
    ["CONFIG", "GET", "latency-tracking-info-percentiles"],
    ["CONFIG", "SET", "latency-monitor-threshold", "-1"],
] + [["CONFIG", "GET", name] for name in COMPAT_CONFIGS]
