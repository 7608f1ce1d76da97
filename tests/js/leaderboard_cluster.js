// A leaderboard workload through ioredis's Cluster client, for
// tests/test_cluster_clients.py. Usage: node leaderboard_cluster.js HOST:PORT BOARDS
// PLAYERS ROUNDS. Each round adds (p % 5 + 1) to player p of every board
// ({board:B}:scores, hash tags keep a board's keys in one slot), then per board: a
// ZUNIONSTORE into {board:B}:total, the top 3, a MULTI in the board's slot; last, one
// cross-slot ZUNIONSTORE whose error is reported. Prints one JSON object on stdout.
'use strict';
const Redis = require('ioredis');

async function main() {
  const [hostPort, boards, players, rounds] = process.argv.slice(2);
  const [host, port] = hostPort.split(':');
  const cluster = new Redis.Cluster([{ host, port: Number(port) }],
                                    { redisOptions: { connectTimeout: 10000 } });
  const B = Number(boards), P = Number(players), R = Number(rounds);
  for (let r = 0; r < R; r++) {
    const writes = [];
    for (let b = 0; b < B; b++)
      for (let p = 0; p < P; p++)
        writes.push(cluster.zincrby(`{board:${b}}:scores`, (p % 5) + 1, `player:${p}`));
    await Promise.all(writes);
  }
  const out = { boards: {}, top: {}, multi: {}, crossslot: null };
  for (let b = 0; b < B; b++) {
    const scores = `{board:${b}}:scores`;
    out.boards[b] = await cluster.zrange(scores, 0, -1, 'WITHSCORES');
    await cluster.zunionstore(`{board:${b}}:total`, 1, scores);
    out.top[b] = await cluster.zrevrange(`{board:${b}}:total`, 0, 2, 'WITHSCORES');
    out.multi[b] = await cluster.multi()
      .hset(`{board:${b}}:meta`, 'name', `board ${b}`)
      .zcard(scores)
      .exec();
  }
  try {
    await cluster.zunionstore('{board:0}:x', 2, '{board:0}:scores', '{board:1}:scores');
  } catch (e) {
    out.crossslot = e.message;
  }
  process.stdout.write(JSON.stringify(out) + '\n');
  await cluster.quit();
}

main().catch((e) => { console.error(e); process.exit(1); });
