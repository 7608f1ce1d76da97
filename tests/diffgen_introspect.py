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
