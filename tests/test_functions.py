"""FUNCTION LOAD / DELETE / FLUSH / LIST / RESTORE / STATS and FCALL argument handling,
byte for byte against redis-server 7.0: shebang parsing, library and function names,
register_function's arguments and flags, and every argument error in Redis's words."""

import time

import pytest

from resp_client import RespClient

pytestmark = pytest.mark.differential

LIB_BODY = "redis.register_function('f', function(k, a) return {k, a} end)"


SHEBANGS = [
    "#!lua name=a", "#!LUA name=a", "#!Lua name=a", '#!lua name="foo"', "#!lua name='q'",
    "#!lua name=a name=b", "#!lua name=a\tname=b", "#!lua name=", "#!lua", "#!", "#! name=a",
    "#!lua  name=a", "#!lua\tname=a", "#!lua name=a ", " #!lua name=a", "#!lua NAME=a",
    "#!lua Name=b", "#!lua name=a x=1", "#!lua name=a flags=x", "#!js name=a", "#!js name=a-b",
    "#!lua name=a-b", "#!lua name=a=b", "#!lua name=\u00e9", '#!lua name="a', "#!lua name=_9",
    "#!lua name=" + "x" * 300,
]


def test_shebang_parsing(pair):
    for shebang in SHEBANGS:
        pair.run("FUNCTION", "FLUSH")
        pair.run("FUNCTION", "LOAD", shebang + "\n" + LIB_BODY)
        pair.run_list("FUNCTION", "LIST")
    pair.run("FUNCTION", "LOAD", "#!lua name=nonewline")
    pair.run("FUNCTION", "LOAD", "no shebang")
    pair.run("FUNCTION", "LOAD", "")


REGISTER_CASES = [
    "redis.register_function('a-b', function() end)", "redis.register_function('', function() end)",
    "redis.register_function('f', 1)", "redis.register_function(1, function() end)",
    "redis.register_function(nil, function() end)", "redis.register_function()",
    "redis.register_function('f', function() end, 1)", "redis.register_function(1)",
    "redis.register_function('f', function() end) redis.register_function('f', function() end)",
    "redis.register_function('f', function() end) redis.register_function('F', function() end)",
    "redis.register_function{function_name='f', callback=function() end, flags={'no-writes', 'bad'}}",
    "redis.register_function{function_name='f', callback=function() end, flags='no-writes'}",
    "redis.register_function{function_name='f', callback=function() end, flags={1}}",
    "redis.register_function{function_name='f', callback=function() end, description=1}",
    "redis.register_function{function_name='f', callback=function() end, description={}}",
    "redis.register_function{function_name='f', callback=function() end, x=1}",
    "redis.register_function{function_name='f'}", "redis.register_function{callback=function() end}",
    "redis.register_function{function_name=1, callback=function() end}",
    "redis.register_function{function_name={}, callback=function() end}",
    "redis.register_function{function_name='f', callback=1}", "redis.register_function{[1]='f'}",
    "redis.register_function{FUNCTION_NAME='f', Callback=function() end, FLAGS={'NO-WRITES'}}",
    "redis.register_function{function_name='f', callback=function() end, flags={'allow-oom', "
    "'allow-stale', 'no-cluster', 'allow-cross-slot-keys', 'no-writes', 'allow-oom'}}",
    "redis.register_function{function_name='f', callback=function() end, flags={}, description='d'}",
    "redis.register_function('" + "y" * 100 + "', function() end)",
]


def test_register_function_arguments(pair):
    for body in REGISTER_CASES:
        pair.run("FUNCTION", "FLUSH")
        pair.run("FUNCTION", "LOAD", "#!lua name=lib\n" + body)
        pair.run_list("FUNCTION", "LIST")


def test_names_across_libraries(pair):
    pair.run("FUNCTION", "LOAD", "#!lua name=a\nredis.register_function('f', function() return 1 end)")
    pair.run("FUNCTION", "LOAD", "#!lua name=A\nredis.register_function('g', function() return 2 end)")
    pair.run("FUNCTION", "LOAD", "#!lua name=b\nredis.register_function('F', function() return 3 end)")
    pair.run("FUNCTION", "LOAD", "#!lua name=a\nredis.register_function('x', function() end)")
    pair.run("FCALL", "F", 0)
    pair.run("FCALL", "G", 0)
    pair.run("FCALL_RO", "g", 0)
    pair.run("FUNCTION", "DELETE", "a")
    pair.run("FUNCTION", "DELETE", "a")
    pair.run_list("FUNCTION", "LIST")
    pair.run("FCALL", "f", 0)


