"""Pair: the same commands on rankd and on the reference redis-server 7.0, replies compared
byte for byte (the scripting tests' harness)."""

from resp_client import RespClient


class Pair:
    """One raw RESP2 client on each server; run() sends to both and compares bytes."""

    def __init__(self, server, redis_ref):
        self.a = RespClient("127.0.0.1", server.port)
        self.b = RespClient("127.0.0.1", redis_ref.port)
        self.log = []
        self.run("FLUSHALL")
        self.run("SCRIPT", "FLUSH")
        self.run("FUNCTION", "FLUSH")

    def raw(self, client, *args):
        client.send_command(*args)
        return client.read_reply_raw()

    def run(self, *args):
        ra, rb = self.raw(self.a, *args), self.raw(self.b, *args)
        self.log.append(args)
        assert ra[1] == rb[1], "reply differs for %r\n rankd: %r\n redis: %r\n after: %r" % (
            args, ra[1], rb[1], self.log[-6:])
        return ra[0]

    def run_list(self, *args):
        """FUNCTION LIST: a library's functions come in dict order in Redis; compare them
        sorted by name."""
        def norm(reply):
            out = []
            for lib in reply:
                lib = list(lib)
                i = lib.index(b"functions") + 1
                lib[i] = sorted(lib[i], key=lambda f: f[1])
                out.append(lib)
            return sorted(out, key=lambda lib: lib[1])
        ra, rb = self.raw(self.a, *args)[0], self.raw(self.b, *args)[0]
        assert norm(ra) == norm(rb), "FUNCTION LIST differs\n rankd: %r\n redis: %r" % (ra, rb)

    def close(self):
        self.a.close()
        self.b.close()
