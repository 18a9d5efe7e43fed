import { test } from 'node:test';
import assert from 'node:assert/strict';
import { internal, toNano } from '@ton/core';
import { testWallet } from '../chain/local/support/local-chain.js';
import { freePort } from '../support/ports.js';
import { runTongate } from '../support/process.js';
import { getJson, postJson, startTestTongate } from '../support/tongate.js';
import { ADMIN_TOKEN, startManualTongate } from './support/manual-tongate.js';
import { DevnetClient, DevnetError } from '../../src/devnet/client.js';

const auth = { authorization: `Bearer ${ADMIN_TOKEN}` };

test('manual mining: no block until asked; a TonClient transfer executes at once and shows once mined', async (t) => {
  // --block-interval 10 with --mining manual: a timer, if there were one, would have sealed many blocks by the end.
  const { devnet, client, url, clock, gate } = await startManualTongate(t, { blockInterval: '10' });
  assert.match(gate.banner, /Mining: manual \(no block until asked: tongate mine, or POST <base>\/devnet\/mine\)/);
  assert.ok(gate.banner.includes(`controls ${url}/devnet/`));
  const start = (await client.getMasterchainInfo()).latestSeqno;
  const { wallet, keys } = testWallet(41);
  const target = testWallet(42).wallet.address;

  const funded = await devnet.fund(wallet.address, toNano(10));
  assert.equal(funded.blockSeqno, start + 1, 'in manual mining a fund seals the block it needs, and only it');

  const opened = client.open(wallet);
  assert.equal(await opened.getSeqno(), 0);
  await opened.sendTransfer({ seqno: 0, secretKey: keys.secretKey, messages: [internal({ to: target, value: toNano(1), bounce: false })] });
  // Executed into the open block (sendBoc said yes), not visible before a block seals it.
  assert.equal((await client.getMasterchainInfo()).latestSeqno, start + 1);
  assert.equal(await client.getBalance(target), 0n);
  assert.equal(await opened.getSeqno(), 0);

  const mined = await devnet.mine();
  assert.equal(mined.seqno, start + 2);
  assert.equal(await opened.getSeqno(), 1);
  const received = await client.getBalance(target);
  assert.ok(
    received > toNano('0.99') && received <= toNano(1),
    `the queued internal message was delivered in the mined block (${received})`,
  );
  const [tx] = await client.getTransactions(target, { limit: 1 });
  assert.equal(
    tx.inMessage?.info.type === 'internal' && tx.inMessage.info.value.coins,
    received,
    'what arrived is what the message carried',
  );

  const three = await devnet.mine(3);
  assert.equal(three.seqno, start + 5);
  assert.equal((await client.getMasterchainInfo()).latestSeqno, start + 5);
  assert.equal((await client.getMasterchainInfo()).latestSeqno, start + 5, 'still no block that was not asked for');

  // A chain that waits to be asked is healthy however old its last block is.
  clock.advance(3_600_000);
  const health = await getJson(`${url}/healthcheck`);
  assert.equal(health.status, 200);
  assert.equal(health.body.status, 'ok');
  assert.equal(health.body.mining, 'manual');
});

test('mining switches at run time, on each network separately', async (t) => {
  const { devnet, gate } = await startManualTongate(t);
  const mainnet = new DevnetClient({ endpoint: gate.url('mainnet'), adminToken: ADMIN_TOKEN });
  assert.deepEqual(await devnet.mining(), { mode: 'manual' });

  assert.deepEqual(await devnet.setMining('auto', 10), { mode: 'auto', intervalMs: 10 });
  assert.deepEqual(await mainnet.mining(), { mode: 'manual' }, 'the other network keeps its mode');
  const mainnetSeqno = gate.chain('mainnet').masterchainInfo().last.id.seqno;
  // Blocks come by themselves now: wait for two of them (an event, not a duration).
  const from = gate.chain('testnet').masterchainInfo().last.id.seqno;
  await new Promise<void>((resolve) => {
    const off = gate.chain('testnet').onBlock((block) => {
      if (block.masterchain.id.seqno >= from + 2) {
        off();
        resolve();
      }
    });
  });
  assert.equal(gate.chain('mainnet').masterchainInfo().last.id.seqno, mainnetSeqno, 'mainnet made no block meanwhile');

  assert.deepEqual(await devnet.setMining('manual'), { mode: 'manual' });
  const a = await devnet.mine();
  const b = await devnet.mine();
  assert.equal(b.seqno, a.seqno + 1, 'no timer block between two mines');
  // Back to auto without an interval: the last one used.
  assert.deepEqual(await devnet.setMining('auto'), { mode: 'auto', intervalMs: 10 });
  assert.deepEqual(await devnet.setMining('manual'), { mode: 'manual' });
});

