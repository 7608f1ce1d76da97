"""A tiny raw-socket RESP2/RESP3 client for tests.

redis-py 4.3 speaks only RESP2 and hides the wire format, so the protocol tests
and the differential harness use this instead. It keeps every type distinction
the wire makes:

    +OK            -> SimpleString(b"OK")        (a bytes subclass)
    -ERR x         -> RespError("ERR x")         (returned, not raised)
    :5             -> 5                          (int)
    $3 abc         -> b"abc"                     (bytes)
    $-1 / *-1      -> None                       (RESP2 nulls; raw bytes tell them apart)
    *n ...         -> list
    _              -> NULL                       (RESP3 Null, a singleton)
    ,1.5           -> Double(1.5)                (a float subclass; .raw keeps the text)
    #t / #f        -> Bool(True) / Bool(False)
    (123           -> BigNumber(123)             (an int subclass)
    !n ...         -> RespError(..., blob=True)
    =n txt:...     -> Verbatim(b"...", fmt=b"txt")
    %n ...         -> Map (a dict subclass; .pairs keeps order and unhashable keys)
    ~n ...         -> Set (a list subclass, wire order kept)
    >n ...         -> Push (a list subclass)
    |n ...         -> attribute: parsed and kept in client.last_attributes

`read_reply_raw()` also returns the exact bytes of the reply, which is what the
differential harness compares.
"""

import socket
import time


class ProtocolParseError(Exception):
    pass


class ConnectionClosed(Exception):
    """The server closed the connection (EOF) before a full reply arrived."""


class SimpleString(bytes):
    def __repr__(self):
        return "SimpleString(%s)" % bytes.__repr__(self)


class RespError:
    def __init__(self, message, blob=False):
        if isinstance(message, (bytes, bytearray)):
            message = bytes(message).decode("utf-8", "replace")
        self.message = message
        self.blob = blob

    @property
    def prefix(self):
        return self.message.split(" ", 1)[0]

    def __eq__(self, other):
        if isinstance(other, RespError):
            return self.message == other.message
        if isinstance(other, str):
            return self.message == other
        return NotImplemented

    def __hash__(self):
        return hash(("RespError", self.message))

    def __repr__(self):
        return "RespError(%r)" % self.message

    def __str__(self):
        return self.message


class _Null:
    _instance = None

    def __new__(cls):
        if cls._instance is None:
            cls._instance = object.__new__(cls)
        return cls._instance

    def __repr__(self):
        return "NULL"

    def __bool__(self):
        return False


NULL = _Null()
Null = _Null


class Double(float):
    def __new__(cls, value, raw=None):
        obj = float.__new__(cls, value)
        obj.raw = raw if raw is not None else repr(float(value)).encode()
        return obj

    def __repr__(self):
        return "Double(%s)" % self.raw.decode()


class Bool:
    def __init__(self, value):
        self.value = bool(value)

    def __bool__(self):
        return self.value

    def __eq__(self, other):
        if isinstance(other, Bool):
            return self.value == other.value
        if isinstance(other, bool):
            return self.value == other
        return NotImplemented

    def __hash__(self):
        return hash(self.value)

    def __repr__(self):
        return "Bool(%s)" % self.value


class BigNumber(int):
    def __repr__(self):
        return "BigNumber(%d)" % int(self)


class Verbatim(bytes):
    def __new__(cls, data, fmt=b"txt"):
        obj = bytes.__new__(cls, data)
        obj.format = fmt
        return obj

    def __repr__(self):
        return "Verbatim(%s, %s)" % (self.format, bytes.__repr__(self))


class Map(dict):
    """A RESP3 map. Keys that are lists/unhashable are stored as tuples in the
    dict view; `.pairs` keeps the wire order and original values."""

    def __init__(self, pairs=()):
        super().__init__()
        self.pairs = list(pairs)
        for k, v in self.pairs:
            self[_hashable(k)] = v

    def __repr__(self):
        return "Map(%r)" % (self.pairs,)


class Set(list):
    def __repr__(self):
        return "Set(%s)" % list.__repr__(self)


