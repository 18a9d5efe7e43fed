/**
 * The liteserver pool and the lite chain's caches without a TON network: what happens when no liteserver can
 * answer (fail at once, never wait for the deadline), and the read cache's bounds and single flight.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:net';
import { once } from 'node:events';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { Functions } from 'ton-lite-client/dist/schema.js';
import { LitePool, LiteChain, LiteUnavailable } from '../../../src/chain/lite/index.js';
import { ReadCache } from '../../../src/chain/lite/read-cache.js';
import { FollowerBudget } from '../../../src/chain/lite/follower-budget.js';
import { childShards, parentShard } from '../../../src/chain/lite/block-cell.js';
import { ManualClock } from '../../../src/util/clock.js';
import { ManualTimers } from '../../support/manual-timers.js';
import { freePort } from '../../support/ports.js';
import { parseGlobalConfig } from '../../../src/ton/global-config.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const masterchainInfo = { kind: 'liteServer.getMasterchainInfo' } as const;

/** A TCP server that accepts connections and never says a word: the ADNL handshake never completes. */
async function silentServer(): Promise<{ port: number; server: Server }> {
  const server = createServer((socket) => socket.on('data', () => undefined));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as { port: number }).port, server };
}

test('no liteserver that answers: a query fails at once with LiteUnavailable naming the servers, not at its deadline', async () => {
  const silent = await silentServer();
  const closedPort = await freePort();
  // The clock never moves: a query that waited for its deadline would never end.
  const pool = new LitePool({
    servers: [
      { host: '127.0.0.1', port: closedPort, publicKey: randomBytes(32) },
      { host: '127.0.0.1', port: silent.port, publicKey: randomBytes(32) },
    ],
    clock: new ManualClock(),
  });
  try {
    const error = await pool.query(Functions.liteServer_getMasterchainInfo, masterchainInfo).then(
      () => assert.fail('expected LiteUnavailable'),
      (err: unknown) => err,
    );
    assert.ok(error instanceof LiteUnavailable, String(error));
    assert.match((error as Error).message, new RegExp(`127\\.0\\.0\\.1:${closedPort} not connected`));
    assert.match((error as Error).message, new RegExp(`127\\.0\\.0\\.1:${silent.port} not connected`));
    assert.deepEqual(
      pool.status().map((s) => [s.connected, s.mcSeqno]),
      [
        [false, null],
        [false, null],
      ],
    );
  } finally {
    pool.close();
    silent.server.close();
  }
});

