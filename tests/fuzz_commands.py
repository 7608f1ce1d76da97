"""Command-level fuzzer for rankd (issue 18): a library and a command line.

    /usr/bin/python3 tests/fuzz_commands.py --seed 7 --seconds 60 [--bin build/rankd]
    /usr/bin/python3 tests/fuzz_commands.py --seed 7 --max-commands 12345   # replay a run
    /usr/bin/python3 tests/fuzz_commands.py --redis --seconds 30           # redis-server 7.0

It starts the server on a free port, writes a canary data set, then sends seeded
random and mutated commands (fuzz_grammar.py: every command of the server's COMMAND
table, with boundary and invalid arguments, MULTI blocks and Lua scripts) in batches.
Every reply must be well-formed RESP, and the replies must stay in step with the
requests (an ECHO marker ends each pipelined chunk). After each batch a second
connection checks that the server process is alive, answers PING and that the canary
reads back exactly as written. Socket timeouts turn a hang into a failure.

Every EPOCH_BATCHES batches an epoch starts: the fuzz keys in all databases, the
connection state, config, scripts and functions are reset and the typed keys
recreated, so an epoch replays on its own. On a failure (crash, hang, stuck command,
dropped connection, malformed reply, canary change) the run stops, prints the seed and
minimises: it replays the epoch up to the failure on a fresh server, shortens it
(suffixes, then delta debugging, then long arguments) while the same kind of failure
still happens, within a time bound, and prints the result as redis-cli-ready lines.

Generation never depends on replies, so `--seed S --max-commands N` repeats a run
exactly; N is printed with each failure.
"""

import argparse
import os
import re
import socket
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from cli_format import line as cli_line  # noqa: E402  (commands as redis-cli reads them)
import fuzz_grammar as fg  # noqa: E402
from resp_client import (ConnectionClosed, ProtocolParseError, RespClient,  # noqa: E402
                         RespError, encode_command)
from server_process import (REDIS_SERVER_BIN, ServerProcess,  # noqa: E402
                            rankd_binary)

BATCH = 200                  # commands between two canary checks
EPOCH_BATCHES = 10           # batches per epoch (reset of the fuzz keys)
CHUNK = 20                   # commands pipelined in one write
CHUNK_BYTES = 1 << 20
REPLY_TIMEOUT = 15.0         # seconds; blocking commands wait at most 0.1 s
KEEP_EPOCHS = 3              # epochs of history kept for minimisation

KINDS = {
    "crash": "the server process died",
    "hang": "the server stopped answering (PING on a new connection timed out)",
    "stuck": "a command got no reply though the server still answers PING",
    "disconnect": "the server closed the fuzz connection",
    "protocol": "a malformed reply, or replies out of step with the requests",
    "canary": "the canary data set read back differently",
}


class Failure(Exception):
    def __init__(self, kind, detail, index=None, log=""):
        super().__init__("%s: %s" % (kind, detail))
        self.kind, self.detail, self.index, self.log = kind, detail, index, log
        self.last = index        # the last command the server may have seen


# ---------------------------------------------------------------------------
# The canary: keys the fuzzer never names, written once, read back after each batch.

