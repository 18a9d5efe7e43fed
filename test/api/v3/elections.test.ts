/**
 * Validator stakes on a local chain, classified as toncenter does (`election_deposit`, `election_recover`): the
 * local elector (src/contracts/system/elector.fc.ts) takes a stake from a masterchain wallet with its
 * confirmation, returns one from a basechain wallet, pays a credit back on recover_stake and refuses a second
 * recover. Each action through /api/v3/actions, field by field, checked against toncenter's v3 spec and ours.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Address, beginCell, toNano, type Cell } from '@ton/core';
import { TonClient, WalletContractV4 } from '@ton/ton';
import { formatRawUpper } from '../../../src/ton/address.js';
import { testWallet } from '../../chain/local/support/local-chain.js';
import { openStore } from '../../index/support/stores.js';
import { sealBlocks, serveIndex } from './support/server.js';
import { transferAndSeal } from './support/wallet-transfer.js';
import { specCheckedGet } from './support/spec.js';

const raw = (a: Address) => formatRawUpper(a);
const ELECTOR = Address.parse(`-1:${'3'.repeat(64)}`);

/** new_stake#4e73744b query_id validator_pubkey stake_at max_factor adnl_addr ^signature (the elector's layout). */
const newStakeBody = (queryId: bigint): Cell =>
  beginCell()
    .storeUint(0x4e73744b, 32)
    .storeUint(queryId, 64)
    .storeUint(0xabcdefn, 256)
    .storeUint(0, 32)
    .storeUint(3 << 16, 32)
    .storeUint(0x1234n, 256)
    .storeRef(beginCell().storeBuffer(Buffer.alloc(64, 7)))
    .endCell();
const recoverStakeBody = (queryId: bigint): Cell => beginCell().storeUint(0x47657424, 32).storeUint(queryId, 64).endCell();

test('election_deposit and election_recover on a local chain: taken, returned, recovered, refused', async (t) => {
  const opened = await openStore(t, 'sqlite');
  if (!opened) return;
  const server = await serveIndex(t, opened.index, 'testnet', true);
  const client = new TonClient({ endpoint: `${server.base}/api/v2/jsonRPC` });
  const get = await specCheckedGet(server);
  const basechain = testWallet(191);
  const master = testWallet(192);
  const validator = { keys: master.keys, wallet: WalletContractV4.create({ workchain: -1, publicKey: master.keys.publicKey }) };
  const transfer = transferAndSeal(server);
  const send = (from: typeof basechain, value: bigint, body: Cell) => transfer(from, ELECTOR, value, body);
  await Promise.all([
    server.chain.fund(basechain.wallet.address, toNano(50)),
    server.chain.fund(validator.wallet.address, toNano(50)),
    sealBlocks(server, 1),
  ]);
  await sealBlocks(server, 3);

  /** The actions of the last trace `account` took part in, in toncenter's order. */
  const lastTraceActions = async (account: Address) => {
    const [last] = (await get(`/api/v3/actions?account=${raw(account)}&limit=1&sort=desc`)).actions as any[];
    return (await get(`/api/v3/actions?trace_id=${encodeURIComponent(last.trace_id)}&sort=asc&include_accounts=true`)).actions as any[];
  };

  // Taken: the confirmation comes back with 1 TON, the rest is the validator's credit.
  await send(validator, toNano(10), newStakeBody(1n));
  let actions = await lastTraceActions(validator.wallet.address);
  let stake = actions.find((a) => a.type === 'election_deposit');
  assert.ok(stake, JSON.stringify(actions.map((a) => a.type)));
  assert.equal(stake.success, true);
  assert.deepEqual(stake.details, { stake_holder: raw(validator.wallet.address), amount: toNano(10).toString() });
  assert.equal(stake.transactions.length, 3, 'the wallet, the elector, the confirmation back');
  assert.deepEqual(new Set(stake.accounts), new Set([raw(validator.wallet.address), raw(ELECTOR)]));
  assert.deepEqual(
    actions.map((a) => a.type).filter((type) => type !== 'contract_deploy'),
    ['election_deposit'],
    'the confirmation is part of the deposit (the wallet deployed itself on that first request)',
  );
  const credit = await client.runMethod(ELECTOR, 'compute_returned_stake', [
    { type: 'int', value: BigInt(`0x${validator.wallet.address.hash.toString('hex')}`) },
  ]);
  assert.equal(credit.stack.readBigNumber(), toNano(9));

  // Returned: a stake from the basechain gets return_stake, not the confirmation: a failed deposit.
  await send(basechain, toNano(2), newStakeBody(2n));
  actions = await lastTraceActions(basechain.wallet.address);
  stake = actions.find((a) => a.type === 'election_deposit');
  assert.ok(stake);
  assert.equal(stake.success, false);
  assert.deepEqual(stake.details, { stake_holder: raw(basechain.wallet.address), amount: toNano(2).toString() });
  const returned = actions.find((a) => a.type === 'call_contract');
  assert.equal(returned?.details.opcode, '0xee6f454c', 'the returned stake is a contract call of its own, as toncenter leaves it');

  // Recovered: the credit comes back with what is left of the request's value.
  await send(validator, toNano(1), recoverStakeBody(3n));
  actions = await lastTraceActions(validator.wallet.address);
  assert.deepEqual(
    actions.map((a) => a.type),
    ['election_recover'],
  );
  const [recovered] = actions;
  assert.equal(recovered.success, true);
  assert.equal(recovered.details.stake_holder, raw(validator.wallet.address));
  const amount = BigInt(recovered.details.amount);
  // The elector is one of the config's fundamental contracts (param 31): it pays no gas, so the whole 1 TON comes back.
  assert.equal(amount, toNano(9) + toNano(1), 'the credit and the request’s 1 TON');

  // Refused: nothing left to recover; no amount (toncenter leaves it out).
  await send(validator, toNano(1), recoverStakeBody(4n));
  actions = await lastTraceActions(validator.wallet.address);
  const refused = actions.find((a) => a.type === 'election_recover');
  assert.ok(refused);
  assert.equal(refused.success, false);
  assert.deepEqual(refused.details, { stake_holder: raw(validator.wallet.address) });

  // By type, both accounts: the elector took part in all four.
  const byType = (await get(`/api/v3/actions?account=${raw(ELECTOR)}&action_type=election_deposit,election_recover&sort=asc`))
    .actions as any[];
  assert.deepEqual(
    byType.map((a) => [a.type, a.success]),
    [
      ['election_deposit', true],
      ['election_deposit', false],
      ['election_recover', true],
      ['election_recover', false],
    ],
  );
});
