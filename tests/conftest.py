"""pytest fixtures for rankd's integration tests.

Run against rankd:        RANKD_BIN=$PWD/build/rankd /usr/bin/python3 -m pytest -q tests
Run against redis 7.0:    RANKD_TARGET_REDIS=1 /usr/bin/python3 -m pytest -q tests

Fixtures:
  server       module-scoped ServerProcess of the server under test (rankd, or
               redis-server when RANKD_TARGET_REDIS=1)
  r            redis.Redis on `server` (RESP2, bytes replies), FLUSHALL before each test
  r3           resp_client.RespClient on `server` after HELLO 3, FLUSHALL before each test
  raw          resp_client.RespClient on `server` in RESP2, FLUSHALL before each test
  redis_ref    module-scoped reference redis-server 7.0 (--save '' --appendonly no)
  server_factory  function-scoped: start extra servers under test with extra args;
               all are stopped at teardown
"""

import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from server_process import (ServerProcess, ServerStartError, reference_redis,  # noqa: E402,F401
                            server_under_test, target_is_redis)
from resp_client import RespClient, resp3_client  # noqa: E402


def _raise_nofile(want=8192):
    # Servers started by the fixtures inherit this limit (1,000-connection tests).
    import resource
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = want if hard == resource.RLIM_INFINITY else min(want, hard)
    if soft < target:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))


_raise_nofile()


def pytest_configure(config):
    config.addinivalue_line("markers", "slow: takes more than a few seconds")
    config.addinivalue_line("markers", "differential: compares rankd with redis-server byte for byte")


def pytest_report_header(config):
    from server_process import under_test_binary
    return "server under test: %s%s" % (under_test_binary(),
                                         " (RANKD_TARGET_REDIS)" if target_is_redis() else "")


def _start(proc):
    try:
        return proc.start()
    except ServerStartError as e:
        pytest.fail(str(e), pytrace=False)


@pytest.fixture(scope="module")
def server():
    proc = _start(server_under_test())
    yield proc
    proc.stop()


@pytest.fixture(scope="module")
def redis_ref():
    proc = _start(reference_redis())
    yield proc
    proc.stop()


@pytest.fixture
def pair(server, redis_ref):
    """script_pair.Pair: the same commands on rankd and redis-server 7.0, raw replies
    compared (after FLUSHALL, SCRIPT FLUSH and FUNCTION FLUSH on both)."""
    from script_pair import Pair
    p = Pair(server, redis_ref)
    yield p
    p.close()


@pytest.fixture
def server_factory():
    started = []

    def make(extra_args=(), config_file=None, password=None, start=True):
        proc = server_under_test(extra_args, config_file=config_file, password=password)
        started.append(proc)
        if start:
            _start(proc)
        return proc

    yield make
    for proc in started:
        proc.stop()


def _flushall(server):
    with server.raw() as c:
        reply = c.execute("FLUSHALL")
        assert reply == b"OK", "FLUSHALL failed before the test: %r" % (reply,)


@pytest.fixture
def r(server):
    _flushall(server)
    client = server.client()
    yield client
    client.close()


@pytest.fixture
def raw(server):
    _flushall(server)
    c = server.raw()
    yield c
    c.close()


@pytest.fixture
def r3(server):
    _flushall(server)
    c = resp3_client(server.port)
    yield c
    c.close()