test('tongate mine: one network or every local one, through a running tongate', async (t) => {
  const { gate } = await startManualTongate(t);
  const env = { TONGATE_NETWORK: `mainnet=${gate.url('mainnet')},testnet=${gate.url('testnet')}`, TONGATE_ADMIN_TOKEN: ADMIN_TOKEN };
  const before = {
    mainnet: gate.chain('mainnet').masterchainInfo().last.id.seqno,
    testnet: gate.chain('testnet').masterchainInfo().last.id.seqno,
  };

  const one = await runTongate(['mine', '--network', 'testnet', '--blocks', '2'], env);
  assert.equal(one.code, 0, one.stderr);
  assert.match(one.stdout, new RegExp(`testnet: mined 2 blocks, last seqno ${before.testnet + 2}`));
  assert.equal(gate.chain('mainnet').masterchainInfo().last.id.seqno, before.mainnet);

  const all = await runTongate(['mine'], env);
  assert.equal(all.code, 0, all.stderr);
  assert.match(all.stdout, new RegExp(`mainnet: mined 1 block, last seqno ${before.mainnet + 1}`));
  assert.match(all.stdout, new RegExp(`testnet: mined 1 block, last seqno ${before.testnet + 3}`));

  const bad = await runTongate(['mine', '--blocks', 'many'], env);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--blocks: expected a positive integer/);
  const refused = await runTongate(['mine', '--network', 'testnet'], { ...env, TONGATE_ADMIN_TOKEN: 'wrong' });
  assert.notEqual(refused.code, 0);
  assert.match(refused.stderr, /mine failed \(401\): this endpoint requires Authorization: Bearer <admin token>/);
});

