/**
 * The Emulate API on a lite network (a real TON network through its liteserver, ../shared/ton-node): a v4 wallet's
 * transfer built with @ton/ton, emulated on proven states fetched at the head, then sent: the trace the network
 * seals (read back from tongate's index) has the emulated trace's transactions and actions, and the emulation
 * changed nothing (the wallet's seqno). TON Connect preview of the same wallet; a refused external is a 422.
 *
 * A contract whose code is a public library: a masterchain account of the network publishes it, the liteserver gives
 * it (its hash checked), and a trace that deploys the contract or calls it is emulated with it.
 *
 * The pending layer of a lite network (src/pending/lite-source.ts): a message sent through tongate is emulated on
 * acceptance and answered by /pendingTraces and /pendingTransactions (`emulated: true`) until the index holds it;
 * of two messages with the same seqno, the one the network drops is invalidated at its deadline (an injected clock).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import {
  Address,
  beginCell,
  Cell,
  contractAddress,
  external,
  internal,
  storeMessage,
  toNano,
  SendMode,
  type MessageRelaxed,
} from '@ton/core';
import { keyPairFromSeed } from '@ton/crypto';
import { TonClient, WalletContractV4 } from '@ton/ton';
import { genesisTransfer, requireTonNode, startTonNode, TON_NETWORK, type TonNode } from '../../support/ton-node.js';
import { getJson, postJson, startTestTongate, type TestTongate } from '../../support/tongate.js';
import { freePort } from '../../support/ports.js';
import { until as poll } from '../../support/poll.js';
import { formatRawUpper } from '../../../src/ton/address.js';
import { followLitePending } from '../../../src/pending/lite-source.js';
import type { PendingTrace } from '../../../src/pending/pending-traces.js';
import { ManualClock } from '../../../src/util/clock.js';
import { answerCode, libraryCell, publisherCode } from '../../support/library-contracts.js';

const available = requireTonNode();
const until = <T>(what: string, check: () => Promise<T | undefined>, timeoutMs = 90_000) => poll<T>(what, check, timeoutMs);
const EMULATE = '/api/emulate/v1';

describe(`the Emulate API on a real TON network through its liteserver (${TON_NETWORK})`, { skip: !available }, () => {
  let node: TonNode;
  let gate: TestTongate;
  let base: string;
  let client: TonClient;
  const keys = keyPairFromSeed(randomBytes(32));
  const wallet = WalletContractV4.create({ workchain: 0, publicKey: keys.publicKey });
  const receiver = new Address(0, randomBytes(32));

  const transfer = (seqno: number, messages: MessageRelaxed[], secretKey = keys.secretKey) =>
    beginCell()
      .store(
        storeMessage(
          external({
            to: wallet.address,
            body: wallet.createTransfer({ seqno, secretKey, messages, sendMode: SendMode.PAY_GAS_SEPARATELY }),
          }),
        ),
      )
      .endCell()
      .toBoc();

  before(async () => {
    node = await startTonNode();
    gate = await startTestTongate({
      network: [`mainnet=http://127.0.0.1:${await freePort()}`],
      backend: ['mainnet=lite'],
      liteConfig: [`mainnet=${node.globalConfigFile}`],
    });
    base = gate.url('mainnet');
    client = new TonClient({ endpoint: `${base}/api/v2/jsonRPC` });
    const genesisSeqno = (await client.runMethod(node.genesisAddress, 'seqno')).stack.readNumber();
    await client.sendFile(genesisTransfer(node, genesisSeqno, internal({ to: wallet.address, value: toNano(10), bounce: false })));
    await until('the wallet to be funded', async () => ((await client.getBalance(wallet.address)) > 0n ? true : undefined));
    await client.open(wallet).sendTransfer({ seqno: 0, secretKey: keys.secretKey, sendMode: SendMode.PAY_GAS_SEPARATELY, messages: [] });
    await until('the wallet to be deployed', async () => ((await client.open(wallet).getSeqno()) === 1 ? true : undefined));
  });

  after(async () => {
    await gate?.stop();
    await node?.stop();
  });

  test('emulateTrace: a transfer emulated on proven states equals the trace the network seals; nothing is sent', async () => {
    const boc = transfer(1, [internal({ to: receiver, value: toNano(1), bounce: false, body: 'preview' })]);
    const reply = await postJson(`${base}${EMULATE}/emulateTrace`, {
      boc: boc.toString('base64'),
      with_actions: true,
      include_address_book: true,
    });
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    const emulated = reply.body;
    assert.equal(emulated.is_incomplete, false);
    assert.ok(emulated.mc_block_seqno > 0);
    const txs = Object.values(emulated.transactions) as any[];
    assert.deepEqual(txs.map((tx) => tx.account).sort(), [formatRawUpper(wallet.address), formatRawUpper(receiver)].sort());
    const [action] = emulated.actions;
    assert.equal(action.type, 'ton_transfer');
    assert.equal(action.details.value, toNano(1).toString());
    assert.equal(action.details.comment, 'preview');
    assert.equal(action.success, true);
    assert.equal(await client.open(wallet).getSeqno(), 1, 'nothing was sent');

    const sent = await postJson(`${base}/api/v3/message`, { boc: boc.toString('base64') });
    assert.equal(sent.status, 200, JSON.stringify(sent.body));
    const trace = await until('the trace to be indexed', async () => {
      const found = await getJson(`${base}/api/v3/traces?msg_hash=${encodeURIComponent(sent.body.message_hash)}&include_actions=true`);
      const t = found.body.traces?.[0];
      return t?.trace_info.trace_state === 'complete' && t.actions.length > 0 ? t : undefined;
    });
    const shape = (tx: any) => ({
      account: tx.account,
      aborted: tx.description.aborted,
      in: tx.in_msg && [tx.in_msg.source, tx.in_msg.destination, tx.in_msg.value, tx.in_msg.opcode],
      out: tx.out_msgs.map((m: any) => [m.source, m.destination, m.value, m.opcode]),
      end_status: tx.end_status,
    });
    const byLt = (list: any[]) => [...list].sort((a, b) => (BigInt(a.lt) < BigInt(b.lt) ? -1 : 1));
    assert.deepEqual(byLt(txs).map(shape), byLt(Object.values(trace.transactions)).map(shape));
    const actionShape = (a: any) => ({ type: a.type, success: a.success, details: a.details });
    assert.deepEqual(emulated.actions.map(actionShape), trace.actions.map(actionShape));
  });

  test('emulateTonConnect previews the wallet unsigned; a badly signed external is refused (422), or previewed with ignore_chksig', async () => {
    const seqno = await client.open(wallet).getSeqno();
    const preview = await postJson(`${base}${EMULATE}/emulateTonConnect`, {
      from: wallet.address.toString(),
      messages: [{ address: receiver.toString({ bounceable: false }), amount: '250000000' }],
      with_actions: true,
    });
    assert.equal(preview.status, 200, JSON.stringify(preview.body));
    assert.equal(preview.body.actions[0].details.value, '250000000');
    const forged = transfer(
      seqno,
      [internal({ to: receiver, value: toNano(1), bounce: false })],
      keyPairFromSeed(randomBytes(32)).secretKey,
    );
    const refused = await postJson(`${base}${EMULATE}/emulateTrace`, { boc: forged.toString('base64') });
    assert.equal(refused.status, 422);
    assert.match(refused.body.error, /not accepted/);
    const unsigned = await postJson(`${base}${EMULATE}/emulateTrace`, { boc: forged.toString('base64'), ignore_chksig: true });
    assert.equal(unsigned.status, 200);
  });

  test('a contract whose code is a public library: published in the masterchain, fetched from the liteserver (hash-checked), given to the emulator', async () => {
    const libraryCode = await answerCode();
    const genesisSeqno = async () => (await client.runMethod(node.genesisAddress, 'seqno')).stack.readNumber();
    // A masterchain account publishes the library (SETLIBCODE, public), deployed by the genesis wallet with it.
    const publisher = { code: await publisherCode(), data: beginCell().storeBuffer(randomBytes(8)).endCell() };
    const publish = internal({
      to: contractAddress(-1, publisher),
      value: toNano(10),
      bounce: false,
      init: publisher,
      body: beginCell().storeRef(libraryCode).endCell(),
    });
    await client.sendFile(genesisTransfer(node, await genesisSeqno(), publish));
    const chain = gate.networks[0].chain!;
    const [library] = await until('the library to be published', async () => {
      const found = await chain.libraries([libraryCode.hash()]);
      return found.length > 0 ? found : undefined;
    });
    assert.ok(library.cell.equals(libraryCode), 'the liteserver gives the library, its hash the one asked for');
    assert.deepEqual(await chain.libraries([randomBytes(32)]), [], 'a library nobody published: none');

    // A basechain contract whose code is only a library cell; its code stores 42 in its data.
    const user = { code: libraryCell(libraryCode), data: Cell.EMPTY };
    const userAddress = contractAddress(0, user);
    const stored42 = beginCell().storeUint(42, 32).endCell().hash().toString('base64');
    const emulated = async (boc: Buffer) => {
      const reply = await postJson(`${base}${EMULATE}/emulateTrace`, { boc: boc.toString('base64') });
      assert.equal(reply.status, 200, JSON.stringify(reply.body).slice(0, 500));
      const tx = (Object.values(reply.body.transactions) as any[]).find((x) => x.account === formatRawUpper(userAddress));
      assert.ok(tx, 'the contract has a transaction');
      assert.equal(tx.description.compute_ph.success, true, 'the library code ran');
      assert.equal(tx.account_state_after.data_hash, stored42, 'its data is what the library code stores');
      return tx;
    };
    // Deployed by the trace (the library cell in the message's StateInit), then sent and sealed alike.
    const deploy = genesisTransfer(node, await genesisSeqno(), internal({ to: userAddress, value: toNano(1), bounce: false, init: user }));
    const preview = await emulated(deploy);
    assert.notEqual(preview.orig_status, 'active', 'not deployed before the trace');
    await client.sendFile(deploy);
    await until('the contract to be deployed', async () =>
      (await client.getContractState(userAddress)).state === 'active' ? true : undefined,
    );
    const sealed = await client.getTransactions(userAddress, { limit: 1 });
    const d = sealed[0].description;
    assert.ok(d.type === 'generic' && d.computePhase.type === 'vm' && d.computePhase.success, 'the network ran it alike');
    // Already deployed (the library cell in its code).
    const call = genesisTransfer(node, await genesisSeqno(), internal({ to: userAddress, value: toNano('0.1'), bounce: true }));
    assert.equal((await emulated(call)).orig_status, 'active');
  });

  test('pending: a message sent through a lite network is pending (emulated) until the index holds it', async () => {
    const seqno = await client.open(wallet).getSeqno();
    const boc = transfer(seqno, [internal({ to: receiver, value: toNano('0.5'), bounce: false, body: 'pending' })]);
    const sent = await postJson(`${base}/api/v3/message`, { boc: boc.toString('base64') });
    assert.equal(sent.status, 200, JSON.stringify(sent.body));
    const hash = encodeURIComponent(sent.body.message_hash);
    // The trace and the wallet's pending transactions read together: a block may land the message between two
    // reads made one after the other (on a loaded machine it did), and then the second finds nothing pending.
    const account = encodeURIComponent(wallet.address.toString());
    const { pending, txs } = await until('the message to be pending', async () => {
      const [traces, transactions] = await Promise.all([
        getJson(`${base}/api/v3/pendingTraces?ext_msg_hash=${hash}`),
        getJson(`${base}/api/v3/pendingTransactions?account=${account}`),
      ]);
      assert.equal(traces.status, 200, JSON.stringify(traces.body));
      assert.equal(transactions.status, 200, JSON.stringify(transactions.body));
      const trace = traces.body.traces[0];
      return trace !== undefined && transactions.body.transactions.length >= 1
        ? { pending: trace, txs: transactions.body.transactions }
        : undefined;
    });
    assert.equal(pending.trace_info.trace_state, 'pending');
    assert.equal(pending.external_hash, sent.body.message_hash);
    assert.equal(pending.trace_info.transactions, 2);
    assert.ok(txs.every((tx: any) => tx.emulated === true && tx.finality === 'pending'));

    await until('the trace to be indexed', async () => {
      const found = await getJson(`${base}/api/v3/traces?msg_hash=${hash}`);
      return found.body.traces?.[0]?.trace_info.trace_state === 'complete' ? true : undefined;
    });
    await until('the pending entry to be gone', async () => {
      const reply = await getJson(`${base}/api/v3/pendingTraces?ext_msg_hash=${hash}`);
      return reply.body.traces.length === 0 ? true : undefined;
    });
  });

  test('pending: of two messages with one seqno, the one the network drops is invalidated at its deadline (injected clock)', async () => {
    const clock = new ManualClock(Date.now());
    const layer = followLitePending(gate.networks[0], { clock, ttlMs: 30_000 });
    assert.ok(layer);
    const told: string[] = [];
    const landed: PendingTrace[] = [];
    layer.traces.listen({
      invalidated: (trace) => told.push(trace.externalHash),
      landed: (trace) => landed.push(trace),
    });
    try {
      const seqno = await client.open(wallet).getSeqno();
      const first = transfer(seqno, [internal({ to: receiver, value: toNano('0.1'), bounce: false, body: 'first' })]);
      const second = transfer(seqno, [internal({ to: receiver, value: toNano('0.2'), bounce: false, body: 'second' })]);
      const hashes: string[] = [];
      for (const boc of [first, second]) {
        const sent = await postJson(`${base}/api/v3/message`, { boc: boc.toString('base64') });
        assert.equal(sent.status, 200, JSON.stringify(sent.body));
        hashes.push(sent.body.message_hash);
        await layer.settled(sent.body.message_hash);
      }
      assert.ok(
        hashes.every((h) => layer.traces.ofExternal(h)),
        'both emulated on acceptance',
      );
      const [kept, dropped] = await until('one of them to land', async () => {
        if (landed.length === 0) return undefined;
        const winner = landed[0].externalHash;
        return [winner, hashes.find((h) => h !== winner)!];
      });
      assert.ok(layer.traces.ofExternal(dropped), 'the other waits, within its deadline');
      // Heads come and go; before the deadline nothing is invalidated.
      const head = gate.networks[0].chain.masterchainInfo().last.id.seqno;
      await until('two more heads', async () => (gate.networks[0].chain.masterchainInfo().last.id.seqno >= head + 2 ? true : undefined));
      assert.deepEqual(told, []);
      clock.advance(30_000);
      await until('the dropped message to be invalidated', async () => (told.length > 0 ? true : undefined));
      assert.deepEqual(told, [dropped]);
      assert.equal(layer.traces.ofExternal(dropped), undefined);
      assert.notEqual(kept, dropped);
    } finally {
      layer.stop();
    }
  });
});
