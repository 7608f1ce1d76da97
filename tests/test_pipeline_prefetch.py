"""Long pipelines run exactly as the same commands one by one (issue 16).

rankd looks ahead in a connection's read buffer and prefetches the keyspace
entries and sorted-set members of the next commands while one runs. These
tests send thousands of mixed commands in one write, to rankd and to
redis-server 7.0, and compare the raw reply streams byte for byte: updates
of a member followed at once by reads of it, deletions, SELECT between
databases, MULTI/EXEC, wrong types, commands split across reads.
"""

import random
import socket
import time

END = b"pipeline-end-7f3a"


def encode(*args):
    out = [b"*%d\r\n" % len(args)]
    for a in args:
        a = a if isinstance(a, bytes) else str(a).encode()
        out.append(b"$%d\r\n%s\r\n" % (len(a), a))
    return b"".join(out)


def run_pipeline(port, commands, chunk=None):
    """Sends every command (then ECHO END) in one write (or in `chunk`-byte
    writes), returns the raw reply bytes up to END's reply."""
    payload = b"".join(encode(*c) for c in commands) + encode("ECHO", END)
    marker = b"$%d\r\n%s\r\n" % (len(END), END)
    with socket.create_connection(("127.0.0.1", port), timeout=60) as s:
        if chunk:
            for i in range(0, len(payload), chunk):
                s.sendall(payload[i:i + chunk])
                time.sleep(0.001)
        else:
            s.sendall(payload)
        data = b""
        while not data.endswith(marker):
            got = s.recv(1 << 20)
            assert got, "connection closed"
            data += got
    return data


def member(i):
    return "m:%08d" % i


def mixed_commands(rng, n_members, count):
    cmds = []
    for _ in range(count):
        i = rng.randrange(n_members * 2)  # half of them absent at first
        op = rng.randrange(16)
        if op == 0:
            cmds.append(("ZADD", "lb", rng.randrange(1000), member(i)))
        elif op == 1:
            cmds.append(("ZINCRBY", "lb", rng.choice([1, -1, 0.5, 1000]), member(i)))
        elif op == 2:
            cmds.append(("ZSCORE", "lb", member(i)))
        elif op == 3:
            cmds.append(("ZRANK", "lb", member(i)))
        elif op == 4:
            cmds.append(("ZREVRANK", "lb", member(i)))
        elif op == 5:
            cmds.append(("ZREM", "lb", member(i)))
        elif op == 6:
            cmds.append(("ZMSCORE", "lb", member(i), member(i + 1)))
        elif op == 7:
            # an update immediately followed by reads of the same member
            cmds.append(("ZADD", "lb", "XX", "CH", rng.randrange(1000), member(i)))
            cmds.append(("ZSCORE", "lb", member(i)))
            cmds.append(("ZREVRANK", "lb", member(i)))
        elif op == 8:
            cmds.append(("SELECT", 1))
            cmds.append(("ZADD", "lb", 7, member(i)))
            cmds.append(("ZSCORE", "lb", member(i)))
            cmds.append(("SELECT", 0))
        elif op == 9:
            cmds.append(("SET", "s:%d" % (i % 50), i))
            cmds.append(("GET", "s:%d" % ((i + 1) % 50)))
        elif op == 10:
            cmds.append(("ZSCORE", "s:%d" % (i % 50), member(i)))  # WRONGTYPE or nil
        elif op == 11:
            cmds.append(("MULTI",))
            cmds.append(("ZINCRBY", "lb", 2, member(i)))
            cmds.append(("ZSCORE", "lb", member(i)))
            cmds.append(("EXEC",))
        elif op == 12:
            cmds.append(("ZADD", "small", i, member(i % 20)))  # a compact set
            cmds.append(("ZSCORE", "small", member((i + 3) % 20)))
        elif op == 13 and rng.randrange(40) == 0:
            cmds.append(("DEL", "lb"))
        elif op == 14:
            cmds.append(("ZREVRANGE", "lb", 0, 2, "WITHSCORES"))
        else:
            cmds.append(("zscore", "lb", member(i)))
            cmds.append(("ZSCORE", "lb"))  # wrong arity
    return cmds


def preload(n_members):
    cmds = []
    for start in range(0, n_members, 200):
        args = ["ZADD", "lb"]
        for i in range(start, min(n_members, start + 200)):
            args += [i % 997, member(i)]
        cmds.append(tuple(args))
    return cmds


def compare(server, redis_ref, commands, chunk=None):
    for port in (server.port, redis_ref.port):
        run_pipeline(port, [("FLUSHALL",)])
    got = run_pipeline(server.port, commands, chunk)
    want = run_pipeline(redis_ref.port, commands, chunk)
    if got != want:
        a, b = got.split(b"\r\n"), want.split(b"\r\n")
        for k, (x, y) in enumerate(zip(a, b)):
            assert x == y, "reply line %d differs: rankd %r, redis %r" % (k, x, y)
        assert len(a) == len(b)


def test_long_pipeline_matches_sequential_execution(server, redis_ref):
    rng = random.Random(16)
    compare(server, redis_ref, preload(3000) + mixed_commands(rng, 3000, 6000))


def test_pipeline_split_across_reads(server, redis_ref):
    # Commands cut at arbitrary points: the look-ahead sees partial commands.
    rng = random.Random(61)
    compare(server, redis_ref, preload(1000) + mixed_commands(rng, 1000, 1500), chunk=997)
