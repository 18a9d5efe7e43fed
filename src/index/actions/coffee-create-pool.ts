/**
 * swap.coffee pool creation (ton-indexer's `CoffeeCreatePoolCreatorMatcher` and `CoffeeCreatePoolMatcher` in
 * `blocks/liquidity.py`, bodies of `messages/coffee.py`). A pool is created as a deposit is made, one asset at a time:
 *
 *   coffee_create_pool_creator  an asset reaches its vault (a jetton transfer whose payload is
 *                               create_pool_jetton#c0ffee11, or TON with create_pool_native#c0ffee02), the vault's
 *                               create_pool_creator_request#c0ffee23 and deploy#c0ffee22 of the pool creator
 *   coffee_create_pool          the side that completes it: its pool creator's create_pool_request#c0ffee25 (both
 *                               amounts, the other side's sender), deploy#c0ffee22 of the pool, which mints the LP
 *                               (internal_transfer), logs deposit_liquidity_successful_event#c0ffee33 and may notify
 *
 * Kept as toncenter decides it: never failed; a request the vault did not pass on (no deploy) is no action. The
 * pool's assets follow the pool's params: when the asset brought is the pool's second, the amounts and initiators
 * are swapped so each stays with its asset; ton-index-go answers a pool creator's `provided_asset` from a column
 * only the pool's creation fills (null), and its `asset_2` is the pool's first asset, as toncenter writes them.
 * An asset brought as an extra currency (create_pool_extra#c0ffee03) makes nothing, as there.
 */
import { Cell, type Slice } from '@ton/core';
import { findCallContract, folded, type Block, type CallContractBlock } from './blocks.js';
import { afterOpcode, OP, readAddress } from './bodies.js';
import { COFFEE_LIQUIDITY_OP, depositEvent } from './coffee-liquidity.js';
import { COFFEE_OP, coffeeAsset } from './coffee-swaps.js';
import type { JettonTransferData } from './jettons.js';
import { BlockTypeMatcher, ContractMatcher, OrMatcher, type Matcher } from './matcher.js';
import { str, type ActionParts } from './details-common.js';

export const COFFEE_CREATE_POOL_OP = {
  createPoolNative: 0xc0ffee02,
  createPoolExtra: 0xc0ffee03,
  createPoolJetton: 0xc0ffee11,
  creatorRequest: 0xc0ffee23,
  poolRequest: 0xc0ffee25,
  /** What a notification's receiver answers (toncenter takes it along). */
  notificationAnswer: 0xb216d31f,
} as const;

export const COFFEE_CREATE_POOL_CREATOR = 'coffee_create_pool_creator';

export interface CoffeePoolCreatorData {
  sender: string | null;
  senderWallet: string | null;
  amount: bigint;
  /** The asset brought (TON: null). */
  providedAsset: string | null;
  poolAssets: [string | null, string | null];
  poolCreator: string | null;
  depositRecipient: string | null;
}

export interface CoffeeCreatePoolData {
  creator: CoffeePoolCreatorData;
  initiators: [string | null, string | null];
  pool: string | null;
  assets: [string | null, string | null];
  amounts: [bigint, bigint];
  lpTokensMinted: bigint;
}

/**
 * pool_params first:Asset second:Asset amm:(## 3) amm_settings:(Maybe ^Cell), then pool_creation_params
 * recipient use_recipient_on_failure:int1 notification_data:(Maybe ^Cell) is_active:uint1 extra_settings:(Maybe ^Cell):
 * the pool's assets and whom its LP goes to.
 */
function poolTerms(cs: Slice): { poolAssets: [string | null, string | null]; recipient: string | null } {
  const poolAssets: [string | null, string | null] = [coffeeAsset(cs), coffeeAsset(cs)];
  cs.loadUint(3);
  cs.loadMaybeRef();
  const recipient = readAddress(cs);
  cs.loadBit();
  cs.loadMaybeRef();
  cs.loadBit();
  cs.loadMaybeRef();
  return { poolAssets, recipient };
}

/** create_pool_native#c0ffee02 query_id amount:Coins params creation_params. */
function createPoolNative(body: Cell) {
  const cs = afterOpcode(body);
  cs.loadUintBig(64);
  const amount = cs.loadCoins();
  return { amount, ...poolTerms(cs) };
}

/** create_pool_jetton#c0ffee11 params creation_params (no query id), the jetton transfer's forward payload. */
function createPoolJetton(payload: string) {
  const cs = afterOpcode(Cell.fromBase64(payload));
  return poolTerms(cs);
}

/** create_pool_request#c0ffee25 query_id amount1:Coins amount2:Coins tx_initiator ...: both sides' amounts. */
function poolRequest(body: Cell) {
  const cs = afterOpcode(body);
  cs.loadUintBig(64);
  const amounts: [bigint, bigint] = [cs.loadCoins(), cs.loadCoins()];
  return { amounts, initiator: readAddress(cs) };
}

class CoffeePoolCreatorMatcher extends ContractMatcher {
  constructor() {
    super(COFFEE_CREATE_POOL_OP.creatorRequest, {
      parent: new OrMatcher([
        new BlockTypeMatcher('jetton_transfer'),
        new ContractMatcher(COFFEE_CREATE_POOL_OP.createPoolNative),
        new ContractMatcher(COFFEE_CREATE_POOL_OP.createPoolExtra),
      ]),
      child: new ContractMatcher(COFFEE_LIQUIDITY_OP.deploy),
    });
  }

