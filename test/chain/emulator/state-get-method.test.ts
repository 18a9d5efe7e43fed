/**
 * A get-method on a stored state (state-get-method.ts, what an emulator read worker runs for a past block): the
 * states it has read are kept by the hash of their bytes, so each answer is the answer of exactly the state
 * given, however states of one account alternate, and the kept states stay bounded.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { beginCell, Cell, parseTuple, serializeTuple, storeShardAccount, type ShardAccount, type TupleItemInt } from '@ton/core';
import { WalletContractV4 } from '@ton/ton';
import { slimConfig } from '@ton/sandbox/dist/config/slimConfig.js';
import { getSelectorForMethod } from '@ton/sandbox/dist/utils/selector.js';
import { Emulator, loadExecutor } from '../../../src/chain/emulator/emulator.js';
import { readStatesKept, runGetMethodOnState } from '../../../src/chain/emulator/state-get-method.js';

const wallet = WalletContractV4.create({ workchain: 0, publicKey: Buffer.alloc(32, 7) });

/** The wallet's stored state with this seqno in its data (and this last transaction lt). */
function storedState(seqno: number): Uint8Array {
  const data = wallet.init.data.beginParse();
  data.loadUint(32); // the initial seqno
  const withSeqno = beginCell().storeUint(seqno, 32).storeSlice(data).endCell();
  const shardAccount: ShardAccount = {
    account: {
      addr: wallet.address,
      storageStats: { used: { cells: 1n, bits: 1n }, lastPaid: 0, duePayment: null, storageExtra: null },
      storage: {
        lastTransLt: BigInt(seqno),
        balance: { coins: 1_000_000_000n },
        state: { type: 'active', state: { code: wallet.init.code, data: withSeqno } },
      },
    },
    lastTransactionHash: BigInt(seqno + 1),
    lastTransactionLt: BigInt(seqno),
  };
  return beginCell().store(storeShardAccount(shardAccount)).endCell().toBoc();
}

test('get-methods on stored states: each answers its own state, kept states bounded', async () => {
  const emulator = new Emulator(await loadExecutor(), slimConfig);
  const seqnoOf = (state: Uint8Array) => {
    const result = runGetMethodOnState(emulator, {
      shardAccount: state,
      address: wallet.address.toRawString(),
      methodId: getSelectorForMethod('seqno'),
      stack: serializeTuple([]).toBoc().toString('base64'),
      unixTime: 1_700_000_000,
      randSeedHex: '00'.repeat(32),
      gasLimit: 1_000_000n,
    });
    assert.ok(result.run?.success, 'the wallet runs');
    const [top] = parseTuple(Cell.fromBase64(result.run.stack));
    assert.equal(top.type, 'int');
    return { seqno: Number((top as TupleItemInt).value), lastTxLt: result.lastTxLt };
  };
  const before = readStatesKept();
  // Two states of one account, alternating: every answer is its own state's.
  const [a, b] = [storedState(5), storedState(9)];
  for (let i = 0; i < 4; i++) {
    assert.deepEqual(seqnoOf(a), { seqno: 5, lastTxLt: 5n });
    assert.deepEqual(seqnoOf(b), { seqno: 9, lastTxLt: 9n });
  }
  assert.equal(readStatesKept(), before + 2, 'each state read once, then kept');
  // Equal bytes in another buffer are the same state.
  assert.deepEqual(seqnoOf(Uint8Array.from(a)), { seqno: 5, lastTxLt: 5n });
  assert.equal(readStatesKept(), before + 2);
  // Many states: the oldest are dropped, the answers stay right.
  for (let seqno = 100; seqno < 500; seqno++) assert.equal(seqnoOf(storedState(seqno)).seqno, seqno);
  assert.ok(readStatesKept() <= 256, `at most 256 kept (${readStatesKept()})`);
  assert.deepEqual(seqnoOf(a), { seqno: 5, lastTxLt: 5n }, 'a dropped state is read again');
});
