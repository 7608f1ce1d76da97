"""Differential tests for error texts (issue 19) and introspection (issue 11): fixed
command lists and seeded random sequences, rankd vs redis-server 7.0, RESP2 and RESP3.

Replay one failure: /usr/bin/python3 -m pytest -q tests/test_differential_introspect.py -k NAME
"""

import pytest

import diffgen_introspect as gi
from differential import run_commands
from server_process import reference_redis

pytestmark = pytest.mark.differential


@pytest.mark.parametrize("proto", [2, 3])
def test_error_texts(server_factory, proto):
    target = server_factory()
    ref = reference_redis().start()
    try:
        run_commands(target, ref, gi.ERROR_TEXT_CASES, proto=proto, label="error-texts")
    finally:
        ref.stop()


@pytest.mark.parametrize("proto", [2, 3])
def test_before_auth(server_factory, proto):
    target = server_factory(["--requirepass", "pw"], password="pw")
    ref = reference_redis(["--requirepass", "pw"]).start()
    try:
        run_commands(target, ref, gi.NOAUTH_CASES, proto=proto, label="before-auth")
    finally:
        ref.stop()
