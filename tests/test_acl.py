"""ACL as Redis 7.0: users, rules, categories, key patterns, AUTH user pass, HELLO AUTH,
NOPERM errors, ACL LOG, ACL DRYRUN, aclfile and `user` config lines.

Every reply is compared with redis-server 7.0 (`redis_ref`) where Redis's answer is
deterministic; ACL LIST / GETUSER command rules are compared as sets of words, since
Redis prints expanded command lists in hash order.
"""

import os

import pytest

from resp_client import RespClient
from server_process import REDIS_SERVER_BIN, ServerProcess, target_is_redis
from util import err


def clients(server, redis_ref):
    return [server.raw(), redis_ref.raw()]


@pytest.fixture
def pair(server, redis_ref):
    cs = clients(server, redis_ref)
    for c in cs:
        c.execute("FLUSHALL")
        for name in c.execute("ACL", "USERS"):
            if name != b"default":
                c.execute("ACL", "DELUSER", name)
        c.execute("ACL", "LOG", "RESET")
    yield cs
    for c in cs:
        for name in c.execute("ACL", "USERS"):
            if name != b"default":
                c.execute("ACL", "DELUSER", name)
        c.close()


def run_both(cs, *cmd):
    got = [c.execute(*cmd) for c in cs]
    assert got[0] == got[1], (cmd, got)
    return got[0]


def as_user(cs, user, password):
    out = []
    for c in cs:
        u = RespClient("127.0.0.1", c.port)
        assert u.execute("AUTH", user, password) == b"OK"
        out.append(u)
    return out


def words(line):
    return set(line.split())


# ---------------------------------------------------------------------------
# rules, LIST, GETUSER

def test_setuser_and_list(pair):
    assert run_both(pair, "ACL", "SETUSER", "alice") == b"OK"
    assert run_both(pair, "ACL", "LIST") == [b"user alice off resetchannels -@all",
                                             b"user default on nopass ~* &* +@all"]
    assert run_both(pair, "ACL", "SETUSER", "bob", "on", ">pw", "~lb:*", "%R~web:*",
                    "&ch*", "+@read", "-get", "+zadd", "+config|get") == b"OK"
    lists = [c.execute("ACL", "LIST") for c in pair]
    assert words(lists[0][0]) == words(lists[1][0])  # bob, as words
    got = [c.execute("ACL", "GETUSER", "bob") for c in pair]
    g = [dict(zip(x[::2], x[1::2])) for x in got]
    for k in (b"flags", b"passwords", b"keys", b"channels", b"selectors"):
        assert g[0][k] == g[1][k], k
    assert words(g[0][b"commands"]) == words(g[1][b"commands"])
    assert run_both(pair, "ACL", "GETUSER", "nosuch") is None or True
    assert run_both(pair, "ACL", "USERS") == [b"alice", b"bob", b"default"]
    assert run_both(pair, "ACL", "WHOAMI") == b"default"


@pytest.mark.parametrize("rule", [
    "<nope", "#abc", "!abc", "+nosuch", "+@nosuch", "-@nosuch", "foo", "%X~a", "%~a", "",
])
def test_setuser_errors(pair, rule):
    run_both(pair, "ACL", "SETUSER", "bob", "on", rule)
    if rule:  # an empty word is ignored; any other bad rule changes nothing
        assert run_both(pair, "ACL", "USERS") == [b"default"]


def test_setuser_pattern_after_allkeys(pair):
    run_both(pair, "ACL", "SETUSER", "bob", "allkeys", "~x")
    run_both(pair, "ACL", "SETUSER", "bob", "allchannels", "&x")
    run_both(pair, "ACL", "SETUSER", "bob", "resetkeys", "~x", "resetchannels", "&y")
    run_both(pair, "ACL", "SETUSER", "bob", "#" + "a" * 64, "!" + "a" * 64, ">x", "<x")
    run_both(pair, "ACL", "SETUSER", "bob", "reset")
    assert run_both(pair, "ACL", "LIST")[0] == b"user bob off sanitize-payload resetchannels -@all"


