/**
 * `nft_discovery` on traces built by hand (support.ts): get_static_data to an NFT item answered by its
 * report_static_data, field by field as toncenter answers (a v2 type: its parts are actions too, hidden from a client
 * that knows it), and a request nobody answered; against toncenter's v3 spec.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { beginCell } from '@ton/core';
import { classifyTrace } from '../../../src/index/actions/classify.js';
import { PARENT_TYPES } from '../../../src/index/actions/action-types.js';
import { NO_CONTRACTS } from '../../../src/index/actions/trace-input.js';
import { expandActionTypes, shownTo } from '../../../src/index/actions/versions.js';
import { account, address, buildTrace, op, againstSpec } from './support.js';

const [ALICE, ITEM, COLLECTION] = [0xa11ce, 0x17e3, 0xc011].map(account);
const OP = { getStaticData: 0x2fcb26a2, reportStaticData: 0x8b771735 };
const INDEX = 2n ** 255n + 5n;

/** Alice asks `ITEM` for its static data; it reports (or aborts and bounces). */
const discovery = (refused = false) =>
  buildTrace(ALICE, [
    {
      to: ITEM,
      value: 50_000_000n,
      body: op(OP.getStaticData, 3n).endCell(),
      aborted: refused,
      then: refused
        ? [{ to: ALICE, value: 49_000_000n, body: beginCell().storeUint(0xffffffff, 32).endCell(), bounced: true, bounce: false }]
        : [
            {
              to: ALICE,
              value: 40_000_000n,
              body: op(OP.reportStaticData, 3n).storeUint(INDEX, 256).storeAddress(address(COLLECTION)).endCell(),
              bounce: false,
            },
          ],
    },
  ]);

test('nft_discovery: get_static_data answered by report_static_data, the index and collection from the report', () => {
  const { trace, txs } = discovery();
  // No item detected: toncenter asks for none.
  const actions = classifyTrace(trace, NO_CONTRACTS).actions;
  const found = actions.filter((a) => a.type === 'nft_discovery');
  assert.equal(found.length, 1);
  const [discovered] = found;
  assert.deepEqual(discovered.ancestors, []);
  assert.equal(discovered.success, true);
  assert.deepEqual(discovered.details, { source: ALICE, nft_item: ITEM, nft_collection: COLLECTION, nft_item_index: INDEX.toString() });
  assert.deepEqual(
    discovered.transactions,
    txs.map((t) => t.hash),
  );
  assert.deepEqual([...discovered.accounts].sort(), [ALICE, ITEM].sort());
  againstSpec(discovered);

  // A v2 type: the request and the report are actions too, seen by a v1 client in its place.
  assert.ok(PARENT_TYPES.includes('nft_discovery'));
  const parts = actions.filter((a) => a.ancestors.includes('nft_discovery'));
  assert.deepEqual(
    parts.map((a) => a.type),
    ['call_contract', 'call_contract'],
  );
  const [v1, v2] = [expandActionTypes(['v1']), expandActionTypes(['v2'])];
  assert.ok(!shownTo(v1, discovered.type, discovered.ancestors) && shownTo(v2, discovered.type, discovered.ancestors));
  for (const part of parts) assert.ok(shownTo(v1, part.type, part.ancestors) && !shownTo(v2, part.type, part.ancestors));

  // Refused (no report, the request bounced): no discovery, a failed contract call.
  const refused = classifyTrace(discovery(true).trace, NO_CONTRACTS).actions;
  assert.ok(!refused.some((a) => a.type === 'nft_discovery'));
  assert.equal(refused[0].type, 'call_contract');
  assert.equal(refused[0].success, false);
});
