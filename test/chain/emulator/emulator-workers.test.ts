import { test } from 'node:test';
import assert from 'node:assert/strict';
import { beginCell, Cell, external, internal, parseTuple, serializeTuple, storeMessage, toNano } from '@ton/core';
import { WalletContractV4 } from '@ton/ton';
import { EmulatorPool } from '../../../src/chain/emulator/index.js';
import { EmulatorFailed } from '../../../src/chain/local/index.js';
import { EMPTY_SHARD_ACCOUNT_BASE64 } from '../../../src/chain/account-view.js';
import { networkConfig } from '../../../src/chain/local/config.js';
import { WORKER_NICE } from '../../../src/util/thread-priority.js';
import { niceOfThreads, noIdlePolicyReason, SCHED_IDLE, threadsAtNice } from '../../support/threads.js';
import { getJson, startTestTongate } from '../../support/tongate.js';
import {
  INFINITE_GETTER_CODE,
  SLOW_EXTERNAL_CODE,
  TEST_MNEMONIC,
  deployMessage,
  openChain,
  testFaucet,
  testWallet,
  v4Send,
} from '../local/support/local-chain.js';

/**
 * The point of the workers. A timer ticks every 2 ms on the main thread while a get-method loops
 * until its 1,000,000 gas run out; meanwhile the HTTP server answers getMasterchainInfo and the
 * producer executes and seals a transfer. With the emulator on the main thread none of that happens
 * until the call is over: no tick, no answer, no block while it runs. Those are the checks (what
 * happened while the call ran), not durations: how long the gaps are is a figure for a bench.
 */
