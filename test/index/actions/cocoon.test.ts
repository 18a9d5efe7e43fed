/**
 * cocoon's twelve actions on traces built by hand (support.ts), shaped as toncenter's matchers expect them
 * (ton-indexer's `blocks/cocoon.py`; the values are of the kind of its `tests/test_cases/cocoon.yaml`), accounts
 * made up. Each action field by field, its id from toncenter's block type, its parts (the contract calls) hidden
 * from a v4 client and shown to a v3 one, and against toncenter's spec; for each type the variant toncenter tells
 * apart: a payout that aborted (failed), or a request its contract refused (no action, a failed contract call).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { beginCell, ExternalAddress, type Cell } from '@ton/core';
import { classifyTrace, type ActionRecord } from '../../../src/index/actions/classify.js';
import { PARENT_TYPES } from '../../../src/index/actions/action-types.js';
import { actionBatches } from '../../../src/index/actions/action-rows.js';
import { ActionReader } from '../../../src/index/actions/reader.js';
import { migrate } from '../../../src/index/schema.js';
import { SqliteDriver } from '../../../src/index/sql/sqlite-driver.js';
import { NO_CONTRACTS } from '../../../src/index/actions/trace-input.js';
import { expandActionTypes, shownTo } from '../../../src/index/actions/versions.js';
import { account, address, buildTrace, op, type Step, againstSpec, actionId } from './support.js';

const [PROXY, WORKER, WORKER_OWNER, CLIENT, OWNER, ROOT, PROXY_OWNER, OWNER_WALLET, REFUND_TO] = [
  0xc0c0a, 0xc0c0b, 0xc0c0c, 0xc0c0d, 0xc0c0e, 0xc0c0f, 0xc0c10, 0xc0c11, 0xc0c12,
].map(account);

const v3 = expandActionTypes(['v3']);
const v4 = expandActionTypes(['v4']);

const QUERY = 10_553_886_210_694_500_674n;
const TOKENS = 9_229_614_747_703_451_079n;
const EXPECTED = new ExternalAddress(0x8da2c03aaf0c2beb208f6828c3547d4a86e19a98f1bfaaba49ac412277cba6d98n, 260);
const EXPECTED_TEXT = '260;8da2c03aaf0c2beb208f6828c3547d4a86e19a98f1bfaaba49ac412277cba6d98';

const excesses = (): Cell => op(0x2565934c, QUERY).endCell();
const payout = (): Cell => op(0xc59a7cd3, QUERY).endCell();
const signed = (code: number, expected: ExternalAddress | null = EXPECTED): Cell =>
  op(code, QUERY).storeUint(TOKENS, 64).storeAddress(expected).endCell();
const clientRequest = (payload: Cell | null = null): Cell =>
  op(0x65448ff4, QUERY).storeAddress(address(OWNER)).storeRef(beginCell().storeUint(7, 8).endCell()).storeMaybeRef(payload).endCell();
const bounce = (): Cell => beginCell().storeUint(0xffffffff, 32).storeUint(0, 32).endCell();

/** The one cocoon action of `type`; its parts (contract calls) are actions too, for clients that do not know it. */
function cocoonAction(actions: ActionRecord[], type: string): ActionRecord {
  const found = actions.filter((a) => a.type === type);
  assert.equal(found.length, 1, actions.map((a) => a.type).join());
  const [action] = found;
  assert.ok(shownTo(v4, type, action.ancestors), 'a v4 client sees it');
  assert.ok(!shownTo(v3, type, action.ancestors), 'a v3 client does not know it');
  const parts = actions.filter((a) => a.ancestors.includes(type));
  assert.ok(parts.length > 0, 'its parts are actions too');
  for (const part of parts) {
    assert.equal(part.type, 'call_contract');
    assert.ok(!shownTo(v4, part.type, part.ancestors), 'a v4 client sees the cocoon action instead');
    assert.ok(shownTo(v3, part.type, part.ancestors), 'a v3 client sees the contract calls');
  }
  againstSpec(action);
  return action;
}

/** No cocoon action; the request of `opcode` a failed contract call. */
function refused(actions: ActionRecord[], opcode: string): void {
  assert.ok(!actions.some((a) => a.type.startsWith('cocoon_')), actions.map((a) => a.type).join());
  const call = actions.find((a) => a.type === 'call_contract' && (a.details as { opcode: string }).opcode === opcode);
  assert.equal(call?.success, false, 'the refused request is a failed contract call');
}

