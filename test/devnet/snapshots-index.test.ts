/**
 * The index after a snapshot restore, on both stores: it must hold exactly what an index built from scratch from
 * the restored chain holds (blocks, transactions, messages with their pending edges, traces with their counters,
 * latest account states), and again after new blocks reuse the dropped seqnos. Messages stay pending across the
 * snapshot (one transaction per block), a state is changed by surgery and a message injected after it.
 */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { Address, beginCell, internal, toNano } from '@ton/core';
import type { LocalChain } from '../../src/chain/local/index.js';
import { runIndex, type RunningIndex } from '../../src/index/run-index.js';
import { openChain, tempDir, testWallet, v4Send, v4Transfer } from '../chain/local/support/local-chain.js';
import { dropSchema, POSTGRES_URL, requireService, uniqueName } from '../support/services.js';
import { dumpTables, type TableOrder } from '../support/table-dump.js';

type Store = 'sqlite' | 'postgres';

async function startIndex(t: TestContext, store: Store, chain: LocalChain): Promise<RunningIndex> {
  let running: RunningIndex;
  if (store === 'sqlite') {
    running = await runIndex({ network: 'testnet', chain, dataDir: tempDir(t) });
  } else {
    const schema = uniqueName('tongate_snap');
    t.after(() => dropSchema(schema));
    running = await runIndex({ network: 'testnet', chain, databaseUrl: POSTGRES_URL, schema });
  }
  t.after(() => running.close());
  await running.attachment.synced();
  return running;
}

const TABLES: readonly TableOrder[] = [
  ['blocks', 'workchain, shard, seqno'],
  ['shard_state', 'mc_seqno, workchain, shard'],
  ['transactions', 'hash'],
  ['messages', 'msg_hash'],
  ['traces', 'trace_id'],
  ['latest_account_states', 'account'],
  // Empty in this story (no token contracts): a restore must not leave rows there either (snapshots-tokens.test.ts fills them).
  ['jetton_wallets', 'address'],
  ['jetton_transfers', 'tx_hash'],
];

/** Every row a reader can reach (account_states documents are reached through transactions). */
const dump = (running: RunningIndex) => dumpTables(running.index.reads, TABLES);

async function mine(chain: LocalChain, blocks: number): Promise<void> {
  for (let i = 0; i < blocks; i++) await chain.produceBlock();
}