test('every control: admin token, local networks only (404 on an upstream network), 4xx naming the field, in the OpenAPI document', async (t) => {
  const { url, gate } = await startManualTongate(t);
  const spec = await getJson(`${url}/devnet/openapi.json`);
  assert.equal(spec.status, 200);
  const paths = Object.keys(spec.body.paths).sort();
  assert.deepEqual(paths, [
    '/devnet/accounts/{address}',
    '/devnet/config',
    '/devnet/deploy-jetton',
    '/devnet/fund',
    '/devnet/fund-jetton',
    '/devnet/messages/internal',
    '/devnet/mine',
    '/devnet/mining',
    '/devnet/snapshots',
    '/devnet/snapshots/{name}',
    '/devnet/snapshots/{name}/export',
    '/devnet/snapshots/{name}/import',
    '/devnet/snapshots/{name}/restore',
    '/devnet/time',
    '/devnet/time/increase',
    '/devnet/time/next-block',
    '/devnet/time/set',
  ]);
  const someAddress = testWallet(43).wallet.address.toRawString();
  const operations: Array<[string, string]> = [];
  for (const [path, ops] of Object.entries<any>(spec.body.paths)) {
    for (const verb of Object.keys(ops))
      operations.push([verb.toUpperCase(), path.replace('{address}', someAddress).replace('{name}', 'a-snapshot')]);
  }
  for (const [method, path] of operations) {
    const denied = await getJson(`${url}${path}`, {
      method,
      headers: { 'content-type': 'application/json' },
      ...(method !== 'GET' ? { body: '{}' } : {}),
    });
    assert.equal(denied.status, 401, `${method} ${path}`);
    assert.deepEqual(denied.body, { ok: false, error: 'this endpoint requires Authorization: Bearer <admin token>', code: 401 });
  }

  const cases: Array<[string, unknown, number, RegExp]> = [
    ['/devnet/mine', { blocks: 0 }, 422, /^blocks: expected an integer from 1 to 10000, got 0$/],
    ['/devnet/mine', { blocks: 'x' }, 422, /^blocks: expected an integer/],
    ['/devnet/mine', { block: 2 }, 422, /^block: unknown field \(expected blocks\)$/],
    ['/devnet/mine', [1], 400, /^request body: expected a JSON object$/],
    ['/devnet/mining', { mode: 'sometimes' }, 422, /^mode: expected one of "auto", "manual", got sometimes$/],
    ['/devnet/mining', { mode: 'auto', interval_ms: 1 }, 422, /^interval_ms: expected an integer from 10 to 3600000/],
    ['/devnet/mining', { mode: 'manual', interval_ms: 100 }, 422, /^interval_ms: only with "mode":"auto"$/],
    ['/devnet/time/increase', {}, 422, /^seconds: expected an integer .* got nothing$/],
    ['/devnet/time/increase', { seconds: -5 }, 422, /^seconds: expected an integer from 0/],
    ['/devnet/time/set', { utime: 'tomorrow' }, 422, /^utime: expected an integer from 0 to 4294967295/],
    ['/devnet/time/set', { utime: 1000 }, 422, /^utime: 1000 is before the last block's gen_utime \d+; the chain's time never goes back$/],
    ['/devnet/time/next-block', { utime: 1000 }, 422, /^utime: 1000 is before the last block's gen_utime/],
    ['/devnet/fund', { address: 'nowhere', amount: '1' }, 422, /^address: not a TON address/],
    ['/devnet/fund', { address: someAddress, amount: '1.5' }, 422, /^amount: expected nanotons as a decimal string/],
    [`/devnet/accounts/nowhere`, { balance: '1' }, 422, /^address: not a TON address/],
    [`/devnet/accounts/${someAddress}`, {}, 422, /^request body: give balance, code and\/or data, or shard_account$/],
    [`/devnet/accounts/${someAddress}`, { balance: '-1' }, 422, /^balance: expected nanotons/],
    [`/devnet/accounts/${someAddress}`, { code: 'not base64!' }, 422, /code/],
    [
      `/devnet/accounts/${someAddress}`,
      { balance: '1', shard_account: 'te6cckEBAQEAAgAAAEysuc0=' },
      422,
      /^shard_account: a whole state; give it alone/,
    ],
    [`/devnet/accounts/7:${'0'.repeat(64)}`, { balance: '1' }, 422, /^address: workchains 0 and -1 hold accounts on this chain, not 7$/],
    [
      `/devnet/accounts/-1:${'5'.repeat(64)}`,
      { balance: '1' },
      422,
      /^address: the config contract holds the config; change it with POST \/devnet\/config$/,
    ],
    ['/devnet/config', { params: [] }, 422, /^params: expected an object of param number -> BoC/],
    ['/devnet/config', { params: { 21: 'te6cckEBAQEAAgAAAEysuc0=' } }, 422, /^params\.21: not a GasLimitsPrices \(basechain\)/],
    ['/devnet/messages/internal', { to: someAddress, value: '1' }, 422, /^from: missing/],
    [
      '/devnet/messages/internal',
      { from: someAddress, to: someAddress, value: '1', bounce: 'yes' },
      422,
      /^bounce: expected true or false$/,
    ],
    ['/devnet/messages/internal', { boc: 'te6cckEBAQEAAgAAAEysuc0=' }, 422, /boc: not a message/],
  ];
  for (const [path, body, status, message] of cases) {
    const r = await postJson(`${url}${path}`, body, auth);
    assert.equal(r.status, status, `${path} ${JSON.stringify(body)}: ${JSON.stringify(r.body)}`);
    assert.equal(r.body.ok, false);
    assert.match(r.body.error, message, `${path} ${JSON.stringify(body)}`);
  }

  // A network of kind upstream (here: forwarding to the tongate above) has no controls: 404, in v2's shape.
  const front = await startTestTongate({
    network: [`mainnet=http://127.0.0.1:${await freePort()}`],
    backend: ['mainnet=upstream'],
    upstreamV2: [`mainnet=${gate.url('mainnet')}/api/v2`],
    upstreamV3: [`mainnet=${gate.url('mainnet')}/api/v3`],
    adminToken: ADMIN_TOKEN,
  });
  t.after(() => front.stop());
  for (const path of [
    '/devnet/mine',
    '/devnet/time/increase',
    `/devnet/accounts/${someAddress}`,
    '/devnet/snapshots',
    '/devnet/snapshots/a/restore',
  ]) {
    for (const headers of [auth, {}]) {
      const r = await postJson(`${front.url('mainnet')}${path}`, { seconds: 1, balance: '1' }, headers);
      assert.equal(r.status, 404, `${path}, ${headers === auth ? 'with' : 'without'} the admin token`);
      assert.equal(r.body.ok, false);
      assert.match(r.body.error, /mainnet is not a local network: it has no devnet controls/);
    }
  }
  const client = new DevnetClient({ endpoint: front.url('mainnet'), adminToken: ADMIN_TOKEN });
  await assert.rejects(client.mine(), (e: unknown) => e instanceof DevnetError && e.status === 404);
});