const sorted = (accounts: string[]): string[] => [...new Set(accounts)].sort();

// Worker payout: the proxy's signed payload to the worker, the worker's request to the proxy, the payout to the owner.

const PAID = 4_500_148_290n;
const WORKER_TOKENS = 73_063_940_556n;
const workerRequest = (state: number): Cell =>
  op(0x4d725d2c, QUERY).storeAddress(address(WORKER_OWNER)).storeUint(state, 2).storeUint(WORKER_TOKENS, 64).storeMaybeRef(null).endCell();
const workerPayout = (code: number, payoutAborted = false) =>
  buildTrace(PROXY, [
    {
      to: WORKER,
      body: signed(code, code === 0xf5f26a36 ? EXPECTED : null),
      then: [
        {
          to: PROXY,
          body: workerRequest(code === 0xf5f26a36 ? 2 : 0),
          then: [
            { to: WORKER_OWNER, value: PAID, body: payout(), aborted: payoutAborted },
            { to: WORKER, body: excesses() },
          ],
        },
      ],
    },
  ]);

test('cocoon_worker_payout: a payout and a last payout to the worker owner; failed when the payout aborted', () => {
  const { trace, messages } = workerPayout(0xa040ad28);
  const actions = classifyTrace(trace, NO_CONTRACTS).actions;
  const action = cocoonAction(actions, 'cocoon_worker_payout');
  assert.equal(action.success, true);
  assert.deepEqual(action.details, {
    payout_type: 'regular',
    query_id: QUERY.toString(),
    new_tokens: TOKENS.toString(),
    worker_state: 0,
    worker_tokens: WORKER_TOKENS.toString(),
    source: PROXY,
    destination: WORKER_OWNER,
    amount: PAID.toString(),
  });
  assert.equal(action.actionId, actionId(messages[0].hash, 'cocoon_worker_payout'));
  assert.deepEqual(sorted(action.accounts), sorted([PROXY, WORKER, WORKER_OWNER]));
  assert.equal(action.transactions.length, 5, 'the proxy, the worker, the proxy, the owner, the excesses');
  assert.equal(actions.filter((a) => a.ancestors.includes('cocoon_worker_payout')).length, 4, 'payload, request, payout, excesses');

  const last = cocoonAction(classifyTrace(workerPayout(0xf5f26a36).trace, NO_CONTRACTS).actions, 'cocoon_worker_payout');
  assert.equal((last.details as { payout_type: string }).payout_type, 'last');
  assert.equal((last.details as { worker_state: number }).worker_state, 2);

  const failed = cocoonAction(classifyTrace(workerPayout(0xa040ad28, true).trace, NO_CONTRACTS).actions, 'cocoon_worker_payout');
  assert.equal(failed.success, false);
});

test('cocoon_proxy_payout: the proxy pays its owner and returns the excesses; failed when the payout aborted', () => {
  const request = (payoutAborted: boolean) =>
    buildTrace(PROXY, [
      {
        to: PROXY,
        body: op(0x7610e6eb, QUERY).storeAddress(address(WORKER)).endCell(),
        then: [
          { to: PROXY_OWNER, body: payout(), aborted: payoutAborted },
          { to: WORKER, body: excesses() },
        ],
      },
    ]);
  const { trace, messages } = request(false);
  const action = cocoonAction(classifyTrace(trace, NO_CONTRACTS).actions, 'cocoon_proxy_payout');
  assert.equal(action.success, true);
  assert.deepEqual(action.details, { query_id: QUERY.toString(), source: PROXY, destination: PROXY_OWNER });
  assert.equal(action.actionId, actionId(messages[0].hash, 'cocoon_proxy_payout'));
  assert.deepEqual(sorted(action.accounts), sorted([PROXY, PROXY_OWNER, WORKER]), 'the excesses recipient is an end');
  assert.equal(cocoonAction(classifyTrace(request(true).trace, NO_CONTRACTS).actions, 'cocoon_proxy_payout').success, false);
});

/** A request to `to` answered by `answers`; refused: the contract aborted and bounced it. */
const requestTrace = (from: string, to: string, body: Cell, answers: Step[], refusedByContract = false) =>
  buildTrace(from, [
    refusedByContract
      ? { to, body, aborted: true, then: [{ to: from, body: bounce(), bounce: false, bounced: true }] }
      : { to, body, then: answers },
  ]);

