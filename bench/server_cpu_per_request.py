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
/proc/PID/task/*/schedstat (ns resolution; user+sys, the user part from
/proc/PID/stat in clock ticks, 10 ms each)."""
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
res = {}
for r in range(ROUNDS):
    for name, (p, port, _) in procs.items():
        for label, cmd in TESTS:
            u0, _, c0 = request_cost.cpu_seconds(p.pid); t0 = time.time()
            subprocess.run(['redis-benchmark', '-p', str(port), '-c', '50', '-n', str(N), '-P', '16',
                            '-r', '1000000', '-q'] + cmd, stdout=subprocess.DEVNULL, check=True)
            dt = time.time() - t0; u1, _, c1 = request_cost.cpu_seconds(p.pid)
            res.setdefault((name, label), []).append(((c1 - c0) / N * 1e6, N / dt,
                                                      (u1 - u0) / N * 1e6))
def med(name, label, i):  # i: 0 CPU us/request, 1 requests/s, 2 user CPU us/request
    return statistics.median(x[i] for x in res[(name, label)])
for label, _ in TESTS:
    for name in procs:
        print("%-15s %-9s cpu us/req median %.3f (user %.3f)  rps median %8.0f   (cpu: %s)" % (
            label, name, med(name, label, 0), med(name, label, 2), med(name, label, 1),
            " ".join("%.3f" % x[0] for x in res[(name, label)])))
for p, _, d in procs.values():
    p.terminate()
    p.wait()
    shutil.rmtree(d, ignore_errors=True)
print(open('/proc/loadavg').read())
def floor_ratios(name, label):
    """With PING measured: the ratio `name` would reach if the command cost it no more than
    its PING (the ceiling the shared floor leaves), and the ratio of the work above each
    server's own PING."""
    if label == "PING" or not any(t == "PING" for t, _ in TESTS):
        return ""
    redis, ping = med('redis', label, 0), med(name, "PING", 0)
    return ", ceiling %.2fx, above PING %.2fx" % (
        redis / ping, (redis - med('redis', "PING", 0)) / (med(name, label, 0) - ping))
if 'redis' in procs:
    # redis-server's CPU per request over each other server's: all of it, then its user
    # part alone (clock ticks: 10 ms over N requests, 0.025 us at N=400000), then the above.
    for label, _ in TESTS:
        print("%-15s " % label + "  ".join("redis/%s %.2fx (user %.2fx%s)" % (
            name, med('redis', label, 0) / med(name, label, 0),
            med('redis', label, 2) / med(name, label, 2), floor_ratios(name, label))
            for name in procs if name != 'redis'))