CANARY_WRITE = [
    ["ZADD", "canary:zset", "1", "a", "2", "b", "2", "c", "-inf", "lo", "+inf", "hi",
     "0", "zero", "1.5", "x y", "-0.25", "\xff"],
    ["ZADD", "canary:zbig"] + [x for i in range(150) for x in (str(i % 17), "m%d" % i)],
    ["LB.CREATE", "canary:board", "ORDER", "ASC", "TIES", "LAST"],
    ["LB.ADD", "canary:board", "AT", "1000", "5", "a", "5", "b", "1", "c", "5", "d", "7", "e"],
    ["SADD", "canary:iset", "1", "2", "3", "-7"],
    ["SADD", "canary:hset", "a", "b", "c", "d", "1"],
    ["SET", "canary:str", "hello canary"],
    ["SET", "canary:ttl", "expiring", "EX", "100000"],
    ["SELECT", "15"],
    ["SET", "canary:db15", "in db 15"],
    ["ZADD", "canary:db15z", "1", "a", "2", "b"],
    ["SELECT", "0"],
]
CANARY_READ = [
    ["ZRANGE", "canary:zset", "0", "-1", "WITHSCORES"],
    ["ZRANGE", "canary:zbig", "0", "-1", "WITHSCORES"],
    ["ZRANGE", "canary:board", "0", "-1", "WITHSCORES"],
    ["LB.INFO", "canary:board"],
    ["LB.TOP", "canary:board", "10", "MODE", "COMPETITION"],
    ["LB.STAMP", "canary:board", "d"],
    ["SMEMBERS", "canary:iset"],
    ["SMEMBERS", "canary:hset"],
    ["GET", "canary:str"],
    ["GET", "canary:ttl"],
    ["TYPE", "canary:board"],
    ["OBJECT", "ENCODING", "canary:zset"],
    ["OBJECT", "ENCODING", "canary:zbig"],
    ["SELECT", "15"],
    ["GET", "canary:db15"],
    ["ZRANGE", "canary:db15z", "0", "-1", "WITHSCORES"],
    ["SELECT", "0"],
]


def _canon(cmd, reply):
    if cmd[0] == "SMEMBERS" and isinstance(reply, list):
        return sorted(reply)
    return reply


class Canary:
    """The checker connection (RESP2, db 0) and the canary's expected read-back."""

    def __init__(self, server, timeout):
        self.server = server
        self.timeout = timeout
        self.conn = None
        self.baseline = None

    def write(self):
        self.conn = RespClient(self.server.host, self.server.port, timeout=self.timeout)
        for cmd in CANARY_WRITE:
            self.conn.execute(*cmd)       # LB.* fail on redis-server: fine
        self.baseline = self.read()

    def read(self):
        replies = self.conn.pipeline(CANARY_READ)
        return [_canon(c, r) for c, r in zip(CANARY_READ, replies)]

    def check(self):
        """Raises Failure unless PING answers PONG and the canary is unchanged."""
        pong = self.conn.execute("PING")
        if pong != b"PONG":
            raise Failure("protocol", "PING on the checker connection replied %r" % (pong,))
        now = self.read()
        for cmd, want, got in zip(CANARY_READ, self.baseline, now):
            if want != got:
                raise Failure("canary", "%s\n  expected %r\n  got      %r"
                              % (cli_line(cmd), _short(want), _short(got)))
        pttl = self.conn.execute("PTTL", "canary:ttl")
        if not (isinstance(pttl, int) and 0 < pttl <= 100000 * 1000):
            raise Failure("canary", "PTTL canary:ttl is %r, expected 0 < pttl <= 1e8" % (pttl,))

    def close(self):
        if self.conn is not None:
            self.conn.close()
            self.conn = None


def _interesting_log(text, n=40):
    """The last n lines of a server log without its routine notices ("pid:M date *"),
    so that warnings and sanitizer reports stand out."""
    lines = text.rstrip().split("\n")[1:]          # the first may be cut
    lines = [ln for ln in lines if ln and not re.match(r"^\d+:[MCSX] .*? \* ", ln)]
    return lines[-n:]


def _short(v, n=300):
    s = repr(v)
    return s if len(s) <= n else s[:n] + "...(%d chars)" % len(s)


# ---------------------------------------------------------------------------
# Sending commands and classifying what goes wrong.

class Stats:
    def __init__(self):
        self.sent = 0
        self.errors = 0
        self.by_command = {}      # name -> [ok, error]

    def merge(self, other):
        self.sent += other.sent
        self.errors += other.errors
        for name, (ok, err) in other.by_command.items():
            row = self.by_command.setdefault(name, [0, 0])
            row[0] += ok
            row[1] += err

    def count(self, cmd, reply):
        self.sent += 1
        name = cmd[0] if isinstance(cmd[0], str) else cmd[0].decode("latin-1")
        row = self.by_command.setdefault(name.upper(), [0, 0])
        if isinstance(reply, RespError):
            self.errors += 1
            row[1] += 1
        else:
            row[0] += 1


