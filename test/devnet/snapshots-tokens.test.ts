/**
 * The token tables after a snapshot restore, on both stores (src/index/tokens/rewind-tokens.ts): a jetton is
 * deployed and transferred, a snapshot saved, more is transferred and burnt (balances, supply and transfer rows
 * change, a new wallet appears), then the snapshot restored. The token tables must be back as they were at the
 * snapshot and equal to those of an index built from the restored chain; /jetton/wallets balances and
 * /jetton/transfers read through the index's reader say the same.
 */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { beginCell, internal, toNano, type Address, type Cell } from '@ton/core';
import type { LocalChain } from '../../src/chain/local/index.js';
import { runIndex, type RunningIndex } from '../../src/index/run-index.js';
import { formatRawUpper } from '../../src/ton/address.js';
import { openChain, tempDir, testWallet, v4Send, v4Transfer } from '../chain/local/support/local-chain.js';
import { dropSchema, POSTGRES_URL, requireService, uniqueName } from '../support/services.js';
import { addressOf, compileContracts, onchainContent } from '../api/v2/support/contracts.js';
import { dumpTables, TOKEN_TABLES } from '../support/table-dump.js';

type Store = 'sqlite' | 'postgres';

async function startIndex(t: TestContext, store: Store, chain: LocalChain): Promise<RunningIndex> {
  const running =
    store === 'sqlite'
      ? await runIndex({ network: 'testnet', chain, dataDir: tempDir(t) })
      : await (async () => {
          const schema = uniqueName('tongate_snaptok');
          t.after(() => dropSchema(schema));
          return runIndex({ network: 'testnet', chain, databaseUrl: POSTGRES_URL, schema });
        })();
  t.after(() => running.close());
  await running.attachment.synced();
  return running;
}

const dump = (running: RunningIndex) => dumpTables(running.index.reads, TOKEN_TABLES);

function transferBody(queryId: bigint, amount: bigint, destination: Address, response: Address): Cell {
  return beginCell()
    .storeUint(0x0f8a7ea5, 32)
    .storeUint(queryId, 64)
    .storeCoins(amount)
    .storeAddress(destination)
    .storeAddress(response)
    .storeBit(false)
    .storeCoins(1n)
    .storeBit(false)
    .endCell();
}

const burnBody = (queryId: bigint, amount: bigint, response: Address) =>
  beginCell().storeUint(0x595f07bc, 32).storeUint(queryId, 64).storeCoins(amount).storeAddress(response).storeBit(false).endCell();

for (const store of ['sqlite', 'postgres'] as const) {
  test(`a restore puts jetton balances, supply, transfers and burns back as the restored chain has them [${store}]`, async (t) => {
    if (store === 'postgres' && !(await requireService(t, 'postgres'))) return;
    const { chain } = await openChain(t);
    const live = await startIndex(t, store, chain);
    const c = await compileContracts();
    const owner = testWallet(131);
    const [bob, carol] = [132, 133].map((seed) => testWallet(seed).wallet.address);
    const master = {
      code: c.jettonMaster,
      data: beginCell()
        .storeCoins(1000n)
        .storeAddress(owner.wallet.address)
        .storeRef(onchainContent({ name: 'Snap', symbol: 'SNP' }))
        .storeRef(c.jettonWallet)
        .endCell(),
    };
    const M = addressOf(master);
    const walletOf = (holder: Address, balance: bigint) => ({
      code: c.jettonWallet,
      data: beginCell().storeCoins(balance).storeAddress(holder).storeAddress(M).endCell(),
    });
    const A = addressOf(walletOf(owner.wallet.address, 0n));
    const C = addressOf(walletOf(carol, 0n));
    const seal = async (blocks = 3) => {
      for (let i = 0; i < blocks; i++) await chain.produceBlock();
      await live.attachment.synced();
    };
    const deploy = (init: { code: Cell; data: Cell }, body?: Cell) =>
      internal({ to: addressOf(init), value: toNano('0.2'), bounce: false, init, body });

    const funded = chain.fund(owner.wallet.address, toNano(20));
    await seal(2);
    await funded;
    await chain.sendExternal(v4Transfer(owner, 0, bob, toNano('0.1'), { deploy: true }));
    await seal();
    // The owner's wallet is deployed holding 1000 (the fixture wallet takes its balance from the deploy body).
    await chain.sendExternal(
      v4Send(owner, 1, [
        deploy(master),
        deploy(walletOf(owner.wallet.address, 0n), beginCell().storeCoins(1000n).endCell()),
        deploy(walletOf(bob, 0n)),
      ]),
    );
    await seal();
    await chain.sendExternal(
      v4Send(owner, 2, [internal({ to: A, value: toNano('0.1'), body: transferBody(1n, 100n, bob, owner.wallet.address) })]),
    );
    await seal();

    const atSnapshot = await dump(live);
    assert.equal(atSnapshot.jetton_wallets.length, 2, JSON.stringify(atSnapshot));
    assert.equal(atSnapshot.jetton_transfers.length, 1);
    const saved = await chain.saveSnapshot('s');

    // After the snapshot: more transferred (to a wallet not yet deployed: a new jetton wallet row), some burnt.
    await chain.sendExternal(
      v4Send(owner, 3, [
        deploy(walletOf(carol, 0n)),
        internal({ to: A, value: toNano('0.1'), body: transferBody(2n, 200n, bob, owner.wallet.address) }),
        internal({ to: A, value: toNano('0.1'), body: transferBody(3n, 50n, carol, owner.wallet.address) }),
        internal({ to: A, value: toNano('0.1'), body: burnBody(4n, 10n, owner.wallet.address) }),
      ]),
    );
    await seal(4);
    const moved = await dump(live);
    assert.notDeepEqual(moved.jetton_wallets, atSnapshot.jetton_wallets, 'balances moved after the snapshot');
    assert.equal(moved.jetton_transfers.length, 3, 'transfers after the snapshot');
    assert.equal(moved.jetton_burns.length, 1, 'a burn after the snapshot');
    assert.ok(
      moved.jetton_wallets.length === 3 && moved.jetton_wallets.some((row) => row.includes(formatRawUpper(C))),
      'a wallet detected after the snapshot',
    );

    const restored = await chain.restoreSnapshot('s');
    assert.equal(restored.seqno, saved.seqno);
    const rewound = await dump(live);
    assert.deepEqual(rewound, atSnapshot, 'the token tables as they were at the snapshot');
    assert.equal(
      (await live.index.reads.all('SELECT balance FROM jetton_wallets WHERE address = ?', [formatRawUpper(A)]))[0].balance,
      '1000',
      "the owner's balance as at the snapshot",
    );
    const fresh = await startIndex(t, store, chain);
    assert.deepEqual(rewound, await dump(fresh), 'as an index built from the restored chain');
  });
}
