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


SCORES = ["0", "-0", "1", "-1", "123456", "-999999", "0.5", "-0.5", "1.1", "0.1", "1e15",
          "1e16", "9007199254740992", "9007199254740993", "99999999999999984", "1e17",
          "-1e17", "123456789012345678", "1e300", "-1e-300", "4503599627370495.5",
          "inf", "-inf"]


def hello(protocol):
    # HELLO's own reply (client id, version) differs between servers: silenced.
    return [("CLIENT", "REPLY", "OFF"), ("HELLO", protocol), ("CLIENT", "REPLY", "ON")]


def score_commands(key, protocol):
    cmds = hello(protocol)
    for i, s in enumerate(SCORES):
        cmds.append(("ZADD", key, s, "p%02d" % i))
        cmds.append(("ZSCORE", key, "p%02d" % i))
    cmds.append(("ZRANGE", key, 0, -1, "WITHSCORES"))
    cmds.append(("ZREVRANGE", key, 0, 9, "WITHSCORES"))
    cmds.append(("ZRANGEBYSCORE", key, "-inf", "+inf", "WITHSCORES", "LIMIT", 3, 5))
    cmds.append(("ZMSCORE", key, "p00", "p05", "nope", "p22"))
    cmds.append(("ZINCRBY", key, "0.25", "p04"))
    cmds.append(("ZINCRBY", key, "-123456", "p04"))
    return cmds


def test_score_text_matches_redis(server, redis_ref):
    # Reply formatting of scores (the integer fast path and its edges), in a
    # compact set and a large one, under RESP2 and RESP3.
    filler = [("ZADD", "big") + tuple(x for i in range(300) for x in (i + 2e6, "f%d" % i))]
    for protocol in (2, 3):
        compare(server, redis_ref, score_commands("small", protocol) + filler +
                score_commands("big", protocol) + hello(2))


def test_mixed_case_command_names_in_one_pipeline(server, redis_ref):
    # The command lookup cache keys names as typed: many spellings and
    # commands interleaved, with prefetch looking ahead at each.
    rng = random.Random(7)
    names = ["ZSCORE", "zscore", "ZScore", "zSCORE", "ZREVRANK", "zrevrank", "ZRANK", "GET",
             "get", "ZCARD", "zcard", "ECHO", "ZRANGE", "zrange"]
    cmds = preload(500)
    for _ in range(3000):
        name = rng.choice(names)
        m = member(rng.randrange(1000))
        if name.lower() in ("zscore", "zrevrank", "zrank"):
            cmds.append((name, "lb", m))
        elif name.lower() == "get":
            cmds.append((name, m))
        elif name.lower() == "zcard":
            cmds.append((name, "lb"))
        elif name.lower() == "zrange":
            cmds.append((name, "lb", 0, 3, "withScores"))
        else:
            cmds.append((name, m))
    compare(server, redis_ref, cmds)