test('a liteserver that accepts and never finishes the handshake: dropped at the deadline, named why, tried again', async () => {
  const server = createServer((socket) => {
    socket.on('data', () => undefined);
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  const clock = new ManualTimers();
  const first = once(server, 'connection');
  // A valid ed25519 key: with random bytes (not a curve point half the time) the handshake fails before any socket.
  const publicKey = generateKeyPairSync('ed25519').publicKey.export({ format: 'der', type: 'spki' }).subarray(-32);
  const pool = new LitePool({ servers: [{ host: '127.0.0.1', port, publicKey }], clock, healthIntervalMs: 60_000 });
  try {
    await first;
    const problem = async () =>
      String(await pool.query(Functions.liteServer_getMasterchainInfo, masterchainInfo).catch((err: Error) => err));
    assert.match(await problem(), new RegExp(`127\\.0\\.0\\.1:${port} not connected\\)$`), 'no reason yet');
    clock.advance(4_999);
    assert.match(await problem(), new RegExp(`127\\.0\\.0\\.1:${port} not connected\\)$`), 'not dropped before its deadline');
    const second = once(server, 'connection');
    clock.advance(1);
    const error = await pool.query(Functions.liteServer_getMasterchainInfo, masterchainInfo).catch((err: Error) => err);
    assert.ok(error instanceof LiteUnavailable, String(error));
    assert.match(error.message, new RegExp(`127\\.0\\.0\\.1:${port} not connected: no handshake within 5000 ms`));
    // Tried again after the reconnect backoff (Node's timer, 250 ms): a second connection arrives.
    await second;
  } finally {
    pool.close();
    server.close();
  }
});

test('a lite chain whose liteservers never answer does not open: LiteUnavailable after the start timeout', async () => {
  const silent = await silentServer();
  const globalConfig = parseGlobalConfig({
    liteservers: [{ ip: 2130706433, port: silent.port, id: { key: randomBytes(32).toString('base64') } }],
    validator: {
      zero_state: {
        workchain: -1,
        shard: -9223372036854775808,
        seqno: 0,
        root_hash: randomBytes(32).toString('base64'),
        file_hash: randomBytes(32).toString('base64'),
      },
    },
  });
  try {
    await assert.rejects(
      LiteChain.open({ network: 'mainnet', globalConfig, clock: new ManualClock(), startTimeoutMs: 300 }),
      (err: unknown) => {
        assert.ok(err instanceof LiteUnavailable);
        assert.match((err as Error).message, /no liteserver answered within 300 ms/);
        return true;
      },
    );
  } finally {
    silent.server.close();
  }
});

test('the shipped global configs parse: mainnet and testnet liteservers as host:port with 32-byte keys', () => {
  for (const name of ['mainnet-2025-02-20.json', 'testnet-2025-02-20.json']) {
    const config = parseGlobalConfig(JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', '..', 'global-configs', name), 'utf8')));
    assert.ok(config.liteservers.length >= 2, name);
    for (const s of config.liteservers) {
      assert.match(s.host, /^\d{1,3}(\.\d{1,3}){3}$/);
      assert.equal(s.publicKey.length, 32);
    }
    assert.equal(config.zeroState.seqno, 0);
    assert.ok(config.initBlock.seqno > 0, `${name}: init block after the zero state`);
  }
});

test('read cache: identical reads in flight share one load; memory stays under its bound, least recently used first', async () => {
  const cache = new ReadCache<string>(100, (v) => v.length);
  let loads = 0;
  let release!: (v: string) => void;
  const load = () => {
    loads++;
    return new Promise<string>((resolve) => (release = resolve));
  };
  const a = cache.get('a', load);
  const b = cache.get('a', load);
  release('x'.repeat(40));
  assert.equal(await a, await b);
  assert.equal(loads, 1);
  await cache.get('b', async () => 'y'.repeat(40));
  await cache.get('a', async () => assert.fail('a is kept'));
  await cache.get('c', async () => 'z'.repeat(40)); // 120 > 100: b, least recently used, goes
  assert.equal(cache.peek('b'), undefined);
  assert.ok(cache.peek('a') && cache.peek('c'));
  assert.ok(cache.weight <= 100);
  // A failed load is not kept: the next read loads again.
  await assert.rejects(
    cache.get('d', async () => Promise.reject(new Error('down'))),
    /down/,
  );
  assert.equal(await cache.get('d', async () => 'ok'), 'ok');
  // Something bigger than the whole bound is returned, not kept.
  assert.equal((await cache.get('huge', async () => 'h'.repeat(200))).length, 200);
  assert.equal(cache.peek('huge'), undefined);
});

test('shard ids: children and parent of a shard prefix', () => {
  const [left, right] = childShards(0x8000000000000000n);
  assert.deepEqual([left, right], [0x4000000000000000n, 0xc000000000000000n]);
  assert.equal(parentShard(left), 0x8000000000000000n);
  assert.equal(parentShard(right), 0x8000000000000000n);
  assert.deepEqual(childShards(0xc000000000000000n), [0xa000000000000000n, 0xe000000000000000n]);
  assert.equal(parentShard(0xe000000000000000n), 0xc000000000000000n);
});

test('follower budget: one second of queries at once, then the rate; the wait is what the rate says (an injected clock, no sleeps)', () => {
  const clock = new ManualClock();
  const budget = new FollowerBudget(10, clock);
  for (let i = 0; i < 10; i++) assert.equal(budget.take(), 0, `query ${i + 1} of the first second`);
  // The bucket is empty: the next query waits one tenth of a second.
  assert.equal(budget.take(), 100);
  clock.advance(50);
  assert.equal(budget.take(), 50);
  clock.advance(50);
  assert.equal(budget.take(), 0);
  assert.equal(budget.take(), 100);
  // Idle time fills the bucket up to one second's worth, no more.
  clock.advance(60_000);
  let granted = 0;
  while (budget.take() === 0) granted++;
  assert.equal(granted, 10);
  // Over a long run the rate holds: 10 per second.
  const before = budget.granted;
  for (let ms = 0; ms < 5000; ms += 10) {
    clock.advance(10);
    while (budget.take() === 0);
  }
  assert.equal(budget.granted - before, 50);
  assert.throws(() => new FollowerBudget(0, clock), RangeError);
});

test("follower budget: the follower never holds all of a server's slots; HTTP reads keep the other half", () => {
  assert.equal(FollowerBudget.slots(32), 16);
  assert.equal(FollowerBudget.slots(3), 1);
  assert.equal(FollowerBudget.slots(2), 1);
  // A server that takes one query at a time: the follower still gets one (it must make progress).
  assert.equal(FollowerBudget.slots(1), 1);
});

test('follower queries are told apart from HTTP reads however deep they are made (asFollower), and wait for their budget', async () => {
  const closedPort = await freePort();
  const clock = new ManualClock();
  const pool = new LitePool({
    servers: [{ host: '127.0.0.1', port: closedPort, publicKey: randomBytes(32) }],
    clock,
    followerQueriesPerSecond: 2,
  });
  try {
    const query = () => pool.query(Functions.liteServer_getMasterchainInfo, masterchainInfo).catch((err: Error) => err);
    // HTTP reads take nothing from the follower's budget.
    for (let i = 0; i < 5; i++) assert.ok((await query()) instanceof LiteUnavailable);
    assert.equal(pool.followerBudget.granted, 0);
    // The follower's, nested in async work, do: two at once, the third only once the (injected) clock has moved.
    const nested = () => pool.asFollower(async () => Promise.resolve().then(query));
    assert.ok((await nested()) instanceof LiteUnavailable);
    assert.ok((await nested()) instanceof LiteUnavailable);
    assert.equal(pool.followerBudget.granted, 2);
    let third = false;
    const waiting = nested().then(() => (third = true));
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(third, false);
    clock.advance(500);
    await waiting;
    assert.equal(pool.followerBudget.granted, 3);
  } finally {
    pool.close();
  }
});
