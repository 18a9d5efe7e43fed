/**
 * tongate in lite mode against a real TON network (../shared/ton-node: TON's validator-engine with a liteserver),
 * one network for the whole file. v2 over the liteserver, real clients (TonClient, tonweb), answers compared with
 * lite-client's for the same block, refusals, and answers that do not check out.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { Address, beginCell, Cell, external, internal, storeMessage, toNano, SendMode } from '@ton/core';
import { keyPairFromSeed } from '@ton/crypto';
import { TonClient, WalletContractV4 } from '@ton/ton';
import TonWeb from 'tonweb';
import { Functions } from 'ton-lite-client/dist/schema.js';
import { genesisTransfer, requireTonNode, startTonNode, TON_NETWORK, type TonNode } from '../../support/ton-node.js';
import { getJson, postJson, startTestTongate, type TestTongate } from '../../support/tongate.js';
import { freePort } from '../../support/ports.js';
import { LiteChain, LitePool, LiteTimeout, LiteUnavailable } from '../../../src/chain/lite/index.js';
import type { HeadInfo } from '../../../src/chain/lite/pool.js';
import { systemClock } from '../../../src/util/clock.js';
import { startTcpProxy } from '../../support/corrupting-proxy.js';
import { proveAccount } from '../../../src/chain/lite/proofs.js';
import { LiteDataError } from '../../../src/chain/lite/errors.js';
import { fromTlBlockId, toTlBlockId } from '../../../src/chain/lite/blocks.js';
import { MasterchainTrust } from '../../../src/chain/lite/block-proofs/masterchain-trust.js';
import { readPartialBlockProof } from '../../../src/chain/lite/block-proofs/proof-tl.js';
import { startLiteMitm } from '../../support/lite-mitm.js';
import { createHash } from 'node:crypto';
import { Dictionary } from '@ton/core';
import { sign, signVerify } from '@ton/crypto';
import { parseGlobalConfig } from '../../../src/ton/global-config.js';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { until as poll } from '../../support/poll.js';

const available = requireTonNode();
const ADMIN_TOKEN = 'lite-test-admin-token';

/** Polls until `check` returns a value (support/poll.ts), 60 s at most unless told. */
const until = <T>(what: string, check: () => Promise<T | undefined>, timeoutMs = 60_000) => poll<T>(what, check, timeoutMs);

const hex = (base64: string) => Buffer.from(base64, 'base64').toString('hex').toUpperCase();

