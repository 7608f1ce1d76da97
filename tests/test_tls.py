"""TLS (tls-port) with OpenSSL: redis-cli --tls and redis-py ssl=True against a CA and
certificates made here with `openssl`; plain and TLS ports together; a plain-text client
on the TLS port, a client without a certificate and one signed by another CA are refused
cleanly while the server keeps serving. Valid against redis-server 7.0 (built with TLS).
"""

import os
import socket
import ssl
import subprocess

import pytest
import redis

import time

from server_process import free_port, under_test_binary


def _openssl(*args, cwd):
    subprocess.run(["openssl", *args], cwd=cwd, check=True, capture_output=True)


def _make_ca(d, name):
    _openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
             "-keyout", name + ".key", "-out", name + ".crt", "-subj", "/CN=" + name, cwd=d)


def _make_cert(d, name, ca):
    _openssl("req", "-newkey", "rsa:2048", "-nodes", "-keyout", name + ".key",
             "-out", name + ".csr", "-subj", "/CN=localhost", cwd=d)
    with open(os.path.join(d, name + ".ext"), "w") as f:
        f.write("subjectAltName=IP:127.0.0.1,DNS:localhost\n")
    _openssl("x509", "-req", "-in", name + ".csr", "-CA", ca + ".crt", "-CAkey", ca + ".key",
             "-CAcreateserial", "-days", "2", "-out", name + ".crt", "-extfile", name + ".ext",
             cwd=d)


@pytest.fixture(scope="module")
def certs(tmp_path_factory):
    d = str(tmp_path_factory.mktemp("tls"))
    _make_ca(d, "ca")
    _make_ca(d, "otherca")
    _make_cert(d, "server", "ca")
    _make_cert(d, "client", "ca")
    _make_cert(d, "rogue", "otherca")
    return lambda name: os.path.join(d, name)


def _tls_server(server_factory, certs, *extra):
    tls_port = free_port()
    srv = server_factory(["--tls-port", str(tls_port), "--tls-cert-file", certs("server.crt"),
                          "--tls-key-file", certs("server.key"),
                          "--tls-ca-cert-file", certs("ca.crt"), *extra])
    return srv, tls_port


def _client(port, certs, cert="client", **kw):
    args = dict(host="127.0.0.1", port=port, ssl=True, ssl_ca_certs=certs("ca.crt"),
                socket_timeout=10)
    if cert:
        args.update(ssl_certfile=certs(cert + ".crt"), ssl_keyfile=certs(cert + ".key"))
    args.update(kw)
    return redis.Redis(**args)


def test_redis_py_and_cli_over_tls(server_factory, certs):
    srv, tls_port = _tls_server(server_factory, certs)
    c = _client(tls_port, certs)
    assert c.ping()
    assert c.zadd("lb", {"alice": 10, "bob": 20}) == 2
    assert c.zrevrange("lb", 0, -1, withscores=True) == [(b"bob", 20.0), (b"alice", 10.0)]
    # The plain port serves the same data at the same time.
    assert srv.client().zscore("lb", "alice") == 10.0
    out = subprocess.run(["redis-cli", "--tls", "--cacert", certs("ca.crt"),
                          "--cert", certs("client.crt"), "--key", certs("client.key"),
                          "-p", str(tls_port), "ZSCORE", "lb", "bob"],
                         capture_output=True, text=True, timeout=20)
    assert out.stdout.strip() == "20", out.stderr
    # Big pipelined replies and requests cross many TLS records.
    p = c.pipeline(transaction=False)
    for i in range(2000):
        p.set("k%d" % i, "v" * 1000)
        p.get("k%d" % i)
    res = p.execute()
    assert res[1::2] == [b"v" * 1000] * 2000
    assert c.get("k1999") == b"v" * 1000
    c.close()


def test_plain_text_on_tls_port_is_refused(server_factory, certs):
    srv, tls_port = _tls_server(server_factory, certs)
    s = socket.create_connection(("127.0.0.1", tls_port), timeout=5)
    s.sendall(b"*1\r\n$4\r\nPING\r\n")
    try:
        data = s.recv(100)
    except ConnectionResetError:
        data = b""
    s.close()
    assert b"PONG" not in data
    assert srv.client().ping()
    assert _client(tls_port, certs).ping()


def test_client_certificates(server_factory, certs):
    srv, tls_port = _tls_server(server_factory, certs)
    for cert in (None, "rogue"):
        with pytest.raises((redis.exceptions.ConnectionError, ssl.SSLError, OSError)):
            _client(tls_port, certs, cert=cert).ping()
    assert _client(tls_port, certs).ping()
    assert srv.client().ping()


def test_tls_auth_clients_no_and_optional(server_factory, certs):
    _, port_no = _tls_server(server_factory, certs, "--tls-auth-clients", "no")
    assert _client(port_no, certs, cert=None).ping()
    _, port_opt = _tls_server(server_factory, certs, "--tls-auth-clients", "optional")
    assert _client(port_opt, certs, cert=None).ping()
    assert _client(port_opt, certs).ping()
    with pytest.raises((redis.exceptions.ConnectionError, ssl.SSLError, OSError)):
        _client(port_opt, certs, cert="rogue").ping()


def test_tls_protocols(server_factory, certs):
    _, port = _tls_server(server_factory, certs, "--tls-protocols", "TLSv1.3")
    assert _client(port, certs).ping()
    ctx_args = dict(ssl_min_version=ssl.TLSVersion.TLSv1_2, ssl_max_version=ssl.TLSVersion.TLSv1_2)
    try:
        c = _client(port, certs, **ctx_args)
    except TypeError:  # older redis-py without ssl_min_version
        return
    with pytest.raises((redis.exceptions.ConnectionError, ssl.SSLError, OSError)):
        c.ping()


def _bare(tmp_path, *args):
    """The server under test started directly (no plain port to wait on)."""
    cmd = [under_test_binary(), "--bind", "127.0.0.1", "--dir", str(tmp_path), "--save", "",
           *args]
    log = open(os.path.join(str(tmp_path), "server.log"), "wb")
    return subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT,
                            stdin=subprocess.DEVNULL)


def test_tls_only_with_port_0(tmp_path, certs):
    # As Redis: `port 0` means no plain listener; the TLS port serves alone.
    tls_port = free_port()
    proc = _bare(tmp_path, "--port", "0", "--tls-port", str(tls_port),
                 "--tls-cert-file", certs("server.crt"), "--tls-key-file", certs("server.key"),
                 "--tls-ca-cert-file", certs("ca.crt"))
    try:
        c = _client(tls_port, certs)
        deadline = time.monotonic() + 10
        while True:
            try:
                assert c.ping()
                break
            except redis.ConnectionError:
                assert proc.poll() is None and time.monotonic() < deadline
                time.sleep(0.05)
        assert c.info("server")["tcp_port"] == tls_port  # Redis: the TLS port when port is 0
        assert c.set("k", "v") and c.get("k") == b"v"
    finally:
        proc.terminate()
        proc.wait(10)


def test_port_0_without_tls_refuses_to_start(tmp_path):
    proc = _bare(tmp_path, "--port", "0")
    assert proc.wait(10) != 0
    with open(os.path.join(str(tmp_path), "server.log"), "rb") as f:
        assert b"Configured to not listen anywhere, exiting." in f.read()
