/** Which action types a client is shown (ton-index-go's action_versioning.go): shortcuts, v1 always, ancestors. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { expandActionTypes, shownTo } from '../../../src/index/actions/versions.js';

test('shortcuts expand, v1 is always in, latest by default', () => {
  const v1 = expandActionTypes(['v1']);
  assert.equal(v1.size, 23);
  assert.ok(v1.has('jetton_transfer') && v1.has('tick_tock'));
  assert.ok(!v1.has('unknown'), 'unknown is a v2 type: hidden from v1 clients');
  const latest = expandActionTypes([]);
  for (const type of ['unknown', 'multisig_execute', 'nft_purchase', 'cocoon_worker_payout', 'dedust_v2_claim_fees'])
    assert.ok(latest.has(type), type);
  assert.deepEqual(expandActionTypes(['jettons']), v1, 'a group is added to v1, which holds the jetton types already');
  assert.ok(expandActionTypes(['multisig']).has('multisig_approve'));
  assert.ok(expandActionTypes(['some_new_type']).has('some_new_type'), 'a name that is no shortcut is a type');
  assert.ok(!expandActionTypes(['tgbtc']).has('v1'), 'shortcut names are not types');
});

test('an action is shown when its type is understood and no ancestor of it is', () => {
  const v1 = expandActionTypes(['v1']);
  const v2 = expandActionTypes(['v2']);
  assert.equal(shownTo(v1, 'ton_transfer', ['multisig_execute']), true, 'a v1 client sees the parts of a multisig execution');
  assert.equal(shownTo(v2, 'ton_transfer', ['multisig_execute']), false, 'a v2 client sees the execution instead');
  assert.equal(shownTo(v1, 'unknown', []), false);
  assert.equal(shownTo(v2, 'unknown', []), true);
});