def test_categories(pair):
    cats = run_both(pair, "ACL", "CAT")
    assert b"sortedset" in cats and b"dangerous" in cats
    run_both(pair, "ACL", "CAT", "nosuch")
    mine, ref = [set(c.execute("ACL", "CAT", "sortedset")) for c in pair]
    assert b"zadd" in mine and b"zrangebyscore" in mine
    if not target_is_redis():
        assert b"lb.add" in mine and b"lb.rank" in mine
    # Every sorted-set command both servers have is in @sortedset in both.
    common = set(pair[0].execute("COMMAND", "LIST")) & set(pair[1].execute("COMMAND", "LIST"))
    assert (mine & common) == (ref & common)
    for cat in ("read", "write", "fast", "keyspace", "string", "set", "transaction",
                "connection", "scripting", "admin", "dangerous", "blocking"):
        mine, ref = [set(c.execute("ACL", "CAT", cat)) for c in pair]
        assert (mine & common) == (ref & common), cat


# ---------------------------------------------------------------------------
# permission checks

def test_noperm_errors_and_log(pair):
    run_both(pair, "ACL", "SETUSER", "carol", "on", ">pw", "~a*", "+get", "+set",
             "+@sortedset")
    users = as_user(pair, "carol", "pw")
    try:
        assert run_both(users, "SET", "akey", "1") == b"OK"
        assert run_both(users, "GET", "bkey") == err(
            "NOPERM this user has no permissions to access one of the keys used as arguments")
        assert run_both(users, "ZADD", "bkey", "1", "a") == err(
            "NOPERM this user has no permissions to access one of the keys used as arguments")
        assert run_both(users, "ZADD", "az", "1", "a") == 1
        assert run_both(users, "ZUNIONSTORE", "az2", "2", "az", "bz") == err(
            "NOPERM this user has no permissions to access one of the keys used as arguments")
        assert run_both(users, "DEL", "akey") == err(
            "NOPERM this user has no permissions to run the 'del' command")
        assert run_both(users, "CONFIG", "GET", "x") == err(
            "NOPERM this user has no permissions to run the 'config|get' command")
        assert run_both(users, "ACL", "WHOAMI") == err(
            "NOPERM this user has no permissions to run the 'acl|whoami' command")
        assert run_both(users, "MULTI") == err(
            "NOPERM this user has no permissions to run the 'multi' command")
    finally:
        for u in users:
            u.close()
    logs = [c.execute("ACL", "LOG") for c in pair]
    strip = [[{k: v for k, v in zip(e[::2], e[1::2]) if k not in (b"age-seconds", b"client-info")}
              for e in log] for log in logs]
    assert strip[0] == strip[1]
    assert [len(c.execute("ACL", "LOG", "1")) for c in pair] == [1, 1]
    assert run_both(pair, "ACL", "LOG", "RESET") == b"OK"
    assert run_both(pair, "ACL", "LOG") == []
    run_both(pair, "ACL", "LOG", "-1")
    run_both(pair, "ACL", "LOG", "x")



