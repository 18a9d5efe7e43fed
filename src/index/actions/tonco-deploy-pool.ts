/**
 * TONCO pool deployment (ton-indexer's `ToncoDeployPoolBlockMatcher` in `blocks/liquidity.py`, its bodies in
 * `messages/liquidity.py`), one `tonco_deploy_pool`:
 *
 *   ROUTERV3_CREATE_POOL#2e3034ef to the router (the router's wallets of the pool's two jettons, the pool's terms,
 *   the jettons' minters), the router's POOLV3_INIT#441c39ed to the pool it deploys, and the pool's excess after it
 *   when there is one.
 *
 * Kept as toncenter decides it: the terms (tick spacing, initial price, fees) are the ones the request asked for,
 * `pool_active` the one the router's init set; an action is built only when the init was sent, and then it is a
 * success whatever the pool did with it (toncenter writes `success` true once the init is found). A request the
 * router did not pass on stays a contract call.
 */
import type { Cell } from '@ton/core';
import { findCallContract, folded, isCallContract, type Block, type CallContractBlock } from './blocks.js';
import { afterOpcode, OP, readAddress } from './bodies.js';
import { ContractMatcher, type Matcher } from './matcher.js';
import { type ActionParts } from './details-common.js';

export const TONCO_DEPLOY_POOL_OP = { createPool: 0x2e3034ef, poolInit: 0x441c39ed } as const;

export interface ToncoDeployPoolData {
  deployer: string | null;
  router: string | null;
  pool: string | null;
  routerWallets: [string | null, string | null];
  minters: [string | null, string | null];
  tickSpacing: number;
  initialPriceX96: bigint;
  protocolFee: number;
  lpFeeBase: number;
  lpFeeCurrent: number;
  poolActive: boolean;
}

/**
 * ROUTERV3_CREATE_POOL#2e3034ef query_id:uint64 jetton_wallet0 jetton_wallet1 tick_spacing:int24
 * initial_price_x96:uint160 protocol_fee:uint16 lp_fee_base:uint16 lp_fee_current:uint16 nftv3_content:^Cell
 * nftv3item_content:^Cell minter_cell:^[jetton0_minter jetton1_minter controller_addr]
 */
function createPool(body: Cell) {
  const cs = afterOpcode(body);
  cs.loadUintBig(64);
  const routerWallets: [string | null, string | null] = [readAddress(cs), readAddress(cs)];
  const tickSpacing = cs.loadInt(24);
  const initialPriceX96 = cs.loadUintBig(160);
  const [protocolFee, lpFeeBase, lpFeeCurrent] = [cs.loadUint(16), cs.loadUint(16), cs.loadUint(16)];
  cs.loadRef(); // the position NFT collection's content
  cs.loadRef(); // the position NFT items' content
  const minter = cs.loadRef().beginParse();
  const minters: [string | null, string | null] = [readAddress(minter), readAddress(minter)];
  return { routerWallets, tickSpacing, initialPriceX96, protocolFee, lpFeeBase, lpFeeCurrent, minters };
}

/**
 * POOLV3_INIT#441c39ed query_id:uint64 from_admin:Bool has_admin:Bool admin_addr has_controller:Bool
 * controller_addr set_spacing:Bool tick_spacing:int24 set_price:Bool initial_price_x96:uint160 set_active:Bool
 * pool_active:Bool ...: whether the pool starts active.
 */
function poolActive(body: Cell): boolean {
  const cs = afterOpcode(body);
  cs.loadUintBig(64);
  cs.loadBit(); // from_admin
  cs.loadBit(); // has_admin
  readAddress(cs);
  cs.loadBit(); // has_controller
  readAddress(cs);
  cs.loadBit(); // set_spacing
  cs.loadInt(24);
  cs.loadBit(); // set_price
  cs.loadUintBig(160);
  cs.loadBit(); // set_active
  return cs.loadBit();
}

class ToncoDeployPoolMatcher extends ContractMatcher {
  constructor() {
    const excess = new ContractMatcher(OP.excess, { optional: true });
    super(TONCO_DEPLOY_POOL_OP.createPool, { child: new ContractMatcher(TONCO_DEPLOY_POOL_OP.poolInit, { child: excess }) });
  }

  override build(block: CallContractBlock, others: Block[]): Block[] {
    const init = findCallContract(others, TONCO_DEPLOY_POOL_OP.poolInit);
    if (!init) throw new Error('a pool creation without its init');
    const asked = createPool(block.message.body());
    const data: ToncoDeployPoolData = {
      deployer: block.message.source,
      router: block.message.destination,
      pool: init.message.destination,
      routerWallets: asked.routerWallets,
      minters: asked.minters,
      tickSpacing: asked.tickSpacing,
      initialPriceX96: asked.initialPriceX96,
      protocolFee: asked.protocolFee,
      lpFeeBase: asked.lpFeeBase,
      lpFeeCurrent: asked.lpFeeCurrent,
      poolActive: poolActive(init.message.body()),
    };
    // toncenter folds the request, the init and the pool's excess after it, nothing more.
    const excess = init.nextBlocks.find((b) => others.includes(b) && isCallContract(b, OP.excess));
    return folded('tonco_deploy_pool', data, excess ? [block, init, excess] : [block, init], false);
  }
}

export const toncoDeployPoolMatcher = (): Matcher => new ToncoDeployPoolMatcher();

/**
 * A TONCO pool deployed (`_fill_tonco_deploy_pool`, ton-index-go's ActionDetailsToncoDeployPool): the router is the
 * destination and the pool the secondary one; the pool's terms as decimal strings, `pool_active` a boolean.
 */
export function toncoDeployPoolParts(d: ToncoDeployPoolData): ActionParts {
  return {
    details: {
      source: d.deployer,
      pool: d.pool,
      router: d.router,
      router_jetton_wallet_1: d.routerWallets[0],
      router_jetton_wallet_2: d.routerWallets[1],
      jetton_minter_1: d.minters[0],
      jetton_minter_2: d.minters[1],
      tick_spacing: String(d.tickSpacing),
      initial_price_x96: d.initialPriceX96.toString(),
      protocol_fee: String(d.protocolFee),
      lp_fee_base: String(d.lpFeeBase),
      lp_fee_current: String(d.lpFeeCurrent),
      pool_active: d.poolActive,
    },
    ends: [d.deployer, null, d.router, d.pool],
  };
}
