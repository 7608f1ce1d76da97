"""How replication links show through the client commands, as Redis 7.0.

HELLO's role on a replica, ROLE's link states (handshake against a primary
that never answers), and REPLICAOF's port errors. Valid against
redis-server (RANKD_TARGET_REDIS=1): both servers are then redis-server.
"""

import socket
import time

import pytest


def wait_for(pred, timeout=15.0, what="condition"):
    deadline = time.time() + timeout
    while time.time() < deadline:
        v = pred()
        if v:
            return v
        time.sleep(0.05)
    raise AssertionError("timed out waiting for " + what)


def link_up(client):
    return client.info("replication").get("master_link_status") == "up"


def client_lines(client, *args):
    text = client.execute_command("CLIENT", "LIST", *args)
    if isinstance(text, bytes):
        text = text.decode()
    return [dict(f.split("=", 1) for f in line.split(" ")) for line in text.splitlines()]


def hello_role(server, proto="3"):
    """HELLO's role on a fresh connection (RESP3: a map; RESP2: a flat list)."""
    with server.raw() as c:
        reply = c.execute("HELLO", proto)
    if isinstance(reply, dict):
        return reply[b"role"]
    return dict(zip(reply[::2], reply[1::2]))[b"role"]


@pytest.fixture
def pair(server_factory):
    # No wait before a diskless full sync (Redis waits 5 s by default).
    primary = server_factory(["--repl-diskless-sync-delay", "0"])
    replica = server_factory()
    p, rep = primary.client(), replica.client()
    assert rep.execute_command("REPLICAOF", "127.0.0.1", primary.port) == b"OK"
    wait_for(lambda: link_up(rep), what="the link")
    yield primary, replica, p, rep
    p.close()
    rep.close()


@pytest.fixture
def silent_primary():
    """A port that accepts connections and never answers."""
    lsock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    lsock.bind(("127.0.0.1", 0))
    lsock.listen(8)
    yield lsock.getsockname()[1]
    lsock.close()


def test_hello_role(pair):
    primary, replica, _, rep = pair
    assert hello_role(primary) == b"master"
    assert hello_role(replica) == b"replica"
    assert hello_role(replica, "2") == b"replica"
    assert rep.execute_command("REPLICAOF", "NO", "ONE") == b"OK"
    assert hello_role(replica) == b"master"


def test_role_handshake_with_silent_primary(server_factory, silent_primary):
    server = server_factory()
    c = server.client()
    # The role is replica from REPLICAOF on, link up or not.
    assert c.execute_command("REPLICAOF", "127.0.0.1", silent_primary) == b"OK"
    assert hello_role(server) == b"replica"
    # Connected, PING sent, no reply ever: Redis's "handshake".
    role = wait_for(lambda: (lambda r: r if r[3] == b"handshake" else None)(
        c.execute_command("ROLE")), what="handshake")
    assert role[:3] == [b"slave", b"127.0.0.1", silent_primary]
    assert role[4] == -1
    assert c.execute_command("REPLICAOF", "NO", "ONE") == b"OK"
    assert c.execute_command("ROLE")[0] == b"master"


def test_role_connected(pair):
    primary, _, _, rep = pair
    role = rep.execute_command("ROLE")
    assert role[:4] == [b"slave", b"127.0.0.1", primary.port, b"connected"]


@pytest.mark.parametrize("port", ["abc", "-1", "65536", "70000", "99999999999999999999", "1.5"])
def test_replicaof_bad_port(server_factory, port):
    server = server_factory()
    c = server.client()
    with pytest.raises(Exception, match="^Invalid master port$"):
        c.execute_command("REPLICAOF", "127.0.0.1", port)
    with pytest.raises(Exception, match="^Invalid master port$"):
        c.execute_command("SLAVEOF", "127.0.0.1", port)
    assert c.execute_command("ROLE")[0] == b"master"