describe(`tongate on a real TON network through its liteserver (${TON_NETWORK})`, { skip: !available }, () => {
  let node: TonNode;
  let gate: TestTongate;
  let v2: string;
  let client: TonClient;
  let startSeqno: number;
  /** The network's head before tongate started: the index begins at or after it. */
  let seqnoBeforeStart: number;
  const walletKey = keyPairFromSeed(randomBytes(32));
  const wallet = WalletContractV4.create({ workchain: 0, publicKey: walletKey.publicKey });
  const receiver = new Address(0, randomBytes(32));

  before(async () => {
    node = await startTonNode();
    const last = /latest masterchain block known to server is \(-1,8000000000000000,(\d+)\)/.exec(await node.liteClient('last'));
    assert.ok(last, 'lite-client names the head');
    seqnoBeforeStart = Number(last[1]);
    gate = await startTestTongate({
      network: [`mainnet=http://127.0.0.1:${await freePort()}`],
      backend: ['mainnet=lite'],
      liteConfig: [`mainnet=${node.globalConfigFile}`],
      adminToken: ADMIN_TOKEN,
    });
    v2 = `${gate.url('mainnet')}/api/v2`;
    startSeqno = gate.networks[0].chain.masterchainInfo().last.id.seqno;
    client = new TonClient({ endpoint: `${v2}/jsonRPC` });
  });

  after(async () => {
    await gate?.stop();
    await node?.stop();
  });

  test('getMasterchainInfo and getBlockHeader give the blocks lite-client reads', async () => {
    const info = await getJson(`${v2}/getMasterchainInfo`);
    assert.equal(info.status, 200);
    const last = info.body.result.last;
    assert.equal(info.body.result.init.seqno, 0);
    assert.equal(hex(info.body.result.init.root_hash), node.zeroStateRootHash.toUpperCase());
    const seqno = last.seqno;
    const header = await getJson(`${v2}/getBlockHeader?workchain=-1&shard=-9223372036854775808&seqno=${seqno}`);
    assert.equal(header.status, 200);
    const out = await node.liteClient(`byseqno -1:8000000000000000 ${seqno}`);
    const match = /block header of \(-1,8000000000000000,(\d+)\):([0-9A-F]{64}):([0-9A-F]{64}) @ (\d+) lt (\d+) \.\. (\d+)/.exec(out);
    assert.ok(match, `lite-client said: ${out}`);
    const h = header.body.result;
    assert.deepEqual(
      [h.id.seqno, hex(h.id.root_hash), hex(h.id.file_hash), h.gen_utime, h.start_lt, h.end_lt],
      [Number(match[1]), match[2], match[3], Number(match[4]), match[5], match[6]],
    );
    const flags =
      /global_id=(-?\d+) .* validator_list_hash_short=(\d+) catchain_seqno=(\d+) min_ref_mc_seqno=(\d+) is_key_block=(\w+) prev_key_block_seqno=(\d+)/.exec(
        out,
      );
    assert.ok(flags, out);
    assert.deepEqual(
      [h.global_id, h.validator_list_hash_short, h.catchain_seqno, h.min_ref_mc_seqno, h.is_key_block, h.prev_key_block_seqno],
      [Number(flags[1]), Number(flags[2]), Number(flags[3]), Number(flags[4]), flags[5] === 'true', Number(flags[6])],
    );
    // An unknown block is a 404, not a failure of the liteserver.
    const future = await getJson(`${v2}/getBlockHeader?workchain=-1&shard=-9223372036854775808&seqno=${last.seqno + 100000}`);
    assert.equal(future.status, 404, JSON.stringify(future.body));
  });

  test('getAddressInformation: the balance and last transaction lite-client reads at the same block', async () => {
    const info = await getJson(`${v2}/getAddressInformation?address=${node.genesisAddress.toRawString()}`);
    assert.equal(info.status, 200);
    const r = info.body.result;
    const block = `(${r.block_id.workchain},8000000000000000,${r.block_id.seqno}):${hex(r.block_id.root_hash)}:${hex(r.block_id.file_hash)}`;
    const out = await node.liteClient(`getaccount ${node.genesisAddress.toRawString()} ${block}`);
    const balance = /account balance is \((\d+)ng/.exec(out);
    const lastTx = /last transaction lt = (\d+) hash = ([0-9A-F]{64})/.exec(out);
    assert.ok(balance && lastTx, `lite-client said: ${out}`);
    assert.equal(r.balance, balance[1]);
    assert.equal(r.last_transaction_id.lt, lastTx[1]);
    assert.equal(hex(r.last_transaction_id.hash), lastTx[2]);
    assert.equal(r.state, 'active');
  });

  test('TonClient: fund a wallet v4 from the genesis wallet, deploy it with a transfer, read its seqno by get-method', async () => {
    const genesisSeqno = await client.runMethod(node.genesisAddress, 'seqno');
    const seqno = genesisSeqno.stack.readNumber();
    await client.sendFile(genesisTransfer(node, seqno, internal({ to: wallet.address, value: toNano(10), bounce: false })));
    await until('the wallet to be funded', async () => ((await client.getBalance(wallet.address)) > 0n ? true : undefined));
    assert.equal(await client.getBalance(wallet.address), toNano(10));
    assert.equal(await client.isContractDeployed(wallet.address), false);

    const opened = client.open(wallet);
    await opened.sendTransfer({
      seqno: 0,
      secretKey: walletKey.secretKey,
      sendMode: SendMode.PAY_GAS_SEPARATELY,
      messages: [internal({ to: receiver, value: toNano(1), bounce: false })],
    });
    await until('the wallet to be deployed', async () => ((await opened.getSeqno()) === 1 ? true : undefined));
    assert.equal(await client.isContractDeployed(wallet.address), true);
    await until('the receiver to be paid', async () => ((await client.getBalance(receiver)) === toNano(1) ? true : undefined));
    const balance = await client.getBalance(wallet.address);
    assert.ok(balance < toNano(9) && balance > toNano(8.9), `wallet balance ${balance}`);
  });

  test('getTransactions pages as toncenter does (limit, lt+hash, to_lt); TonClient and tonweb read the same', async () => {
    const address = wallet.address.toString();
    const all = (await getJson(`${v2}/getTransactions?address=${address}&limit=10`)).body.result;
    assert.equal(all.length, 2, 'the funding and the deploying transfer');
    assert.ok(BigInt(all[0].transaction_id.lt) > BigInt(all[1].transaction_id.lt));
    assert.equal(all[1].in_msg.value, toNano(10).toString());
    assert.equal(all[0].out_msgs[0].value, toNano(1).toString());

    const first = (await getJson(`${v2}/getTransactions?address=${address}&limit=1`)).body.result;
    assert.deepEqual(first, [all[0]]);
    const second = (
      await getJson(
        `${v2}/getTransactions?address=${address}&limit=1&lt=${all[1].transaction_id.lt}&hash=${encodeURIComponent(all[1].transaction_id.hash)}`,
      )
    ).body.result;
    assert.deepEqual(second, [all[1]]);
    const newer = (await getJson(`${v2}/getTransactions?address=${address}&limit=10&to_lt=${all[1].transaction_id.lt}`)).body.result;
    assert.deepEqual(newer, [all[0]]);
    // lt without hash: the newest transaction at or below lt, found through the block holding lt (not a walk).
    const atOrBelow = async (lt: bigint) =>
      (await getJson(`${v2}/getTransactions?address=${address}&limit=10&lt=${lt}`)).body.result.map(
        (t: { transaction_id: { hash: string } }) => t.transaction_id.hash,
      );
    const hashes = all.map((t: { transaction_id: { hash: string } }) => t.transaction_id.hash);
    assert.deepEqual(await atOrBelow(BigInt(all[0].transaction_id.lt)), hashes);
    assert.deepEqual(await atOrBelow(BigInt(all[0].transaction_id.lt) - 1n), hashes.slice(1));
    assert.deepEqual(await atOrBelow(BigInt(all[1].transaction_id.lt)), hashes.slice(1));
    assert.deepEqual(await atOrBelow(BigInt(all[1].transaction_id.lt) - 1n), []);
    assert.deepEqual(await atOrBelow(BigInt(all[0].transaction_id.lt) + 1_000_000n), hashes);
    // ...found by the block lookup and the proven state before it, not by the bounded walk it falls back to.
    const { transactions } = gate.networks[0].chain as unknown as {
      transactions: { transactionAtOrBefore(a: Address, lt: bigint): Promise<unknown> };
    };
    const locate = transactions.transactionAtOrBefore.bind(transactions);
    assert.deepEqual(await locate(wallet.address, BigInt(all[0].transaction_id.lt) - 1n), {
      lt: BigInt(all[1].transaction_id.lt),
      hash: Buffer.from(all[1].transaction_id.hash, 'base64'),
    });
    assert.deepEqual(await locate(wallet.address, BigInt(all[0].transaction_id.lt)), {
      lt: BigInt(all[0].transaction_id.lt),
      hash: Buffer.from(all[0].transaction_id.hash, 'base64'),
    });
    const wrongHash = await getJson(
      `${v2}/getTransactions?address=${address}&limit=1&lt=${all[1].transaction_id.lt}&hash=${encodeURIComponent(all[0].transaction_id.hash)}`,
    );
    assert.equal(wrongHash.status, 404, JSON.stringify(wrongHash.body));

    const viaClient = await client.getTransactions(wallet.address, { limit: 10 });
    assert.deepEqual(
      viaClient.map((tx) => tx.hash().toString('base64')),
      all.map((tx: { transaction_id: { hash: string } }) => tx.transaction_id.hash),
    );
    const TonWebClass = (TonWeb as any).default ?? TonWeb;
    const tonweb = new TonWebClass(new TonWebClass.HttpProvider(`${v2}/jsonRPC`));
    const viaTonweb = await tonweb.provider.getTransactions(address, 10);
    assert.deepEqual(
      viaTonweb.map((tx: { transaction_id: { hash: string } }) => tx.transaction_id.hash),
      all.map((tx: { transaction_id: { hash: string } }) => tx.transaction_id.hash),
    );
    assert.equal(String(await tonweb.getBalance(address)), (await client.getBalance(wallet.address)).toString());

    // lite-client walks the same chain of transactions.
    const out = await node.liteClient(
      `lasttrans ${wallet.address.toRawString()} ${all[0].transaction_id.lt} ${hex(all[0].transaction_id.hash)} 2`,
    );
    const times = [...out.matchAll(/time=(\d+)/g)].map((m) => Number(m[1]));
    assert.deepEqual(
      times,
      all.map((tx: { utime: number }) => tx.utime),
      `lite-client lasttrans: ${out}`,
    );
    assert.match(out, /no preceding transactions/);
  });

  test('v3 from the live index: tongate indexes the network from where it started, wallet transactions included', async () => {
    const v3 = `${gate.url('mainnet')}/api/v3`;
    const v2txs = (await getJson(`${v2}/getTransactions?address=${wallet.address.toString()}&limit=10`)).body.result;
    const indexed = await until("the index to hold the wallet's transactions", async () => {
      const page = await getJson(`${v3}/transactions?account=${wallet.address.toRawString()}&sort=desc&limit=10`);
      return page.status === 200 && page.body.transactions.length === v2txs.length ? page.body.transactions : undefined;
    });
    assert.deepEqual(
      indexed.map((t: { hash: string; lt: string }) => [t.hash, t.lt]),
      v2txs.map((t: { transaction_id: { hash: string; lt: string } }) => [t.transaction_id.hash, t.transaction_id.lt]),
    );
    // The transaction's shard block is the one lookupBlock finds by its lt, and v3 knows that block.
    const ref = indexed[0].block_ref;
    const byLt = (await getJson(`${v2}/lookupBlock?workchain=0&shard=-9223372036854775808&lt=${indexed[0].lt}`)).body.result;
    assert.equal(ref.seqno, byLt.seqno);
    const blocks = (await getJson(`${v3}/blocks?workchain=0&seqno=${ref.seqno}`)).body.blocks;
    assert.equal(blocks.length, 1);
    assert.equal(blocks[0].root_hash, byLt.root_hash);
    // The header fields are the block's own (as v2's getBlockHeader reads them, itself checked against lite-client).
    for (const [workchain, seqno] of [
      [0, ref.seqno],
      [-1, indexed[0].mc_block_seqno],
    ]) {
      const [v3block] = (await getJson(`${v3}/blocks?workchain=${workchain}&seqno=${seqno}`)).body.blocks;
      const h = (await getJson(`${v2}/getBlockHeader?workchain=${workchain}&shard=-9223372036854775808&seqno=${seqno}`)).body.result;
      assert.deepEqual(
        [
          v3block.flags,
          v3block.validator_list_hash_short,
          v3block.gen_catchain_seqno,
          v3block.vert_seqno,
          v3block.after_split,
          v3block.want_split,
        ],
        [h.flags, h.validator_list_hash_short, h.catchain_seqno, h.vert_seqno, h.after_split, h.want_split],
      );
      if (workchain === -1) assert.notEqual(v3block.validator_list_hash_short, 0, 'a masterchain block names its validators');
    }
    // The index begins at the masterchain block tongate started at, and follows the network.
    const info = (await getJson(`${v3}/masterchainInfo`)).body;
    // startSeqno is read once tongate is up, a moment after the index took the head it begins at: blocks may have
    // come in between (one a second on the Simplex network), none before seqnoBeforeStart.
    assert.ok(
      info.first.seqno <= startSeqno && info.first.seqno >= seqnoBeforeStart,
      `index begins at ${info.first.seqno}, tongate started at ${startSeqno}, the network was at ${seqnoBeforeStart} before`,
    );
    assert.ok(info.last.seqno > startSeqno);
    // The account's state as the index keeps it: the wallet, active, with the balance v2 reads at that block.
    const state = (await getJson(`${v3}/addressInformation?address=${wallet.address.toRawString()}`)).body;
    assert.equal(state.status, 'active');
  });

  test("tryLocateTx / tryLocateSourceTx / tryLocateResultTx: the two ends of the wallet's transfer (through the live index)", async () => {
    const v3 = `${gate.url('mainnet')}/api/v3`;
    const [sent] = (await getJson(`${v2}/getTransactions?address=${wallet.address.toString()}&limit=1`)).body.result;
    const createdLt = sent.out_msgs[0].created_lt;
    const [received] = await until("the receiver's transaction in the index", async () => {
      const page = await getJson(`${v3}/transactions?account=${receiver.toRawString()}&limit=1`);
      return page.body.transactions?.length === 1 ? page.body.transactions : undefined;
    });
    const query = `source=${wallet.address.toString()}&destination=${receiver.toString()}&created_lt=${createdLt}`;
    const source = await getJson(`${v2}/tryLocateSourceTx?${query}`);
    assert.equal(source.status, 200, JSON.stringify(source.body));
    assert.equal(source.body.result.transaction_id.hash, sent.transaction_id.hash);
    for (const method of ['tryLocateTx', 'tryLocateResultTx']) {
      const result = await getJson(`${v2}/${method}?${query}`);
      assert.equal(result.status, 200, JSON.stringify(result.body));
      assert.equal(result.body.result.transaction_id.hash, received.hash);
      assert.equal(result.body.result.in_msg.created_lt, createdLt);
    }
    const unknown = await getJson(`${v2}/tryLocateTx?source=${wallet.address.toString()}&destination=${receiver.toString()}&created_lt=1`);
    assert.equal(unknown.status, 404);
  });

  test("--index-from back-fills the index from an earlier block: the genesis wallet's first transactions are there", async () => {
    const head = gate.networks[0].chain.masterchainInfo().last.id.seqno;
    const second = await startTestTongate({
      network: [`mainnet=http://127.0.0.1:${await freePort()}`],
      backend: ['mainnet=lite'],
      liteConfig: [`mainnet=${node.globalConfigFile}`],
      indexFrom: ['mainnet=1'],
    });
    try {
      const v3 = `${second.url('mainnet')}/api/v3`;
      await until('the back-fill to reach the head', async () => {
        const body = (await getJson(`${v3}/blocks?workchain=-1&seqno=${head}`)).body;
        return body.blocks?.length === 1 ? true : undefined;
      });
      const info = (await getJson(`${v3}/masterchainInfo`)).body;
      assert.equal(info.first.seqno, 1);
      // Every masterchain block from 1 on is there, and the funding transfer of the wallet (made before this
      // tongate started) too.
      const blocks = (await getJson(`${v3}/blocks?workchain=-1&limit=1000&sort=asc`)).body.blocks;
      assert.deepEqual(
        blocks.slice(0, head).map((b: { seqno: number }) => b.seqno),
        Array.from({ length: head }, (_, i) => i + 1),
      );
      const txs = (await getJson(`${v3}/transactions?account=${wallet.address.toRawString()}&limit=10`)).body.transactions;
      assert.equal(txs.length, 2);
    } finally {
      await second.stop();
    }
  });

  test("the follower reads touched accounts from their block's state update: the same states a liteserver proves, within its budget", async () => {
    const chain = gate.networks[0].chain as LiteChain;
    const head = chain.masterchainInfo().last.id.seqno;
    let compared = 0;
    for (let seqno = startSeqno; seqno <= head; seqno++) {
      const fed = await chain.feedBlock(seqno);
      for (const { address, ...source } of fed.accounts) {
        const proven = await chain.getAccount(address, seqno);
        assert.ok('cell' in source);
        assert.equal(
          source.cell.hash().toString('hex'),
          proven.shardAccount.hash().toString('hex'),
          `${address.toRawString()} after ${seqno}`,
        );
        compared++;
      }
    }
    assert.ok(compared > 0, 'blocks with transactions were compared');
    // The wallet's transactions changed its data, not its code: its state came from the block, the code filled in.
    assert.ok(chain.follower.stats.accountsFromBlocks > 0, JSON.stringify(chain.follower.stats));
    // Every follower query went through its budget; none of them HTTP's.
    assert.ok(chain.pool.followerBudget.granted > 0);
    assert.ok(chain.pool.status().every((s) => s.followerInFlight === 0));
  });

  test('/healthcheck reports the index lag; /metrics the liteservers as the pool sees them', async () => {
    const health = await until('the index to be in step', async () => {
      const h = await getJson(`${gate.url('mainnet')}/healthcheck`);
      return h.body.index_lag_blocks <= 2 ? h : undefined;
    });
    assert.equal(health.status, 200);
    assert.equal(health.body.status, 'ok');
    const metrics = await fetch(`${gate.url('mainnet')}/metrics`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
    const text = await metrics.text();
    const server = `network="mainnet",server="127.0.0.1:${node.liteserver.port}"`;
    assert.match(text, new RegExp(`tongate_liteserver_connected\\{${server}\\} 1`));
    assert.match(text, new RegExp(`tongate_liteserver_breaker_state\\{${server}\\} 0`));
    assert.match(text, new RegExp(`tongate_liteserver_mc_seqno\\{${server}\\} \\d+`));
    assert.match(text, /tongate_index_lag_blocks\{network="mainnet"\} \d+/);
    // The chain gauges of a lite network: its head, that block's age on the wall clock, and the newest
    // indexed block's transactions (from the index: a scrape asks the liteserver nothing).
    const seqno = Number(/^tongate_chain_last_seqno\{network="mainnet"\} (\d+)$/m.exec(text)?.[1]);
    assert.ok(seqno >= health.body.last_seqno, `seqno ${seqno}`);
    assert.match(text, /^tongate_chain_last_block_age_seconds\{network="mainnet"\} \d+(\.\d+)?$/m);
    assert.match(text, /^tongate_chain_block_transactions\{network="mainnet"\} \d+$/m);
    assert.match(text, /^tongate_http_request_duration_seconds_count\{network="mainnet",class="health",status="200"\} [1-9]\d*$/m);
  });

  test('blocks: lookupBlock by lt finds the shard block of a transaction, which lists it; getShards names shard blocks', async () => {
    const [tx] = (await getJson(`${v2}/getTransactions?address=${wallet.address.toString()}&limit=1`)).body.result;
    const found = await getJson(`${v2}/lookupBlock?workchain=0&shard=-9223372036854775808&lt=${tx.transaction_id.lt}`);
    assert.equal(found.status, 200, JSON.stringify(found.body));
    const block = found.body.result;
    const txs = await getJson(
      `${v2}/getBlockTransactions?workchain=0&shard=-9223372036854775808&seqno=${block.seqno}&root_hash=${encodeURIComponent(block.root_hash)}&file_hash=${encodeURIComponent(block.file_hash)}&count=40`,
    );
    assert.equal(txs.status, 200, JSON.stringify(txs.body));
    assert.ok(
      txs.body.result.transactions.some(
        (t: { hash: string; lt: string }) => t.hash === tx.transaction_id.hash && t.lt === tx.transaction_id.lt,
      ),
      JSON.stringify(txs.body.result),
    );
    const ext = await getJson(`${v2}/getBlockTransactionsExt?workchain=0&shard=-9223372036854775808&seqno=${block.seqno}&count=40`);
    assert.equal(ext.status, 200);
    assert.ok(
      ext.body.result.transactions.some((t: { transaction_id: { hash: string } }) => t.transaction_id.hash === tx.transaction_id.hash),
    );

    const head = (await getJson(`${v2}/getMasterchainInfo`)).body.result.last.seqno;
    const shards = (await getJson(`${v2}/getShards?seqno=${head}`)).body.result.shards;
    assert.equal(shards.length, 1);
    assert.equal(shards[0].workchain, 0);
    const lc = await node.liteClient(
      `allshards (-1,8000000000000000,${head}):${hex((await getJson(`${v2}/lookupBlock?workchain=-1&shard=-9223372036854775808&seqno=${head}`)).body.result.root_hash)}:${hex((await getJson(`${v2}/lookupBlock?workchain=-1&shard=-9223372036854775808&seqno=${head}`)).body.result.file_hash)}`,
    );
    assert.ok(lc.includes(hex(shards[0].root_hash)), `lite-client allshards: ${lc}`);
  });

  test("sendBoc: a transfer the wallet refuses is a 400 with the liteserver's own words", async () => {
    const stranger = keyPairFromSeed(randomBytes(32));
    const transfer = wallet.createTransfer({
      seqno: 1,
      secretKey: stranger.secretKey,
      messages: [internal({ to: receiver, value: toNano(1) })],
    });
    const boc = beginCell()
      .store(storeMessage(external({ to: wallet.address, body: transfer })))
      .endCell()
      .toBoc()
      .toString('base64');
    const refused = await postJson(`${v2}/sendBoc`, { boc });
    assert.equal(refused.status, 400, JSON.stringify(refused.body));
    assert.match(refused.body.error, /^LITE_SERVER_UNKNOWN: .*cannot apply external message to current state/s);
    console.log(`# the liteserver's refusal: ${JSON.stringify(refused.body.error)}`);
    assert.match(refused.body.error, /exitcode=35/);

    // estimateFee emulates a good transfer locally, on the state fetched from the liteserver.
    const good = wallet.createTransfer({
      seqno: 1,
      secretKey: walletKey.secretKey,
      messages: [internal({ to: receiver, value: toNano(1) })],
    });
    const fee = await postJson(`${v2}/estimateFee`, { address: wallet.address.toString(), body: good.toBoc().toString('base64') });
    assert.equal(fee.status, 200, JSON.stringify(fee.body));
    assert.ok(fee.body.result.source_fees.gas_fee > 0, JSON.stringify(fee.body.result));
  });

  test('an account proof that does not check out is refused', async () => {
    const chain = gate.networks[0].chain as LiteChain;
    const head = chain.masterchainInfo().last;
    const answer = await chain.pool.query(Functions.liteServer_getAccountState, {
      kind: 'liteServer.getAccountState',
      id: toTlBlockId(head.id),
      account: { kind: 'liteServer.accountId', workchain: wallet.address.workChain, id: wallet.address.hash },
    });
    const shardRoot = answer.shardblk.rootHash;
    // The genuine answer checks out...
    assert.ok(proveAccount(answer.proof, answer.state, shardRoot, wallet.address.hash).lastTxLt > 0n);
    // ...another account's state in its place does not,
    const other = Cell.fromBoc(answer.state)[0];
    const forged = beginCell().storeSlice(other.beginParse()).storeBit(true).endCell().toBoc();
    assert.throws(() => proveAccount(answer.proof, forged, shardRoot, wallet.address.hash), LiteDataError);
    // nor a proof of another shard block, nor a proof with a flipped byte.
    assert.throws(() => proveAccount(answer.proof, answer.state, randomBytes(32), wallet.address.hash), LiteDataError);
    const flipped = Buffer.from(answer.proof);
    flipped[flipped.length - 40] ^= 0xff;
    assert.throws(() => proveAccount(flipped, answer.state, shardRoot, wallet.address.hash), LiteDataError);
  });

  test('getMasterchainBlockSignatures: the signatures verify with ed25519 against the validators of config param 34, and weigh more than 2/3', async () => {
    const head = await until('a few blocks', async () => {
      const last = (await getJson(`${v2}/getMasterchainInfo`)).body.result.last;
      return last.seqno > startSeqno + 1 ? last : undefined;
    });
    const answer = await getJson(`${v2}/getMasterchainBlockSignatures?seqno=${head.seqno}`);
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    const r = answer.body.result;
    // A network of the Simplex consensus (../shared/ton-node-simplex) signs in its own form, as tonlib answers it.
    const simplex = (node.liteserver as { consensus?: string }).consensus === 'simplex';
    assert.equal(r['@type'], simplex ? 'blocks.blockSignatures.simplex' : 'blocks.blockSignatures');
    assert.deepEqual(r.id, head);
    // The validator set, read here on its own from config param 34 (validators_ext#12 or validators#11).
    const p34 = (await getJson(`${v2}/getConfigParam?config_id=34&seqno=${head.seqno}`)).body.result.config.bytes;
    const s = Cell.fromBase64(p34).beginParse();
    const tag = s.loadUint(8);
    s.skip(64);
    const total = s.loadUint(16);
    const main = s.loadUint(16);
    if (tag === 0x12) s.skip(64);
    const validator = {
      serialize: () => undefined,
      parse: (v: import('@ton/core').Slice) => {
        v.loadUint(8 + 32);
        return { key: v.loadBuffer(32), weight: v.loadUintBig(64) };
      },
    };
    const list =
      tag === 0x12
        ? Dictionary.load(Dictionary.Keys.Uint(16), validator, s)
        : Dictionary.loadDirect(Dictionary.Keys.Uint(16), validator, s);
    const byNodeId = new Map<string, { key: Buffer; weight: bigint }>();
    let totalWeight = 0n;
    for (let i = 0; i < Math.min(main, total); i++) {
      const v = list.get(i)!;
      totalWeight += v.weight;
      byNodeId.set(createHash('sha256').update(Buffer.from('c6b41348', 'hex')).update(v.key).digest('base64'), v);
    }
    // Signed: ton.blockId root_cell_hash file_hash, in its TL form; in the simplex form, the finalize vote of a
    // candidate that names the block: consensus.dataToSign session_id
    // data:bytes(consensus.simplex.finalizeVote (consensus.candidateId slot sha256(candidate))).
    let signed = Buffer.concat([
      Buffer.from('706e0bc5', 'hex'),
      Buffer.from(head.root_hash, 'base64'),
      Buffer.from(head.file_hash, 'base64'),
    ]);
    if (simplex) {
      const candidate = Buffer.from(r.candidate, 'base64');
      assert.ok(candidate.subarray(20, 52).equals(Buffer.from(head.root_hash, 'base64')), "the candidate names the block's root hash");
      assert.ok(candidate.subarray(52, 84).equals(Buffer.from(head.file_hash, 'base64')), 'and its file hash');
      const slot = Buffer.alloc(4);
      slot.writeInt32LE(r.slot);
      const vote = Buffer.concat([Buffer.from('05e1a7403fcd91b6', 'hex'), slot, createHash('sha256').update(candidate).digest()]);
      signed = Buffer.concat([
        Buffer.from('f83de3a8', 'hex'),
        Buffer.from(r.session_id, 'base64'),
        Buffer.from([vote.length]),
        vote,
        Buffer.alloc(3),
      ]);
    }
    let weight = 0n;
    assert.ok(r.signatures.length > 0);
    for (const sig of r.signatures) {
      assert.equal(sig['@type'], 'blocks.signature');
      const v = byNodeId.get(sig.node_id_short);
      assert.ok(v, `signer ${sig.node_id_short} is a validator`);
      assert.ok(signVerify(signed, Buffer.from(sig.signature, 'base64'), v.key), 'the signature verifies');
      assert.ok(
        !signVerify(
          Buffer.concat([signed.subarray(0, 40), Buffer.from([signed[40] ^ 1]), signed.subarray(41)]),
          Buffer.from(sig.signature, 'base64'),
          v.key,
        ),
      );
      weight += v.weight;
    }
    assert.ok(weight * 3n > totalWeight * 2n);
    // The zero state is not signed; a block that does not exist yet is a 404.
    assert.equal((await getJson(`${v2}/getMasterchainBlockSignatures?seqno=0`)).status, 422);
    assert.equal((await getJson(`${v2}/getMasterchainBlockSignatures?seqno=${head.seqno + 100000}`)).status, 404);
  });

  test('getShardBlockProof: links from the masterchain block that records the shard block down to it, and back from the head', async () => {
    const [tx] = (await getJson(`${v2}/getTransactions?address=${wallet.address.toString()}&limit=1`)).body.result;
    const block = (await getJson(`${v2}/lookupBlock?workchain=0&shard=-9223372036854775808&lt=${tx.transaction_id.lt}`)).body.result;
    const answer = await getJson(`${v2}/getShardBlockProof?workchain=0&shard=-9223372036854775808&seqno=${block.seqno}`);
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    const p = answer.body.result;
    assert.equal(p['@type'], 'blocks.shardBlockProof');
    assert.equal(p.from.workchain, -1);
    assert.equal(p.mc_id.workchain, -1);
    assert.ok(p.links.length >= 1);
    assert.deepEqual(p.links[p.links.length - 1].id, block, 'the last link names the shard block');
    // Each link's proof is a Merkle proof of the block before it (the first: of mc_id).
    let cur = p.mc_id;
    for (const link of p.links) {
      assert.equal(link['@type'], 'blocks.shardBlockLink');
      const proof = Cell.fromBase64(link.proof);
      assert.equal(proof.type, 3, 'a Merkle proof cell');
      assert.equal(proof.refs[0].hash(0).toString('base64'), cur.root_hash);
      cur = link.id;
    }
    // mc_id records the first link's block among its shards (what lite-client's allshards reads).
    const shards = (await getJson(`${v2}/getShards?seqno=${p.mc_id.seqno}`)).body.result.shards;
    assert.ok(shards.some((s: { root_hash: string }) => s.root_hash === p.links[0].id.root_hash));
    // From the head: one backward link head -> mc_id, whose proof is of the head; from mc_id itself: none.
    if (p.from.seqno !== p.mc_id.seqno) {
      assert.equal(p.mc_proof.length, 1);
      const back = p.mc_proof[0];
      assert.equal(back['@type'], 'blocks.blockLinkBack');
      assert.deepEqual([back.from, back.to], [p.from, p.mc_id]);
      assert.equal(Cell.fromBase64(back.proof).refs[0].hash(0).toString('base64'), p.from.root_hash);
    }
    const fromMc = (
      await getJson(`${v2}/getShardBlockProof?workchain=0&shard=-9223372036854775808&seqno=${block.seqno}&from_seqno=${p.mc_id.seqno}`)
    ).body.result;
    assert.deepEqual(fromMc.mc_proof, []);
    assert.deepEqual(fromMc.links, p.links);
    const tooOld = await getJson(
      `${v2}/getShardBlockProof?workchain=0&shard=-9223372036854775808&seqno=${block.seqno}&from_seqno=${p.mc_id.seqno - 1}`,
    );
    assert.equal(tooOld.status, 422, JSON.stringify(tooOld.body));
    assert.match(tooOld.body.error, /from_seqno/);
    const missing = await getJson(`${v2}/getShardBlockProof?workchain=0&shard=-9223372036854775808&seqno=${block.seqno + 100000}`);
    assert.equal(missing.status, 404);
  });

  test('heads are proven from the zero state; a liteserver whose block proof is tampered with (a man in the middle) is not believed', async () => {
    const chain = gate.networks[0].chain as LiteChain;
    const head = chain.masterchainInfo().last.id;
    assert.ok(chain.trust.isProven(head), 'the head tongate serves is proven');
    assert.ok(chain.trust.stats.links > 0 && chain.trust.stats.signatures > 0);
    assert.equal(chain.trust.stats.refused, 0);
    // An older masterchain block read by seqno is proven back from the head (a backward link), then kept.
    const older = startSeqno;
    const header = await getJson(`${v2}/getBlockHeader?workchain=-1&shard=-9223372036854775808&seqno=${older}`);
    assert.equal(header.status, 200);
    const olderId = {
      workchain: -1,
      shard: 0x8000000000000000n,
      seqno: older,
      rootHash: Buffer.from(header.body.result.id.root_hash, 'base64'),
      fileHash: Buffer.from(header.body.result.id.file_hash, 'base64'),
    };
    assert.ok(chain.trust.isProven(olderId));
    // The same with a trust of its own that has seen only the head: one backward link proves the older block; an
    // id the liteserver would not stand behind is not proven.
    const fresh = new MasterchainTrust(chain.pool, chain.trust.init);
    const headNow = chain.masterchainInfo().last.id;
    await fresh.verify(headNow);
    assert.ok(!fresh.isProven(olderId));
    const links = fresh.stats.links;
    await fresh.proveOlder(olderId, headNow, () => undefined);
    assert.ok(fresh.isProven(olderId));
    assert.equal(fresh.stats.links, links + 1);
    const forged = { ...olderId, rootHash: randomBytes(32) };
    await assert.rejects(fresh.proveOlder(forged, headNow, () => undefined));
    assert.ok(!fresh.isProven(forged));

    const mitm = await startLiteMitm({
      host: '127.0.0.1',
      port: node.liteserver.port,
      publicKey: Buffer.from(node.liteserver.publicKeyBase64, 'base64'),
    });
    const globalConfig = parseGlobalConfig(JSON.parse(readFileSync(node.globalConfigFile, 'utf8')));
    // eslint-disable-next-line prefer-const -- the pool built before it reads it at each new head
    let trust!: MasterchainTrust;
    const pool = new LitePool({
      servers: [{ host: '127.0.0.1', port: mitm.port, publicKey: mitm.publicKey }],
      clock: systemClock,
      requestTimeoutMs: 1500,
      verifyHead: (last, server) => trust.verify(fromTlBlockId(last), server),
    });
    trust = new MasterchainTrust(pool, globalConfig.initBlock);
    // Each new head is said as soon as the server names it (an index downloads its blocks meanwhile), before its proof.
    const reported: number[] = [];
    pool.on('reported', ({ info }: HeadInfo) => reported.push(info.last.seqno));
    let tampered = 0;
    // One byte of the first signature flipped in every block proof the server sends.
    mitm.tamper = (answer) => {
      const altered = Buffer.from(answer);
      let proof;
      try {
        proof = readPartialBlockProof(altered);
      } catch {
        return undefined;
      }
      // The decoded fields are views of `altered` (ton-tl slices its buffer): a byte flipped in one is flipped in the
      // answer, whichever signature form it carries.
      for (const step of proof.steps) {
        if (step.kind !== 'liteServer.blockLinkForward' || step.signatures.signatures.length === 0) continue;
        step.signatures.signatures[0].signature[10] ^= 1;
        tampered++;
      }
      return altered;
    };
    try {
      // The server answers, its heads are not proven: none is believed, and its breaker opens.
      await assert.rejects(pool.waitHead(4000), LiteUnavailable);
      assert.ok(tampered > 0, 'the proxy altered proofs');
      assert.ok(reported.length > 0, 'its heads were reported, none announced as proven');
      assert.ok(trust.stats.refused > 0);
      assert.equal(pool.bestHead(), undefined);
      assert.equal(pool.status()[0].mcSeqno, null, 'its head is not taken');
      // Its breaker opens (three proofs refused among its answers). Polled: its half-open probe is a health check
      // whose answer closes it again until the next proofs are refused, so at any one moment it may be closed.
      await until('the breaker to open', async () => (pool.status()[0].breaker !== 'closed' ? true : undefined));
      // The same server relaying honestly is believed again (the breaker's probe, then a proof that checks out).
      mitm.tamper = undefined;
      const proven = await pool.waitHead(15_000);
      assert.ok(trust.isProven(fromTlBlockId(proven.info.last)));
      assert.ok(reported.includes(proven.info.last.seqno), 'the proven head was reported before');
    } finally {
      pool.close();
      await mitm.close();
    }
  });

  test('a server answering garbage (through a proxy) is refused, not believed, and used again once it answers well', async () => {
    const proxy = await startTcpProxy(node.liteserver.port);
    const pool = new LitePool({
      servers: [{ host: '127.0.0.1', port: proxy.port, publicKey: Buffer.from(node.liteserver.publicKeyBase64, 'base64') }],
      clock: systemClock,
      requestTimeoutMs: 1500,
    });
    const info = () => pool.query(Functions.liteServer_getMasterchainInfo, { kind: 'liteServer.getMasterchainInfo' });
    try {
      await pool.waitHead(10_000);
      assert.ok((await info()).last.seqno > 0);
      proxy.corrupt = true;
      await assert.rejects(info(), (err: unknown) => err instanceof LiteUnavailable || err instanceof LiteTimeout);
      proxy.corrupt = false;
      const recovered = await until('the pool to use the server again', async () => (await info()).last.seqno);
      assert.ok(recovered > 0);
    } finally {
      pool.close();
      await proxy.close();
    }
  });

  test('a key block (a config change signed by the config master): later heads are proven from it, their signatures checked against its validators, and it is kept for a restart', async () => {
    const chain = gate.networks[0].chain as LiteChain;
    assert.equal(chain.trust.lastKeyBlock().seqno, 0, 'no key block since the zero state yet');
    // Config param 14 (block creation fees) one nanoton higher: a config change makes the next masterchain block a key block.
    const configAddress = Address.parse(`-1:${'5'.repeat(64)}`);
    const config = Dictionary.loadDirect(Dictionary.Keys.Int(32), Dictionary.Values.Cell(), await chain.config());
    const p14 = config.get(14)!.beginParse();
    const tag = p14.loadUint(8);
    const changed = beginCell()
      .storeUint(tag, 8)
      .storeCoins(p14.loadCoins() + 1n)
      .storeCoins(p14.loadCoins())
      .endCell();
    const configSeqno = (await chain.getAccount(configAddress)).data!.beginParse().loadUint(32);
    const seed = readFileSync(join(node.dir, 'state', 'config-master.pk'));
    const master = keyPairFromSeed(seed.subarray(seed.length - 32));
    const payload = beginCell()
      .storeUint(0x43665021, 32)
      .storeUint(configSeqno, 32)
      .storeUint(Math.floor(Date.now() / 1000) + 120, 32)
      .storeInt(14, 32)
      .storeRef(changed)
      .endCell();
    const body = beginCell().storeBuffer(sign(payload.hash(), master.secretKey)).storeSlice(payload.beginParse()).endCell();
    await chain.sendExternal(
      beginCell()
        .store(storeMessage(external({ to: configAddress, body })))
        .endCell()
        .toBoc(),
    );
    const key = await until('a key block to be proven', async () =>
      chain.trust.lastKeyBlock().seqno > 0 ? chain.trust.lastKeyBlock() : undefined,
    );
    const header = (await getJson(`${v2}/getBlockHeader?workchain=-1&shard=-9223372036854775808&seqno=${key.seqno}`)).body.result;
    assert.equal(header.is_key_block, true);
    assert.equal(header.id.root_hash, key.rootHash.toString('base64'));
    // A head after it is proven from it (its config proof, its validator set), and so are the signatures of it.
    const after = await until('a head after the key block', async () => {
      const last = chain.masterchainInfo().last.id;
      return last.seqno > key.seqno ? last : undefined;
    });
    assert.ok(chain.trust.isProven(after));
    const signatures = await getJson(`${v2}/getMasterchainBlockSignatures?seqno=${after.seqno}`);
    assert.equal(signatures.status, 200, JSON.stringify(signatures.body));
    assert.ok(signatures.body.result.signatures.length > 0);
    assert.equal(chain.trust.stats.refused, 0);

    // Kept in the data directory: a restart proves its first head from the key block, in one link.
    const dataDir = mkdtempSync(join(tmpdir(), 'tongate-lite-data-'));
    const globalConfig = parseGlobalConfig(JSON.parse(readFileSync(node.globalConfigFile, 'utf8')));
    try {
      const first = await LiteChain.open({ network: 'mainnet', globalConfig, clock: systemClock, dataDir });
      assert.equal(first.trust.lastKeyBlock().seqno, key.seqno);
      // Every proof is one link per query (a head from the newest key block), except the first: two links, from the
      // zero state to the key block, then to the head.
      assert.equal(first.trust.stats.links, first.trust.stats.queries + 1, JSON.stringify(first.trust.stats));
      await first.stop();
      const second = await LiteChain.open({ network: 'mainnet', globalConfig, clock: systemClock, dataDir });
      assert.equal(second.trust.lastKeyBlock().seqno, key.seqno);
      assert.equal(second.trust.stats.links, second.trust.stats.queries, 'from the kept key block straight to the head');
      await second.stop();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  test("the liteserver killed: reads fail fast with 503 in v2's shape, and are served again once it is back", async () => {
    const before = (await getJson(`${v2}/getMasterchainInfo`)).body.result.last.seqno;
    await node.kill();
    const fresh = () => new Address(0, randomBytes(32)).toString();
    const during = await getJson(`${v2}/getAddressInformation?address=${fresh()}`);
    assert.ok(during.status === 503 || during.status === 504, JSON.stringify(during.body));
    assert.equal(during.body.ok, false);
    assert.equal(during.body.code, during.status);
    assert.match(during.body.error, /liteserver/);
    await node.start();
    await until('tongate to answer again', async () =>
      (await getJson(`${v2}/getAddressInformation?address=${fresh()}`)).status === 200 ? true : undefined,
    );
    await until('the head to move on', async () =>
      (await getJson(`${v2}/getMasterchainInfo`)).body.result.last.seqno > before ? true : undefined,
    );
  });
});