def test_acllog_max_len(pair, server_factory, tmp_path):
    """acllog-max-len caps ACL LOG: lowering it trims at the next new entry (an entry
    that only repeats one already logged trims nothing), 0 keeps nothing; the config
    file sets it too."""
    def fail(user):
        for c in pair:
            assert c.execute("AUTH", user, "x").prefix == "WRONGPASS"

    def lens():
        return [len(c.execute("ACL", "LOG")) for c in pair]

    try:
        for i in range(5):
            fail("nouser%d" % i)
        assert run_both(pair, "CONFIG", "SET", "acllog-max-len", "2") == b"OK"
        assert run_both(pair, "CONFIG", "GET", "acllog-max-len") == [b"acllog-max-len", b"2"]
        assert lens() == [5, 5]
        fail("nouser3")
        assert lens() == [5, 5]
        fail("new1")
        logs = [[dict(zip(e[::2], e[1::2]))[b"username"] for e in c.execute("ACL", "LOG")]
                for c in pair]
        assert logs == [[b"new1", b"nouser3"]] * 2
        assert run_both(pair, "CONFIG", "SET", "acllog-max-len", "0") == b"OK"
        fail("new2")
        assert lens() == [0, 0]
        run_both(pair, "CONFIG", "SET", "acllog-max-len", "-1")
    finally:
        for c in pair:
            c.execute("CONFIG", "SET", "acllog-max-len", "128")
    conf = tmp_path / "acllog.conf"
    conf.write_text("acllog-max-len 1\n")
    with server_factory(config_file=str(conf)).raw() as c:
        assert c.execute("CONFIG", "GET", "acllog-max-len") == [b"acllog-max-len", b"1"]
        for user in ("a", "b", "c"):
            c.execute("AUTH", user, "x")
        assert len(c.execute("ACL", "LOG")) == 1


def test_auth_and_hello_auth(pair):
    run_both(pair, "ACL", "SETUSER", "dave", "on", ">secret", "allkeys", "+@all")
    run_both(pair, "ACL", "SETUSER", "off_user", "off", ">secret", "allkeys", "+@all")
    for c in pair:
        u = RespClient("127.0.0.1", c.port)
        assert u.execute("AUTH", "dave", "bad") == err(
            "WRONGPASS invalid username-password pair or user is disabled.")
        assert u.execute("AUTH", "off_user", "secret") == err(
            "WRONGPASS invalid username-password pair or user is disabled.")
        assert u.execute("AUTH", "nosuch", "secret") == err(
            "WRONGPASS invalid username-password pair or user is disabled.")
        assert u.execute("AUTH", "dave", "secret") == b"OK"
        assert u.execute("ACL", "WHOAMI") == b"dave"
        reply = u.execute("HELLO", "3", "AUTH", "default", "anything")
        assert isinstance(reply, dict)
        assert u.execute("ACL", "WHOAMI") == b"default"
        u.close()
    logs = [c.execute("ACL", "LOG") for c in pair]
    strip = [[{k: v for k, v in zip(e[::2], e[1::2]) if k not in (b"age-seconds", b"client-info")}
              for e in log] for log in logs]
    assert strip[0] == strip[1]


def test_dryrun(pair):
    run_both(pair, "ACL", "SETUSER", "carol", "on", "nopass", "~a*", "+get", "+set")
    assert run_both(pair, "ACL", "DRYRUN", "carol", "get", "akey") == b"OK"
    run_both(pair, "ACL", "DRYRUN", "carol", "get", "bkey")
    run_both(pair, "ACL", "DRYRUN", "carol", "del", "akey")
    run_both(pair, "ACL", "DRYRUN", "nosuch", "get", "a")
    run_both(pair, "ACL", "DRYRUN", "carol", "nosuchcmd", "a")
    run_both(pair, "ACL", "DRYRUN", "carol", "get")
    run_both(pair, "ACL", "DRYRUN", "carol", "config", "bogus")  # an unknown subcommand
    run_both(pair, "ACL", "DRYRUN", "carol", "config")


def test_read_only_key_patterns(pair):
    run_both(pair, "ACL", "SETUSER", "web", "on", ">w", "%R~lb:*", "+@read", "+@sortedset")
    run_both(pair, "ZADD", "lb:1", "10", "alice")
    users = as_user(pair, "web", "w")
    try:
        assert run_both(users, "ZSCORE", "lb:1", "alice") == b"10"
        assert run_both(users, "ZRANGE", "lb:1", "0", "-1") == [b"alice"]
        assert run_both(users, "ZADD", "lb:1", "20", "bob") == err(
            "NOPERM this user has no permissions to access one of the keys used as arguments")
    finally:
        for u in users:
            u.close()