class Push(list):
    def __repr__(self):
        return "Push(%s)" % list.__repr__(self)


def _hashable(v):
    if isinstance(v, list):
        return tuple(_hashable(x) for x in v)
    if isinstance(v, dict):
        return tuple((_hashable(k), _hashable(x)) for k, x in v.items())
    return v


def encode_command(*args):
    """Encodes args as a RESP multibulk request. str/int/float become bytes."""
    out = [b"*%d\r\n" % len(args)]
    for a in args:
        b = to_bytes(a)
        out.append(b"$%d\r\n" % len(b))
        out.append(b)
        out.append(b"\r\n")
    return b"".join(out)


def to_bytes(a):
    if isinstance(a, bytes):
        return a
    if isinstance(a, bytearray):
        return bytes(a)
    if isinstance(a, str):
        return a.encode("utf-8")
    if isinstance(a, bool):
        return b"1" if a else b"0"
    if isinstance(a, int):
        return str(a).encode()
    if isinstance(a, float):
        return repr(a).encode()
    raise TypeError("cannot encode %r" % (a,))


_INCOMPLETE = object()


def parse_reply(buf, pos=0, attrs=None):
    """Parses one reply from buf[pos:]. Returns (value, end) or (_INCOMPLETE, pos).

    Raises ProtocolParseError on malformed input."""
    nl = buf.find(b"\r\n", pos)
    if nl < 0:
        return _INCOMPLETE, pos
    t = buf[pos:pos + 1]
    line = bytes(buf[pos + 1:nl])
    nxt = nl + 2
    if t == b"+":
        return SimpleString(line), nxt
    if t == b"-":
        return RespError(line), nxt
    if t == b":":
        return int(line), nxt
    if t == b"_":
        return NULL, nxt
    if t == b",":
        txt = line.decode()
        low = txt.lower()
        if low in ("inf", "+inf"):
            val = float("inf")
        elif low == "-inf":
            val = float("-inf")
        elif low == "nan":
            val = float("nan")
        else:
            val = float(txt)
        return Double(val, raw=line), nxt
    if t == b"#":
        if line not in (b"t", b"f"):
            raise ProtocolParseError("bad boolean %r" % line)
        return Bool(line == b"t"), nxt
    if t == b"(":
        return BigNumber(int(line)), nxt
    if t in (b"$", b"!", b"="):
        n = int(line)
        if n < 0:
            if t != b"$":
                raise ProtocolParseError("negative length for %r" % t)
            return None, nxt
        if len(buf) < nxt + n + 2:
            return _INCOMPLETE, pos
        data = bytes(buf[nxt:nxt + n])
        if buf[nxt + n:nxt + n + 2] != b"\r\n":
            raise ProtocolParseError("bulk not terminated by CRLF")
        end = nxt + n + 2
        if t == b"$":
            return data, end
        if t == b"!":
            return RespError(data, blob=True), end
        if len(data) < 4 or data[3:4] != b":":
            raise ProtocolParseError("bad verbatim string %r" % data)
        return Verbatim(data[4:], fmt=data[:3]), end
    if t in (b"*", b"~", b">", b"%", b"|"):
        n = int(line)
        if n < 0:
            if t != b"*":
                raise ProtocolParseError("negative length for %r" % t)
            return None, nxt
        count = n * 2 if t in (b"%", b"|") else n
        items = []
        p = nxt
        for _ in range(count):
            v, p2 = parse_reply(buf, p, attrs)
            if v is _INCOMPLETE:
                return _INCOMPLETE, pos
            items.append(v)
            p = p2
        if t == b"*":
            return items, p
        if t == b"~":
            return Set(items), p
        if t == b">":
            return Push(items), p
        pairs = list(zip(items[0::2], items[1::2]))
        if t == b"%":
            return Map(pairs), p
        # Attribute: keep it aside, then the real reply follows.
        if attrs is not None:
            attrs.append(Map(pairs))
        v, p2 = parse_reply(buf, p, attrs)
        if v is _INCOMPLETE:
            return _INCOMPLETE, pos
        return v, p2
    raise ProtocolParseError("unknown reply type byte %r at %d" % (t, pos))


