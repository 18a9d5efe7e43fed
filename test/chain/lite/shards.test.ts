/**
 * A basechain of several shards, as mainnet's: the network starts with TON_SPLIT=2, so workchain 0 splits by itself
 * into 2 and then 4 shards in its first minute (real split events: a `before_split` block and two `after_split`
 * children); later a config change (ConfigParam 12, `min_split` 2 -> 0, signed by the config master) lets the idle
 * shards merge back (real merges: an `after_merge` block with two previous blocks). tongate indexes the network from
 * masterchain block 1 on, so the whole history is in the index; the tests check that every shard block is there,
 * once, in the order of the masterchain blocks that commit them, and that v2 and v3 show every shard.
 *
 * One network for the file, as TONGATE_TON_NETWORK picks it (test/support/ton-node.ts).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Address, beginCell, Builder, Cell, Dictionary, external, internal, SendMode, Slice, storeMessage, toNano } from '@ton/core';
import { keyPairFromSeed, sign, type KeyPair } from '@ton/crypto';
import { WalletContractV4 } from '@ton/ton';
import { genesisTransfer, requireTonNode, startTonNode, TON_NETWORK, type TonNode } from '../../support/ton-node.js';
import { getJson, postJson, startTestTongate, type TestTongate } from '../../support/tongate.js';
import { freePort } from '../../support/ports.js';
import type { LiteChain } from '../../../src/chain/lite/index.js';
import { until as poll } from '../../support/poll.js';

const available = requireTonNode();

/** Polls until `check` returns a value (support/poll.ts), 180 s at most unless told. */
const until = <T>(what: string, check: () => Promise<T | undefined>, timeoutMs = 180_000) => poll<T>(what, check, timeoutMs);

interface V3Block {
  workchain: number;
  shard: string;
  seqno: number;
  root_hash: string;
  before_split: boolean;
  after_split: boolean;
  after_merge: boolean;
  prev_blocks: { workchain: number; shard: string; seqno: number }[];
}

const hex = (base64: string) => Buffer.from(base64, 'base64').toString('hex').toUpperCase();
const key = (b: { workchain: number; shard: string; seqno: number }) => `${b.workchain}:${b.shard}:${b.seqno}`;
/** v2's shard (signed decimal int64) as v3's (16 uppercase hex digits). */
const v3Shard = (v2: string) => BigInt.asUintN(64, BigInt(v2)).toString(16).toUpperCase().padStart(16, '0');
/** The shard (v3 form) of depth `depth` an account belongs to: its first `depth` bits, then a 1 bit. */
const shardOf = (address: Address, depth: number) => {
  const prefix = BigInt('0x' + address.hash.subarray(0, 8).toString('hex')) >> BigInt(64 - depth);
  return (((prefix << 1n) | 1n) << BigInt(63 - depth)).toString(16).toUpperCase().padStart(16, '0');
};

