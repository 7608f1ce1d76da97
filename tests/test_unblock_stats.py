"""CLIENT UNBLOCK ... ERROR ends the blocked call as a failed one: INFO commandstats
counts it in failed_calls (once, as the call itself was counted when it blocked) and
errorstats counts the UNBLOCKED error. Compared with redis-server 7.0."""

import time

from resp_client import RespClient


def stats(c, section, prefix):
    return [line for line in c.execute("INFO", section).decode().splitlines()
            if line.startswith(prefix)]


def run(port):
    c, blocked = RespClient("127.0.0.1", port), RespClient("127.0.0.1", port)
    c.execute("CONFIG", "RESETSTAT")
    bid = blocked.execute("CLIENT", "ID")
    blocked.send_command("BLPOP", "nolist", 0)
    deadline = time.monotonic() + 5
    while b"blocked_clients:1" not in c.execute("INFO", "clients") and time.monotonic() < deadline:
        time.sleep(0.01)
    c.execute("CLIENT", "UNBLOCK", bid, "ERROR")
    out = [str(blocked.read_reply())]
    out += [s.split("usec=")[0] + s.split("usec_per_call=")[1].split(",", 1)[1]
            for s in stats(c, "commandstats", "cmdstat_blpop")]
    out += stats(c, "errorstats", "errorstat_UNBLOCKED")
    c.close()
    blocked.close()
    return out


def test_unblock_error_counts_a_failed_call(server, redis_ref):
    got, want = run(server.port), run(redis_ref.port)
    assert got == want
    assert "failed_calls=1" in got[1]
