/**
 * Real transactions for the index tests, produced by @ton/sandbox's Blockchain and grouped into
 * blocks the way the local chain seals them (one shard block + one masterchain block per step, both
 * with the step's seqno). Sandbox has no blocks, so the block headers are made up here; the
 * transactions, messages and account states are the emulator's own.
 *
 * The story, one block per step:
 *   1 treasury funds wallet A (non-bounceable): A's compute phase is skipped (no_state)
 *   2 A deploys itself (external with StateInit) and sends "hello" to B and "to treasury" to the treasury
 *   3 A sends a bounceable comment to an address with no contract: it bounces back to A
 *   4 B deploys itself and replies "reply" to A
 *   5 an empty block (no transactions)
 */
import { createHash } from 'node:crypto';
import { Blockchain, type BlockchainTransaction } from '@ton/sandbox';
import { WalletContractV4, internal } from '@ton/ton';
import { keyPairFromSeed } from '@ton/crypto';
import { Address, beginCell, SendMode, storeShardAccount, toNano, type Cell } from '@ton/core';
import type { Block, BlockId } from '../../../src/chain/types.js';
import type { IndexedBlock } from '../../../src/index/types.js';

export const WHOLE = 0x8000000000000000n;
export const NOWHERE = new Address(0, Buffer.alloc(32, 9));
export const GLOBAL_ID = -239;
/** First masterchain seqno of the story (blocks before it are not indexed: the "first" block is this one). */
export const FIRST_SEQNO = 100;

export interface Story {
  blocks: IndexedBlock[];
  walletA: Address;
  walletB: Address;
  treasury: Address;
  /** Every transaction, in the order they were produced. */
  transactions: BlockchainTransaction[];
  /** Named transactions of the story. */
  fundA: BlockchainTransaction;
  deployA: BlockchainTransaction;
  helloReceived: BlockchainTransaction;
  /** The treasury receiving "to treasury" from A. */
  treasuryReceived: BlockchainTransaction;
  /** A sending the bounceable comment to NOWHERE. */
  bounceSent: BlockchainTransaction;
  bounce: BlockchainTransaction;
  bouncedBack: BlockchainTransaction;
  replySent: BlockchainTransaction;
  replyReceived: BlockchainTransaction;
}

const hashOf = (...parts: (string | number)[]): Buffer => createHash('sha256').update(parts.join('/')).digest();

function blockId(workchain: number, seqno: number): BlockId {
  return { workchain, shard: WHOLE, seqno, rootHash: hashOf('root', workchain, seqno), fileHash: hashOf('file', workchain, seqno) };
}

function header(id: BlockId, genUtime: number, txs: BlockchainTransaction[], previous: BlockId | null, startLt: bigint): Block {
  const endLt = txs.reduce(
    (max, tx) => (tx.lt + BigInt(tx.outMessagesCount) + 1n > max ? tx.lt + BigInt(tx.outMessagesCount) + 1n : max),
    startLt + 1n,
  );
  return {
    id,
    globalId: GLOBAL_ID,
    version: 0,
    genUtime,
    startLt,
    endLt,
    prevBlocks: previous ? [previous] : [],
    stateRootHash: hashOf('state', id.workchain, id.seqno),
    randSeed: hashOf('seed', id.workchain, id.seqno),
    txCount: txs.length,
    isKeyBlock: false,
    prevKeyBlockSeqno: 0,
    minRefMcSeqno: id.seqno,
  };
}

let cached: Promise<Story> | undefined;

export function story(): Promise<Story> {
  cached ??= build();
  return cached;
}

