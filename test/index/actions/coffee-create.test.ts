/**
 * swap.coffee's creation types on traces built by hand (support.ts), shaped as mainnet's: `coffee_create_vault` (the
 * factory's deploy of a USDT vault, the vault asking Tether's master for its wallet; a TON vault without that; a
 * request the factory refused). Tether's USDT master as on mainnet; the factory and vaults are made up. Each action
 * against toncenter's v3 spec.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import { Address, beginCell, type Builder, type Cell } from '@ton/core';
import { classifyTrace, type ActionRecord } from '../../../src/index/actions/classify.js';
import { actionDoc } from '../../../src/index/actions/action-rows.js';
import { NO_CONTRACTS } from '../../../src/index/actions/trace-input.js';
import { toncenterV3 } from '../../api/v3/support/spec.js';
import { account, address, buildTrace } from './support.js';

const USDT = Address.parse('EQCxE6mUtQJKFnGfaROTKOt1lZbDiiX1kCixRv7Nw2Id_sDs').toRawString().toUpperCase();
const [USER, FACTORY, USDT_VAULT, NATIVE_VAULT, VAULT_USDT] = [0xa11ce, 0xfac, 0x7a, 0x7b, 0xb1].map(account);

const op = (code: number, queryId = 7n): Builder => beginCell().storeUint(code, 32).storeUint(queryId, 64);
/** An asset as swap.coffee writes it: native$00 or jetton$01 chain hash. */
const asset = (b: Builder, master: string | null): Builder => {
  if (master === null) return b.storeUint(0, 2);
  const a = address(master);
  return b
    .storeUint(1, 2)
    .storeUint(a.workChain & 0xff, 8)
    .storeBuffer(a.hash);
};
/** create_vault#c0ffee06 query_id asset. */
const createVault = (master: string | null): Cell => asset(op(0xc0ffee06), master).endCell();
/** deploy#c0ffee22: the vault's code and data, no action. */
const deploy = (): Cell =>
  op(0xc0ffee22).storeRef(beginCell().storeUint(0xc0de, 16)).storeRef(beginCell().storeUint(0xda7a, 16)).storeMaybeRef(null).endCell();
/** provide_wallet_address#2c76b973: the vault asks the master for its own wallet. */
const provideWallet = (): Cell => op(0x2c76b973).storeAddress(address(USDT_VAULT)).storeBit(0).endCell();
/** take_wallet_address#d1735400: the master's answer. */
const takeWallet = (): Cell => op(0xd1735400).storeAddress(address(VAULT_USDT)).storeMaybeRef(null).endCell();

function againstSpec(action: ActionRecord): void {
  const body = { actions: [{ ...JSON.parse(actionDoc(action)), accounts: action.accounts }], address_book: {}, metadata: {} };
  assert.deepEqual(toncenterV3().errors('/api/v3/actions', body), [], "against toncenter's spec");
}

const actionId = (messageHash: string, type: string): string =>
  createHash('sha256')
    .update(messageHash + type)
    .digest('base64');

function vaultCreation(master: string | null, options: { factoryAborted?: boolean } = {}) {
  const vault = master === null ? NATIVE_VAULT : USDT_VAULT;
  const lookup = master === null ? [] : [{ to: USDT, body: provideWallet(), then: [{ to: USDT_VAULT, body: takeWallet() }] }];
  return buildTrace(USER, [
    {
      to: FACTORY,
      value: 150_000_000n,
      body: createVault(master),
      aborted: options.factoryAborted,
      then: options.factoryAborted ? [] : [{ to: vault, body: deploy(), deploys: true, then: lookup }],
    },
  ]);
}

test('coffee_create_vault: a USDT vault deployed by the factory, its wallet looked up; the calls are its parts', () => {
  const { trace, messages } = vaultCreation(USDT);
  const actions = classifyTrace(trace, NO_CONTRACTS).actions;
  const created = actions.find((a) => a.type === 'coffee_create_vault');
  assert.ok(created, actions.map((a) => a.type).join());
  assert.equal(created.success, true);
  assert.deepEqual(created.details, { source: USER, vault: USDT_VAULT, asset: USDT, value: '150000000' });
  assert.equal(created.actionId, actionId(messages[0].hash, 'coffee_create_vault'));
  assert.equal(created.transactions.length, trace.transactions.length, 'the request, the factory, the vault, the master, the answer');
  for (const who of [USER, FACTORY, USDT_VAULT, USDT]) assert.ok(created.accounts.includes(who), who);
  // A v2 type: its contract calls are actions too, marked with it, for clients that do not know it.
  assert.deepEqual(
    actions.filter((a) => a.ancestors.includes('coffee_create_vault')).map((a) => a.type),
    ['call_contract', 'call_contract', 'call_contract', 'call_contract'],
  );
  assert.ok(
    actions.every((a) => a === created || a.type === 'contract_deploy' || a.ancestors.length > 0),
    'nothing else',
  );
  againstSpec(created);
});

test('coffee_create_vault: a TON vault (asset null), no wallet to look up', () => {
  const { trace } = vaultCreation(null);
  const created = classifyTrace(trace, NO_CONTRACTS).actions.find((a) => a.type === 'coffee_create_vault');
  assert.ok(created);
  assert.equal(created.success, true);
  assert.deepEqual(created.details, { source: USER, vault: NATIVE_VAULT, asset: null, value: '150000000' });
  assert.equal(created.transactions.length, trace.transactions.length);
  againstSpec(created);
});

test('coffee_create_vault: a request the factory refused (no deploy) is no vault creation, a failed contract call', () => {
  const actions = classifyTrace(vaultCreation(USDT, { factoryAborted: true }).trace, NO_CONTRACTS).actions;
  assert.deepEqual(
    actions.map((a) => [a.type, a.success]),
    [['call_contract', false]],
  );
});