  override build(block: CallContractBlock, others: Block[]): Block[] {
    const inTransfer = block.previousBlock;
    if (!inTransfer || !others.includes(inTransfer)) return [];
    let sender: string | null;
    let senderWallet: string | null = null;
    let amount: bigint;
    let providedAsset: string | null = null;
    let terms: ReturnType<typeof poolTerms>;
    if (inTransfer.type === 'jetton_transfer') {
      const t = inTransfer.data as JettonTransferData;
      if (t.forwardPayload === null) return [];
      [sender, senderWallet, amount, providedAsset] = [t.sender, t.senderWallet, t.amount, t.asset];
      terms = createPoolJetton(t.forwardPayload);
    } else {
      const native = inTransfer as CallContractBlock;
      // An extra currency's side: toncenter builds nothing.
      if (native.opcode !== COFFEE_CREATE_POOL_OP.createPoolNative) return [];
      const asked = createPoolNative(native.message.body());
      [sender, amount, terms] = [native.message.source, asked.amount, asked];
    }
    const deploy = findCallContract(others, COFFEE_LIQUIDITY_OP.deploy);
    if (!deploy) return [];
    const data: CoffeePoolCreatorData = {
      sender,
      senderWallet,
      amount,
      providedAsset,
      poolAssets: terms.poolAssets,
      poolCreator: deploy.message.destination,
      depositRecipient: terms.recipient,
    };
    return folded(COFFEE_CREATE_POOL_CREATOR, data, [block, ...others], false);
  }
}

class CoffeeCreatePoolMatcher extends BlockTypeMatcher {
  constructor() {
    const lpTransfer = new ContractMatcher(OP.jettonInternalTransfer, { child: new ContractMatcher(OP.excess, { optional: true }) });
    const notification = new ContractMatcher(COFFEE_OP.notification, {
      optional: true,
      child: new ContractMatcher(COFFEE_CREATE_POOL_OP.notificationAnswer, { optional: true }),
    });
    const poolDeploy = new ContractMatcher(COFFEE_LIQUIDITY_OP.deploy, {
      children: [lpTransfer, new ContractMatcher(COFFEE_LIQUIDITY_OP.depositEvent), notification],
    });
    super(COFFEE_CREATE_POOL_CREATOR, { child: new ContractMatcher(COFFEE_CREATE_POOL_OP.poolRequest, { child: poolDeploy }) });
  }

  override build(block: Block, others: Block[]): Block[] {
    const creator = block.data as CoffeePoolCreatorData;
    const request = findCallContract(others, COFFEE_CREATE_POOL_OP.poolRequest);
    const deploy = findCallContract(others, COFFEE_LIQUIDITY_OP.deploy);
    const event = findCallContract(others, COFFEE_LIQUIDITY_OP.depositEvent);
    if (!request || !deploy || !event) return [];
    const asked = poolRequest(request.message.body());
    let amounts = asked.amounts;
    let initiators: [string | null, string | null] = [creator.sender, asked.initiator];
    let assets: [string | null, string | null];
    const [first, second] = creator.poolAssets;
    if (creator.providedAsset === first) assets = [creator.providedAsset, second];
    else if (creator.providedAsset === second) {
      assets = [creator.providedAsset, first];
      amounts = [amounts[1], amounts[0]];
      initiators = [initiators[1], initiators[0]];
    } else assets = [first, second];
    const data: CoffeeCreatePoolData = {
      creator,
      initiators,
      pool: deploy.message.destination,
      assets,
      amounts,
      lpTokensMinted: depositEvent(event.message.body()),
    };
    return folded('coffee_create_pool', data, [block, ...others], false);
  }
}

export const coffeePoolCreatorMatcher = (): Matcher => new CoffeePoolCreatorMatcher();
export const coffeeCreatePoolMatcher = (): Matcher => new CoffeeCreatePoolMatcher();

/**
 * A swap.coffee pool creator deployed (`_fill_coffee_create_pool_creator`, ton-index-go's
 * ActionDetailsCoffeeCreatePoolCreator): `asset_1` is the asset brought and `asset_2` the pool's first asset (the
 * columns toncenter fills); `provided_asset` is read from a column only the pool's creation fills: null.
 */
export function coffeePoolCreatorParts(d: CoffeePoolCreatorData): ActionParts {
  return {
    details: {
      source: d.sender,
      source_jetton_wallet: d.senderWallet,
      deposit_recipient: d.depositRecipient,
      pool_creator_contract: d.poolCreator,
      provided_asset: null,
      asset_1: d.providedAsset,
      asset_2: d.poolAssets[0],
      amount: str(d.amount),
    },
    ends: [d.sender, d.senderWallet, d.depositRecipient, d.poolCreator],
  };
}

/**
 * A swap.coffee pool created (`_fill_coffee_create_pool`, ton-index-go's ActionDetailsCoffeeCreatePool): the side
 * that completed it (source, its wallet, amount, the asset brought) and both sides in the pool's asset order.
 */
export function coffeeCreatePoolParts(d: CoffeeCreatePoolData): ActionParts {
  return {
    details: {
      source: d.creator.sender,
      source_jetton_wallet: d.creator.senderWallet,
      initiator_1: d.initiators[0],
      initiator_2: d.initiators[1],
      pool: d.pool,
      pool_creator_contract: d.creator.poolCreator,
      provided_asset: d.creator.providedAsset,
      amount: str(d.creator.amount),
      asset_1: d.assets[0],
      asset_2: d.assets[1],
      amount_1: str(d.amounts[0]),
      amount_2: str(d.amounts[1]),
      lp_tokens_minted: str(d.lpTokensMinted),
    },
    ends: [d.creator.sender, d.creator.senderWallet, d.pool, d.creator.poolCreator],
  };
}
