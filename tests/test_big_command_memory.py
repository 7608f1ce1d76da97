"""A command with many arguments must not pin its parsing memory: Redis frees each
command's argv and shrinks a query buffer far above its use, and Redis's lazyfree unit
("UNLINK can reclaim memory in background") expects used_memory to fall back below twice
its start while the same client stays connected."""

import re

from resp_client import RespClient


def _used(client):
    client.send_command("INFO", "memory")
    info = client.read_reply_raw()[0].decode()
    return int(re.search(r"^used_memory:(\d+)", info, re.M).group(1))


def test_memory_of_a_400k_argument_command_is_released_on_an_open_connection(server):
    watcher = RespClient("127.0.0.1", server.port)
    client = RespClient("127.0.0.1", server.port)
    try:
        client.execute("FLUSHALL")
        start = _used(watcher)
        members = [str(i) for i in range(400000)]
        # A read, an unknown command and a write with 400,000 arguments each.
        client.send_command("SMISMEMBER", "nokey", *members)
        client.read_reply_raw()
        client.send_command("NOSUCHCOMMAND", *members)
        client.read_reply_raw()
        client.execute("SADD", "s", *members)
        assert _used(watcher) > start + 8_000_000  # the set itself
        client.execute("DEL", "s")
        # Parsing 400,000 arguments took ~14 MB (offsets, views, the read
        # buffer); none of it may stay with the still-open connection.
        assert _used(watcher) < start + 1_000_000
    finally:
        client.close()
        watcher.close()
