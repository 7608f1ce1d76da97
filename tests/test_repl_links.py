"""How replication links show through the client commands, as Redis 7.0.

HELLO's role on a replica, ROLE's link states (handshake against a primary
that never answers), CLIENT LIST / KILL for both ends of a link (flags S on
the primary, the master client with flags M on the replica), MONITOR's
address for replicated commands, and REPLICAOF's port errors. Valid against
redis-server (RANKD_TARGET_REDIS=1): both servers are then redis-server.
"""

import socket

import pytest

from test_replication import link_up, pair, wait_for  # noqa: F401 (pair: a fixture)


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
    # No master client before the link is up.
    assert client_lines(c, "TYPE", "master") == []
    assert c.execute_command("CLIENT", "KILL", "TYPE", "master") == 0
    assert c.execute_command("REPLICAOF", "NO", "ONE") == b"OK"
    assert c.execute_command("ROLE")[0] == b"master"


def test_role_connected(pair):
    primary, _, _, rep = pair
    role = rep.execute_command("ROLE")
    assert role[:4] == [b"slave", b"127.0.0.1", primary.port, b"connected"]


def test_client_list_on_primary_shows_replica_flag(pair):
    _, _, p, _ = pair
    replicas = client_lines(p, "TYPE", "replica")
    assert len(replicas) == 1
    assert replicas[0]["flags"] == "S"
    assert [x["id"] for x in client_lines(p, "TYPE", "slave")] == [replicas[0]["id"]]
    assert replicas[0]["cmd"] in ("psync", "replconf", "replconf|ack")
    everyone = client_lines(p)
    assert [x["flags"] for x in everyone if x["id"] == replicas[0]["id"]] == ["S"]
    assert [x for x in client_lines(p, "TYPE", "normal") if x["flags"] == "S"] == []
    assert client_lines(p, "TYPE", "master") == []


def test_client_list_on_replica_shows_master_link(pair):
    primary, _, p, rep = pair
    p.execute_command("SET", "k", "v")
    assert p.execute_command("WAIT", 1, 10000) == 1
    masters = client_lines(rep, "TYPE", "master")
    assert len(masters) == 1
    m = masters[0]
    assert m["flags"] == "M"
    assert m["addr"] == "127.0.0.1:%d" % primary.port
    assert m["laddr"].startswith("127.0.0.1:")
    assert int(m["fd"]) > 0
    assert m["db"] == "0"
    assert m["user"] == "(superuser)"
    # The same line in the whole list, and in the ID form; not a normal client.
    assert [x for x in client_lines(rep) if x["flags"] == "M"][0]["id"] == m["id"]
    assert client_lines(rep, "ID", m["id"])[0]["addr"] == m["addr"]
    assert [x for x in client_lines(rep, "TYPE", "normal") if x["id"] == m["id"]] == []
    # The primary sees the replica from that same local address.
    assert [x["addr"] for x in client_lines(p, "TYPE", "replica")] == [m["laddr"]]
    # Killing it by ID drops the link, which comes back (PSYNC).
    assert rep.execute_command("CLIENT", "KILL", "ID", m["id"]) == 1
    wait_for(lambda: link_up(rep), what="the link again")
    wait_for(lambda: client_lines(rep, "TYPE", "master"), what="the master client again")
    assert rep.execute_command("CLIENT", "KILL", "TYPE", "master", "ADDR", "127.0.0.1:1") == 0
    assert rep.execute_command("CLIENT", "KILL", "TYPE", "master") == 1


def test_monitor_on_replica_shows_primary_address(pair):
    primary, replica, p, _ = pair
    with replica.raw() as mon:
        assert mon.execute("MONITOR") == b"OK"
        p.execute_command("ZADD", "q", 5, "c")
        line = bytes(mon.read_reply(timeout=10))
        while b'"zadd"' not in line.lower():  # PING and SELECT may come first
            line = bytes(mon.read_reply(timeout=10))
    want = b'[0 127.0.0.1:%d] "zadd" "q" "5" "c"' % primary.port
    assert line.lower().endswith(want), line


@pytest.mark.parametrize("port", ["abc", "-1", "65536", "70000", "99999999999999999999", "1.5"])
def test_replicaof_bad_port(server_factory, port):
    server = server_factory()
    c = server.client()
    with pytest.raises(Exception, match="^Invalid master port$"):
        c.execute_command("REPLICAOF", "127.0.0.1", port)
    with pytest.raises(Exception, match="^Invalid master port$"):
        c.execute_command("SLAVEOF", "127.0.0.1", port)
    assert c.execute_command("ROLE")[0] == b"master"
