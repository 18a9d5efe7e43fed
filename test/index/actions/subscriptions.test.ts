/**
 * Wallet v4 plugin subscriptions on traces built by hand (support.ts): a payment the plugin asked for and the wallet
 * paid (`subscribe`), a plugin destroyed by its wallet or by its beneficiary (`unsubscribe`); each also refused, field
 * by field as toncenter answers (its action id from the block type), against toncenter's v3 spec.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import { beginCell } from '@ton/core';
import { classifyTrace, type ActionRecord } from '../../../src/index/actions/classify.js';
import { NO_CONTRACTS } from '../../../src/index/actions/trace-input.js';
import { expandActionTypes, shownTo } from '../../../src/index/actions/versions.js';
import { account, buildTrace, op, againstSpec } from './support.js';

const [WALLET, PLUGIN, BENEFICIARY] = [0x3a11e7, 0x9106, 0xbe7e].map(account);
const OP = { request: 0x706c7567, response: 0xf06c7567, payment: 0x73756273, destruct: 0x64737472 };

const types = (actions: ActionRecord[]) => actions.filter((a) => a.ancestors.length === 0).map((a) => a.type);
const only = (actions: ActionRecord[], type: string): ActionRecord => {
  const found = actions.filter((a) => a.type === type);
  assert.equal(found.length, 1, `one ${type} in ${JSON.stringify(types(actions))}`);
  return found[0];
};
const sorted = (list: string[]) => [...list].sort();
const idOf = (messageHash: string, type: string) =>
  createHash('sha256')
    .update(messageHash + type)
    .digest('base64');

const BAD = beginCell().storeUint(0xffffffff, 32).endCell();

/**
 * The plugin's payment request (an external into the plugin, as anyone may send once the period is over) to the
 * wallet for `grams`; the wallet answers with the money (value `paid`), the plugin pays the beneficiary. `refuse`: the
 * wallet's transaction aborts though it answered (`wallet`), sends nothing (`ignored`), or the plugin aborts on the
 * answer (`plugin`).
 */
const payment = (grams: bigint, paid = grams, refuse?: 'wallet' | 'ignored' | 'plugin') =>
  buildTrace(PLUGIN, [
    {
      to: WALLET,
      value: 50_000_000n,
      body: op(OP.request, 7n).storeCoins(grams).endCell(),
      aborted: refuse === 'wallet',
      then:
        refuse === 'ignored'
          ? []
          : [
              {
                to: PLUGIN,
                value: paid,
                body: op(OP.response, 7n).endCell(),
                aborted: refuse === 'plugin',
                then:
                  refuse === 'plugin'
                    ? [{ to: WALLET, value: paid - 1_000_000n, body: BAD, bounced: true, bounce: false }]
                    : [{ to: BENEFICIARY, value: paid - 5_000_000n, body: op(OP.payment, 7n).endCell(), bounce: false }],
              },
            ],
    },
  ]);

test('subscribe: the wallet pays what its plugin asked, the plugin pays the beneficiary', () => {
  const { trace, txs, messages } = payment(5_000_000_000n, 5_000_000_001n);
  const actions = classifyTrace(trace, NO_CONTRACTS).actions;
  assert.deepEqual(types(actions), ['subscribe']);
  assert.equal(actions.length, 1, 'a v1 type: its parts are no actions');
  const paid = only(actions, 'subscribe');
  assert.equal(paid.success, true);
  // The amount is the request's, not the value the wallet sent.
  assert.deepEqual(paid.details, { subscriber: WALLET, beneficiary: BENEFICIARY, subscription: PLUGIN, amount: '5000000000' });
  assert.equal(paid.actionId, idOf(messages[0].hash, 'subscribe'), 'the request is the earliest message');
  assert.deepEqual(
    paid.transactions,
    txs.map((t) => t.hash),
    'the plugin woken by its external, the wallet, the plugin again, the beneficiary',
  );
  assert.deepEqual(sorted(paid.accounts), sorted([WALLET, PLUGIN, BENEFICIARY]));
  assert.ok(shownTo(expandActionTypes(['v1']), paid.type, paid.ancestors));
  againstSpec(paid);

  // The wallet's transaction aborted: toncenter fails the subscription by its request.
  const failed = only(classifyTrace(payment(5_000_000_000n, 5_000_000_000n, 'wallet').trace, NO_CONTRACTS).actions, 'subscribe');
  assert.equal(failed.success, false);
  againstSpec(failed);

  // No request before the wallet's answer (the wallet sent it from its owner's external): the answer's value.
  const bare = buildTrace(WALLET, [
    {
      to: PLUGIN,
      value: 3_000_000_000n,
      body: op(OP.response, 7n).endCell(),
      then: [{ to: BENEFICIARY, value: 2_990_000_000n, body: op(OP.payment, 7n).endCell() }],
    },
  ]);
  const answered = only(classifyTrace(bare.trace, NO_CONTRACTS).actions, 'subscribe');
  assert.equal(answered.details.amount, '3000000000');
  assert.equal(answered.success, true);

  // The wallet did not pay (not its plugin): the request stays a contract call; nor did the plugin pass it on.
  assert.deepEqual(types(classifyTrace(payment(5n, 5n, 'ignored').trace, NO_CONTRACTS).actions), ['call_contract']);
  const refused = classifyTrace(payment(5_000_000_000n, 5_000_000_000n, 'plugin').trace, NO_CONTRACTS).actions;
  assert.ok(!types(refused).includes('subscribe'), JSON.stringify(types(refused)));
});

