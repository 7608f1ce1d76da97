"""Small helpers shared by the integration tests."""

import time

from resp_client import RespError


def err(message):
    """The RespError a raw client returns for `-message`."""
    return RespError(message)


WRONGTYPE = RespError("WRONGTYPE Operation against a key holding the wrong kind of value")
SYNTAX = RespError("ERR syntax error")
NOT_INTEGER = RespError("ERR value is not an integer or out of range")
NOT_FLOAT = RespError("ERR value is not a valid float")


def arity(cmd):
    return RespError("ERR wrong number of arguments for '%s' command" % cmd)


def parse_info(text):
    """INFO text -> {field: value-string}; keyspace lines become dicts."""
    if not isinstance(text, (bytes, bytearray)):
        raise AssertionError("INFO replied %r" % (text,))
    out = {}
    for line in bytes(text).decode().splitlines():
        if not line or line.startswith("#") or ":" not in line:
            continue
        k, v = line.split(":", 1)
        if k.startswith("db") and k[2:].isdigit():
            out[k] = dict(kv.split("=", 1) for kv in v.split(","))
        else:
            out[k] = v
    return out


def info(client, section=None):
    args = ("INFO",) if section is None else ("INFO", section)
    return parse_info(client.execute(*args))


def wait_until(predicate, timeout=10.0, interval=0.02, message="condition not reached"):
    """Polls `predicate` until it returns a truthy value; returns that value.
    Fails with `message` after `timeout` seconds. Never a timing assertion:
    the deadline is generous and only bounds a hang."""
    deadline = time.monotonic() + timeout
    last = None
    while True:
        last = predicate()
        if last:
            return last
        if time.monotonic() >= deadline:
            raise AssertionError("%s (after %.1fs; last value %r)" % (message, timeout, last))
        time.sleep(interval)


def seed_script(name):
    """The text of a Lua script from seed 000, kept verbatim in tests/seed_scripts/."""
    import os
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "seed_scripts", name)
    with open(path) as f:
        text = f.read()
    return text[:-1] if text.endswith("\n") else text