test('a get-method that burns its whole gas limit does not hold the event loop: timers tick, HTTP answers, blocks are sealed', async (t) => {
  const tongate = await startTestTongate({ faucetMnemonic: TEST_MNEMONIC.join(' ') });
  t.after(() => tongate.stop());
  const chain = tongate.chain('testnet');
  const base = tongate.url('testnet');
  const from = await testFaucet();
  const looping = deployMessage(INFINITE_GETTER_CODE, toNano('1'));
  await chain.sendExternal(v4Send(from, 0, [looping.message]));
  await chain.produceBlock();
  assert.equal(chain.getAccount(looping.address).state, 'active');
  // every path used below has run once (workers up, code compiled): what happens meanwhile is the design's
  assert.equal((await chain.runGetMethod(from.wallet.address, 'seqno', [])).exitCode, 0);
  assert.equal((await getJson(`${base}/api/v2/getMasterchainInfo`)).status, 200);
  const transfer = v4Send(from, 1, [internal({ to: testWallet(40).wallet.address, value: toNano('1'), bounce: false })]);

  let running = true;
  let ticksWhileRunning = 0;
  const timer = setInterval(() => {
    if (running) ticksWhileRunning++;
  }, 2);
  const endless = chain.runGetMethod(looping.address, 'forever', []).finally(() => {
    running = false;
  });
  const sealed = (async () => {
    await chain.sendExternal(transfer);
    const block = await chain.produceBlock();
    return { block, whileRunning: running };
  })();
  const answered: number[] = [];
  while (running) {
    const response = await getJson(`${base}/api/v2/getMasterchainInfo`);
    if (running) answered.push(response.status);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  const result = await endless;
  clearInterval(timer);
  const { block, whileRunning } = await sealed;

  assert.equal(result.exitCode, -14, 'out of gas');
  assert.ok(result.gasUsed >= 1_000_000n);
  assert.ok(ticksWhileRunning > 0, "the main thread's timer ticked while the get-method ran");
  assert.ok(answered.length >= 1 && answered.every((status) => status === 200), `HTTP answers meanwhile: ${answered.join(', ')}`);
  assert.ok(whileRunning, 'a block was produced while the get-method ran');
  assert.equal(block.id.seqno, 2);
  assert.equal(chain.getTransactions(from.wallet.address, { limit: 1 })[0].mcSeqno, 2);
});

test('a worker that dies fails only the call it was running; the calls behind it and later ones run on a new worker', async (t) => {
  const pool = new EmulatorPool({ readWorkers: 1 });
  const { chain } = await openChain(t, { emulators: pool });
  t.after(() => pool.close());
  const from = await testFaucet();
  const looping = deployMessage(INFINITE_GETTER_CODE, toNano('1'));
  const slow = deployMessage(SLOW_EXTERNAL_CODE, toNano('10'));
  await chain.sendExternal(v4Send(from, 0, [looping.message, slow.message]));
  await chain.produceBlock();
  await chain.runGetMethod(from.wallet.address, 'seqno', []); // the read worker is up (one still starting fails every call)

  // read lane (one worker): the endless call runs, a seqno call waits behind it; the worker dies
  const endless = chain.runGetMethod(looping.address, 'forever', []);
  const queued = chain.runGetMethod(from.wallet.address, 'seqno', []);
  pool.kill('read');
  await assert.rejects(endless, (err) => err instanceof EmulatorFailed && /stopped .* while running this call/.test(err.message));
  const behind = await queued;
  assert.equal(behind.exitCode, 0);
  assert.deepEqual(parseTuple(behind.stackBoc), [{ type: 'int', value: 1n }]);
  assert.equal((await chain.emulateExternal(v4Send(from, 1, []))).accepted, true, 'emulations too');

  // transaction lane: the external being executed (a ~1 s one) fails and leaves no trace; the chain goes on
  const slowMessage = beginCell()
    .store(storeMessage(external({ to: slow.address, body: Cell.EMPTY })))
    .endCell()
    .toBoc();
  const failed = chain.sendExternal(slowMessage);
  while (pool.stats().tx.every((w) => w.load === 0)) await new Promise((resolve) => setImmediate(resolve)); // parsed, now executing
  pool.kill('tx');
  await assert.rejects(failed, (err) => err instanceof EmulatorFailed && /stopped .* while running this call/.test(err.message));
  assert.equal(chain.stats().openTransactions, 0);
  const to = testWallet(41).wallet.address;
  const sent = await chain.sendExternal(v4Send(from, 1, [internal({ to, value: toNano('3'), bounce: false })]));
  const mc = await chain.produceBlock();
  assert.equal(chain.getTransactionsByMessage(sent.hash)[0].mcSeqno, mc.id.seqno);
  assert.ok(chain.getAccount(to).balance > toNano('2.99'));
  assert.equal(chain.getTransactions(slow.address, { limit: 10 }).length, 1, 'only its deployment');
  // an idle worker that dies is replaced on the next call
  pool.kill('tx');
  pool.kill('read');
  await chain.sendExternal(v4Send(from, 2, []));
  await chain.produceBlock();
  assert.deepEqual(parseTuple((await chain.runGetMethod(from.wallet.address, 'seqno', [])).stackBoc), [{ type: 'int', value: 3n }]);
});

test('an emulator exception (a WASM abort) fails only that call; the calls behind it run on a new worker', async (t) => {
  // one transaction worker, so the call behind is queued on the same worker as the abort
  const pool = new EmulatorPool({ txWorkers: 1 });
  t.after(() => pool.close());
  const emulator = pool.emulator(networkConfig(-3).base64);
  await emulator.ready();
  const to = testWallet(42).wallet.address;
  const message = beginCell()
    .store(
      storeMessage({
        info: {
          type: 'internal',
          src: testWallet(43).wallet.address,
          dest: to,
          value: { coins: toNano('1') },
          bounce: false,
          bounced: false,
          ihrDisabled: true,
          ihrFee: 0n,
          forwardFee: 0n,
          createdLt: 0n,
          createdAt: 0,
        },
        body: Cell.EMPTY,
      }),
    )
    .endCell()
    .toBoc()
    .toString('base64');
  const args = {
    shardAccount: EMPTY_SHARD_ACCOUNT_BASE64,
    message,
    now: 1_700_000_000,
    lt: 1_000_001n,
    randSeedHex: '00'.repeat(32),
    ignoreChksig: false,
  };
  // no ShardAccount at all: the WASM emulator aborts (emscripten's abort(), a trap)
  const aborting = emulator.runTransaction({ ...args, shardAccount: undefined as unknown as string });
  const behind = emulator.runTransaction(args);
  await assert.rejects(aborting, (err) => err instanceof EmulatorFailed && /Aborted/.test(err.message));
  const result = await behind;
  assert.equal(result.success, true, 'the call queued behind the abort ran on a new worker');
  const stats = pool.stats();
  assert.deepEqual(
    [...stats.tx, ...stats.read].map((w) => w.load),
    [0, 0],
    'one worker in each lane, nothing waiting',
  );
  emulator.close();
});

test('the WASM module is compiled once per process: a later worker instantiates the one compiled before', async (t) => {
  const pool = new EmulatorPool({ txWorkers: 1, readWorkers: 1 });
  t.after(() => pool.close());
  const emulator = pool.emulator(networkConfig(-3).base64);
  t.after(() => emulator.close());
  await emulator.ready();
  // The read worker starts once the transaction worker has loaded (PooledEmulator.ready).
  while (!pool.stats().read[0]?.ready) await new Promise((resolve) => setTimeout(resolve, 10));
  assert.equal(pool.stats().read[0].compiled, false, 'the read worker was handed the compiled module');
  const answer = await emulator.runGetMethod({
    code: INFINITE_GETTER_CODE.toBoc().toString('base64'),
    data: beginCell().endCell().toBoc().toString('base64'),
    address: testWallet(41).wallet.address.toRawString(),
    balance: toNano('1'),
    methodId: 1,
    stack: serializeTuple([]).toBoc().toString('base64'),
    unixTime: 1,
    randSeedHex: '00'.repeat(32),
    gasLimit: 1000n,
  });
  assert.ok(answer, 'the handed module runs get-methods');
});

test('warmReadAfter: the read worker loads once the transaction worker has and the gate settles, not before', async (t) => {
  const pool = new EmulatorPool({ txWorkers: 1, readWorkers: 1 });
  t.after(() => pool.close());
  const emulator = pool.emulator(networkConfig(-3).base64);
  t.after(() => emulator.close());
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  await emulator.ready({ warmReadAfter: gate });
  // Without a gate the read worker's load is sent in the turn after (the test above waits for it): here, nothing.
  for (let turn = 0; turn < 5; turn++) await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(
    pool.stats().read.map((w) => ({ load: w.load, ready: w.ready })),
    [{ load: 0, ready: false }],
  );
  open();
  while (!pool.stats().read[0].ready) await new Promise((resolve) => setTimeout(resolve, 10));
  assert.equal(pool.stats().read[0].compiled, false, 'handed the module the transaction worker compiled');
});

test('a closed pool fails calls with EmulatorFailed instead of hanging them', async (t) => {
  const pool = new EmulatorPool();
  const { chain } = await openChain(t, { emulators: pool });
  const from = await testFaucet();
  const pending = assert.rejects(chain.runGetMethod(from.wallet.address, 'seqno', []), EmulatorFailed);
  await pool.close();
  await pending;
  await assert.rejects(chain.runGetMethod(from.wallet.address, 'seqno', []), EmulatorFailed);
  await assert.rejects(chain.sendExternal(v4Send(from, 0, [])), EmulatorFailed);
});

test('transaction workers run at a lower CPU priority than the main thread; read workers do not (Linux)', async (t) => {
  if (process.platform !== 'linux') {
    t.skip('per-thread priorities are read from /proc');
    return;
  }
  const before = niceOfThreads().filter((nice) => nice === WORKER_NICE).length;
  const pool = new EmulatorPool({ txWorkers: 1, readWorkers: 1 });
  t.after(() => pool.close());
  const emulator = pool.emulator(networkConfig(-3).base64);
  await emulator.ready();
  while (!pool.stats().read[0].ready) await new Promise((resolve) => setTimeout(resolve, 10)); // the read worker loads meanwhile
  assert.equal(niceOfThreads().filter((nice) => nice === WORKER_NICE).length - before, 1, 'one thread lowered: the transaction worker');
  assert.ok(
    threadsAtNice(WORKER_NICE).every((thread) => thread.policy !== SCHED_IDLE),
    'production is never idle-class',
  );
  assert.equal(niceOfThreads()[0], 0, 'the main thread keeps its priority');
  emulator.close();
});

test('a background get-method (GetMethodOptions.nice) runs on a worker of its own at that priority; other get-methods do not (Linux)', async (t) => {
  if (process.platform !== 'linux') {
    t.skip('per-thread priorities are read from /proc');
    return;
  }
  const pool = new EmulatorPool({ txWorkers: 1, readWorkers: 1 });
  t.after(() => pool.close());
  const emulator = pool.emulator(networkConfig(-3).base64);
  t.after(() => emulator.close());
  await emulator.ready();
  const wallet = WalletContractV4.create({ workchain: 0, publicKey: Buffer.alloc(32, 1) });
  const seqno = (nice?: number) =>
    emulator.runGetMethod(
      {
        code: wallet.init.code.toBoc().toString('base64'),
        data: wallet.init.data.toBoc().toString('base64'),
        address: wallet.address.toRawString(),
        balance: 1n,
        methodId: 85143, // seqno
        stack: serializeTuple([]).toBoc().toString('base64'),
        unixTime: 1_700_000_000,
        randSeedHex: '00'.repeat(32),
        gasLimit: 1_000_000n,
      },
      nice,
    );
  const lowered = () => niceOfThreads().filter((nice) => nice === 17).length;
  const before = lowered();
  assert.equal((await seqno()).success, true);
  assert.equal(pool.stats().background[17], undefined, 'a normal get-method: no background worker');
  assert.equal(lowered(), before);
  const readServed = pool.stats().read[0].served;
  const answer = await seqno(17);
  assert.ok(answer.success && answer.exitCode === 0, 'the background worker answers');
  assert.equal(pool.stats().background[17][0].served, 1);
  assert.equal(pool.stats().read[0].served, readServed, 'not the read worker');
  assert.equal(lowered() - before, 1, 'one thread at nice 17: the background worker');
  const noIdle = noIdlePolicyReason();
  if (noIdle) t.diagnostic(`SCHED_IDLE not checked: ${noIdle}`);
  else
    assert.ok(
      threadsAtNice(17).every((thread) => thread.policy === SCHED_IDLE),
      'below IDLE_FROM_NICE: also SCHED_IDLE',
    );
});
