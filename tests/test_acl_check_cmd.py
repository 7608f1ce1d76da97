"""redis.acl_check_cmd as Redis 7.0: it judges a command line by the calling user's ACL
rules exactly as the dispatcher would (command, subcommand, first argument, keys with
read/write access, channels, selectors), without running it or writing ACL LOG.

Each case runs the same script as several users on rankd and redis-server and compares
the replies (1, nil, or the error raised for an unknown command or bad arguments).
"""

import pytest

from resp_client import RespClient, RespError

USERS = {
    "u": ["on", ">pw", "~app:*", "+@all", "-debug"],
    "r": ["on", ">pw", "%R~app:*", "+@all"],
    "w": ["on", ">pw", "%W~app:*", "+@all"],
    "s": ["on", ">pw", "~app:*", "&chan*", "-@all", "+eval", "+get", "+publish",
          "(+set ~secret:*)", "(+zunionstore %R~in:* %W~out:*)"],
    "c": ["on", ">pw", "~*", "&*", "+@all", "-config|set", "-client", "+client|id",
          "-select", "+select|0"],
}

CHECKS = [
    ("GET", "secret:1"),
    ("GET", "app:1"),
    ("get", "APP:1"),
    ("DEBUG", "SLEEP", "0"),
    ("ZUNIONSTORE", "app:d", "2", "app:a", "secret:z"),
    ("ZUNIONSTORE", "app:d", "2", "app:a", "app:z"),
    ("ZUNIONSTORE", "out:d", "2", "in:a", "in:b"),
    ("ZUNIONSTORE", "in:d", "2", "in:a", "in:b"),
    ("ZUNIONSTORE", "out:d", "2", "in:a", "out:b"),
    ("SET", "app:x", "1"),
    ("SET", "secret:x", "1"),
    ("SET", "app:x", "1", "GET"),
    ("COPY", "app:a", "app:b"),
    ("LMOVE", "app:a", "secret:b", "LEFT", "RIGHT"),
    ("PUBLISH", "x", "1"),
    ("PUBLISH", "chanx", "1"),
    ("CONFIG", "GET", "port"),
    ("CONFIG", "SET", "port", "1"),
    ("CLIENT", "ID"),
    ("CLIENT", "KILL", "ID", "1"),
    ("SELECT", "0"),
    ("SELECT", "1"),
    ("AUTH", "a"),
    ("PING",),
    ("GET", "a", "b"),
    ("GET",),
    ("SET", "secret:x"),
    ("SORT",),
    ("CONFIG",),
    ("MIGRATE", "h", "1", "", "0", "5", "KEYS", "app:a", "secret:b"),
    ("EVAL", "return 1", "1", "secret:k"),
    ("nosuch",),
    ("CONFIG", "nosuch"),
    (),
]


def lua_args(check):
    return ", ".join("'%s'" % a for a in check)


@pytest.fixture
def users(server, redis_ref):
    admins = [server.raw(), redis_ref.raw()]
    for c in admins:
        for name, rules in USERS.items():
            c.execute("ACL", "DELUSER", name)
            assert c.execute("ACL", "SETUSER", name, *rules) == b"OK"
        c.execute("ACL", "LOG", "RESET")
    yield admins
    for c in admins:
        for name in USERS:
            c.execute("ACL", "DELUSER", name)
        c.close()


def login(port, user):
    c = RespClient("127.0.0.1", port)
    if user != "default":
        assert c.execute("AUTH", user, "pw") == b"OK"
    return c


@pytest.mark.parametrize("user", ["u", "r", "w", "s", "c", "default"])
def test_acl_check_cmd_matches_redis(users, user):
    conns = [login(a.port, user) for a in users]
    for check in CHECKS:
        script = "return redis.acl_check_cmd(%s)" % lua_args(check)
        got = [c.execute("EVAL", script, "0") for c in conns]
        assert got[0] == got[1], (user, check, got)
    for c in conns:
        c.close()
    # Asking is not trying: nothing was logged.
    assert [len(a.execute("ACL", "LOG")) for a in users] == [0, 0]


def test_acl_check_cmd_from_issue_denies(users):
    """The cases of the report: each must be refused where the real call is."""
    for admin in users:
        c = login(admin.port, "u")
        for check in [("GET", "secret:1"), ("DEBUG", "SLEEP", "0"),
                      ("ZUNIONSTORE", "app:d", "2", "app:a", "secret:z")]:
            assert c.execute("EVAL", "return redis.acl_check_cmd(%s)" % lua_args(check),
                             "0") is None, check
        c.close()
        c = login(admin.port, "r")
        assert c.execute("EVAL", "return redis.acl_check_cmd('SET', 'app:x', '1')", "0") is None
        assert c.execute("EVAL", "return redis.acl_check_cmd('GET', 'app:x')", "0") == 1
        c.close()


def test_acl_check_cmd_agrees_with_the_call(users):
    """What acl_check_cmd answers is what redis.call then does, on rankd."""
    rankd = login(users[0].port, "s")
    for check in [("GET", "app:1"), ("GET", "secret:1"), ("SET", "secret:1", "v"),
                  ("SET", "app:1", "v"), ("PUBLISH", "chan1", "m"), ("PUBLISH", "x", "m")]:
        allowed = rankd.execute("EVAL", "return redis.acl_check_cmd(%s)" % lua_args(check), "0")
        ran = rankd.execute("EVAL", "return redis.pcall(%s)" % lua_args(check), "0")
        refused = isinstance(ran, RespError) and "user executing the script" in ran.message
        assert (allowed == 1) == (not refused), (check, allowed, ran)
    rankd.close()