async function build(): Promise<Story> {
  const chain = await Blockchain.create();
  chain.now = 1_700_000_000;
  const treasury = await chain.treasury('treasury');
  const keysA = keyPairFromSeed(Buffer.alloc(32, 1));
  const keysB = keyPairFromSeed(Buffer.alloc(32, 2));
  const walletA = chain.openContract(WalletContractV4.create({ workchain: 0, publicKey: keysA.publicKey }));
  const walletB = chain.openContract(WalletContractV4.create({ workchain: 0, publicKey: keysB.publicKey }));

  const blocks: IndexedBlock[] = [];
  const all: BlockchainTransaction[] = [];
  let previousMc: BlockId | null = null;
  let previousShard: BlockId | null = null;

  const seal = async (txs: BlockchainTransaction[]): Promise<void> => {
    const seqno = FIRST_SEQNO + blocks.length;
    const genUtime = chain.now!;
    const startLt = txs.length > 0 ? txs.reduce((min, tx) => (tx.lt < min ? tx.lt : min), txs[0].lt) : BigInt(seqno) * 1_000_000n;
    const shardId = blockId(0, seqno);
    const mcId = blockId(-1, seqno);
    const shard = { ...header(shardId, genUtime, txs, previousShard, startLt), masterRef: { workchain: -1, shard: WHOLE, seqno } };
    const masterchain = { ...header(mcId, genUtime, [], previousMc, startLt), shardBlocks: [shardId] };
    const touched = new Map<string, Address>();
    for (const tx of txs) {
      const address = new Address(0, Buffer.from(tx.address.toString(16).padStart(64, '0'), 'hex'));
      touched.set(address.toRawString(), address);
    }
    const accounts: { address: Address; shardAccount: Cell }[] = [];
    for (const address of touched.values()) {
      const shardAccount = beginCell()
        .store(storeShardAccount((await chain.getContract(address)).account))
        .endCell();
      accounts.push({ address, shardAccount });
    }
    blocks.push({ masterchain, shards: [shard], transactions: txs.map((transaction) => ({ transaction, block: shardId })), accounts });
    all.push(...txs);
    previousMc = mcId;
    previousShard = shardId;
    chain.now = genUtime + 5;
  };

  const fund = await treasury.send({ to: walletA.address, value: toNano('10'), bounce: false });
  await seal(fund.transactions);

  const deploy = await walletA.sendTransfer({
    seqno: 0,
    secretKey: keysA.secretKey,
    sendMode: SendMode.PAY_GAS_SEPARATELY,
    messages: [
      internal({ to: walletB.address, value: toNano('3'), bounce: false, body: 'hello' }),
      internal({ to: treasury.address, value: toNano('1'), body: 'to treasury' }),
    ],
  });
  await seal(deploy.transactions);

  const bounce = await walletA.sendTransfer({
    seqno: 1,
    secretKey: keysA.secretKey,
    sendMode: SendMode.PAY_GAS_SEPARATELY,
    messages: [internal({ to: NOWHERE, value: toNano('1'), bounce: true, body: 'bounce me' })],
  });
  await seal(bounce.transactions);

  const reply = await walletB.sendTransfer({
    seqno: 0,
    secretKey: keysB.secretKey,
    sendMode: SendMode.PAY_GAS_SEPARATELY,
    messages: [internal({ to: walletA.address, value: toNano('1'), body: 'reply' })],
  });
  await seal(reply.transactions);
  await seal([]);

  const id = (address: Address) => BigInt(`0x${address.hash.toString('hex')}`);
  const find = (txs: BlockchainTransaction[], address: Address) => txs.find((tx) => tx.address === id(address))!;
  return {
    blocks,
    walletA: walletA.address,
    walletB: walletB.address,
    treasury: treasury.address,
    transactions: all,
    fundA: find(fund.transactions, walletA.address),
    deployA: find(deploy.transactions, walletA.address),
    helloReceived: find(deploy.transactions, walletB.address),
    treasuryReceived: find(deploy.transactions, treasury.address),
    bounceSent: find(bounce.transactions, walletA.address),
    bounce: find(bounce.transactions, NOWHERE),
    bouncedBack: bounce.transactions.filter((tx) => tx.address === id(walletA.address))[1],
    replySent: find(reply.transactions, walletB.address),
    replyReceived: find(reply.transactions, walletA.address),
  };
}
