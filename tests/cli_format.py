"""How redis-cli writes strings and replies, for tests that show or compare them:
the command fuzzer's reproducible command lines (fuzz_commands.py) and the documentation's
redis-cli sessions (test_docs_examples.py).

Replies are resp_client's values (RESP2): SimpleString, RespError, int, None, bytes, list.
"""

from resp_client import RespError, SimpleString

_ESCAPES = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\r": "\\r", "\t": "\\t",
            "\a": "\\a", "\b": "\\b"}


def quote(b):
    """A byte string in double quotes with redis-cli's escapes (its sdscatrepr)."""
    out = []
    for c in b:
        ch = chr(c)
        out.append(_ESCAPES.get(ch) or (ch if 32 <= c < 127 else "\\x%02x" % c))
    return '"%s"' % "".join(out)


def arg(a, limit=None):
    """One argument as typed at redis-cli's prompt: bare when that reads back the same,
    quoted otherwise; past `limit` bytes, its length and first 16 bytes."""
    b = a if isinstance(a, bytes) else str(a).encode()
    if limit is not None and len(b) > limit:
        return "<%d bytes: %s...>" % (len(b), arg(b[:16]))
    if b and all(33 <= c < 127 and c not in b'"\'\\' for c in b):
        return b.decode()
    return quote(b)


def line(cmd, limit=None):
    return " ".join(arg(a, limit) for a in cmd)


def reply(r, prefix=""):
    """A reply as redis-cli prints it on a terminal (its cliFormatReplyTTY, RESP2)."""
    if isinstance(r, SimpleString):
        return r.decode() + "\n"
    if isinstance(r, RespError):
        return "(error) " + r.message + "\n"
    if isinstance(r, int):
        return "(integer) %d\n" % r
    if r is None:
        return "(nil)\n"
    if isinstance(r, bytes):
        return quote(r) + "\n"
    if not r:
        return "(empty array)\n"
    width = len(str(len(r)))
    inner = prefix + " " * (width + 2)
    out = ""
    for i, item in enumerate(r):
        out += "%s%*d) " % ("" if i == 0 else prefix, width, i + 1)
        out += reply(item, inner)
    return out