for (const store of ['sqlite', 'postgres'] as const) {
  test(`a restored index equals one built from the restored chain, before and after new blocks [${store}]`, async (t) => {
    if (store === 'postgres' && !(await requireService(t, 'postgres'))) return;
    // One transaction per block: messages stay pending across blocks, and across the snapshot.
    const { chain, clock } = await openChain(t, { blockIntervalMs: 0, maxBlockTransactions: 1 });
    const live = await startIndex(t, store, chain);
    const owner = testWallet(101);
    const fundDone = chain.fund(owner.wallet.address, toNano(10));
    await mine(chain, 2);
    await fundDone;
    await chain.sendExternal(v4Transfer(owner, 0, testWallet(102).wallet.address, toNano(1), { deploy: true }));
    await mine(chain, 2);
    const receivers = [103, 104, 105].map((seed) => testWallet(seed).wallet.address);
    await chain.sendExternal(
      v4Send(
        owner,
        1,
        receivers.map((to) => internal({ to, value: toNano(1), bounce: false })),
      ),
    );
    await chain.produceBlock();
    assert.ok(chain.stats().pendingMessages >= 2, 'messages of the trace wait for later blocks');

    const saved = await chain.saveSnapshot('s');
    assert.ok(saved.pendingMessages >= 2);
    await live.attachment.synced();
    const atSnapshot = await dump(live);
    assert.ok(
      atSnapshot.traces.some((row) => row.includes('"pending"')),
      'a pending trace at the snapshot',
    );

    // After it: the rest delivered, a state changed by surgery, a message injected from nowhere.
    await mine(chain, 4);
    await chain.setAccount(receivers[0], { balance: toNano(500) });
    const stranger = Address.parse(`0:${'cd'.repeat(32)}`);
    const injected = beginCell()
      .storeUint(0b0100, 4) // int_msg_info$0, ihr_disabled, no bounce, not bounced
      .storeAddress(stranger)
      .storeAddress(receivers[1])
      .storeCoins(toNano(2))
      .storeUint(0, 1 + 4 + 4 + 64 + 32 + 1 + 1)
      .endCell();
    await chain.sendInternal(injected.toBoc());
    await mine(chain, 2);
    await live.attachment.synced();
    assert.notDeepEqual(await dump(live), atSnapshot);

    const restored = await chain.restoreSnapshot('s');
    assert.equal(restored.seqno, saved.seqno);
    assert.equal(live.attachment.lastIndexed(), saved.seqno, 'the index is back at the snapshot when the restore answers');
    const rewound = await dump(live);
    assert.deepEqual(rewound, atSnapshot, 'as it was at the snapshot');
    const fresh = await startIndex(t, store, chain);
    assert.deepEqual(rewound, await dump(fresh), 'as an index built from the restored chain');
    await fresh.close();

    // New blocks with the dropped seqnos (another time: other blocks), the pending messages delivered again.
    clock.advance(5_000);
    await mine(chain, 5);
    // A state changed by surgery alone: a fresh index learns it from the chain's record of the block's accounts.
    await chain.setAccount(receivers[2], { balance: toNano(7) });
    await live.attachment.synced();
    const after = await dump(live);
    assert.ok(
      after.traces.every((row) => !row.includes('"pending"')),
      'the pending edges were taken up again and completed',
    );
    assert.ok(
      after.latest_account_states.some((row) => row.includes(`"${toNano(7)}"`)),
      'the surgery reached the live index',
    );
    const rebuilt = await startIndex(t, store, chain);
    assert.deepEqual(
      after,
      await dump(rebuilt),
      'the blocks after the restore are indexed as a fresh index (catching up from the chain) indexes them',
    );
  });
}

/** Resolves once the chain has sealed block `seqno` (an event, not a time). */
function sealed(chain: LocalChain, seqno: number): Promise<void> {
  return new Promise((resolve) => {
    if (chain.masterchainInfo().last.id.seqno >= seqno) return resolve();
    const stop = chain.onBlock((block) => {
      if (block.masterchain.id.seqno >= seqno) {
        stop();
        resolve();
      }
    });
  });
}

for (const store of ['sqlite', 'postgres'] as const) {
  test(`a restore while blocks come on a timer (auto mining): chain and index stay one history [${store}]`, async (t) => {
    if (store === 'postgres' && !(await requireService(t, 'postgres'))) return;
    const { chain } = await openChain(t, { blockIntervalMs: 20 });
    const live = await startIndex(t, store, chain);
    chain.start();
    const owner = testWallet(121);
    await chain.fund(owner.wallet.address, toNano(10));
    const saved = await chain.saveSnapshot('s');
    await chain.fund(owner.wallet.address, toNano(5));
    await sealed(chain, saved.seqno + 5);
    const restored = await chain.restoreSnapshot('s');
    assert.equal(restored.seqno, saved.seqno);
    assert.ok(live.attachment.lastIndexed() <= saved.seqno, 'nothing of the dropped blocks is left indexed when the restore answers');
    await sealed(chain, saved.seqno + 5);
    await chain.setMiningMode({ mode: 'manual' });
    await live.attachment.synced();
    const fresh = await startIndex(t, store, chain);
    assert.deepEqual(await dump(live), await dump(fresh), 'the index after the restore is the one the chain makes');
    assert.ok(chain.getAccount(owner.wallet.address).balance < toNano(11), 'the second fund is gone');
  });
}