describe(`a basechain that splits into 4 shards and merges back (${TON_NETWORK})`, { skip: !available }, () => {
  let node: TonNode;
  let gate: TestTongate;
  let v2: string;
  let v3: string;
  /** Every workchain-0 block the index holds, by key, with the masterchain block that committed it. */
  let indexed: Map<string, V3Block & { mcSeqno: number }>;

  const head = async () => (await getJson(`${v2}/getMasterchainInfo`)).body.result.last.seqno as number;
  const indexedTo = async () => (await getJson(`${v3}/masterchainInfo`)).body.last?.seqno as number | undefined;
  const topsAt = async (seqno: number) =>
    (await getJson(`${v2}/shards?seqno=${seqno}`)).body.result.shards as { shard: string; seqno: number; root_hash: string }[];
  const caughtUp = async () => {
    const target = await head();
    await until(`the index to reach masterchain block ${target}`, async () => ((await indexedTo()) ?? 0) >= target || undefined);
    return target;
  };

  /**
   * Reads the index's rounds 1..last (v3 /masterchainBlockShards) and checks what must hold across splits and
   * merges: each shard block is committed once; its previous blocks are indexed and committed no later (so every
   * ancestor of the newest tops is there, in order); v3 /blocks?mc_seqno lists the same blocks; the tops v2's
   * `shards` names at each masterchain block are indexed.
   */
  async function checkHistory(last: number): Promise<void> {
    indexed = new Map();
    for (let seqno = 1; seqno <= last; seqno++) {
      const round = await getJson(`${v3}/masterchainBlockShards?seqno=${seqno}&limit=256`);
      assert.equal(round.status, 200, `masterchainBlockShards ${seqno}: ${JSON.stringify(round.body)}`);
      const blocks = (round.body.blocks as V3Block[]).filter((b) => b.workchain === 0);
      for (const b of blocks) {
        assert.ok(!indexed.has(key(b)), `${key(b)} committed twice (again by ${seqno})`);
        indexed.set(key(b), { ...b, mcSeqno: seqno });
      }
      const same = (await getJson(`${v3}/blocks?workchain=0&mc_seqno=${seqno}&limit=256`)).body.blocks as V3Block[];
      assert.deepEqual(same.map(key).sort(), blocks.map(key).sort(), `v3 /blocks?mc_seqno=${seqno}`);
      for (const top of await topsAt(seqno)) {
        if (top.seqno === 0) continue; // the workchain's zero state: no block yet
        const found = indexed.get(key({ workchain: 0, shard: v3Shard(top.shard), seqno: top.seqno }));
        assert.ok(found, `top ${v3Shard(top.shard)}:${top.seqno} of masterchain block ${seqno} not indexed`);
        assert.equal(found.root_hash, top.root_hash);
      }
    }
    for (const b of indexed.values()) {
      for (const prev of b.prev_blocks) {
        if (prev.seqno === 0) continue; // the workchain's zero state
        const p = indexed.get(key(prev));
        assert.ok(p, `${key(b)}: its previous block ${key(prev)} is not indexed`);
        assert.ok(p.mcSeqno <= b.mcSeqno, `${key(prev)} (masterchain ${p.mcSeqno}) after ${key(b)} (masterchain ${b.mcSeqno})`);
      }
    }
  }

  before(async () => {
    node = await startTonNode({ split: 2 });
    gate = await startTestTongate({
      network: [`mainnet=http://127.0.0.1:${await freePort()}`],
      backend: ['mainnet=lite'],
      liteConfig: [`mainnet=${node.globalConfigFile}`],
      indexFrom: ['mainnet=1'],
    });
    v2 = `${gate.url('mainnet')}/api/v2`;
    v3 = `${gate.url('mainnet')}/api/v3`;
  });

  after(async () => {
    await gate?.stop();
    await node?.stop();
  });

  test('the split into 4 shards: v2 shards names 4, every shard block is indexed once and in order, v3 shows every shard', async () => {
    const four = await until('4 shards', async () => {
      const seqno = await head();
      return (await topsAt(seqno)).length === 4 ? seqno : undefined;
    });
    const last = Math.max(four, await caughtUp());
    await checkHistory(last);
    // Two real splits: 1 -> 2 and 2 -> 4, each a before_split block whose two after_split children name it.
    const splits = [...indexed.values()].filter((b) => b.before_split);
    assert.equal(splits.length, 3, `before_split blocks: ${splits.map(key).join(', ')}`);
    for (const parent of splits) {
      const children = [...indexed.values()].filter((b) => b.prev_blocks.length === 1 && key(b.prev_blocks[0]) === key(parent));
      assert.equal(children.length, 2, `children of ${key(parent)}`);
      for (const child of children) {
        assert.equal(child.after_split, true);
        assert.equal(child.seqno, parent.seqno + 1);
      }
    }
    // v3 shows every shard: the 4 of depth 2, each with its blocks.
    const tops = await topsAt(last);
    assert.deepEqual(tops.map((t) => v3Shard(t.shard)).sort(), [
      '2000000000000000',
      '6000000000000000',
      'A000000000000000',
      'E000000000000000',
    ]);
    for (const t of tops) {
      const blocks = (await getJson(`${v3}/blocks?workchain=0&shard=${v3Shard(t.shard)}&limit=1000`)).body.blocks as V3Block[];
      assert.ok(
        blocks.some((b) => b.seqno === t.seqno),
        `v3 /blocks of shard ${v3Shard(t.shard)}`,
      );
      // And v2 reads each top's transactions (none on an idle shard; the answer names the block).
      const txs = await getJson(`${v2}/getBlockTransactions?workchain=0&shard=${t.shard}&seqno=${t.seqno}`);
      assert.equal(txs.status, 200, JSON.stringify(txs.body));
      assert.equal(txs.body.result.id.seqno, t.seqno);
    }
    // The tops v2 names are the ones TON's own lite-client reads at the same block.
    const mc = (await getJson(`${v2}/lookupBlock?workchain=-1&shard=-9223372036854775808&seqno=${last}`)).body.result;
    const out = await node.liteClient(`allshards (-1,8000000000000000,${last}):${hex(mc.root_hash)}:${hex(mc.file_hash)}`);
    for (const t of tops)
      assert.ok(
        out.includes(`(0,${v3Shard(t.shard).toLowerCase()},${t.seqno}):${hex(t.root_hash)}`),
        `lite-client allshards at ${last}: ${out.slice(-800)}`,
      );
  });

  test('a transfer from a wallet in one shard to a wallet in another: both blocks list their transaction, one trace crosses the shards', async () => {
    const sender = walletIn('2000000000000000');
    const receiver = walletIn('E000000000000000');
    const chain = gate.networks[0].chain as LiteChain;
    const genesisSeqno = Number(
      BigInt(
        (await postJson(`${v2}/runGetMethod`, { address: node.genesisAddress.toRawString(), method: 'seqno', stack: [] })).body.result
          .stack[0][1],
      ),
    );
    const fund = await postJson(`${v2}/sendBoc`, {
      boc: genesisTransfer(node, genesisSeqno, internal({ to: sender.wallet.address, value: toNano(10), bounce: false })).toString(
        'base64',
      ),
    });
    assert.equal(fund.status, 200, JSON.stringify(fund.body));
    await until('the sender to be funded', async () =>
      BigInt((await getJson(`${v2}/getAddressBalance?address=${sender.wallet.address.toRawString()}`)).body.result) > 0n ? true : undefined,
    );
    const body = sender.wallet.createTransfer({
      seqno: 0,
      secretKey: sender.key.secretKey,
      sendMode: SendMode.PAY_GAS_SEPARATELY,
      messages: [internal({ to: receiver.wallet.address, value: toNano(1), bounce: false })],
    });
    const boc = beginCell()
      .store(storeMessage(external({ to: sender.wallet.address, body, init: sender.wallet.init })))
      .endCell()
      .toBoc();
    await chain.sendExternal(boc);
    const [received] = await until("the receiver's transaction in the index", async () => {
      const page = await getJson(`${v3}/transactions?account=${receiver.wallet.address.toRawString()}&limit=1`);
      return page.body.transactions?.length === 1 ? page.body.transactions : undefined;
    });
    const [sent] = (await getJson(`${v3}/transactions?account=${sender.wallet.address.toRawString()}&limit=1&sort=desc`)).body.transactions;
    assert.equal(sent.block_ref.shard, '2000000000000000');
    assert.equal(received.block_ref.shard, 'E000000000000000');
    // Each shard block lists its own transaction (v2 getBlockTransactions, v3 /blocks knows the block).
    for (const [tx, address] of [
      [sent, sender.wallet.address],
      [received, receiver.wallet.address],
    ] as const) {
      const ref = tx.block_ref;
      const v2shard = BigInt.asIntN(64, BigInt('0x' + ref.shard)).toString();
      const listed = await getJson(`${v2}/getBlockTransactions?workchain=0&shard=${v2shard}&seqno=${ref.seqno}`);
      assert.equal(listed.status, 200, JSON.stringify(listed.body));
      assert.ok(
        listed.body.result.transactions.some(
          (t: { account: string; hash: string }) => Address.parseRaw(t.account).equals(address) && t.hash === tx.hash,
        ),
        `getBlockTransactions ${ref.shard}:${ref.seqno}: ${JSON.stringify(listed.body.result.transactions)}`,
      );
      const blocks = (await getJson(`${v3}/blocks?workchain=0&shard=${ref.shard}&seqno=${ref.seqno}`)).body.blocks;
      assert.equal(blocks.length, 1);
    }
    // One trace: the external message into the sender, its internal message into the receiver, in two shards.
    const trace = await until('the trace to be complete', async () => {
      const found = (await getJson(`${v3}/traces?tx_hash=${encodeURIComponent(received.hash)}`)).body.traces?.[0];
      return found && !found.is_incomplete ? found : undefined;
    });
    assert.deepEqual(trace.transactions_order, [sent.hash, received.hash]);
    assert.deepEqual(
      trace.transactions_order.map((h: string) => trace.transactions[h].block_ref.shard),
      ['2000000000000000', 'E000000000000000'],
    );
  });

  test("a merge: with min_split lowered to 0 (ConfigParam 12) the idle shards merge; each merged block's two previous blocks are indexed, in order", async () => {
    const chain = gate.networks[0].chain as LiteChain;
    await sendConfigChange(node, chain, 12, await lowerMinSplit(chain, 0));
    const merged = await until('a merge (fewer than 4 shards)', async () => {
      const seqno = await head();
      return (await topsAt(seqno)).length < 4 ? seqno : undefined;
    });
    const last = Math.max(merged, await caughtUp());
    await checkHistory(last);
    const merges = [...indexed.values()].filter((b) => b.after_merge);
    assert.ok(merges.length >= 1, 'an after_merge block is indexed');
    for (const b of merges) {
      assert.equal(b.prev_blocks.length, 2, `${key(b)}: two previous blocks`);
      // Its previous blocks are the two halves of its shard (checkHistory found them indexed, committed no later).
      const parent = BigInt('0x' + b.shard);
      const low = parent & -parent;
      const halves = [parent - low / 2n, parent + low / 2n].map((s) => s.toString(16).toUpperCase().padStart(16, '0'));
      assert.deepEqual(b.prev_blocks.map((p) => p.shard).sort(), halves.sort());
    }
  });
});

