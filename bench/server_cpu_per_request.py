#!/usr/bin/python3
"""Server CPU per request, servers alternating, for A/B checks on a busy machine where
throughput is too noisy: bench/server_cpu_per_request.py NAME=BIN ...
(N requests per run [400000], ROUNDS [3]; at -P 16, 50 clients, random members of a
1M-member key: ZSCORE, ZINCRBY, ZREVRANGE 0 9 WITHSCORES, ZREVRANK, ZADD of new members
(members n:..., so the key grows by up to N per run), and ZREVRANGE_SMALL (ZREVRANGE 0 9
WITHSCORES on a 100-member key, the compact encoding), and PING: the floor, what a request
costs a server that does no work for it (one read and one send per 16 requests, as for every
test here); TESTS=ZSCORE,ZINCRBY picks some;
SETTLE=seconds to wait after loading, e.g. 40 for khugepaged to merge rankd's huge pages,
as bench/sidebyside.py does). CPU is the run time of all the server's threads from
/proc/PID/task/*/schedstat (ns resolution; user+sys, utime split from /proc/PID/stat)."""
import os, shutil, subprocess, sys, time, tempfile, statistics
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import request_cost
import zset_loader
bins = dict(a.split('=', 1) for a in sys.argv[1:])
N = int(os.environ.get('N', '400000')); ROUNDS = int(os.environ.get('ROUNDS', '3'))
TESTS = [("ZSCORE", ["ZSCORE", "lb", "m:00__rand_int__"]),
         ("ZINCRBY", ["ZINCRBY", "lb", "1", "m:00__rand_int__"]),
         ("ZREVRANGE", ["ZREVRANGE", "lb", "0", "9", "WITHSCORES"]),
         ("ZREVRANK", ["ZREVRANK", "lb", "m:00__rand_int__"]),
         ("ZADD", ["ZADD", "lb", "__rand_int__", "n:00__rand_int__"]),
         ("ZREVRANGE_SMALL", ["ZREVRANGE", "small", "0", "9", "WITHSCORES"]),
         ("PING", ["PING"])]
if os.environ.get('TESTS'):  # e.g. TESTS=ZSCORE,ZINCRBY
    TESTS = [t for t in TESTS if t[0] in os.environ['TESTS'].split(',')]
procs = {}
port = 27700
for name, b in bins.items():
    d = tempfile.mkdtemp(prefix='reads16cpu')
    port += 1
    p = subprocess.Popen([b, '--port', str(port), '--save', '', '--appendonly', 'no', '--dir', d],
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    procs[name] = (p, port, d)
time.sleep(1)
for name, (p, port, _) in procs.items():
    zset_loader.load_zset('127.0.0.1', port, 'lb', 1_000_000)
    zset_loader.load_zset('127.0.0.1', port, 'small', 100)
time.sleep(float(os.environ.get('SETTLE', '0')))
def cpu(pid, user_only=False):
    user, _, total = request_cost.cpu_seconds(pid)
    return user if user_only else total
res = {}
for r in range(ROUNDS):
    for name, (p, port, _) in procs.items():
        for label, cmd in TESTS:
            c0 = cpu(p.pid); u0 = cpu(p.pid, True); t0 = time.time()
            subprocess.run(['redis-benchmark', '-p', str(port), '-c', '50', '-n', str(N), '-P', '16',
                            '-r', '1000000', '-q'] + cmd, stdout=subprocess.DEVNULL, check=True)
            dt = time.time() - t0; dc = cpu(p.pid) - c0; du = cpu(p.pid, True) - u0
            res.setdefault((name, label), []).append((dc / N * 1e6, N / dt, du / N * 1e6))
for label, _ in TESTS:
    for name in procs:
        xs = res[(name, label)]
        print("%-15s %-9s cpu us/req median %.3f (user %.3f)  rps median %8.0f   (cpu: %s)" % (
            label, name, statistics.median(x[0] for x in xs), statistics.median(x[2] for x in xs),
            statistics.median(x[1] for x in xs),
            " ".join("%.3f" % x[0] for x in xs)))
for p, _, d in procs.values():
    p.terminate()
    p.wait()
    shutil.rmtree(d, ignore_errors=True)
print(open('/proc/loadavg').read())
def med(name, label, i):
    return statistics.median(x[i] for x in res[(name, label)])
if 'redis' in procs:
    # redis-server's CPU per request over each other server's: all of it, its user part
    # alone, and (with PING measured) the ratio the other server would reach if the
    # command cost it no more than a PING (the ceiling the shared floor leaves).
    has_ping = any(label == "PING" for label, _ in TESTS)
    for label, _ in TESTS:
        print("%-15s " % label + "  ".join("redis/%s %.2fx (user %.2fx%s)" % (
            name, med('redis', label, 0) / med(name, label, 0),
            med('redis', label, 2) / med(name, label, 2),
            ", ceiling %.2fx" % (med('redis', label, 0) / med(name, "PING", 0)) if has_ping else "")
            for name in procs if name != 'redis'))