test('cocoon_proxy_charge: the proxy charges a client (its request to the client aborted, as usual); refused: none', () => {
  const body = signed(0xbb63ff93);
  const answers: Step[] = [
    { to: OWNER, body: excesses() },
    { to: CLIENT, body: clientRequest(), aborted: true },
  ];
  const { trace, messages } = requestTrace(PROXY_OWNER, PROXY, body, answers);
  const action = cocoonAction(classifyTrace(trace, NO_CONTRACTS).actions, 'cocoon_proxy_charge');
  assert.equal(action.success, true, "the client's aborted request does not fail it");
  assert.deepEqual(action.details, {
    query_id: QUERY.toString(),
    new_tokens_used: TOKENS.toString(),
    expected_address: EXPECTED_TEXT,
    source: PROXY,
    destination: CLIENT,
  });
  assert.equal(action.actionId, actionId(messages[0].hash, 'cocoon_proxy_charge'));
  refused(classifyTrace(requestTrace(PROXY_OWNER, PROXY, body, answers, true).trace, NO_CONTRACTS).actions, '0xbb63ff93');
});

const TOP_UP = 1_000_000_000n;

test('cocoon_client_top_up: TON added to a client, its request to the proxy answered with excesses; refused: none', () => {
  const body = op(0xf172e6c2, QUERY).storeCoins(TOP_UP).storeAddress(address(OWNER)).endCell();
  const answers: Step[] = [{ to: PROXY, body: clientRequest(), then: [{ to: OWNER, body: excesses() }] }];
  const { trace, messages } = requestTrace(OWNER, CLIENT, body, answers);
  const action = cocoonAction(classifyTrace(trace, NO_CONTRACTS).actions, 'cocoon_client_top_up');
  assert.equal(action.success, true);
  assert.deepEqual(action.details, { query_id: QUERY.toString(), source: OWNER, destination: CLIENT, amount: TOP_UP.toString() });
  assert.equal(action.actionId, actionId(messages[0].hash, 'cocoon_client_top_up'));
  assert.deepEqual(sorted(action.accounts), sorted([OWNER, CLIENT, PROXY]), 'the proxy is an end');
  // Without the proxy's excesses the request is not a top-up.
  const bare = classifyTrace(requestTrace(OWNER, CLIENT, body, [{ to: PROXY, body: clientRequest() }]).trace, NO_CONTRACTS).actions;
  assert.ok(!bare.some((a) => a.type.startsWith('cocoon_')), bare.map((a) => a.type).join());
  refused(classifyTrace(requestTrace(OWNER, CLIENT, body, answers, true).trace, NO_CONTRACTS).actions, '0xf172e6c2');
});

test('cocoon_register_proxy, cocoon_unregister_proxy: to the root, answered with excesses; refused: none', () => {
  const register = op(0x927c7cb5, 0n).storeUint(0xabcdef, 24).endCell();
  const { trace, messages } = requestTrace(PROXY, ROOT, register, [{ to: PROXY, body: excesses() }]);
  const registered = cocoonAction(classifyTrace(trace, NO_CONTRACTS).actions, 'cocoon_register_proxy');
  assert.equal(registered.success, true);
  assert.deepEqual(registered.details, { query_id: '0', destination: ROOT });
  assert.equal(registered.actionId, actionId(messages[0].hash, 'cocoon_register_proxy'));
  refused(classifyTrace(requestTrace(PROXY, ROOT, register, [], true).trace, NO_CONTRACTS).actions, '0x927c7cb5');

  const unregister = op(0x6d49eaf2, 0n).storeUint(1, 32).endCell();
  const gone = cocoonAction(
    classifyTrace(requestTrace(PROXY, ROOT, unregister, [{ to: PROXY, body: excesses() }]).trace, NO_CONTRACTS).actions,
    'cocoon_unregister_proxy',
  );
  assert.deepEqual(gone.details, { query_id: '0', seqno: 1, destination: ROOT });
  refused(classifyTrace(requestTrace(PROXY, ROOT, unregister, [], true).trace, NO_CONTRACTS).actions, '0x6d49eaf2');
});

/** An owner's request to its client: excesses back and the client's request to the proxy (aborted, as usual). */
const ownerAnswers = (): Step[] => [
  { to: OWNER, body: excesses() },
  { to: PROXY, body: clientRequest(), aborted: true },
];

const NONCE = 11_924_145_372_215_500_834n;
const SECRET = 0x0e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855n;