def classify(server, exc, index, cmd, reply_timeout, last=None):
    """Turns what the fuzz connection saw into a Failure. `index`/`cmd`: the first
    command without a reply; `last`: the last command of its pipelined chunk (the
    server may have run up to there before anything went wrong)."""
    what = "command #%d %s" % (index, cli_line(cmd, limit=80))
    if last is not None and last > index:
        what += " (or a later one of its pipelined chunk, up to #%d)" % last
    f = _classify(server, exc, index, what, reply_timeout)
    f.last = max(index, last or index)
    return f


def _classify(server, exc, index, what, reply_timeout):
    if isinstance(exc, (ProtocolParseError, ValueError, UnicodeDecodeError)):
        return Failure("protocol", "malformed reply to %s: %s" % (what, exc), index)
    # A crash can take a while to finish (sanitizer reports): give it time.
    closed = isinstance(exc, (ConnectionClosed, ConnectionError, BrokenPipeError))
    wait = 10.0 if closed else 1.0
    code = server.wait_exit(wait) if server.proc is not None else None
    if code is not None:
        return Failure("crash", "the server exited with status %s (%s) at %s"
                       % (code, _signal_name(code), what), index, server.log_tail(20000))
    pong = ping(server, timeout=min(5.0, reply_timeout))
    if not pong.startswith(b"+PONG"):
        return Failure("hang", "PING on a new connection got %r after %s"
                       % (pong[:100] or "no reply", what), index, server.log_tail(20000))
    if closed:
        return Failure("disconnect", "the server closed the connection at %s" % what, index)
    return Failure("stuck", "no reply within %.0fs to %s" % (reply_timeout, what), index)


def _signal_name(code):
    if code is not None and code < 0:
        import signal
        try:
            return signal.Signals(-code).name
        except ValueError:
            return "signal %d" % -code
    return "exit"


def ping(server, timeout):
    """The first bytes of a PING reply on a new connection (b"" if none)."""
    try:
        with socket.create_connection((server.host, server.port), timeout=timeout) as s:
            s.sendall(b"*1\r\n$4\r\nPING\r\n")
            return s.recv(256)
    except OSError:
        return b""


def execute(server, client, cmds, base, stats, reply_timeout, in_multi=False):
    """Sends cmds (numbered from base) in pipelined chunks; raises Failure.
    `in_multi`: whether the connection is inside MULTI before; returns it after."""
    i = 0
    while i < len(cmds):
        j, size = i, 0
        while j < len(cmds) and j - i < CHUNK and (size < CHUNK_BYTES or j == i):
            size += sum(len(a) for a in cmds[j])
            j += 1
        marker = "fz-sync-%d" % (base + j)
        payload = b"".join(encode_command(*c) for c in cmds[i:j])
        try:
            client.send_raw(payload + encode_command("ECHO", marker))
        except OSError as e:
            raise classify(server, e, base + i, cmds[i], reply_timeout, base + j - 1)
        for k in range(i, j):
            try:
                reply = client.read_reply(timeout=reply_timeout)
            except (OSError, ConnectionClosed, ProtocolParseError, ValueError,
                    UnicodeDecodeError) as e:
                raise classify(server, e, base + k, cmds[k], reply_timeout, base + j - 1)
            in_multi = fg.next_multi_state(in_multi, cmds[k])
            stats.count(cmds[k], reply)
        try:
            echo = client.read_reply(timeout=reply_timeout)
        except (OSError, ConnectionClosed, ProtocolParseError, ValueError) as e:
            raise classify(server, e, base + j - 1, cmds[j - 1], reply_timeout)
        want = b"QUEUED" if in_multi else marker.encode()
        if echo != want:
            raise Failure("protocol", "replies out of step after command #%d %s: the "
                          "marker ECHO got %r, expected %r"
                          % (base + j - 1, cli_line(cmds[j - 1], 80), _short(echo), want),
                          base + j - 1)
        i = j
    return in_multi


