"""The sample configuration shipped at the repository root (rankd.conf, issue 33) starts
rankd, with --port and --dir given after it as README.md shows, and every setting it
names takes the value it writes."""

import os
import shlex

import pytest

import doc_blocks
from server_process import target_is_redis

pytestmark = pytest.mark.skipif(target_is_redis(), reason="rankd's own sample file")

SAMPLE = os.path.join(doc_blocks.ROOT, "rankd.conf")


def settings():
    """(name, value) of each setting line of the sample file."""
    out = []
    for line in open(SAMPLE, encoding="utf-8"):
        line = line.strip()
        if line and not line.startswith("#"):
            words = shlex.split(line)
            out.append((words[0], " ".join(words[1:])))
    return out


def config(c, name):
    d = c.config_get(name)
    v = d.get(name, d.get(name.encode()))
    return v.decode() if isinstance(v, bytes) else v


def test_sample_config_starts_rankd(server_factory, tmp_path):
    proc = server_factory(config_file=SAMPLE, extra_args=["--dir", str(tmp_path)])
    c = proc.client()
    try:
        assert c.ping()
        for name, value in settings():
            if name in ("port", "dir"):
                continue  # overridden on the command line
            assert config(c, name) == value, name
        assert config(c, "dir") == str(tmp_path)
        c.set("k", "v")
    finally:
        c.close()
    assert os.path.isdir(tmp_path / "appendonlydir")  # appendonly yes


def test_sample_config_names_only_documented_settings():
    doc = open(os.path.join(doc_blocks.ROOT, "docs", "configuration.md"), encoding="utf-8").read()
    missing = [name for name, _ in settings() if "`%s`" % name not in doc]
    assert missing == []