test('cocoon_client_register, cocoon_client_change_secret_hash, cocoon_client_increase_stake; refused: none', () => {
  const register = op(0xc45f9f3b, QUERY).storeUint(NONCE, 64).storeAddress(address(OWNER)).endCell();
  const { trace, messages } = requestTrace(OWNER, CLIENT, register, ownerAnswers());
  const registered = cocoonAction(classifyTrace(trace, NO_CONTRACTS).actions, 'cocoon_client_register');
  assert.equal(registered.success, true);
  assert.deepEqual(registered.details, { query_id: QUERY.toString(), nonce: NONCE.toString(), source: OWNER, destination: CLIENT });
  assert.equal(registered.actionId, actionId(messages[0].hash, 'cocoon_client_register'));
  refused(classifyTrace(requestTrace(OWNER, CLIENT, register, [], true).trace, NO_CONTRACTS).actions, '0xc45f9f3b');

  const change = op(0xa9357034, QUERY).storeUint(SECRET, 256).storeAddress(address(OWNER)).endCell();
  const changed = cocoonAction(
    classifyTrace(requestTrace(OWNER, CLIENT, change, ownerAnswers()).trace, NO_CONTRACTS).actions,
    'cocoon_client_change_secret_hash',
  );
  assert.deepEqual(changed.details, {
    query_id: QUERY.toString(),
    // Python's hex(): no leading zero.
    new_secret_hash: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
    source: OWNER,
    destination: CLIENT,
  });
  refused(classifyTrace(requestTrace(OWNER, CLIENT, change, [], true).trace, NO_CONTRACTS).actions, '0xa9357034');

  const stake = 18_000_000_000n;
  const increase = op(0x6a1f6a60, 0n).storeCoins(stake).storeAddress(address(OWNER)).endCell();
  const increased = cocoonAction(
    classifyTrace(requestTrace(OWNER, CLIENT, increase, ownerAnswers()).trace, NO_CONTRACTS).actions,
    'cocoon_client_increase_stake',
  );
  assert.deepEqual(increased.details, {
    query_id: '0',
    new_stake: stake.toString(),
    source: OWNER,
    destination: CLIENT,
    amount: stake.toString(),
  });
  refused(classifyTrace(requestTrace(OWNER, CLIENT, increase, [], true).trace, NO_CONTRACTS).actions, '0x6a1f6a60');
});

test('cocoon_client_request_refund: directly, or through the owner wallet (via_wallet, the wallet call its part); refused: none', () => {
  const request = op(0xfafa6cc1, QUERY).storeAddress(address(OWNER)).endCell();
  const { trace, messages } = requestTrace(OWNER, CLIENT, request, ownerAnswers());
  const direct = cocoonAction(classifyTrace(trace, NO_CONTRACTS).actions, 'cocoon_client_request_refund');
  assert.equal(direct.success, true);
  assert.deepEqual(direct.details, { query_id: QUERY.toString(), via_wallet: false, source: OWNER, destination: CLIENT });
  assert.equal(direct.actionId, actionId(messages[0].hash, 'cocoon_client_request_refund'));

  const viaWallet = buildTrace(OWNER, [
    {
      to: OWNER_WALLET,
      body: op(0x9c69f376, 0n).storeUint(1, 8).storeRef(request).endCell(),
      then: [{ to: CLIENT, body: request, then: ownerAnswers() }],
    },
  ]);
  const wrapped = cocoonAction(classifyTrace(viaWallet.trace, NO_CONTRACTS).actions, 'cocoon_client_request_refund');
  assert.deepEqual(wrapped.details, { query_id: QUERY.toString(), via_wallet: true, source: OWNER, destination: CLIENT });
  assert.equal(wrapped.actionId, actionId(viaWallet.messages[0].hash, 'cocoon_client_request_refund'), 'from the wallet call on');
  assert.ok(wrapped.accounts.includes(OWNER_WALLET));
  refused(classifyTrace(requestTrace(OWNER, CLIENT, request, [], true).trace, NO_CONTRACTS).actions, '0xfafa6cc1');
});

const REFUND = 14_999_630_120n;
const WITHDRAWN = 999_985_640n;