class RespClient:
    """One blocking connection. Not thread-safe."""

    def __init__(self, host="127.0.0.1", port=6379, timeout=30.0, connect=True):
        self.host = host
        self.port = port
        self.timeout = timeout
        self.sock = None
        self.buf = bytearray()
        self.pos = 0
        self.last_attributes = []
        self.pushes = []
        self.protocol = 2
        if connect:
            self.connect()

    # -- connection ---------------------------------------------------------
    def connect(self):
        self.sock = socket.create_connection((self.host, self.port), timeout=self.timeout)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        return self

    def close(self):
        if self.sock is not None:
            try:
                self.sock.close()
            finally:
                self.sock = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # -- writing ------------------------------------------------------------
    def send_raw(self, data):
        self.sock.sendall(data)

    def send_command(self, *args):
        self.sock.sendall(encode_command(*args))

    def send_commands(self, commands):
        self.sock.sendall(b"".join(encode_command(*c) for c in commands))

    # -- reading ------------------------------------------------------------
    def _fill(self, deadline):
        if self.pos > 65536 and self.pos > len(self.buf) // 2:
            del self.buf[:self.pos]
            self.pos = 0
        if deadline is not None:
            left = deadline - time.monotonic()
            if left <= 0:
                raise socket.timeout("timed out waiting for a reply")
            self.sock.settimeout(left)
        else:
            self.sock.settimeout(self.timeout)
        chunk = self.sock.recv(1 << 20)
        if not chunk:
            raise ConnectionClosed("server closed the connection")
        self.buf += chunk

    def read_reply_raw(self, timeout=None, keep_push=False):
        """Returns (value, raw_bytes) of the next reply. Push messages are stored
        in self.pushes and skipped unless keep_push is true."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            attrs = []
            value, end = parse_reply(self.buf, self.pos, attrs)
            if value is _INCOMPLETE:
                self._fill(deadline)
                continue
            raw = bytes(self.buf[self.pos:end])
            self.pos = end
            if attrs:
                self.last_attributes = attrs
            if isinstance(value, Push) and not keep_push:
                self.pushes.append(value)
                continue
            return value, raw

    def read_reply(self, timeout=None, keep_push=False):
        return self.read_reply_raw(timeout, keep_push)[0]

    def read_until_close(self, timeout=10.0):
        """Reads everything left until the server closes the connection.
        Returns the bytes (already-buffered unparsed bytes included)."""
        deadline = time.monotonic() + timeout
        data = bytes(self.buf[self.pos:])
        self.buf = bytearray()
        self.pos = 0
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise socket.timeout("connection still open after %.1fs" % timeout)
            self.sock.settimeout(left)
            try:
                chunk = self.sock.recv(65536)
            except ConnectionResetError:
                return data
            if not chunk:
                return data
            data += chunk

    def is_closed_by_peer(self, timeout=5.0):
        """True if the peer has closed (EOF or reset) within timeout."""
        try:
            self.read_until_close(timeout)
            return True
        except socket.timeout:
            return False

    # -- convenience --------------------------------------------------------
    def execute(self, *args):
        self.send_command(*args)
        return self.read_reply()

    __call__ = execute

    def execute_raw(self, *args):
        self.send_command(*args)
        return self.read_reply_raw()

    def pipeline(self, commands):
        """Sends all commands in one write and returns the list of replies."""
        self.send_commands(commands)
        return [self.read_reply() for _ in commands]

    def pipeline_raw(self, commands):
        self.send_commands(commands)
        return [self.read_reply_raw() for _ in commands]

    def hello(self, proto=3, *extra):
        reply = self.execute("HELLO", proto, *extra)
        if not isinstance(reply, RespError):
            self.protocol = proto
        return reply


def resp3_client(port, host="127.0.0.1", timeout=30.0):
    c = RespClient(host, port, timeout=timeout)
    reply = c.hello(3)
    if isinstance(reply, RespError):
        c.close()
        raise RuntimeError("HELLO 3 failed: %s" % reply)
    return c
