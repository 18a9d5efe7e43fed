/**
 * The offchain metadata fetcher wired into a running tongate (src/index/tokens/metadata-store.ts,
 * src/index/metadata-fetch): a jetton master whose TEP-64 content is a `uri` served by the test's own HTTP
 * server on 127.0.0.1. With `--fetch-metadata --fetch-metadata-allow-private` the index fetches it and
 * `/api/v3/metadata` and `/jetton/masters` show the JSON's name and symbol (is_indexed: true); a uri that
 * answers 404 is stored as a failure (is_indexed: true, valid: false); without the option the same master stays
 * is_indexed: false and the host is never asked. SQLite through the real CLI start; PostgreSQL through runIndex.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Address, beginCell, external, internal, SendMode, storeMessage, toNano, type Cell } from '@ton/core';
import { formatRawUpper } from '../../../src/ton/address.js';
import { runIndex } from '../../../src/index/run-index.js';
import type { LocalChain } from '../../../src/chain/local/index.js';
import { openChain, testWallet } from '../../chain/local/support/local-chain.js';
import { MetadataHost, json, status } from '../../index/metadata-fetch/support/servers.js';
import { dropSchema, POSTGRES_URL, requireService, uniqueName } from '../../support/services.js';
import { getJson, postJson, startTestTongate } from '../../support/tongate.js';
import { addressOf, compileContracts, offchainContent } from '../v2/support/contracts.js';
import { until } from '../../devnet/support/manual-tongate.js';

const raw = (address: Address) => formatRawUpper(address);

/** Deploys two jetton masters from a funded wallet: one whose uri serves JSON, one whose uri answers 404. */
async function deployMasters(chain: LocalChain, send: (boc: string) => Promise<void>, uris: { good: string; missing: string }) {
  const c = await compileContracts();
  const owner = testWallet(71);
  const master = (content: Cell) => ({
    code: c.jettonMaster,
    data: beginCell().storeCoins(5n).storeAddress(owner.wallet.address).storeRef(content).storeRef(c.jettonWallet).endCell(),
  });
  const good = master(offchainContent(uris.good));
  const missing = master(offchainContent(uris.missing));
  await Promise.all([chain.fund(owner.wallet.address, toNano('5')), chain.produceBlock()]);
  await chain.produceBlock();
  const body = owner.wallet.createTransfer({
    seqno: 0,
    secretKey: owner.keys.secretKey,
    sendMode: SendMode.PAY_GAS_SEPARATELY,
    messages: [good, missing].map((init) => internal({ to: addressOf(init), value: toNano('0.2'), bounce: false, init })),
  });
  await send(
    beginCell()
      .store(storeMessage(external({ to: owner.wallet.address, body, init: owner.wallet.init })))
      .endCell()
      .toBoc()
      .toString('base64'),
  );
  for (let i = 0; i < 3; i++) await chain.produceBlock();
  return { good: addressOf(good), missing: addressOf(missing) };
}

const FETCHED = { name: 'Fetched Coin', symbol: 'FCH', description: 'served by the test', decimals: '9' };

for (const fetching of [true, false]) {
  test(`tongate start ${fetching ? 'with' : 'without'} --fetch-metadata: a jetton master's offchain uri ${fetching ? 'fills' : 'does not fill'} metadata [sqlite]`, async (t) => {
    const host = await MetadataHost.start({ '/jetton.json': json(FETCHED), '/gone.json': status(404) });
    t.after(() => host.close());
    const tongate = await startTestTongate(fetching ? { fetchMetadata: true, fetchMetadataAllowPrivate: true } : {});
    t.after(() => tongate.stop());
    const base = tongate.url('testnet');
    const { good, missing } = await deployMasters(
      tongate.chain('testnet'),
      async (boc) => assert.equal((await postJson(`${base}/api/v3/message`, { boc })).status, 200),
      { good: `${host.origin}/jetton.json`, missing: `${host.origin}/gone.json` },
    );
    const masters = async () => (await getJson(`${base}/api/v3/jetton/masters?address=${raw(good)}&address=${raw(missing)}`)).body;
    const settled = (body: any) =>
      body.jetton_masters?.length === 2 && (!fetching || (body.metadata[raw(good)]?.is_indexed && body.metadata[raw(missing)]?.is_indexed));
    const body = await until(masters, settled);
    assert.equal(body.jetton_masters.length, 2, JSON.stringify(body));
    const metadata = (await getJson(`${base}/api/v3/metadata?address=${raw(good)}&address=${raw(missing)}`)).body;
    if (fetching) {
      const expected = {
        is_indexed: true,
        token_info: [
          {
            valid: true,
            type: 'jetton_masters',
            name: 'Fetched Coin',
            symbol: 'FCH',
            description: 'served by the test',
            is_nsfw: false,
            is_scam: false,
            extra: { decimals: '9', uri: `${host.origin}/jetton.json` },
          },
        ],
      };
      assert.deepEqual(body.metadata[raw(good)], expected, '/jetton/masters metadata');
      assert.deepEqual(metadata[raw(good)], expected, '/api/v3/metadata');
      assert.deepEqual(
        metadata[raw(missing)],
        { is_indexed: true, token_info: [{ valid: false, type: 'jetton_masters' }] },
        'a failed uri: fetched, nothing valid',
      );
      assert.equal(host.hits.get('/jetton.json'), 1, 'fetched once, then stored');
    } else {
      for (const address of [good, missing])
        assert.deepEqual(metadata[raw(address)], { is_indexed: false, token_info: [{ type: 'jetton_masters' }] });
      assert.equal(host.hits.size, 0, 'nothing fetched without --fetch-metadata');
    }
  });
}

test('runIndex with metadataFetch: the fetched outcome is stored in token_metadata and read back [postgres]', async (t) => {
  if (!(await requireService(t, 'postgres'))) return;
  const schema = uniqueName('tongate_test');
  t.after(() => dropSchema(schema));
  const host = await MetadataHost.start({ '/jetton.json': json(FETCHED), '/gone.json': status(404) });
  t.after(() => host.close());
  const { chain } = await openChain(t);
  const running = await runIndex({
    network: 'testnet',
    chain,
    databaseUrl: POSTGRES_URL,
    schema,
    metadataFetch: { enabled: true, allowPrivate: true, timeoutMs: 2000, maxBytes: 65536, concurrency: 4 },
  });
  t.after(() => running.close());
  const { good, missing } = await deployMasters(chain, async (boc) => void (await chain.sendExternal(Buffer.from(boc, 'base64'))), {
    good: `${host.origin}/jetton.json`,
    missing: `${host.origin}/gone.json`,
  });
  await running.attachment.synced();
  const read = () => running.index.reader.metadata([raw(good), raw(missing)]);
  const metadata = await until(read, (m) => m[raw(good)]?.is_indexed === true && m[raw(missing)]?.is_indexed === true);
  assert.equal((metadata[raw(good)].token_info[0] as { symbol?: string }).symbol, 'FCH');
  assert.deepEqual(metadata[raw(missing)], { is_indexed: true, token_info: [{ valid: false, type: 'jetton_masters' }] });
  await running.close();
  assert.equal(host.hits.get('/jetton.json'), 1);
});