/** A v4 wallet whose address lies in `shard` (depth 2); keys tried until one does (1 in 4). */
function walletIn(shard: string): { key: KeyPair; wallet: WalletContractV4 } {
  for (;;) {
    const key = keyPairFromSeed(randomBytes(32));
    const wallet = WalletContractV4.create({ workchain: 0, publicKey: key.publicKey });
    if (shardOf(wallet.address, 2) === shard) return { key, wallet };
  }
}

/** ConfigParam 12 with workchain 0's monitor_min_split and min_split set to `minSplit` (its other fields kept). */
async function lowerMinSplit(chain: LiteChain, minSplit: number): Promise<Cell> {
  const config = Dictionary.loadDirect(Dictionary.Keys.Int(32), Dictionary.Values.Cell(), await chain.config());
  // WorkchainDescr is stored inline in the dictionary: kept as raw bits and refs.
  const raw = {
    serialize: (v: Cell, b: Builder) => b.storeSlice(v.beginParse()),
    parse: (s: Slice) => beginCell().storeSlice(s).endCell(),
  };
  const workchains = Dictionary.load(Dictionary.Keys.Int(32), raw, config.get(12)!.beginParse());
  const descr = workchains.get(0)!.beginParse();
  const tag = descr.loadUint(8); // workchain#a6 / workchain_v2#a7
  const enabledSince = descr.loadUint(32);
  descr.skip(16); // monitor_min_split, min_split (max_split and the rest follow unchanged)
  workchains.set(
    0,
    beginCell().storeUint(tag, 8).storeUint(enabledSince, 32).storeUint(minSplit, 8).storeUint(minSplit, 8).storeSlice(descr).endCell(),
  );
  return beginCell().storeDict(workchains).endCell();
}

/** A config change signed by the network's config master (the config contract's `set_conf_param`, op 0x43665021). */
async function sendConfigChange(node: TonNode, chain: LiteChain, index: number, value: Cell): Promise<void> {
  const configAddress = Address.parse(`-1:${'5'.repeat(64)}`);
  const configSeqno = (await chain.getAccount(configAddress)).data!.beginParse().loadUint(32);
  const seed = readFileSync(join(node.dir, 'state', 'config-master.pk'));
  const master = keyPairFromSeed(seed.subarray(seed.length - 32));
  const payload = beginCell()
    .storeUint(0x43665021, 32)
    .storeUint(configSeqno, 32)
    .storeUint(Math.floor(Date.now() / 1000) + 120, 32)
    .storeInt(index, 32)
    .storeRef(value)
    .endCell();
  const body = beginCell().storeBuffer(sign(payload.hash(), master.secretKey)).storeSlice(payload.beginParse()).endCell();
  await chain.sendExternal(
    beginCell()
      .store(storeMessage(external({ to: configAddress, body })))
      .endCell()
      .toBoc(),
  );
}
