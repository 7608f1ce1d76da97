"""replica-lazy-flush, as Redis 7.0: the data set a replica drops for a full sync is freed
on the lazy-free thread (INFO lazyfreed_objects counts its keys, as emptyDbAsync) when
yes, at once when no. Valid with RANKD_TARGET_REDIS=1."""

import pytest

from test_replication import link_up, wait_for


@pytest.mark.parametrize("lazy", ["yes", "no"])
def test_full_sync_frees_the_old_data_set_as_configured(server_factory, lazy):
    primary = server_factory().client()
    primary.set("from-primary", "v")
    rep = server_factory(["--replica-lazy-flush", lazy]).client()
    assert rep.config_get("replica-lazy-flush") == {"replica-lazy-flush": lazy}
    rep.mset({"own%d" % i: "v" for i in range(10)})
    rep.execute_command("SELECT", 3)
    rep.zadd("own-zset", {"m%d" % i: i for i in range(500)})
    rep.execute_command("SELECT", 0)
    port = primary.connection_pool.connection_kwargs["port"]
    assert rep.execute_command("REPLICAOF", "127.0.0.1", port) == b"OK"
    wait_for(lambda: link_up(rep), what="link up")
    assert rep.keys("*") == [b"from-primary"]
    expected = 11 if lazy == "yes" else 0
    wait_for(lambda: int(rep.info("memory")["lazyfreed_objects"]) == expected,
             what="lazyfreed_objects == %d" % expected)
    assert rep.config_set("slave-lazy-flush", "no")