/** `from` sends destruct to the plugin, which sends its own destruct (its balance) to the wallet, or refuses. */
const destruct = (from: string, refused = false) =>
  buildTrace(from, [
    {
      to: PLUGIN,
      value: 50_000_000n,
      body: op(OP.destruct, 9n).endCell(),
      aborted: refused,
      then: refused
        ? [{ to: from, value: 49_000_000n, body: BAD, bounced: true, bounce: false }]
        : [{ to: WALLET, value: 120_000_000n, body: op(OP.destruct, 9n).endCell(), bounce: false }],
    },
  ]);

test('unsubscribe: a plugin destroyed by its wallet or its beneficiary, the destruct it sends on naming the beneficiary', () => {
  const { trace, txs, messages } = destruct(WALLET);
  const actions = classifyTrace(trace, NO_CONTRACTS).actions;
  assert.deepEqual(types(actions), ['unsubscribe']);
  assert.equal(actions.length, 1);
  const removed = only(actions, 'unsubscribe');
  assert.equal(removed.success, true);
  // toncenter's reading: the receiver of the plugin's destruct (the wallet) is the beneficiary; no amount (omitempty).
  assert.deepEqual(removed.details, { subscriber: WALLET, beneficiary: WALLET, subscription: PLUGIN });
  assert.equal(removed.actionId, idOf(messages[0].hash, 'unsubscribe'));
  assert.deepEqual(
    removed.transactions,
    txs.map((t) => t.hash),
  );
  assert.deepEqual(sorted(removed.accounts), sorted([WALLET, PLUGIN]));
  againstSpec(removed);

  // The beneficiary ends it: it is the "subscriber" of toncenter's action.
  const ended = only(classifyTrace(destruct(BENEFICIARY).trace, NO_CONTRACTS).actions, 'unsubscribe');
  assert.deepEqual(ended.details, { subscriber: BENEFICIARY, beneficiary: WALLET, subscription: PLUGIN });
  assert.deepEqual(sorted(ended.accounts), sorted([WALLET, PLUGIN, BENEFICIARY]));

  // The plugin refused (aborted, bounced back): still an unsubscribe, not failed, no beneficiary (toncenter's build).
  const refusedTrace = destruct(WALLET, true);
  const refusedActions = classifyTrace(refusedTrace.trace, NO_CONTRACTS).actions;
  const refused = only(refusedActions, 'unsubscribe');
  assert.equal(refused.success, true);
  assert.deepEqual(refused.details, { subscriber: WALLET, subscription: PLUGIN });
  // A bounce is taken along only by a matcher's step inside a match, not after the matched block itself (toncenter's
  // try_build appends it after the build): the bounce is an action of its own.
  assert.deepEqual(
    refused.transactions,
    refusedTrace.txs.slice(0, 2).map((t) => t.hash),
  );
  assert.deepEqual(types(refusedActions), ['unsubscribe', 'call_contract']);
  againstSpec(refused);
});
