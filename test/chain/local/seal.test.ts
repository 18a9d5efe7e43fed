import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import {
  Address,
  beginCell,
  Cell,
  Dictionary,
  loadSimpleLibrary,
  storeShardAccount,
  storeSimpleLibrary,
  type Account,
  type SimpleLibrary,
} from '@ton/core';
import { BASECHAIN, MASTERCHAIN, WHOLE_SHARD } from '../../../src/ton/workchain.js';
import { hashTreeRoot, masterStateHash, shardStateHash } from '../../../src/chain/local/block-cell.js';
import { makeBlock } from '../../../src/chain/local/blocks.js';
import type { ExecutedTx } from '../../../src/chain/executed-tx.js';
import { PublicLibraries } from '../../../src/chain/local/libraries.js';
import type { QueuedMessage } from '../../../src/chain/local/message-queue.js';
import { nextAlignedLt, OpenBlock } from '../../../src/chain/local/open-block.js';
import { assembleSeal, type SealInput } from '../../../src/chain/local/seal.js';
import type { BlockRow } from '../../../src/chain/local/store-rows.js';
import type { BlockId } from '../../../src/chain/types.js';

const GLOBAL_ID = -3;
const CONFIG_HASH = Buffer.alloc(32, 0xc0);

/** The sealed pair at seqno 4 that the block under test (seqno 5) is built on. */
function headAt4() {
  const row = (workchain: number, fill: number): BlockRow => ({
    workchain,
    shard: WHOLE_SHARD,
    seqno: 4,
    rootHash: Buffer.alloc(32, fill),
    fileHash: Buffer.alloc(32, fill + 1),
    mcSeqno: 4,
    genUtime: 1_000,
    startLt: 4_000_000n,
    endLt: 4_000_001n,
    txCount: 0,
    stateHash: Buffer.alloc(32, fill + 2),
    randSeed: Buffer.alloc(32),
    boc: Buffer.alloc(0),
  });
  const shard = makeBlock(row(BASECHAIN, 0x10), GLOBAL_ID, undefined, undefined);
  const mc = makeBlock({ ...row(MASTERCHAIN, 0x20), startLt: 5_000_000n, endLt: 5_000_001n }, GLOBAL_ID, undefined, shard.id);
  return { mc, shard };
}

const libraryValue = {
  serialize: (src: SimpleLibrary, builder: import('@ton/core').Builder) => void storeSimpleLibrary(src)(builder),
  parse: loadSimpleLibrary,
};

/** An active account's ShardAccount (base64) and Account hash, publishing `library` publicly when given. */
function activeAccount(address: Address, library?: Cell): { shardAccount: string; accountHash: Buffer } {
  const libraries = Dictionary.empty(Dictionary.Keys.BigUint(256), libraryValue);
  if (library) libraries.set(BigInt('0x' + library.hash().toString('hex')), { public: true, root: library });
  const account: Account = {
    addr: address,
    storageStats: { used: { cells: 1n, bits: 0n }, lastPaid: 1_000, duePayment: null, storageExtra: null },
    storage: {
      lastTransLt: 0n,
      balance: { coins: 1_000n },
      state: {
        type: 'active',
        state: { code: beginCell().storeUint(7, 8).endCell(), data: beginCell().endCell(), libraries: library ? libraries : undefined },
      },
    },
  };
  const cell = beginCell()
    .store(storeShardAccount({ account, lastTransactionLt: 0n, lastTransactionHash: 0n }))
    .endCell();
  return { shardAccount: cell.toBoc().toString('base64'), accountHash: cell.refs[0].hash() };
}

/** An executed transaction as the producer keeps it (only what a seal reads is meaningful). */
function transaction(account: Address, lt: bigint, tag: number): ExecutedTx {
  const cell = beginCell().storeUint(tag, 32).endCell();
  const state = activeAccount(account);
  return {
    cell,
    boc: cell.toBoc(),
    hash: cell.hash(),
    account,
    lt,
    endLt: lt + 1n,
    now: 1_010,
    inMsg: null,
    outMsgs: [],
    accountHashAfter: state.accountHash,
    shardAccount: state.shardAccount,
  };
}

function queued(n: number, onDisk: boolean): QueuedMessage {
  const cell = beginCell().storeUint(n, 32).endCell();
  return { cell, boc: cell.toBoc(), hash: cell.hash(), dest: new Address(0, Buffer.alloc(32, n)), createdLt: BigInt(n), onDisk };
}