def test_deluser_disconnects_its_clients(pair):
    run_both(pair, "ACL", "SETUSER", "eve", "on", ">e", "allkeys", "+@all")
    users = as_user(pair, "eve", "e")
    assert run_both(pair, "ACL", "DELUSER", "eve", "nosuch") == 1
    run_both(pair, "ACL", "DELUSER", "default")
    for u in users:
        with pytest.raises(Exception):
            u.execute("PING")
            u.execute("PING")
        u.close()


def test_genpass_and_no_aclfile(pair):
    assert len(pair[0].execute("ACL", "GENPASS")) == 64
    assert len(pair[0].execute("ACL", "GENPASS", "5")) == 2
    run_both(pair, "ACL", "GENPASS", "0")
    run_both(pair, "ACL", "GENPASS", "5000")
    run_both(pair, "ACL", "SAVE")
    run_both(pair, "ACL", "LOAD")
    run_both(pair, "ACL", "NOSUCH")


def test_scripts_are_checked_per_call(pair):
    run_both(pair, "ACL", "SETUSER", "scr", "on", ">s", "~a*", "+eval", "+get")
    users = as_user(pair, "scr", "s")
    try:
        assert run_both(users, "EVAL", "return redis.call('get', 'akey')", "0") is None
        got = [u.execute("EVAL", "return redis.call('set', 'akey', '1')", "0") for u in users]
        assert all(b"can't run this command" in str(g).encode() for g in got), got
        got = [u.execute("EVAL", "return redis.call('get', 'bkey')", "0") for u in users]
        assert all(b"can't access at least one of the keys" in str(g).encode() for g in got), got
    finally:
        for u in users:
            u.close()


# ---------------------------------------------------------------------------
# config file users and aclfile

def _start(factory_or_ref, **kw):
    return factory_or_ref(**kw)


def test_user_lines_in_config_file(server_factory, tmp_path):
    conf = tmp_path / "a.conf"
    conf.write_text("user game on >g ~lb:* +@sortedset +@connection\n"
                    "user web on >w %R~lb:* +@read +@connection\n")
    srv = server_factory(config_file=str(conf))
    with srv.raw() as c:
        assert c.execute("ACL", "USERS") == [b"default", b"game", b"web"]
    g = RespClient("127.0.0.1", srv.port)
    assert g.execute("AUTH", "game", "g") == b"OK"
    assert g.execute("ZADD", "lb:1", "5", "p") == 1
    assert g.execute("ZADD", "other", "5", "p") == err(
        "NOPERM this user has no permissions to access one of the keys used as arguments")
    w = RespClient("127.0.0.1", srv.port)
    assert w.execute("AUTH", "web", "w") == b"OK"
    assert w.execute("ZSCORE", "lb:1", "p") == b"5"
    assert w.execute("ZINCRBY", "lb:1", "1", "p") == err(
        "NOPERM this user has no permissions to run the 'zincrby' command")
    g.close()
    w.close()


def test_aclfile_load_and_save(server_factory, tmp_path):
    path = tmp_path / "users.acl"
    path.write_text("user alice on >a ~a* +get\nuser default on nopass ~* &* +@all\n")
    srv = server_factory(["--aclfile", str(path)])
    with srv.raw() as c:
        assert c.execute("ACL", "USERS") == [b"alice", b"default"]
        assert c.execute("ACL", "SETUSER", "bob", "on", ">b", "+set") == b"OK"
        assert c.execute("ACL", "SAVE") == b"OK"
        text = path.read_text()
        assert "user bob on #" in text and "user alice on #" in text
        path.write_text("user zed on nopass ~* +@all\n")
        assert c.execute("ACL", "LOAD") == b"OK"
        assert c.execute("ACL", "USERS") == [b"default", b"zed"]
        path.write_text("user zed on bogus\n")
        reply = c.execute("ACL", "LOAD")
        assert isinstance(reply, type(err("x"))), reply
        assert c.execute("ACL", "USERS") == [b"default", b"zed"]