ARG_ERRORS = [
    ("FUNCTION", "LOAD"), ("FUNCTION", "LOAD", "REPLACE"), ("FUNCTION", "LOAD", "x", "y"),
    ("FUNCTION", "LOAD", "REPLACE", "REPLACE", "x"), ("FUNCTION", "LOAD", "replace", "x", "y"),
    ("FUNCTION", "DELETE"), ("FUNCTION", "DELETE", "nolib"), ("FUNCTION", "DELETE", "a", "b"),
    ("FUNCTION", "FLUSH", "x"), ("FUNCTION", "FLUSH", "a", "b"), ("FUNCTION", "LIST", "x"),
    ("FUNCTION", "LIST", "WITHCODE", "x"), ("FUNCTION", "LIST", "LIBRARYNAME"),
    ("FUNCTION", "LIST", "LIBRARYNAME", "x", "LIBRARYNAME", "y"),
    ("FUNCTION", "LIST", "withcode", "withcode"), ("FUNCTION", "RESTORE"),
    ("FUNCTION", "RESTORE", "x", "y", "z"), ("FUNCTION", "RESTORE", "x", "bad"),
    ("FUNCTION", "RESTORE", "x"), ("FUNCTION", "DUMP", "x"), ("FUNCTION", "STATS", "x"),
    ("FUNCTION", "KILL", "x"), ("FUNCTION", "KILL"), ("FUNCTION", "NOPE"), ("FUNCTION",),
    ("FUNCTION", "HELP", "x"), ("FCALL",), ("FCALL", "f"), ("FCALL", "f", "x"),
    ("FCALL", "f", "-1"), ("FCALL", "f", "2", "a"), ("FCALL", "f", "01"), ("FCALL", "nof", "0"),
    ("FCALL", "nof", "x"), ("FCALL_RO", "f", "0"), ("FCALL", "f", "1", "k", "a"),
    ("SCRIPT", "LOAD"), ("SCRIPT", "LOAD", "a", "b"), ("SCRIPT", "EXISTS"),
    ("SCRIPT", "FLUSH", "a", "b"), ("SCRIPT", "KILL", "x"), ("SCRIPT", "HELP", "x"),
    ("SCRIPT", "NOPE"), ("SCRIPT",),
]


def test_argument_errors(pair):
    pair.run("FUNCTION", "LOAD", "#!lua name=lib\n" + LIB_BODY)
    for args in ARG_ERRORS:
        pair.run(*args)
    pair.run_list("FUNCTION", "LIST")
    pair.run("FUNCTION", "FLUSH", "ASYNC")
    for args in ARG_ERRORS:
        pair.run(*args)
    pair.run("FUNCTION", "STATS")


def test_function_stats_shows_the_full_command(server_factory):
    # While a function runs, FUNCTION STATS shows its name and the command as sent.
    proc = server_factory(["--busy-reply-threshold", "100"])
    runner, other = RespClient("127.0.0.1", proc.port), RespClient("127.0.0.1", proc.port)
    try:
        other.execute("FUNCTION", "LOAD", "#!lua name=lib\n"
                      "redis.register_function('busy', function(k, a) while true do end end)")
        runner.send_command("fCaLl", "BUSY", "1", "key1", "arg1", "arg2")
        time.sleep(0.4)
        stats = other.execute("FUNCTION", "STATS")
        running = stats[1]
        assert running[:4] == [b"name", b"busy", b"command",
                               [b"fCaLl", b"BUSY", b"1", b"key1", b"arg1", b"arg2"]]
        assert running[4] == b"duration_ms" and running[5] >= 0
        assert other.execute("FUNCTION", "KILL") == b"OK"
        reply = runner.read_reply()
        assert reply.message == ("ERR Script killed by user with SCRIPT KILL... script: busy, "
                                 "on @user_function:2.")
    finally:
        runner.close()
        other.close()


EVAL_SHEBANGS = [
    "#!LUA\nreturn 1", "#!lua flags=NO-WRITES\nreturn 1", "#!lua flags=no-writes,allow-oom\nreturn 1",
    "#!lua flags=\nreturn 1", "#!lua name=x\nreturn 1", "#!lua flags=no-writes flags=allow-oom\nreturn 1",
    "#!lua  flags=no-writes\nreturn 1", "#!\nreturn 1", "#!lua\treturn 1", "#!lua",
    "#!lua flags=no-writes,,x\nreturn 1", '#!lua flags="no-writes"\nreturn 1', "#!lua x\nreturn 1",
    "#!lua flags=no-cluster\nreturn 1", "#!lua flags=no-writes\nreturn redis.call('set', 'k', 1)",
    '#!lua flags="a\nreturn 1',
]


def test_eval_shebangs(pair):
    for script in EVAL_SHEBANGS:
        pair.run("EVAL", script, 0)
        pair.run("EVAL_RO", script, 0)
        pair.run("SCRIPT", "LOAD", script)


def test_restore_is_all_or_nothing(pair):
    pair.run("FUNCTION", "LOAD", "#!lua name=a\nredis.register_function('fa', function() return 1 end)")
    pair.run("FUNCTION", "LOAD", "#!lua name=b\nredis.register_function('fb', function() return 2 end)")
    dump = pair.raw(pair.a, "FUNCTION", "DUMP")[0]  # both servers restore rankd's payload
    pair.run("FUNCTION", "DELETE", "a")
    pair.run("FUNCTION", "RESTORE", dump)  # b collides: a must not appear
    pair.run_list("FUNCTION", "LIST")
    pair.run("FCALL", "fa", 0)
    pair.run("FUNCTION", "LOAD", "#!lua name=c\nredis.register_function('fa', function() return 3 end)")
    pair.run("FUNCTION", "RESTORE", dump, "REPLACE")  # fa is c's: nothing changes
    pair.run_list("FUNCTION", "LIST")
    pair.run("FCALL", "fa", 0)
    pair.run("FUNCTION", "RESTORE", dump[:-1])
    pair.run("FUNCTION", "RESTORE", dump[:-10] + b"\x0b\x00" + dump[-8:])
    pair.run("FUNCTION", "RESTORE", b"")
    pair.run("FUNCTION", "RESTORE", dump, "FLUSH")
    pair.run_list("FUNCTION", "LIST")
