// BullMQ on rankd (issue 31): a queue, a worker, delayed, retried and failing jobs, and
// QueueEvents reading BullMQ's events stream (XADD from its Lua scripts, XREAD BLOCK).
// BullMQ's own test suite is not on npm (its package ships dist/ only) and GitHub is not
// reachable from here, so this smoke run stands in for it:
//   mkdir /tmp/bmq && cd /tmp/bmq && npm init -y && npm install bullmq@5
//   cp <rankd>/bench/bullmq_smoke.mjs . && node bullmq_smoke.mjs <port>
// It prints the completed / failed counts and the events stream's length.
import { Queue, Worker, QueueEvents } from 'bullmq';
const port = Number(process.argv[2]);
const connection = { host: '127.0.0.1', port };
const q = new Queue('smoke', { connection });
const events = new QueueEvents('smoke', { connection });
await events.waitUntilReady();
let completed = 0, failed = 0;
events.on('completed', () => completed++);
events.on('failed', () => failed++);
const w = new Worker('smoke', async job => {
  if (job.data.fail) throw new Error('boom');
  return job.data.n * 2;
}, { connection });
for (let i = 0; i < 50; i++) await q.add('j', { n: i });
await q.add('d', { n: 100 }, { delay: 300 });
await q.add('f', { fail: true }, { attempts: 2, backoff: 50 });
const deadline = Date.now() + 15000;
while ((completed < 51 || failed < 1) && Date.now() < deadline) await new Promise(r => setTimeout(r, 100));
const counts = await q.getJobCounts('completed', 'failed', 'waiting', 'delayed');
const evlen = await (await q.client).xlen(q.keys.events);
console.log(JSON.stringify({ completed, failed, counts, events_stream_length: evlen }));
await w.close(); await events.close(); await q.close();
process.exit(0);
