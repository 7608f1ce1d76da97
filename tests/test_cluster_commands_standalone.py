"""Cluster-mode commands on a server started without cluster-enabled (docs/commands.md,
"Redis 7.0 commands rankd does not have"): CLUSTER, ASKING, READONLY and READWRITE answer
redis-server's error; RESTORE-ASKING is RESTORE. Runs against redis-server too
(RANKD_TARGET_REDIS=1)."""

from util import err

DISABLED = err("ERR This instance has cluster support disabled")


def test_cluster_commands_are_disabled(server):
    with server.raw() as c:
        for cmd in (["CLUSTER", "INFO"], ["CLUSTER", "KEYSLOT", "k"], ["ASKING"],
                    ["READONLY"], ["READWRITE"]):
            assert c.execute(*cmd) == DISABLED, cmd


def test_restore_asking_is_restore(server):
    with server.raw() as c:
        c.execute("DEL", "src", "dst")
        assert c.execute("ZADD", "src", 1, "a", 2, "b") == 2
        payload = c.execute("DUMP", "src")
        assert c.execute("RESTORE-ASKING", "dst", 0, payload) == b"OK"
        assert c.execute("ZRANGE", "dst", 0, -1, "WITHSCORES") == [b"a", b"1", b"b", b"2"]
        assert c.execute("RESTORE-ASKING", "dst", 0, payload) == \
            err("BUSYKEY Target key name already exists.")
        assert c.execute("RESTORE-ASKING", "x", 0, b"junk") == \
            err("ERR DUMP payload version or checksum are wrong")