/** The documented block cell (block-cell.ts), read back field by field. */
function readBlockCell(boc: Buffer) {
  const cell = Cell.fromBoc(boc)[0];
  const s = cell.beginParse();
  const ids = (list: Cell) => {
    const l = list.beginParse();
    const out: BlockId[] = [];
    while (l.remainingBits >= 640) {
      out.push({
        workchain: l.loadInt(32),
        shard: l.loadUintBig(64),
        seqno: l.loadUint(32),
        rootHash: l.loadBuffer(32),
        fileHash: l.loadBuffer(32),
      });
    }
    return out;
  };
  const fields = {
    magic: s.loadUint(32),
    globalId: s.loadInt(32),
    workchain: s.loadInt(32),
    shard: s.loadUintBig(64),
    seqno: s.loadUint(32),
    genUtime: s.loadUint(32),
    startLt: s.loadUintBig(64),
    endLt: s.loadUintBig(64),
    txCount: s.loadUint(32),
  };
  const hashes = cell.refs[2].beginParse();
  return {
    cell,
    ...fields,
    prevBlocks: ids(cell.refs[0]),
    refs: ids(cell.refs[1]),
    randSeed: hashes.loadBuffer(32),
    txTreeHash: hashes.loadBuffer(32),
    stateHash: hashes.loadBuffer(32),
  };
}

const user = new Address(BASECHAIN, Buffer.alloc(32, 0xaa));
const publisher = new Address(MASTERCHAIN, Buffer.alloc(32, 0xbb));
const library = beginCell().storeUint(0x11b, 16).endCell();

/** Block 5: a basechain and a masterchain transaction, a masterchain account publishing a library by surgery. */
function blockWithBoth(head: ReturnType<typeof headAt4>): { block: OpenBlock; txs: ExecutedTx[] } {
  const block = new OpenBlock(5, nextAlignedLt(head.mc.endLt), 1_010, head.mc.id.rootHash);
  const txs = [
    transaction(user, block.allocateLt(), 1),
    transaction(new Address(MASTERCHAIN, Buffer.alloc(32, 0xcc)), block.allocateLt(), 2),
  ];
  for (const tx of txs) block.addTransaction(tx);
  const published = activeAccount(publisher, library);
  block.changeState(publisher, published.shardAccount, published.accountHash);
  block.deliveredPending.push(Buffer.alloc(32, 0xdd));
  return { block, txs };
}

function input(block: OpenBlock, head: ReturnType<typeof headAt4>, extra: Partial<SealInput> = {}): SealInput {
  return { block, head, globalId: GLOBAL_ID, configHash: CONFIG_HASH, libraries: new PublicLibraries([]), newlyPending: [], ...extra };
}

test('the two block cells carry the step: seqno, time, lt ranges, transaction counts and trees, links', async () => {
  const head = headAt4();
  const { block, txs } = blockWithBoth(head);
  const { shardBlock, mcBlock, record } = await assembleSeal(input(block, head));

  assert.equal(record.mcSeqno, 5);
  const [shardRow, mcRow] = record.blocks;
  const shard = readBlockCell(shardRow.boc);
  const mc = readBlockCell(mcRow.boc);
  for (const [row, cell, workchain] of [
    [shardRow, shard, BASECHAIN],
    [mcRow, mc, MASTERCHAIN],
  ] as const) {
    assert.equal(cell.magic, 0x74676231);
    assert.equal(cell.globalId, GLOBAL_ID);
    assert.equal(cell.workchain, workchain);
    assert.equal(row.workchain, workchain);
    assert.equal(cell.shard, WHOLE_SHARD);
    assert.equal(cell.seqno, 5);
    assert.equal(row.mcSeqno, 5);
    assert.equal(cell.genUtime, 1_010);
    assert.deepEqual(cell.randSeed, block.randSeed);
    assert.deepEqual(row.rootHash, cell.cell.hash(), "root_hash is the block cell's repr hash");
    assert.deepEqual(row.fileHash, createHash('sha256').update(row.boc).digest(), 'file_hash is the sha256 of its BoC');
    assert.equal(cell.txCount, 1);
    assert.equal(row.txCount, 1);
    assert.deepEqual([cell.startLt, cell.endLt], [row.startLt, row.endLt]);
    assert.deepEqual(row.stateHash, cell.stateHash);
  }
  assert.deepEqual(shard.txTreeHash, await hashTreeRoot([txs[0].hash], 256), 'the basechain tree holds the basechain transaction');
  assert.deepEqual(mc.txTreeHash, await hashTreeRoot([txs[1].hash], 256), 'the masterchain tree holds the masterchain one');

  assert.equal(shardRow.startLt, block.startLt);
  assert.equal(shardRow.endLt, block.endLt);
  assert.equal(mcRow.startLt, block.startLt, "a masterchain block with transactions starts at the step's first lt");
  assert.equal(mcRow.endLt, nextAlignedLt(block.endLt) + 1n, "its own lt follows the basechain block's");

  assert.deepEqual(shard.prevBlocks, [head.shard.id]);
  assert.deepEqual(shard.refs, [head.mc.id], 'the basechain block names the masterchain block it was built on');
  assert.deepEqual(mc.prevBlocks, [head.mc.id]);
  assert.deepEqual(mc.refs, [shardBlock.id], 'the masterchain block commits the basechain block');

  assert.deepEqual(shardBlock.id, {
    workchain: BASECHAIN,
    shard: WHOLE_SHARD,
    seqno: 5,
    rootHash: shardRow.rootHash,
    fileHash: shardRow.fileHash,
  });
  assert.deepEqual(shardBlock.prevBlocks, [head.shard.id]);
  assert.deepEqual(shardBlock.masterRef, { workchain: MASTERCHAIN, shard: WHOLE_SHARD, seqno: 5 });
  assert.deepEqual(mcBlock.id.rootHash, mcRow.rootHash);
  assert.deepEqual(mcBlock.prevBlocks, [head.mc.id]);
  assert.deepEqual(mcBlock.shardBlocks, [shardBlock.id]);
});

