"""Bad input to a cluster node (issue 29): a corrupt nodes.conf refuses start-up with
a clear message and a non-zero exit status; forged or malformed cluster bus packets
(random bytes, a wrong signature, a truncated header, a huge length, a length that
does not match the gossip count, an unknown sender claiming every slot) do not crash
the node and change nothing in CLUSTER NODES or the epochs.

The bus packets follow Redis 7.0's header layout (sizes below); everything is sent to
the bus port (port + 10000) of one node.
"""

import random
import socket
import struct
import subprocess

import pytest

from cluster_util import cluster_fixture, topology
from server_process import target_is_redis

pytestmark = pytest.mark.slow

cluster = cluster_fixture(3, replicas=0)

HEADER_LEN = 2256          # sizeof(clusterMsg) without its data union, Redis 7.0
GOSSIP_LEN = 104           # one gossip entry
PING, PONG, MEET, FAIL, PUBLISH, UPDATE = 0, 1, 2, 3, 4, 7


def header(msg_type, sender, totlen=None, count=0, sig=b"RCmb", ver=1, epoch=1000,
           slots_all=True, port=1, cport=11, flags=1):
    """One bus message header (network byte order) of `msg_type`."""
    myslots = (b"\xff" if slots_all else b"\x00") * 2048
    body = struct.pack(">HHHHQQQ", ver, port, msg_type, count, epoch, epoch, 0)
    body += sender.encode() + myslots + b"\x00" * 40 + b"127.0.0.1".ljust(46, b"\x00")
    body += struct.pack(">H", 0) + b"\x00" * 30 + struct.pack(">HHHB", 0, cport, flags, 0)
    body += b"\x00" * 3
    total = HEADER_LEN if totlen is None else totlen
    msg = sig + struct.pack(">I", total) + body
    assert len(msg) == HEADER_LEN
    return msg


def random_id(rng):
    return "".join(rng.choice("0123456789abcdef") for _ in range(40))


def forged_packets(victim="0" * 40):
    """(name, bytes) pairs; `victim` is a known node id a forged FAIL names."""
    rng = random.Random(29)
    unknown = random_id(rng)
    ping = header(PING, unknown)
    return [
        ("random bytes", bytes(rng.getrandbits(8) for _ in range(4096))),
        ("wrong signature", b"RCmX" + ping[4:]),
        ("truncated header", ping[:100]),
        ("header cut after the length", ping[:8]),
        ("huge totlen", header(PING, unknown, totlen=0xFFFFFFF0)[:3000]),
        ("count without gossip", header(PING, unknown, count=65535)),
        ("gossip count mismatch", header(PING, unknown, totlen=HEADER_LEN + GOSSIP_LEN,
                                         count=3) + b"\x00" * GOSSIP_LEN),
        ("wrong version", header(PING, unknown, ver=2)),
        ("unknown sender claims all slots", ping),
        ("unknown sender pong", header(PONG, unknown)),
        ("unknown type", header(77, unknown)),
        ("unknown sender update", header(UPDATE, unknown, totlen=HEADER_LEN + 8 + 40 + 2048)
         + struct.pack(">Q", 99999) + unknown.encode() + b"\xff" * 2048),
        ("unknown sender fails a node", header(FAIL, unknown, totlen=HEADER_LEN + 40)
         + victim.encode()),
        ("unknown sender publish", header(PUBLISH, unknown, totlen=HEADER_LEN + 8 + 4)
         + struct.pack(">II", 2, 2) + b"chms"),
    ]


def send_bus(node, data, linger=0.2):
    with socket.create_connection((node.host, node.bus_port), timeout=5) as s:
        try:
            s.sendall(data)
            s.settimeout(linger)
            s.recv(65536)          # a PONG or a close; either is fine
        except (socket.timeout, OSError):
            pass


def snapshot(cluster):
    return [(topology(n.cluster_nodes()), n.cluster_info()["cluster_current_epoch"],
             n.cluster_nodes()[n.node_id]["config_epoch"]) for n in cluster.nodes]


@pytest.mark.parametrize("index", range(len(forged_packets())),
                         ids=[p[0] for p in forged_packets()])
def test_forged_bus_packet_changes_nothing(cluster, index):
    before = snapshot(cluster)
    target = cluster.nodes[0]
    name, data = forged_packets(victim=cluster.nodes[1].node_id)[index]
    send_bus(target, data)
    send_bus(target, data)                       # twice, on two connections
    assert target.alive(), target.log_tail()
    assert target.call("PING") is True
    # Whatever the packet did, it did at once; a cron tick later nothing has moved.
    assert snapshot(cluster) == before
    cluster.wait_stable()
    assert snapshot(cluster) == before
    assert cluster.nodes[0].cluster_info()["cluster_known_nodes"] == "3"


def run_to_exit(node, timeout=20):
    """Starts `node`'s command line in the foreground; returns (status, output). A
    process still running after `timeout` is killed and reported as None."""
    try:
        p = subprocess.run(node.command_line(), capture_output=True, text=True,
                           timeout=timeout, stdin=subprocess.DEVNULL)
        return p.returncode, p.stdout + p.stderr
    except subprocess.TimeoutExpired as e:
        out = (e.stdout or b"")
        return None, out.decode("utf-8", "replace") if isinstance(out, bytes) else out


def corruptions(good, node_id):
    lines = good.splitlines()
    return {
        "garbage": "this is not a nodes file\n",
        "truncated line": good[:len(good) // 2].rsplit(" ", 3)[0] + "\n",
        "slot out of range": good.replace("0-5460", "0-99999"),
        "short node id": good.replace(node_id, "xyz", 1),
        "no myself line": "\n".join(x for x in lines if "myself" not in x) + "\n",
        "bad vars line": good.replace("vars currentEpoch", "vars currentEpoch x"),
        "binary": "\x00\x01\x02\n",
    }


def test_corrupt_nodes_conf_refuses_start_up(cluster):
    node = cluster.nodes[0]
    node.stop(keep_dir=True)
    with open(node.nodes_conf) as f:
        good = f.read()
    assert "0-5460" in good
    try:
        for name, text in corruptions(good, node.node_id).items():
            with open(node.nodes_conf, "w") as f:
                f.write(text)
            status, out = run_to_exit(node)
            assert status is not None, "started with a corrupt nodes.conf (%s)" % name
            assert status != 0, (name, out)
            if target_is_redis():
                assert "Unrecoverable error: corrupted cluster config file." in out, out
            else:
                # rankd's own words: the file is named and the reason is clear.
                low = out.lower()
                assert "nodes.conf" in out and any(
                    w in low for w in ("corrupt", "invalid", "malformed", "cannot parse",
                                       "bad ")), (name, out)
    finally:
        with open(node.nodes_conf, "w") as f:
            f.write(good)
    # With its file back the node rejoins under the same identity.
    node_id = node.node_id
    node.restart()
    assert node.node_id == node_id
    cluster.wait_stable()
    cluster.check()