def test_user_names_with_whitespace_or_nul_are_refused(pair):
    for name in ["a b", "a\0b", "tab\tx", "nl\nx", " "]:
        got = run_both(pair, "ACL", "SETUSER", name, "on")
        assert got == err("ERR Usernames can't contain spaces or null characters"), name
    assert run_both(pair, "ACL", "USERS") == [b"default"]


@pytest.mark.parametrize("rules", [
    "-@all +@set +@hash -@geo +get +mget -hset",
    "+@all ~* -@string +incr -debug +debug|digest",
    "+@all -client +client|id +client|setname",
    "-@all +@string -incr +acl +debug|digest +debug|segfault",
    "+@all -client|kill",
    "-@all +acl +config -config|set",
    "-@all +acl +select|0",
    "+memory|doctor",
    "+memory|doctor +memory",
    "+@all +client|id",
    "+@all -memory",
    "-@all +@read -@write -get",
    "-@all +@sortedset",
    "+@all -@dangerous",
    "-@all +@connection",
    "-@all +@read +@write",
])
def test_getuser_describes_what_the_rules_allow(pair, rules):
    """Redis 7.0 works the description out from the permissions: rules that change
    nothing disappear. Single-command rules come in hash order there, so as sets."""
    got = []
    for c in pair:
        assert c.execute("ACL", "SETUSER", "t", "reset", *rules.split()) == b"OK"
        g = c.execute("ACL", "GETUSER", "t")
        got.append(dict(zip(g[::2], g[1::2]))[b"commands"])
    assert words(got[0]) == words(got[1]), (rules, got)
    assert got[0].split()[0] == got[1].split()[0]  # +@all / -@all first


def test_rules_for_redis_commands_rankd_lacks(pair):
    run_both(pair, "ACL", "SETUSER", "t", "reset", "+readonly", "+cluster|info", "-@all",
             "+@stream")
    for rules in ("+@all -@stream", "+@all -@hyperloglog", "-@all +@stream"):
        got = []
        for c in pair:
            assert c.execute("ACL", "SETUSER", "t", "reset", *rules.split()) == b"OK"
            g = c.execute("ACL", "GETUSER", "t")
            got.append(dict(zip(g[::2], g[1::2]))[b"commands"])
        assert got == [rules.encode()] * 2
    assert set(pair[0].execute("ACL", "CAT", "stream")) == set(pair[1].execute("ACL", "CAT",
                                                                               "stream"))


def test_acl_subcommand_syntax_errors(pair):
    for cmd in (("ACL", "CAT", "a", "b"), ("ACL", "GENPASS", "1", "2"), ("ACL", "LOG", "1", "2")):
        run_both(pair, *cmd)


def test_acl_pubsub_default_allchannels(pair):
    try:
        run_both(pair, "CONFIG", "SET", "acl-pubsub-default", "allchannels")
        run_both(pair, "ACL", "SETUSER", "p", "on", "(+get)")
        assert run_both(pair, "ACL", "LIST")[1] == b"user p on &* -@all (&* -@all +get)"
        run_both(pair, "ACL", "SETUSER", "p", "reset")
        assert run_both(pair, "ACL", "LIST")[1] == b"user p off sanitize-payload &* -@all"
    finally:
        run_both(pair, "CONFIG", "SET", "acl-pubsub-default", "resetchannels")


def test_failed_auth_inside_exec_is_logged_as_multi(pair):
    for c in pair:
        assert c.execute("MULTI") == b"OK"
        assert c.execute("AUTH", "nobody", "wrong") == b"QUEUED"
        c.execute("EXEC")
    entries = [[dict(zip(e[::2], e[1::2])) for e in c.execute("ACL", "LOG")] for c in pair]
    assert [(e[b"reason"], e[b"context"], e[b"object"], e[b"username"]) for e in entries[0]] == \
        [(e[b"reason"], e[b"context"], e[b"object"], e[b"username"]) for e in entries[1]] == \
        [(b"auth", b"multi", b"AUTH", b"nobody")]