def check(server, canary, index):
    """After a batch: the process is alive, PING and the canary are right."""
    if server.proc is not None and server.proc.poll() is not None:
        code = server.wait_exit(1)
        raise Failure("crash", "the server exited with status %s (%s) before the check "
                      "after command #%d" % (code, _signal_name(code), index), index,
                      server.log_tail(20000))
    try:
        canary.check()
    except Failure as f:
        f.index = f.last = index
        raise
    except (OSError, ConnectionClosed, ProtocolParseError, ValueError) as e:
        raise classify(server, e, index, ["<canary check>"], canary.timeout)


# ---------------------------------------------------------------------------
# Servers.

def server_factory(binary=None, redis=False, extra_args=()):
    """A function returning a new, unstarted ServerProcess."""
    if redis:
        return lambda: ServerProcess(REDIS_SERVER_BIN, extra_args, is_redis=True,
                                     name="redis-fuzz")
    binary = binary or rankd_binary()
    return lambda: ServerProcess(binary, extra_args, name="rankd-fuzz")


# ---------------------------------------------------------------------------
# One run.

class Result:
    def __init__(self, seed):
        self.seed = seed
        self.stats = Stats()
        self.elapsed = 0.0
        self.batches = 0
        self.epochs = 0
        self.failure = None
        self.minimal = None          # the minimised command list, or None
        self.minimal_note = ""
        self.skipped = {}

    def summary(self):
        s = self.stats
        return ("seed %d: %d commands (%d error replies) in %d batches, %d epochs, %.1fs, "
                "%d distinct commands%s"
                % (self.seed, s.sent, s.errors, self.batches, self.epochs, self.elapsed,
                   len(s.by_command),
                   "; FAILURE: %s" % self.failure.kind if self.failure else "; no failure"))

    def report(self):
        f = self.failure
        if f is None:
            return self.summary()
        lines = ["FUZZ FAILURE (%s: %s)" % (f.kind, KINDS.get(f.kind, "")),
                 "seed %d, failing at command #%s (numbered from 0), after %.1fs"
                 % (self.seed, f.index, self.elapsed),
                 f.detail]
        log = _interesting_log(f.log)
        if log:
            lines += ["--- server log (last lines, notices left out) ---"] + log
        if self.minimal is not None:
            lines += ["--- minimal sequence: %d commands (%s); redis-cli ready: ---"
                      % (len(self.minimal), self.minimal_note)]
            lines += [cli_line(c, limit=200) for c in self.minimal]
            lines.append("---")
        elif self.minimal_note:
            lines.append("minimisation: " + self.minimal_note)
        if f.index is not None:
            lines.append("replay the whole run: /usr/bin/python3 tests/fuzz_commands.py "
                         "--seed %d --max-commands %d" % (self.seed, f.last + 1))
        return "\n".join(lines)


def run(seed, seconds, make_server, max_commands=None, minimize_seconds=60.0,
        reply_timeout=REPLY_TIMEOUT, exclude=(), log=print):
    """Fuzzes one fresh server for `seconds` (or `max_commands`). Returns a Result;
    on a failure, result.failure is set and result.minimal holds the minimised
    sequence (when it reproduced). `exclude`: command names not to send (to look
    past a known bug)."""
    result = Result(seed)
    server = make_server()
    server.start()
    canary = Canary(server, timeout=reply_timeout)
    client = None
    history = []                 # the last KEEP_EPOCHS epochs: (first index, commands)
    start = time.monotonic()
    try:
        canary.write()
        client = RespClient(server.host, server.port, timeout=reply_timeout)
        with RespClient(server.host, server.port) as c:
            gen = fg.Generator(seed, fg.command_table(c), exclude=exclude)
        result.skipped = gen.skipped
        index = 0
        in_multi = False
        while True:
            if result.batches % EPOCH_BATCHES == 0:
                history.append((index, []))
                del history[:-KEEP_EPOCHS]
                cmds = gen.reset()
                result.epochs += 1
            else:
                cmds = []
            cmds += gen.batch(BATCH)
            if max_commands is not None:
                cmds = cmds[:max(0, max_commands - index)]
            history[-1][1].extend(cmds)
            in_multi = execute(server, client, cmds, index, result.stats, reply_timeout,
                               in_multi)
            index += len(cmds)
            result.batches += 1
            check(server, canary, index - 1)
            if max_commands is not None and index >= max_commands:
                break
            if max_commands is None and time.monotonic() - start >= seconds:
                break
    except Failure as f:
        result.failure = f
    finally:
        result.elapsed = time.monotonic() - start
        if client is not None:
            client.close()
        canary.close()
        server.stop()
    if result.failure is not None:
        log("FUZZ FAILURE seed %d: %s at command #%s; minimising (up to %.0fs)"
            % (seed, result.failure.kind, result.failure.index, minimize_seconds))
        minimize(result, history, make_server, minimize_seconds, reply_timeout, log)
    return result