test("each state hash commits to its own chain's accounts; the masterchain's also to the basechain state and the config", async () => {
  const head = headAt4();
  const { block } = blockWithBoth(head);
  const { record } = await assembleSeal(input(block, head));
  const [shardRow, mcRow] = record.blocks;
  const changed = [...block.changed.values()];
  const of = (workchain: number) =>
    changed.filter((c) => c.address.workChain === workchain).map((c) => ({ accountId: c.address.hash, accountHash: c.accountHash }));
  assert.equal(of(MASTERCHAIN).length, 2, "the masterchain transaction's account and the publisher");
  const shardState = await shardStateHash(head.shard.stateRootHash, of(BASECHAIN));
  assert.deepEqual(shardRow.stateHash, shardState);
  assert.deepEqual(mcRow.stateHash, await masterStateHash(shardState, CONFIG_HASH, head.mc.stateRootHash, of(MASTERCHAIN)));

  const otherConfig = await assembleSeal(input(block, head, { configHash: Buffer.alloc(32, 0xc1) }));
  assert.deepEqual(otherConfig.record.blocks[0].stateHash, shardRow.stateHash, 'the config is not in the basechain state');
  assert.notDeepEqual(otherConfig.record.blocks[1].stateHash, mcRow.stateHash, 'the masterchain state commits to the config');
});

test('the record: transactions, messages, changed states, pending messages and the public libraries the block published', async () => {
  const head = headAt4();
  const { block } = blockWithBoth(head);
  const libraries = new PublicLibraries([]);
  const newlyPending = [queued(1, false), queued(2, false)];
  const { record, changed } = await assembleSeal(input(block, head, { libraries, newlyPending }));

  assert.equal(record.transactions, block.txRows);
  assert.equal(record.messages, block.messages);
  assert.equal(record.pendingDelivered, block.deliveredPending);
  assert.deepEqual(
    record.pendingAdded,
    newlyPending.map((m) => ({ hash: m.hash, createdLt: m.createdLt, boc: m.boc })),
  );
  assert.deepEqual(changed, [...block.changed.values()]);
  assert.deepEqual(
    record.accountStates.map((a) => new Address(a.workchain, a.account).toRawString()).sort(),
    changed.map((c) => c.address.toRawString()).sort(),
  );
  assert.deepEqual(record.libraries.set, [{ account: publisher.hash, hash: library.hash(), boc: library.toBoc() }]);
  assert.deepEqual(record.libraries.dropped, []);
  assert.equal(
    libraries.get(library.hash()),
    undefined,
    'assembling takes nothing in: the producer applies the changes once they are committed',
  );
});

test("a block without masterchain transactions: the masterchain block's range is its own lt; an empty block has zero trees", async () => {
  const head = headAt4();
  const block = new OpenBlock(5, nextAlignedLt(head.mc.endLt), 1_010, head.mc.id.rootHash);
  const { record } = await assembleSeal(input(block, head));
  const [shardRow, mcRow] = record.blocks;
  const mcOwnLt = nextAlignedLt(block.endLt);
  assert.deepEqual([mcRow.startLt, mcRow.endLt], [mcOwnLt, mcOwnLt + 1n]);
  assert.deepEqual([shardRow.txCount, mcRow.txCount], [0, 0]);
  assert.deepEqual(readBlockCell(shardRow.boc).txTreeHash, Buffer.alloc(32));
  assert.deepEqual(readBlockCell(mcRow.boc).txTreeHash, Buffer.alloc(32));
  assert.deepEqual(shardRow.stateHash, await shardStateHash(head.shard.stateRootHash, []));
  assert.deepEqual(record.accountStates, []);
  assert.deepEqual(record.libraries, { set: [], dropped: [] });

  const again = await assembleSeal(input(block, head));
  assert.deepEqual(again.record.blocks, record.blocks, 'the same input assembles the same blocks');
});
