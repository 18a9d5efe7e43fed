/**
 * TONCO's `tonco_deploy_pool` on traces built by hand (support.ts): a USDT/wTTON pool created through the router
 * (ROUTERV3_CREATE_POOL, the router's POOLV3_INIT deploying the pool, the pool's excess), a pool whose init failed
 * (still a success: toncenter writes it once the init is found), and a request the router did not pass on (no
 * deployment). Tether's USDT master and TONCO's wTTON master as on mainnet; the router, pool and router wallets are
 * made up. Each action against toncenter's v3 spec.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { beginCell, type Cell } from '@ton/core';
import { classifyTrace } from '../../../src/index/actions/classify.js';
import { NO_CONTRACTS } from '../../../src/index/actions/trace-input.js';
import { account, address, buildTrace, againstSpec, actionId } from './support.js';
import { op, USDT, USER } from './dedust-traces.js';
import { WTTON } from './tonco-traces.js';

const [ROUTER, POOL, ROUTER_USDT, ROUTER_WTTON, CONTROLLER] = [0x70c0, 0x9001, 0x7a1, 0x7a2, 0xc7].map(account);
/** 2^96: a price of 1. */
const PRICE_ONE = 79228162514264337593543950336n;

const content = (text: string): Cell => beginCell().storeUint(1, 8).storeStringTail(text).endCell();

/** ROUTERV3_CREATE_POOL#2e3034ef: the router's wallets, the pool's terms, the minters in a ref. */
const createPool = (): Cell =>
  op(0x2e3034ef)
    .storeAddress(address(ROUTER_USDT))
    .storeAddress(address(ROUTER_WTTON))
    .storeInt(60, 24)
    .storeUint(PRICE_ONE, 160)
    .storeUint(1_000, 16)
    .storeUint(3_000, 16)
    .storeUint(2_500, 16)
    .storeRef(content('https://example.invalid/pool.json'))
    .storeRef(content('https://example.invalid/position.json'))
    .storeRef(beginCell().storeAddress(address(USDT)).storeAddress(address(WTTON)).storeAddress(address(CONTROLLER)))
    .endCell();

/** POOLV3_INIT#441c39ed as the router sends it: every field set, the pool started active or not. */
const poolInit = (active: boolean): Cell =>
  op(0x441c39ed)
    .storeBit(0)
    .storeBit(1)
    .storeAddress(address(ROUTER))
    .storeBit(1)
    .storeAddress(address(CONTROLLER))
    .storeBit(1)
    .storeInt(60, 24)
    .storeBit(1)
    .storeUint(PRICE_ONE, 160)
    .storeBit(1)
    .storeBit(active)
    .storeUint(1_000, 16)
    .storeUint(3_000, 16)
    .storeUint(2_500, 16)
    .storeRef(content('https://example.invalid/pool.json'))
    .storeRef(content('https://example.invalid/position.json'))
    .storeMaybeRef(beginCell().storeAddress(address(USDT)).storeAddress(address(WTTON)).endCell())
    .endCell();
const excess = (): Cell => op(0xd53276db).endCell();

function deployment(options: { active?: boolean; initAborted?: boolean; routerAborted?: boolean }) {
  return buildTrace(USER, [
    {
      to: ROUTER,
      body: createPool(),
      aborted: options.routerAborted,
      then: options.routerAborted
        ? []
        : [
            {
              to: POOL,
              body: poolInit(options.active ?? true),
              deploys: true,
              aborted: options.initAborted,
              then: options.initAborted ? [] : [{ to: USER, body: excess() }],
            },
          ],
    },
  ]);
}

const details = {
  source: USER,
  pool: POOL,
  router: ROUTER,
  router_jetton_wallet_1: ROUTER_USDT,
  router_jetton_wallet_2: ROUTER_WTTON,
  jetton_minter_1: USDT,
  jetton_minter_2: WTTON,
  tick_spacing: '60',
  initial_price_x96: PRICE_ONE.toString(),
  protocol_fee: '1000',
  lp_fee_base: '3000',
  lp_fee_current: '2500',
  pool_active: true,
};

test('tonco_deploy_pool: the router creating the pool, its init and the excess; the calls are its parts', () => {
  const { trace, messages } = deployment({});
  const actions = classifyTrace(trace, NO_CONTRACTS).actions;
  const deploy = actions.find((a) => a.type === 'tonco_deploy_pool');
  assert.ok(deploy, actions.map((a) => a.type).join());
  assert.equal(deploy.success, true);
  assert.deepEqual(deploy.details, details);
  assert.equal(deploy.actionId, actionId(messages[0].hash, 'tonco_deploy_pool'));
  assert.equal(deploy.transactions.length, trace.transactions.length, 'the request, the router, the pool, the excess');
  for (const who of [USER, ROUTER, POOL]) assert.ok(deploy.accounts.includes(who), who);
  // A v2 type: its contract calls are actions too, marked with it, for clients that do not know it.
  const parts = actions.filter((a) => a.ancestors.includes('tonco_deploy_pool'));
  assert.deepEqual(
    parts.map((a) => a.type),
    ['call_contract', 'call_contract', 'call_contract'],
  );
  assert.ok(
    actions.every((a) => a === deploy || a.type === 'contract_deploy' || a.ancestors.length > 0),
    'nothing else',
  );
  againstSpec(deploy);
});

test('tonco_deploy_pool: a pool started inactive; one whose init failed is still a success (toncenter)', () => {
  const inactive = classifyTrace(deployment({ active: false }).trace, NO_CONTRACTS).actions.find((a) => a.type === 'tonco_deploy_pool');
  assert.deepEqual(inactive?.details, { ...details, pool_active: false });
  const failedInit = classifyTrace(deployment({ initAborted: true }).trace, NO_CONTRACTS).actions.find(
    (a) => a.type === 'tonco_deploy_pool',
  );
  assert.ok(failedInit);
  assert.equal(failedInit.success, true);
  assert.deepEqual(failedInit.details, details);
  againstSpec(failedInit);
});

test('tonco_deploy_pool: a creation the router refused (no init) is no deployment, a failed contract call', () => {
  const actions = classifyTrace(deployment({ routerAborted: true }).trace, NO_CONTRACTS).actions;
  assert.deepEqual(
    actions.map((a) => [a.type, a.success]),
    [['call_contract', false]],
  );
});
