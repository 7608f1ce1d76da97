// A writer through ioredis's Cluster client across a failover, for
// tests/test_cluster_failover_auto.py. Usage:
//   node failover_writer.js HOST:PORT TAG1,TAG2,... STOPFILE MAX_MS
// Writes SET {TAG}:n n (tags in turn, n = 0, 1, ...), retrying each n until it is
// acknowledged, as an application would; stops when STOPFILE exists or after MAX_MS.
// Prints one JSON object: acked ([n, Date.now()] pairs) and errors (message -> count).
'use strict';
const fs = require('fs');
const Redis = require('ioredis');

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function main() {
  const [hostPort, tagList, stopFile, maxMs] = process.argv.slice(2);
  const [host, port] = hostPort.split(':');
  const tags = tagList.split(',');
  const cluster = new Redis.Cluster([{ host, port: Number(port) }], {
    redisOptions: { connectTimeout: 1000, commandTimeout: 2000, maxRetriesPerRequest: 1 },
    retryDelayOnFailover: 100,
    retryDelayOnClusterDown: 100,
    slotsRefreshTimeout: 1000,
  });
  cluster.on('error', () => {});   // node errors are counted per command below
  const out = { acked: [], errors: {} };
  const end = Date.now() + Number(maxMs);
  let n = 0;
  while (Date.now() < end && !fs.existsSync(stopFile)) {
    const key = `{${tags[n % tags.length]}}:${n}`;
    try {
      const reply = await cluster.set(key, String(n));
      if (reply !== 'OK') throw new Error(`SET answered ${reply}`);
      out.acked.push([n, Date.now()]);
      n++;
    } catch (e) {
      out.errors[e.message] = (out.errors[e.message] || 0) + 1;
      await sleep(50);
    }
  }
  process.stdout.write(JSON.stringify(out) + '\n');
  cluster.disconnect();
}

main().catch((e) => { console.error(e); process.exit(1); });
