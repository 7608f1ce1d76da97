"""Starting and stopping a server process (rankd or redis-server) for tests.

The server under test is chosen by the environment:
  RANKD_BIN=/path/to/rankd      the binary to test (default: <repo>/build/rankd)
  RANKD_TARGET_REDIS=1          test /usr/bin/redis-server instead (proves the tests)
  REDIS_SERVER_BIN=...          the reference redis-server (default /usr/bin/redis-server)
"""

import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time

import redis

from resp_client import RespClient

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REDIS_SERVER_BIN = os.environ.get("REDIS_SERVER_BIN", "/usr/bin/redis-server")
# Arguments every redis-server we start gets: no persistence, DEBUG allowed.
REDIS_BASE_ARGS = ["--save", "", "--appendonly", "no", "--enable-debug-command", "yes"]
# Arguments every rankd we start gets: DEBUG allowed (off by default, as in Redis 7.0);
# a full sync forks at once (Redis 7.0's default waits 5 s for more replicas).
RANKD_BASE_ARGS = ["--enable-debug-command", "yes", "--repl-diskless-sync-delay", "0"]


def target_is_redis():
    return os.environ.get("RANKD_TARGET_REDIS", "") not in ("", "0")


def rankd_binary():
    return os.environ.get("RANKD_BIN") or os.path.join(REPO_ROOT, "build", "rankd")


def under_test_binary():
    return REDIS_SERVER_BIN if target_is_redis() else rankd_binary()


