"""COMMAND DOCS words: what rankd answers is what scripts/command_docs_prose.txt says (the
generated tables were regenerated after the last edit), and every command has its words.
The comparison with redis-server's facts is in test_differential_introspect.py."""

import os
import sys

import pytest

from resp_client import RespClient
from server_process import target_is_redis

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts"))
from gen_command_docs import PROSE, read_prose  # noqa: E402

pytestmark = pytest.mark.skipif(target_is_redis(), reason="rankd's own words")


@pytest.fixture(scope="module")
def conn(server):
    c = RespClient(server.host, server.port)
    c.execute("HELLO", "3")
    yield c
    c.close()


def _doc(conn, name):
    reply = conn.execute("COMMAND", "DOCS", name)
    assert len(reply.pairs) == 1, name
    return dict(reply.pairs[0][1].pairs)


def _notes(conn, name):
    """{key spec index: note} of `name` ("client|list" finds the subcommand's entry)."""
    top, _, sub = name.partition("|")
    entry = conn.execute("COMMAND", "INFO", top)[0]
    if sub:
        entry = next(e for e in entry[9] if e[0] == name.encode())
    return {i: dict(spec.pairs)[b"notes"].decode() for i, spec in enumerate(entry[8])
            if b"notes" in dict(spec.pairs)}


def test_rankd_answers_the_prose_file(conn):
    prose = read_prose(PROSE)
    assert len(prose) > 250
    for name, words in sorted(prose.items()):
        doc = _doc(conn, name)
        for field in ("summary", "complexity", "replaced_by"):
            got = doc.get(field.encode())
            assert (got.decode() if got else None) == words.get(field), (name, field)
        history = [(v.decode(), t.decode()) for v, t in doc.get(b"history", [])]
        assert history == words["history"], name
        assert _notes(conn, name) == words["notes"], name


def test_every_documented_command_has_a_summary(conn):
    """Commands from the prose file and rankd's hand-written ones (LB.*) alike."""
    prose = read_prose(PROSE)
    names = sorted(n.decode() for n in conn.execute("COMMAND", "LIST"))
    documented = 0
    for name in names:
        doc = _doc(conn, name)
        if b"since" not in doc:
            continue  # no CommandDoc: an undocumented command (see docs/commands.md)
        documented += 1
        assert doc.get(b"summary", b"").endswith(b"."), name
        assert name in prose or name.startswith("lb."), name
    assert documented > 300
