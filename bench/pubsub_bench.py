#!/usr/bin/python3
"""PUBLISH fan-out, rankd and redis-server 7.0 side by side (issue 12).

For 1, 10 and 100 subscribers on one channel, redis-benchmark sends
`PUBLISH bench <16 bytes>` from 50 clients at pipeline 1 and 16 while a drain thread
reads every subscriber's socket (so no output buffer grows); servers alternate per
round and the table shows medians (publishes/s) and the ratio. Both servers get
`client-output-buffer-limit pubsub 0 0 0` so a lagging drain never drops anyone.

  bench/pubsub_bench.py            BENCH_ROUNDS [3]  BENCH_CLIENTS [50]
"""

import os
import selectors
import socket
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sidebyside as sb  # noqa: E402

SUBSCRIBERS = (1, 10, 100)


def requests_for(subs, pipeline):
    # Fewer publishes where each fans out more, so every run delivers a similar volume.
    base = 60000 if pipeline == 1 else 300000
    return max(10000, base // max(1, subs // 10))


class Drain:
    """`n` subscribers of channel `bench`, read continuously by one thread. Other
    benches pass their own `handshake` and the bytes that end its reply (`ready`);
    `marker` counts messages (self.messages); `paused` stops reading for a while."""

    def __init__(self, port, n, handshake=b"*2\r\n$9\r\nSUBSCRIBE\r\n$5\r\nbench\r\n",
                 ready=b":1\r\n", marker=b"$7\r\nmessage"):
        self.socks, self.messages, self.marker = [], 0, marker
        self.sel = selectors.DefaultSelector()
        for _ in range(n):
            s = socket.create_connection(("127.0.0.1", port))
            s.sendall(handshake)
            got = b""
            while ready not in got:
                got += s.recv(65536)
            s.setblocking(False)
            self.sel.register(s, selectors.EVENT_READ)
            self.socks.append(s)
        self.stop = False
        self.paused = False  # while set, nothing is read (the server's buffers hold it)
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def run(self):
        while not self.stop:
            if self.paused:
                time.sleep(0.01)
                continue
            for key, _ in self.sel.select(timeout=0.1):
                try:
                    self.messages += key.fileobj.recv(1 << 20).count(self.marker)
                except BlockingIOError:
                    pass

    def close(self):
        self.stop = True
        self.thread.join()
        for s in self.socks:
            s.close()


def main():
    servers = sb.start_pair()
    rates = {}
    try:
        for srv in servers.values():
            srv.command("CONFIG", "SET", "client-output-buffer-limit", "pubsub 0 0 0")
        for subs in SUBSCRIBERS:
            for rnd in range(sb.ROUNDS):
                for name, srv in servers.items():
                    drain = Drain(srv.port, subs)
                    try:
                        for pipeline in (1, 16):
                            n = requests_for(subs, pipeline)
                            r = sb.run_benchmark(srv, pipeline, n,
                                                 command=["PUBLISH", "bench", "x" * 16])
                            rates.setdefault((name, subs, pipeline), []).extend(r.values())
                            sb.log("%s subs=%d P=%d round %d: %.0f/s"
                                   % (name, subs, pipeline, rnd + 1, list(r.values())[0]))
                    finally:
                        drain.close()
        rows = [("PUBLISH to %d subscriber%s" % (s, "" if s == 1 else "s"), p, s)
                for s in SUBSCRIBERS for p in (1, 16)]
        sb.print_table("PUBLISH fan-out", rows, rates)
    finally:
        for srv in servers.values():
            srv.stop()


if __name__ == "__main__":
    main()
