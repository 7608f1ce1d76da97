"""A blocked client woken by a key whose deadline passed meanwhile: the server deletes the
key there and then (Redis's write lookup, whose DEL is replicated right after the command
that woke it), and the client stays blocked. Compared with redis-server 7.0."""

import time

from resp_client import RespClient


def run(port):
    c, blocked = RespClient("127.0.0.1", port), RespClient("127.0.0.1", port)
    out = [c.execute("FLUSHALL"), c.execute("DEBUG", "SET-ACTIVE-EXPIRE", "0")]
    bid = blocked.execute("CLIENT", "ID")
    blocked.send_command("BRPOP", "k", 0)
    deadline = time.monotonic() + 5
    while b"blocked_clients:1" not in c.execute("INFO", "clients") and time.monotonic() < deadline:
        time.sleep(0.01)
    out += [c.execute("MULTI"), c.execute("RPUSH", "k", "hello"), c.execute("PEXPIRE", "k", 100),
            c.execute("DEBUG", "SLEEP", "0.2"), c.execute("EXEC")]
    # The key is gone already (expiry is off: only the wake-up's lookup deleted it).
    out.append(c.execute("DBSIZE"))
    out.append(b"flags=b" in c.execute("CLIENT", "LIST", "ID", bid))
    out.append(c.execute("CLIENT", "UNBLOCK", bid))
    out.append(blocked.read_reply())
    c.execute("DEBUG", "SET-ACTIVE-EXPIRE", "1")
    c.close()
    blocked.close()
    return out


def test_wake_on_expired_key_deletes_it(server, redis_ref):
    got, want = run(server.port), run(redis_ref.port)
    assert got == want
    assert got[-4] == 0