test('cocoon_grant_refund: the proxy grants a refund the client pays out; failed when the payout aborted', () => {
  const grant = (payoutAborted: boolean) =>
    buildTrace(PROXY_OWNER, [
      {
        to: PROXY,
        body: signed(0xefd711e1),
        then: [
          {
            to: CLIENT,
            body: clientRequest(),
            then: [
              { to: REFUND_TO, value: REFUND, body: payout(), aborted: payoutAborted },
              { to: PROXY, body: excesses() },
            ],
          },
        ],
      },
    ]);
  const { trace, messages } = grant(false);
  const action = cocoonAction(classifyTrace(trace, NO_CONTRACTS).actions, 'cocoon_grant_refund');
  assert.equal(action.success, true);
  assert.deepEqual(action.details, {
    query_id: QUERY.toString(),
    new_tokens_used: TOKENS.toString(),
    expected_address: EXPECTED_TEXT,
    source: PROXY,
    destination: REFUND_TO,
    amount: REFUND.toString(),
  });
  assert.equal(action.actionId, actionId(messages[0].hash, 'cocoon_grant_refund'));
  assert.deepEqual(sorted(action.accounts), sorted([PROXY_OWNER, PROXY, CLIENT, REFUND_TO]), "the client is toncenter's source_secondary");
  assert.equal(cocoonAction(classifyTrace(grant(true).trace, NO_CONTRACTS).actions, 'cocoon_grant_refund').success, false);
});

test('cocoon_client_withdraw: the amount from the refund_granted payload (0 without one); refused: none', () => {
  const withdraw = op(0xda068e78, QUERY).storeAddress(address(OWNER)).endCell();
  const granted = beginCell().storeUint(0xc68ebc7b, 32).storeCoins(WITHDRAWN).storeAddress(address(OWNER)).endCell();
  const answers = (payload: Cell | null): Step[] => [
    {
      to: PROXY,
      body: clientRequest(payload),
      then: [
        { to: OWNER, body: excesses() },
        { to: OWNER, value: WITHDRAWN, body: payout() },
      ],
    },
  ];
  const { trace, messages } = requestTrace(OWNER, CLIENT, withdraw, answers(granted));
  const action = cocoonAction(classifyTrace(trace, NO_CONTRACTS).actions, 'cocoon_client_withdraw');
  assert.equal(action.success, true);
  assert.deepEqual(action.details, {
    query_id: QUERY.toString(),
    withdraw_amount: WITHDRAWN.toString(),
    source: OWNER,
    destination: CLIENT,
    amount: WITHDRAWN.toString(),
  });
  assert.equal(action.actionId, actionId(messages[0].hash, 'cocoon_client_withdraw'));
  const none = cocoonAction(
    classifyTrace(requestTrace(OWNER, CLIENT, withdraw, answers(null)).trace, NO_CONTRACTS).actions,
    'cocoon_client_withdraw',
  );
  assert.equal((none.details as { withdraw_amount: string }).withdraw_amount, '0');
  refused(classifyTrace(requestTrace(OWNER, CLIENT, withdraw, [], true).trace, NO_CONTRACTS).actions, '0xda068e78');
});

test('the version filter: a v3 client sees the contract calls, a v4 client (or one asking for the cocoon group) the cocoon action', async (t) => {
  const { trace } = workerPayout(0xa040ad28);
  const actions = classifyTrace(trace, NO_CONTRACTS).actions;
  const shown = (supported: ReadonlySet<string>) => actions.filter((a) => shownTo(supported, a.type, a.ancestors)).map((a) => a.type);
  assert.deepEqual(shown(v3), ['call_contract', 'call_contract', 'call_contract', 'call_contract']);
  assert.deepEqual(shown(v4), ['cocoon_worker_payout']);
  assert.deepEqual(shown(expandActionTypes(['v2', 'cocoon'])), ['cocoon_worker_payout'], 'the cocoon group');
  // What the store's reader hides its parts by (reader.ts).
  for (const type of ['cocoon_worker_payout', 'cocoon_client_withdraw']) assert.ok(PARENT_TYPES.includes(type), type);

  // The same through the store and /api/v3/actions' reader.
  const driver = SqliteDriver.open();
  t.after(() => driver.close());
  await migrate(driver);
  await driver.write(actionBatches([{ traceId: trace.traceId, state: 'ok', actions }]));
  const reader = new ActionReader(driver);
  const read = async (supported: ReadonlySet<string>) =>
    (await reader.actions({ trace_id: [Buffer.from(trace.traceId, 'base64')], supported }, 'asc', { limit: 100, offset: 0 })).map(
      (a) => (JSON.parse(a.doc) as { type: string }).type,
    );
  assert.deepEqual(await read(v3), ['call_contract', 'call_contract', 'call_contract', 'call_contract'], 'a v3 client');
  assert.deepEqual(await read(v4), ['cocoon_worker_payout'], 'a v4 client');
});
