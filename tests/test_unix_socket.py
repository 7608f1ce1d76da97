"""Unix socket listeners (unixsocket, unixsocketperm) and the start-up banner,
side by side with redis-server where the behaviour is Redis's."""

import os
import stat

import pytest
import redis



def _start(server_factory, tmp_path, *extra):
    sock = str(tmp_path / "s.sock")
    srv = server_factory(["--unixsocket", sock, *extra])
    return srv, sock


@pytest.fixture
def unix_server(server_factory, tmp_path):
    return _start(server_factory, tmp_path, "--unixsocketperm", "700")


def test_clients_connect_through_the_socket(unix_server):
    srv, sock = unix_server
    c = redis.Redis(unix_socket_path=sock, decode_responses=True)
    assert c.zadd("z", {"a": 1, "b": 2}) == 2
    assert c.zrange("z", 0, -1, withscores=True) == [("a", 1.0), ("b", 2.0)]
    # The same data over TCP: one server, two listeners.
    tcp = redis.Redis(port=srv.port, decode_responses=True)
    assert tcp.zscore("z", "b") == 2.0


def test_client_list_shows_the_socket_path_and_flag_u(unix_server):
    srv, sock = unix_server
    c = redis.Redis(unix_socket_path=sock, decode_responses=True)
    info = c.execute_command("CLIENT", "INFO")
    fields = dict(kv.split("=", 1) for kv in info.split())
    assert fields["addr"] == sock + ":0"
    assert fields["laddr"] == sock + ":0"
    assert "U" in fields["flags"]
    tcp = redis.Redis(port=srv.port, decode_responses=True)
    tcp_fields = dict(kv.split("=", 1) for kv in tcp.execute_command("CLIENT", "INFO").split())
    assert "U" not in tcp_fields["flags"]


def test_socket_file_has_the_configured_mode_and_config_get_reports_it(unix_server):
    srv, sock = unix_server
    assert stat.S_ISSOCK(os.stat(sock).st_mode)
    assert stat.S_IMODE(os.stat(sock).st_mode) == 0o700
    c = redis.Redis(port=srv.port, decode_responses=True)
    assert c.config_get("unixsocket") == {"unixsocket": sock}
    assert c.config_get("unixsocketperm") == {"unixsocketperm": "700"}


def test_socket_file_is_removed_at_shutdown(unix_server):
    srv, sock = unix_server
    c = redis.Redis(unix_socket_path=sock)
    try:
        c.shutdown(nosave=True)
    except redis.exceptions.ConnectionError:
        pass  # redis-py versions differ on whether the close is raised
    srv.wait_exit()
    assert not os.path.exists(sock)


def test_a_stale_socket_file_is_replaced(server_factory, tmp_path):
    sock = tmp_path / "s.sock"
    sock.write_text("left over")
    srv, path = _start(server_factory, tmp_path)
    assert redis.Redis(unix_socket_path=path).ping()


@pytest.mark.parametrize("perm,message", [
    ("999", "argument couldn't be parsed as an octal number"),
    ("1000", "argument must be between 0 and 777 inclusive"),
])
def test_bad_unixsocketperm_stops_startup(server_factory, perm, message):
    srv = server_factory(["--unixsocketperm", perm], start=False)
    with pytest.raises(Exception) as e:
        srv.start(timeout=5, attempts=1)
    assert message in str(e.value)


def test_banner_names_the_pid_when_always_show_logo(server_factory):
    srv = server_factory(["--always-show-logo", "yes"])
    with open(srv.log_path) as f:
        log = f.read()
    assert " PID: %d" % srv.pid in log
    assert "Port: %d" % srv.port in log


def test_without_the_logo_one_running_line(server_factory):
    srv = server_factory()
    with open(srv.log_path) as f:
        log = f.read()
    assert "Running mode=standalone, port=%d." % srv.port in log
    assert " PID: " not in log
