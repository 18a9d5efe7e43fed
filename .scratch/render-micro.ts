import '../src/ton/core-speedups.js';
import { beginCell, storeTransaction, Cell } from '@ton/core';
import { scenario } from '../test/ton/support/scenario.js';
import { renderPending } from '../src/pending/render.js';
import { loadTransactionCell } from '../src/ton/transaction-cell.js';
import { v3Transaction } from '../src/ton/transaction-v3-json.js';
import { WHOLE_SHARD } from '../src/ton/workchain.js';
const s = await scenario();
for (const name of ['deploy', 'commentReceived'] as const) {
  const tx = s[name];
  const boc = beginCell().store(storeTransaction(tx)).endCell().toBoc();
  const traceId = tx.hash().toString('base64');
  const N = 5000;
  const time = (label: string, f: () => unknown) => {
    for (let i = 0; i < 500; i++) f();
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < N; i++) f();
    console.log(name, label, (Number(process.hrtime.bigint() - t0) / N / 1000).toFixed(1), 'µs');
  };
  time('fromBoc', () => Cell.fromBoc(boc)[0]);
  const cell = Cell.fromBoc(boc)[0];
  time('loadTransactionCell', () => loadTransactionCell(Cell.fromBoc(boc)[0]));
  const ctx = { block: { workchain: 0, shard: WHOLE_SHARD, seqno: 0 }, mcBlockSeqno: 0, traceId: Buffer.from(traceId, 'base64'), emulated: true };
  time('v3Transaction(parsed once)', () => v3Transaction(loadTransactionCell(cell), ctx));
  const parsed = loadTransactionCell(cell);
  time('v3Transaction only', () => v3Transaction(parsed, ctx));
  const json = v3Transaction(parsed, ctx);
  time('stringify', () => JSON.stringify({ ...json, finality: 'pending' }));
  time('renderPending(fresh cell)', () => renderPending(Cell.fromBoc(boc)[0], 0, traceId));
}
