"""A replica whose snapshot takes longer to load than the primary's repl-timeout (issue 34:
a 10^8-member board loads for minutes). The replica sends the primary a newline about once
a second while it loads and the primary takes any bytes from it as a sign of life, so the
link survives the load and no second full sync follows. The snapshot goes to a file as it
arrives (the replica never holds the whole payload in memory) and the file is removed
once loaded. Runs against redis-server too (RANKD_TARGET_REDIS=1): the same behaviour.
"""

import os
import time

import pytest

from server_process import reference_redis, target_is_redis
from test_replication import info_repl, link_up, wait_for

KEYS = 30000
# key-load-delay is microseconds per key: 9 s of load or more (a loaded machine sleeps
# longer) against a 4 s repl-timeout.
LOAD_DELAY_US = 300
REPL_TIMEOUT = 4


def fill(p):
    pipe = p.pipeline(transaction=False)
    for i in range(KEYS):
        pipe.set("k%d" % i, "v" * 100)
    pipe.zadd("board", {"m%d" % i: i for i in range(1000)})
    pipe.execute()


def log_of(proc):
    with open(proc.log_path, "rb") as f:
        return f.read()


PRIMARY_ARGS = ["--repl-diskless-sync-delay", "0", "--repl-timeout", str(REPL_TIMEOUT)]


@pytest.mark.parametrize("diskless", ["yes", "no"])
def test_link_survives_a_load_longer_than_repl_timeout(server_factory, diskless):
    primary = server_factory(["--repl-diskless-sync", diskless] + PRIMARY_ARGS)
    check_long_load(server_factory, primary)


@pytest.mark.skipif(target_is_redis(), reason="the redis-server primary case is rankd's")
def test_link_survives_a_long_load_from_a_redis_server_primary(server_factory):
    """The primary is redis-server: the payload is a Redis RDB, read by the other loader
    (its progress now comes between keys and every 2 MB, inside one big key too), and the
    primary counting the replica's newlines is Redis's own code."""
    primary = reference_redis(["--repl-diskless-sync", "no"] + PRIMARY_ARGS)
    primary.start()
    try:
        check_long_load(server_factory, primary)
    finally:
        primary.stop()


def check_long_load(server_factory, primary):
    p = primary.client()
    fill(p)
    replica = server_factory(["--key-load-delay", str(LOAD_DELAY_US),
                              # Redis looks at its progress every this many bytes read.
                              "--loading-process-events-interval-bytes", "1024"])
    rep = replica.client()
    started = time.time()
    rep.execute_command("REPLICAOF", "127.0.0.1", primary.port)
    wait_for(lambda: link_up(rep), timeout=60, what="the link after the load")
    took = time.time() - started
    assert took > 2 * REPL_TIMEOUT, "the load must outlast repl-timeout (took %.1f s)" % took
    # Past a full repl-timeout after the load: the link is the first one still.
    time.sleep(REPL_TIMEOUT + 1)
    assert link_up(rep)
    assert p.info("stats")["sync_full"] == 1
    assert info_repl(p)["slave0"]["state"] == "online"
    assert b"Disconnecting timedout replica" not in log_of(primary)
    p.set("after", "1")
    wait_for(lambda: rep.get("after") == b"1", what="a write after the load")
    assert rep.dbsize() == KEYS + 2
    assert not [f for f in os.listdir(replica.dir) if f.startswith("temp-")]
