"""DEL vs UNLINK of a 2,000,000-member sorted set, rankd and redis-server 7.0: the
round trip of the deleting command (the event loop is stalled for that long).
Usage: /usr/bin/python3 bench/lazyfree_bench.py build/rankd"""
import sys, time
sys.path.insert(0, __import__('os').path.join(__import__('os').path.dirname(__file__), '..', 'tests'))
import server_process as sp
def fill(c, key, n):
    for s in range(0, n, 10000):
        a=[]
        for i in range(s, min(n, s+10000)): a += [str(i), "member:%d:xxxxxxxxxxxxxxxxxxxx" % i]
        c.execute("ZADD", key, *a)
for binname, b, isr in [("rankd", sys.argv[1], False), ("redis-server 7.0", "/usr/bin/redis-server", True)]:
    srv = sp.ServerProcess(b, is_redis=isr); srv.start()
    c = srv.raw()
    for cmd in ["DEL", "UNLINK"]:
        best = []
        for rep in range(3):
            fill(c, "big", 2_000_000)
            t = time.perf_counter(); c.execute(cmd, "big"); dt = time.perf_counter() - t
            best.append(dt)
            time.sleep(0.5)
        print("%-17s %-6s 2,000,000-member zset: %s ms (3 runs)" % (binname, cmd, ", ".join("%.1f" % (x*1000) for x in best)))
    srv.stop()
