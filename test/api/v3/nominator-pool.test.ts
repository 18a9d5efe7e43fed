/**
 * Nominator pools on a local chain, classified as toncenter does: the standard pool (its published code,
 * test/contracts/support/nominator-pool.ts) in the masterchain, deployed by a basechain nominator's first deposit
 * ("d": the pool told by the state the trace leaves it in), a second deposit to the pool the index knows, and a
 * withdrawal ("w", paid at once: the pool is not staking). Each action through /api/v3/actions field by field, as
 * ton-index-go answers toncenter's `nominator_pool_deposit` and `nominator_pool_withdraw_request` blocks
 * (`stake_deposit`, `stake_withdrawal`, provider `nominator`), checked against toncenter's v3 spec and ours; the same
 * message emulated first (the Emulate API) gives the same actions.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { beginCell, contractAddress, internal, toNano, type Address } from '@ton/core';
import { TonClient, WalletContractV4 } from '@ton/ton';
import { formatRawUpper } from '../../../src/ton/address.js';
import { testWallet } from '../../chain/local/support/local-chain.js';
import { nominatorPoolInit } from '../../contracts/support/nominator-pool.js';
import { openStore } from '../../index/support/stores.js';
import { actionShape, sealBlocks, sealUntilQuiet, serveIndex, walletRequestBoc } from './support/server.js';
import { specCheckedGet } from './support/spec.js';

const raw = (a: Address) => formatRawUpper(a);
const comment = (text: string) => beginCell().storeUint(0, 32).storeStringTail(text).endCell();
/** The same actions, in any order (the Emulate API's order is not /actions' `sort=asc`). */
const sameActions = (emulated: any[], sealed: any[]) => assert.deepEqual(emulated.map(actionShape).sort(), sealed.map(actionShape).sort());

test('nominator pool on a local chain: a deposit is stake_deposit, a withdrawal paid at once stake_withdrawal, emulated and sealed', async (t) => {
  const opened = await openStore(t, 'sqlite');
  if (!opened) return;
  const server = await serveIndex(t, opened.index, 'testnet', true);
  const client = new TonClient({ endpoint: `${server.base}/api/v2/jsonRPC` });
  const get = await specCheckedGet(server);
  // The pool lives in the masterchain (its validator's wallet too) and takes nominators from the basechain only.
  const nominator = testWallet(202);
  const validator = WalletContractV4.create({ workchain: -1, publicKey: testWallet(201).keys.publicKey });
  await Promise.all([server.chain.fund(nominator.wallet.address, toNano(100)), sealBlocks(server, 1)]);
  await sealBlocks(server, 2);
  const init = nominatorPoolInit({
    validator: validator.address,
    validatorRewardShare: 4000,
    maxNominators: 40,
    minValidatorStake: toNano(1000),
    minNominatorStake: toNano(10),
  });
  const pool = contractAddress(-1, init);

  /** `from`'s request of one message, emulated with actions, then sent and sealed: both action lists. */
  const emulatedAndSealed = async (from: typeof nominator, to: Address, value: bigint, text?: string, deploy = false) => {
    const seqno = await client.open(from.wallet).getSeqno();
    const body = text === undefined ? undefined : comment(text);
    const boc = walletRequestBoc(from, seqno, [internal({ to, value, body, init: deploy ? init : undefined, bounce: true })], seqno === 0);
    const emulated = await server.post('/api/emulate/v1/emulateTrace', { boc, with_actions: true });
    assert.equal(emulated.status, 200, JSON.stringify(emulated.body).slice(0, 500));
    const sent = await server.post('/api/v3/message', { boc });
    assert.equal(sent.status, 200, JSON.stringify(sent.body));
    await sealUntilQuiet(server);
    const traces = await get(`/api/v3/traces?msg_hash=${encodeURIComponent(sent.body.message_hash)}`);
    const sealed = await get(`/api/v3/actions?trace_id=${encodeURIComponent(traces.traces[0].trace_id)}&sort=asc&include_accounts=true`);
    return { emulated: emulated.body.actions as any[], sealed: sealed.actions as any[] };
  };

  /** The deposit of `value` among `actions`, as ton-index-go answers a `nominator_pool_deposit`. */
  const depositOf = (actions: any[], value: bigint) => {
    const stake = actions.find((a) => a.type === 'stake_deposit');
    assert.ok(stake, `a stake_deposit among ${actions.map((a) => a.type)}`);
    assert.equal(stake.success, true);
    assert.deepEqual(stake.details, {
      provider: 'nominator',
      stake_holder: raw(nominator.wallet.address),
      pool: raw(pool),
      amount: value.toString(),
      tokens_minted: null,
      asset: null,
    });
    assert.deepEqual([...stake.accounts].sort(), [raw(nominator.wallet.address), raw(pool)].sort());
  };

  // The first deposit deploys the pool: a pool by the state the trace left it in (emulated, then sealed).
  const first = await emulatedAndSealed(nominator, pool, toNano(20), 'd', true);
  const state = await get(`/api/v3/accountStates?address=${raw(pool)}&include_boc=false`);
  assert.equal(state.accounts[0]?.status, 'active', 'the pool is deployed');
  assert.equal(state.accounts[0]?.code_hash, 'mj7BS8CY9rRAZMMFIiyuooAPF92oXuaoGYpwle3hDc8=');
  depositOf(first.sealed, toNano(20));
  sameActions(first.emulated, first.sealed);

  // A second one, to the pool the index knows.
  const deposit = await emulatedAndSealed(nominator, pool, toNano(15), 'd');
  depositOf(deposit.sealed, toNano(15));
  sameActions(deposit.emulated, deposit.sealed);

  // The pool keeps 10 TON for its storage: funded beyond the stakes (a plain transfer it refuses to read, kept).
  await Promise.all([server.chain.fund(pool, toNano(100)), sealBlocks(server, 1)]);
  await sealUntilQuiet(server);

  // A withdrawal while the pool is not staking: paid at once, worth more than the request.
  const withdrawal = await emulatedAndSealed(nominator, pool, toNano(1), 'w');
  const paid = withdrawal.sealed.find((a) => a.type === 'stake_withdrawal');
  assert.ok(paid, `a stake_withdrawal among ${withdrawal.sealed.map((a) => a.type)}`);
  assert.equal(paid.success, true);
  const payout = paid.details.amount;
  assert.ok(BigInt(payout) > toNano(1), `the payout ${payout} is worth more than the request`);
  assert.deepEqual(paid.details, {
    provider: 'nominator',
    stake_holder: raw(nominator.wallet.address),
    pool: raw(pool),
    amount: payout,
    payout_nft: null,
    tokens_burnt: null,
    asset: null,
  });
  sameActions(withdrawal.emulated, withdrawal.sealed);
});
