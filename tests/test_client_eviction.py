"""Client eviction (maxmemory-clients, Redis 7.0): the largest clients are closed while all
clients together hold more than the limit; CLIENT NO-EVICT exempts one (issue 32: Redis's
suite, unit/client-eviction and unit/maxmemory's client-eviction tests).

Each test runs against rankd, and against redis-server 7.0.15 with RANKD_TARGET_REDIS=1.
"""

import socket
import time

from util import info, wait_until


def evicted(srv):
    with srv.raw() as r:
        return int(info(r, "stats")["evicted_clients"])


def client_names(c):
    return [e.get("name") for e in c.client_list()]


def named(srv, name):
    c = srv.client()
    c.client_setname(name)
    return c


def partial_bulk(srv, name, size):
    """A connection that sent the start of a `size`-byte argument and stops there."""
    s = socket.create_connection((srv.host, srv.port))
    s.sendall(b"*1\r\n$4\r\nPING\r\n")
    s.recv(100)
    s.sendall(b"*3\r\n$6\r\nCLIENT\r\n$7\r\nSETNAME\r\n$%d\r\n%s\r\n" % (len(name), name.encode()))
    assert s.recv(100) == b"+OK\r\n"
    try:
        s.sendall(b"*2\r\n$%d\r\n" % size + b"v" * size)
    except (BrokenPipeError, ConnectionResetError):
        pass  # evicted while still sending: what the callers then check for
    return s


def test_a_big_query_buffer_gets_its_client_evicted(server):
    c = server.client()
    try:
        assert c.config_set("maxmemory-clients", "3mb")
        before = evicted(server)
        small = partial_bulk(server, "small", 100_000)
        wait_until(lambda: "small" in client_names(c), timeout=5)
        big = partial_bulk(server, "big", 3 * 1024 * 1024 + 1)
        wait_until(lambda: "big" not in client_names(c), timeout=10)
        assert "small" in client_names(c)
        assert evicted(server) == before + 1
        big.close()
        small.close()
    finally:
        c.config_set("maxmemory-clients", "0")


def test_no_evict_clients_count_but_stay(server):
    c = server.client()
    try:
        c.client_setname("control")
        c.execute_command("CLIENT", "NO-EVICT", "ON")
        keep = named(server, "keeper")
        keep.execute_command("CLIENT", "NO-EVICT", "ON")
        keep.execute_command("MULTI")
        for _ in range(3):
            keep.execute_command("SET", "k", "v" * 400_000)  # queued: 1.2 MB held
        other = partial_bulk(server, "other", 200_000)
        wait_until(lambda: "other" in client_names(c), timeout=5)
        # 1 MB: the no-evict client alone is over it, so the other one goes.
        assert c.config_set("maxmemory-clients", "1mb")
        wait_until(lambda: "other" not in client_names(c), timeout=5)
        assert "keeper" in client_names(c)
        tot = [e for e in c.client_list() if e.get("name") == "keeper"][0]["tot-mem"]
        assert int(tot) > 1_200_000
        keep.execute_command("DISCARD")
        other.close()
    finally:
        c.config_set("maxmemory-clients", "0")
        c.execute_command("CLIENT", "NO-EVICT", "OFF")


def test_a_percentage_of_maxmemory_is_the_limit_and_largest_go_first(server):
    c = server.client()
    try:
        c.client_setname("control")
        c.execute_command("CLIENT", "NO-EVICT", "ON")
        socks = [partial_bulk(server, "c%d" % size, size)
                 for size in (100_000, 400_000, 1_600_000)]
        wait_until(lambda: {"c100000", "c400000", "c1600000"} <= set(client_names(c)), timeout=5)
        assert c.config_set("maxmemory", "100mb")
        # 1% of 100 MB: the 1.6 MB client must go, the two smaller ones fit.
        assert c.config_set("maxmemory-clients", "1%")
        wait_until(lambda: "c1600000" not in client_names(c), timeout=5)
        assert {"c100000", "c400000"} <= set(client_names(c))
        assert c.config_get("maxmemory-clients")["maxmemory-clients"] in (b"1%", "1%")
        for s in socks:
            s.close()
    finally:
        c.config_set("maxmemory-clients", "0")
        c.config_set("maxmemory", "0")
        c.execute_command("CLIENT", "NO-EVICT", "OFF")


def test_many_watched_keys_get_a_client_evicted(server):
    c = server.client()
    w = named(server, "watcher")
    try:
        assert c.config_set("maxmemory-clients", "200000")
        evicted = False
        for j in range(200_000):
            try:
                w.execute_command("WATCH", str(j))
            except Exception:
                evicted = True
                break
        assert evicted
        assert "watcher" not in client_names(c)
    finally:
        c.config_set("maxmemory-clients", "0")


def test_a_percentage_limit_follows_maxmemory_and_resetstat_zeroes_the_count(server):
    """The limit a percentage gives moves with a later CONFIG SET maxmemory (the server
    keeps the limit in bytes and must recompute it then); CONFIG RESETSTAT zeroes
    evicted_clients."""
    c = server.client()
    try:
        c.client_setname("control")
        c.execute_command("CLIENT", "NO-EVICT", "ON")
        assert c.config_set("maxmemory", "1000mb")
        assert c.config_set("maxmemory-clients", "1%")  # 10 MB: everyone fits
        s = partial_bulk(server, "big", 2_000_000)
        wait_until(lambda: "big" in client_names(c), timeout=5)
        time.sleep(0.2)
        assert "big" in client_names(c)
        assert c.config_set("maxmemory", "100mb")  # now 1 MB
        wait_until(lambda: "big" not in client_names(c), timeout=5)
        assert evicted(server) >= 1
        c.config_resetstat()
        assert evicted(server) == 0
        s.close()
    finally:
        c.config_set("maxmemory-clients", "0")
        c.config_set("maxmemory", "0")
        c.execute_command("CLIENT", "NO-EVICT", "OFF")