# ---------------------------------------------------------------------------
# Minimisation.

class Replayer:
    """Runs candidate sequences on a server of its own: restarted after a crash or
    hang, otherwise reset (FLUSHALL, scripts, functions, config) and reused."""

    def __init__(self, make_server, reply_timeout):
        self.make_server = make_server
        self.reply_timeout = reply_timeout
        self.server = None
        self.canary = None
        self.tests = 0

    def _fresh(self):
        self.close()
        self.server = self.make_server()
        self.server.start()
        self.canary = Canary(self.server, timeout=self.reply_timeout)
        self.canary.write()

    def _reset(self):
        if self.server is None or not self.server.alive():
            return self._fresh()
        try:
            self.canary.close()
            with RespClient(self.server.host, self.server.port,
                            timeout=self.reply_timeout) as c:
                cfg = ["CONFIG", "SET"]
                for name in fg.CONFIG_RESET:
                    cfg += [name, fg.CONFIG_SAFE[name]]
                c.pipeline([cfg, ["FLUSHALL"], ["SCRIPT", "FLUSH"], ["FUNCTION", "FLUSH"]])
            self.canary.write()
        except (OSError, ConnectionClosed, ProtocolParseError):
            self._fresh()

    def test(self, cmds):
        """The Failure this sequence causes, or None."""
        self.tests += 1
        self._reset()
        client = RespClient(self.server.host, self.server.port, timeout=self.reply_timeout)
        try:
            execute(self.server, client, cmds, 0, Stats(), self.reply_timeout)
            check(self.server, self.canary, len(cmds) - 1)
            return None
        except Failure as f:
            if f.kind in ("crash", "hang"):
                self.close()
            return f
        finally:
            client.close()

    def close(self):
        if self.canary is not None:
            self.canary.close()
            self.canary = None
        if self.server is not None:
            self.server.stop()
            self.server = None


def minimize(result, history, make_server, seconds, reply_timeout, log=print):
    f = result.failure
    if f.index is None:
        result.minimal_note = "no command index to replay up to"
        return
    deadline = time.monotonic() + seconds
    replayer = Replayer(make_server, min(reply_timeout, 5.0))

    def fails(cmds):
        if not cmds or time.monotonic() > deadline:
            return False
        got = replayer.test(cmds)
        return got is not None and got.kind == f.kind

    try:
        # Candidates: the failing epoch up to the end of the failing chunk, then
        # earlier epochs as well (for what an epoch reset does not undo).
        end = f.last + 1
        seq = None
        for first_epoch in range(len(history) - 1, -1, -1):
            start = history[first_epoch][0]
            cand = [c for _, cmds in history[first_epoch:] for c in cmds][:end - start]
            if fails(cand):
                seq = cand
                break
        if seq is None:
            result.minimal_note = ("did not reproduce on a fresh server (timing-dependent?) "
                                   "in %d replays" % replayer.tests)
            return
        seq = _shrink_suffix(seq, fails)
        seq = ddmin(seq, fails, deadline)
        seq = _shrink_args(seq, fails)
        result.minimal = seq
        result.minimal_note = "%d replays%s" % (
            replayer.tests, ", time bound hit: may not be minimal"
            if time.monotonic() > deadline else "")
        log("minimised to %d commands in %d replays" % (len(seq), replayer.tests))
    finally:
        replayer.close()


