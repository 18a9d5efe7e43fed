/**
 * Get-method results kept per (block, account, method, arguments), on a real local chain: one emulator run per key
 * within a block (concurrent asks share it), another for other arguments, and again at the next block.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { beginCell, type TupleItem } from '@ton/core';
import { runGetMethodAt, stackKey } from '../../../src/api/v2/get-method-cache.js';
import { openChain } from '../../chain/local/support/local-chain.js';

test('a get-method with arguments runs once per block and arguments; concurrent identical calls share the run', async (t) => {
  const { chain } = await openChain(t);
  const wallet = chain.faucets().find((f) => f.kind === 'v4r2')!.address;
  let runs = 0;
  const run = chain.runGetMethod.bind(chain);
  chain.runGetMethod = (...args: Parameters<typeof run>) => {
    runs++;
    return run(...args);
  };
  const args = (hash: bigint): TupleItem[] => [
    { type: 'int', value: 0n },
    { type: 'int', value: hash },
  ];
  const [a, b] = await Promise.all([
    runGetMethodAt(chain, wallet, 'is_plugin_installed', args(1n)),
    runGetMethodAt(chain, wallet, 'is_plugin_installed', args(1n)),
  ]);
  assert.equal(runs, 1, 'concurrent asks share one run');
  assert.equal(a, b);
  assert.equal(a.exitCode, 0);
  assert.equal(await runGetMethodAt(chain, wallet, 'is_plugin_installed', args(1n)), a, 'kept within the block');
  assert.equal(runs, 1);
  await runGetMethodAt(chain, wallet, 'is_plugin_installed', args(2n));
  assert.equal(runs, 2, 'other arguments, another run');

  await chain.produceBlock();
  const next = await runGetMethodAt(chain, wallet, 'is_plugin_installed', args(1n));
  assert.equal(runs, 3, 'the next block runs again');
  assert.notDeepEqual(next.block, a.block);
  // As of the earlier block: still the kept result of that block.
  assert.equal(await runGetMethodAt(chain, wallet, 'is_plugin_installed', args(1n), a.block.seqno), a);
  assert.equal(runs, 3);
});

test('arguments are keyed by value and cell hash; a key past its bound is not kept', () => {
  const cell = beginCell().storeUint(7, 8).endCell();
  const same = beginCell().storeUint(7, 8).endCell();
  assert.equal(stackKey([{ type: 'cell', cell }]), stackKey([{ type: 'cell', cell: same }]));
  assert.notEqual(stackKey([{ type: 'cell', cell }]), stackKey([{ type: 'slice', cell }]));
  assert.notEqual(
    stackKey([
      { type: 'int', value: 1n },
      { type: 'int', value: 23n },
    ]),
    stackKey([
      { type: 'int', value: 12n },
      { type: 'int', value: 3n },
    ]),
  );
  assert.notEqual(
    stackKey([{ type: 'tuple', items: [{ type: 'int', value: 1n }] }, { type: 'null' }]),
    stackKey([{ type: 'tuple', items: [{ type: 'int', value: 1n }, { type: 'null' }] }]),
  );
  const many: TupleItem[] = Array.from({ length: 100 }, () => ({ type: 'cell', cell }));
  assert.equal(stackKey(many), undefined);
});