def free_port():
    """A loopback port that was free a moment ago."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class ServerStartError(RuntimeError):
    pass


class ServerProcess:
    """One server process on a free loopback port with its own data directory.

    `binary` is rankd or redis-server; `is_redis` adds REDIS_BASE_ARGS.
    `config_file`, when given, is passed first (as redis-server takes it)."""

    def __init__(self, binary, extra_args=(), is_redis=False, config_file=None,
                 name=None, password=None):
        self.binary = binary
        self.extra_args = [str(a) for a in extra_args]
        self.is_redis = is_redis
        self.config_file = config_file
        self.name = name or ("redis-server" if is_redis else "rankd")
        self.password = password
        self.host = "127.0.0.1"
        self.port = None
        self.dir = None
        self.proc = None
        self.log_path = None
        self.returncode = None

    # -- lifecycle ----------------------------------------------------------
    def command_line(self):
        args = [self.binary]
        if self.config_file:
            args.append(self.config_file)
        args += ["--port", str(self.port), "--bind", self.host, "--dir", self.dir]
        args += REDIS_BASE_ARGS if self.is_redis else RANKD_BASE_ARGS
        args += self.extra_args
        return args

    def start(self, timeout=10.0, attempts=3):
        if not os.path.exists(self.binary):
            raise ServerStartError("%s binary not found: %s (build it, or set RANKD_BIN; "
                                   "RANKD_TARGET_REDIS=1 tests redis-server)"
                                   % (self.name, self.binary))
        last = None
        for _ in range(attempts):
            self.port = self.pick_port()
            self.dir = tempfile.mkdtemp(prefix="%s-test-" % self.name)
            self.log_path = os.path.join(self.dir, "server.log")
            with open(self.log_path, "wb") as log:
                self.proc = subprocess.Popen(self.command_line(), stdout=log,
                                             stderr=subprocess.STDOUT,
                                             stdin=subprocess.DEVNULL)
            try:
                self.wait_ready(timeout)
                return self
            except ServerStartError as e:
                last = e
                self._kill()
                log_text = self.log_tail()
                shutil.rmtree(self.dir, ignore_errors=True)
                # Retry only when someone else grabbed the port meanwhile.
                if "in use" not in log_text.lower():
                    raise ServerStartError("%s\n--- log ---\n%s" % (e, log_text))
        raise last

    def pick_port(self):
        """The port of the next start attempt (subclasses may need more than one free)."""
        return free_port()

    def wait_ready(self, timeout=10.0):
        """Waits until PING gets any reply (PONG, or NOAUTH with requirepass)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise ServerStartError("%s exited with status %s during start-up: %s"
                                       % (self.name, self.proc.returncode,
                                          " ".join(self.command_line())))
            try:
                with socket.create_connection((self.host, self.port), timeout=1.0) as s:
                    s.sendall(b"*1\r\n$4\r\nPING\r\n")
                    data = s.recv(64)
                    if data[:1] in (b"+", b"-"):
                        return
            except OSError:
                pass
            time.sleep(0.02)
        raise ServerStartError("%s did not answer PING within %.0fs on port %s"
                               % (self.name, timeout, self.port))

    def alive(self):
        return self.proc is not None and self.proc.poll() is None

    def stop(self, timeout=10.0):
        """SIGTERM, then SIGKILL after `timeout`. Returns the exit status."""
        if self.proc is None:
            return self.returncode
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout)
            except subprocess.TimeoutExpired:
                self._kill()
        self.returncode = self.proc.returncode
        self.proc = None
        report = self._sanitizer_report()
        if self.dir:
            shutil.rmtree(self.dir, ignore_errors=True)
            self.dir = None
        if report:
            raise AssertionError("sanitizer report in the server log (kept at %s):\n%s"
                                 % report)
        return self.returncode

    # What a sanitizer build prints; a normal build never does.
    _SANITIZER_MARKERS = (b"ERROR: AddressSanitizer", b"ERROR: LeakSanitizer",
                          b"runtime error:")

    def _sanitizer_report(self):
        """(kept copy, excerpt) when the log holds a sanitizer report, else None.
        The copy outlives the data directory, which stop() removes."""
        try:
            with open(self.log_path, "rb") as f:
                text = f.read()
        except (OSError, TypeError):
            return None
        at = min((text.find(m) for m in self._SANITIZER_MARKERS if m in text), default=-1)
        if at < 0:
            return None
        keep_dir = os.path.join(tempfile.gettempdir(), "rankd-sanitizer-reports")
        os.makedirs(keep_dir, exist_ok=True)
        fd, kept = tempfile.mkstemp(prefix=self.name + "-", suffix=".log", dir=keep_dir)
        with os.fdopen(fd, "wb") as f:
            f.write(text)
        return kept, text[max(0, at - 200):at + 2000].decode("utf-8", "replace")

    def _kill(self):
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)

    def wait_exit(self, timeout=10.0):
        """Waits for the process to exit on its own; returns its status or None."""
        try:
            return self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            return None

    def log_tail(self, n=4000):
        try:
            with open(self.log_path, "rb") as f:
                return f.read()[-n:].decode("utf-8", "replace")
        except OSError:
            return ""

    @property
    def pid(self):
        return self.proc.pid if self.proc else None

    # -- clients ------------------------------------------------------------
    def client(self, **kw):
        kw.setdefault("decode_responses", False)
        kw.setdefault("socket_timeout", 30)
        if self.password is not None:
            kw.setdefault("password", self.password)
        return redis.Redis(host=self.host, port=self.port, **kw)

    def raw(self, timeout=30.0):
        return RespClient(self.host, self.port, timeout=timeout)

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()

    def __repr__(self):
        return "<%s port=%s pid=%s>" % (self.name, self.port, self.pid)


def server_under_test(extra_args=(), config_file=None, password=None):
    """An unstarted ServerProcess for rankd, or redis-server with RANKD_TARGET_REDIS=1."""
    if target_is_redis():
        return ServerProcess(REDIS_SERVER_BIN, extra_args, is_redis=True,
                             config_file=config_file, name="redis-under-test",
                             password=password)
    return ServerProcess(rankd_binary(), extra_args, is_redis=False,
                         config_file=config_file, name="rankd", password=password)


def reference_redis(extra_args=()):
    """An unstarted ServerProcess for the reference redis-server 7.0."""
    return ServerProcess(REDIS_SERVER_BIN, extra_args, is_redis=True, name="redis-ref")