def _shrink_suffix(seq, fails):
    """The failure usually sits at the end: try the last 1, 2, 4, ... commands."""
    n = 1
    while n < len(seq):
        if fails(seq[-n:]):
            return seq[-n:]
        n *= 2
    return seq


def ddmin(seq, fails, deadline):
    """Zeller's delta debugging: a 1-minimal subsequence that still fails (when the
    time bound allows)."""
    n = 2
    while len(seq) >= 2 and time.monotonic() < deadline:
        size = -(-len(seq) // n)
        parts = [seq[i:i + size] for i in range(0, len(seq), size)]
        for p in parts:
            if fails(p):
                seq, n = p, 2
                break
        else:
            for k in range(len(parts)):
                rest = [c for i, p in enumerate(parts) if i != k for c in p]
                if fails(rest):
                    seq, n = rest, max(n - 1, 2)
                    break
            else:
                if n >= len(seq):
                    break
                n = min(len(seq), 2 * n)
    return seq


def _shrink_args(seq, fails):
    """Replaces long arguments by 16 bytes where the failure stays."""
    seq = [list(c) for c in seq]
    for ci, cmd in enumerate(seq):
        for ai, a in enumerate(cmd):
            if len(a) > 32:
                trial = [list(c) for c in seq]
                trial[ci][ai] = a[:16]
                if fails(trial):
                    seq = trial
    return seq


# ---------------------------------------------------------------------------
# Command line.

def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--seed", type=int, default=None, help="default: time-based, printed")
    p.add_argument("--seconds", type=float, default=60.0)
    p.add_argument("--max-commands", type=int, default=None,
                   help="stop after exactly this many commands (replays a run)")
    p.add_argument("--bin", default=None, help="rankd binary (default RANKD_BIN or build/rankd)")
    p.add_argument("--redis", action="store_true", help="fuzz redis-server 7.0 instead")
    p.add_argument("--minimize-seconds", type=float, default=120.0)
    p.add_argument("--reply-timeout", type=float, default=REPLY_TIMEOUT)
    p.add_argument("--seeds", type=int, default=1,
                   help="run this many consecutive seeds, sharing --seconds")
    p.add_argument("--keep-going", action="store_true",
                   help="after a failure, go on with the next seed")
    p.add_argument("--stats", action="store_true", help="print per-command reply counts")
    p.add_argument("--exclude", default="",
                   help="comma-separated command names not to send (look past a known bug)")
    a = p.parse_args(argv)
    seed = a.seed if a.seed is not None else int(time.time()) % 100000
    make = server_factory(a.bin, a.redis)
    failed = 0
    total = Stats()
    start = time.monotonic()
    deadline = time.monotonic() + a.seconds
    for s in range(seed, seed + a.seeds):
        # A seed that stops early (a failure) leaves its time to the next ones.
        per = max(1.0, (deadline - time.monotonic()) / (seed + a.seeds - s))
        print("fuzzing seed %d for %.0fs%s" % (s, per, "" if a.max_commands is None else
                                               " (at most %d commands)" % a.max_commands),
              flush=True)
        r = run(s, per, make, max_commands=a.max_commands,
                minimize_seconds=a.minimize_seconds, reply_timeout=a.reply_timeout,
                exclude=[n.strip().lower() for n in a.exclude.split(",") if n.strip()])
        total.merge(r.stats)
        print(r.summary(), flush=True)
        if r.failure:
            print(r.report(), flush=True)
            failed += 1
            if not a.keep_going:
                break
    if a.stats:
        for name, (ok, err) in sorted(total.by_command.items()):
            print("  %-22s %9d ok %9d error replies" % (name, ok, err))
    print("total: %d commands (%d error replies, %d distinct commands) in %.0fs, "
          "%d failing seed(s)" % (total.sent, total.errors, len(total.by_command),
                                  time.monotonic() - start, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
