/**
 * DeDust liquidity (ton-indexer's `DedustDepositBlockMatcher`, `DedustDepositFirstAssetBlockMatcher`,
 * `DedustWithdrawBlockMatcher` and `post_process_dedust_liquidity` in `blocks/liquidity.py`, bodies of
 * `messages/liquidity.py`). A deposit brings two assets to a liquidity deposit contract, one at a time, each the
 * same way:
 *
 *   the asset reaches its vault: TON into the native vault with deposit_liquidity#d55e4686, or a jetton transfer
 *   into a jetton vault whose forward payload is deposit_liquidity#40e108d6; the vault asks the factory
 *   (#f04ec526), which deploys the deposit contract (#9b3aa3fa) and tops it up (#54240fe5).
 *
 * The side that completes the deposit makes the contract send deposit_liquidity#b56b9598 to the pool, which mints
 * LP jettons to the owner (internal_transfer#178d4519) or rejects it (#e1a36cd4: failed); what is left goes back
 * through the vaults (#6b0b787f, then a TON payout#474f86cf or a jetton transfer: `vault_excesses`), the contract
 * being destroyed (#aae79256). That side is `dedust_deposit_liquidity`; a side that only topped the contract up is
 * `dedust_deposit_liquidity_partial`. Both are answered as `dex_deposit_liquidity` (their block types name the
 * action id, as toncenter's serializer does), and when both sides of one contract are in one trace they become one
 * action (`joinDedustDeposits`, toncenter's post-processing).
 *
 *   dex_withdraw_liquidity  an LP burn#595f07bc whose burn_notification#7bdd97de made the pool send two
 *                           payout_from_pool#ad4eb6f5 to the vaults, each paying TON or a jetton transfer
 *
 * toncenter's liquidity matchers do not ask which pools it knows (only its swap matcher does): neither do these.
 * The jetton wallets must be the index's (the vault's wallet of a jetton side, the owner's LP wallet of a burn).
 */
import type { Cell, Slice } from '@ton/core';
import { folded, isCallContract, type Block, type CallContractBlock } from './blocks.js';
import { afterOpcode, jettonBurnAmount, jettonInternalTransfer, OP, readAddress } from './bodies.js';
import { payoutAmount, readAsset } from './dedust-swaps.js';
import { jettonTransferMatcher, type JettonTransferData } from './jettons.js';
import type { WithdrawLiquidityData } from './liquidity.js';
import { BlockTypeMatcher, ContractMatcher, Matcher, OrMatcher } from './matcher.js';
import type { KnownContracts } from './trace-input.js';
import { str, assetAmounts, type ActionParts } from './details-common.js';

export const DEDUST_LIQUIDITY_OP = {
  /** TON into the native vault. */
  depositTon: 0xd55e4686,
  /** The jetton transfer's forward payload into a jetton vault. */
  depositPayload: 0x40e108d6,
  askFactory: 0xf04ec526,
  deployDeposit: 0x9b3aa3fa,
  topUp: 0x54240fe5,
  depositToPool: 0xb56b9598,
  rejected: 0xe1a36cd4,
  destroy: 0xaae79256,
  returnExcess: 0x6b0b787f,
  payoutFromPool: 0xad4eb6f5,
  payout: 0x474f86cf,
} as const;

/** The block types of the two deposit matchers (the action's type is `dex_deposit_liquidity`). */
export const DEDUST_DEPOSIT = 'dedust_deposit_liquidity';
export const DEDUST_DEPOSIT_PARTIAL = 'dedust_deposit_liquidity_partial';

/** One asset brought to the deposit contract: TON is null, `userWallet` the owner's jetton wallet when known. */
export interface DepositSide {
  asset: string | null;
  amount: bigint;
  userWallet: string | null;
}

export interface DedustDepositData {
  sender: string | null;
  /** The pool (null on a side that only topped the contract up). */
  pool: string | null;
  depositContract: string | null;
  /** The assets brought, one or (joined) two. */
  sides: DepositSide[];
  lpTokensMinted: bigint | null;
  /** What the deposit aims at: the pool's two assets and their amounts. */
  targets: [{ asset: string | null; amount: bigint }, { asset: string | null; amount: bigint }];
  /** What the vaults gave back to the owner. */
  vaultExcesses: { asset: string | null; amount: bigint }[];
}

/** PoolParams: pool type bit, asset0, asset1. */
function poolAssets(cs: Slice): [string | null, string | null] {
  cs.loadBit();
  return [readAsset(cs), readAsset(cs)];
}

/** deposit_liquidity#d55e4686 query_id amount:Coins pool_params ^[min_lp target0 target1] ... (TON into the vault). */
function tonDeposit(body: Cell) {
  const cs = afterOpcode(body);
  cs.loadUintBig(64);
  const amount = cs.loadCoins();
  const [asset0, asset1] = poolAssets(cs);
  const params = cs.loadRef().beginParse();
  params.loadCoins();
  return { amount, targets: targets(asset0, params.loadCoins(), asset1, params.loadCoins()) };
}

/** deposit_liquidity#40e108d6 pool_params min_lp:Coins target0:Coins target1:Coins ... (a jetton's forward payload). */
function jettonDepositPayload(cs: Slice) {
  if (cs.loadUint(32) >>> 0 !== DEDUST_LIQUIDITY_OP.depositPayload) throw new Error('not a DeDust deposit payload');
  const [asset0, asset1] = poolAssets(cs);
  cs.loadCoins();
  return targets(asset0, cs.loadCoins(), asset1, cs.loadCoins());
}

const targets = (asset0: string | null, amount0: bigint, asset1: string | null, amount1: bigint): DedustDepositData['targets'] => [
  { asset: asset0, amount: amount0 },
  { asset: asset1, amount: amount1 },
];

/** deposit_liquidity#b56b9598 query_id proof:^Cell owner:MsgAddress min_lp:Coins ^[asset0 amount0 asset1 amount1] ... */
function depositToPool(body: Cell) {
  const cs = afterOpcode(body);
  cs.loadUintBig(64);
  cs.loadRef();
  const owner = readAddress(cs);
  cs.loadCoins();
  const amounts = cs.loadRef().beginParse();
  const asset0 = readAsset(amounts);
  const amount0 = amounts.loadCoins();
  const asset1 = readAsset(amounts);
  return { owner, targets: targets(asset0, amount0, asset1, amounts.loadCoins()) };
}

/** transfer_notification query_id amount sender forward_payload: the amount, the sender and (in a ref) the payload. */
function notification(body: Cell) {
  const cs = afterOpcode(body);
  cs.loadUintBig(64);
  const amount = cs.loadCoins();
  const sender = readAddress(cs);
  // toncenter reads the payload's ref whatever the Either bit says: an inline payload does not match.
  return { amount, sender, payload: cs.loadRef().beginParse() };
}

/** An asset side's way into its vault: TON with deposit_liquidity, or a jetton transfer down to the vault's notification. */
const sideIntoVault = (): Matcher =>
  new OrMatcher([
    new ContractMatcher(DEDUST_LIQUIDITY_OP.depositTon),
    new ContractMatcher(OP.jettonNotify, {
      parent: new ContractMatcher(OP.jettonInternalTransfer, { parent: new ContractMatcher(OP.jettonTransfer) }),
    }),
  ]);

/** The asset a vault received: TON, or the jetton of the vault's wallet that notified it (which must be known). */
function sideAsset(vaultCall: CallContractBlock, contracts: KnownContracts): { asset: string | null; amount: bigint } {
  if (vaultCall.opcode === DEDUST_LIQUIDITY_OP.depositTon) return { asset: null, amount: tonDeposit(vaultCall.message.body()).amount };
  const wallet = vaultCall.message.source === null ? undefined : contracts.jettonWallets.get(vaultCall.message.source);
  if (!wallet) throw new Error("a deposit through a vault's jetton wallet the index does not know");
  const cs = afterOpcode(vaultCall.message.body());
  cs.loadUintBig(64);
  return { asset: wallet.jetton, amount: cs.loadCoins() };
}

/** What goes back to the owner through the vaults (and the contract's own TON), after a deposit or its rejection. */
const excesses = (contracts: KnownContracts): Matcher[] => {
  const returned = () =>
    new ContractMatcher(DEDUST_LIQUIDITY_OP.returnExcess, {
      optional: true,
      children: [
        new OrMatcher([jettonTransferMatcher(contracts)], { optional: true }),
        new ContractMatcher(DEDUST_LIQUIDITY_OP.payout, { optional: true }),
      ],
    });
  return [new BlockTypeMatcher('ton_transfer', { optional: true }), returned(), returned()];
};

class DedustDepositMatcher extends ContractMatcher {
  constructor(private readonly contracts: KnownContracts) {
    super(DEDUST_LIQUIDITY_OP.depositToPool, {
      parent: new ContractMatcher(DEDUST_LIQUIDITY_OP.topUp, {
        parent: new ContractMatcher(DEDUST_LIQUIDITY_OP.askFactory, {
          parent: sideIntoVault(),
          child: new ContractMatcher(DEDUST_LIQUIDITY_OP.deployDeposit, { optional: true }),
        }),
      }),
      children: [
        new OrMatcher([
          new ContractMatcher(OP.jettonInternalTransfer, { child: new ContractMatcher(OP.jettonNotify, { optional: true }) }),
          new ContractMatcher(DEDUST_LIQUIDITY_OP.rejected, { children: excesses(contracts) }),
        ]),
        new ContractMatcher(DEDUST_LIQUIDITY_OP.destroy, { optional: true, children: excesses(contracts) }),
      ],
    });
  }

  override build(block: CallContractBlock, others: Block[]): Block[] {
    const request = depositToPool(block.message.body());
    const sender = request.owner;
    // The LP mint is the pool's own internal transfer (the jetton side's transfer has one too).
    const mint = block.nextBlocks.find((b): b is CallContractBlock => others.includes(b) && isCallContract(b, OP.jettonInternalTransfer));
    const rejection = others.find((b): b is CallContractBlock => isCallContract(b, DEDUST_LIQUIDITY_OP.rejected));
    if (!mint && !rejection) throw new Error('a DeDust deposit without its LP mint or rejection');
    const pool = mint ? block.message.destination : rejection!.message.source;

    const vaultCall = block.previousBlock?.previousBlock?.previousBlock ?? null;
    if (!isCallContract(vaultCall)) throw new Error('a DeDust deposit without the vault it came through');
    const { asset, amount } = sideAsset(vaultCall, this.contracts);
    // The owner's jetton wallet: a transfer they sent from a wallet of the deposited jetton.
    let userWallet: string | null = null;
    for (const b of others) {
      if (!isCallContract(b, OP.jettonTransfer) || b.message.source !== sender || b.message.destination === null) continue;
      const wallet = this.contracts.jettonWallets.get(b.message.destination);
      if (wallet && wallet.jetton === asset) userWallet = b.message.destination;
    }

    const vaultExcesses: DedustDepositData['vaultExcesses'] = [];
    for (const b of others)
      if (isCallContract(b, DEDUST_LIQUIDITY_OP.payout) && b.message.destination === sender)
        vaultExcesses.push({ asset: null, amount: b.message.value ?? 0n });
    for (const b of others) {
      if (b.type !== 'jetton_transfer') continue;
      const t = b.data as JettonTransferData;
      if (t.receiver === sender) vaultExcesses.push({ asset: t.asset, amount: t.amount });
    }

    const lpTokensMinted = mint ? jettonInternalTransfer(mint.message.body()).amount : null;
    const data: DedustDepositData = {
      sender,
      pool,
      depositContract: block.message.source,
      sides: [{ asset, amount, userWallet }],
      lpTokensMinted,
      targets: request.targets,
      vaultExcesses,
    };
    return folded(DEDUST_DEPOSIT, data, [block, ...others], lpTokensMinted === null);
  }
}

class DedustDepositFirstSideMatcher extends ContractMatcher {
  constructor(private readonly contracts: KnownContracts) {
    super(DEDUST_LIQUIDITY_OP.topUp, {
      parent: new ContractMatcher(DEDUST_LIQUIDITY_OP.askFactory, {
        parent: sideIntoVault(),
        child: new ContractMatcher(DEDUST_LIQUIDITY_OP.deployDeposit),
      }),
    });
  }

  override build(block: CallContractBlock, others: Block[]): Block[] {
    // A top-up that reached the pool is the other matcher's (one it did not build stays contract calls).
    if (
      block.nextBlocks.some((b) => isCallContract(b, DEDUST_LIQUIDITY_OP.depositToPool) || isCallContract(b, DEDUST_LIQUIDITY_OP.rejected))
    )
      throw new Error('a top-up that reached the pool');
    const vaultCall = block.previousBlock?.previousBlock ?? null;
    if (!isCallContract(vaultCall)) throw new Error('a DeDust deposit without the vault it came through');
    let sender: string | null;
    let userWallet: string | null = null;
    let aimed: DedustDepositData['targets'];
    if (vaultCall.opcode === DEDUST_LIQUIDITY_OP.depositTon) {
      sender = vaultCall.message.source;
      aimed = tonDeposit(vaultCall.message.body()).targets;
    } else {
      const notified = notification(vaultCall.message.body());
      sender = notified.sender;
      aimed = jettonDepositPayload(notified.payload);
      // The wallet that sent the internal transfer to the vault's wallet.
      userWallet = isCallContract(vaultCall.previousBlock) ? vaultCall.previousBlock.message.source : null;
    }
    const { asset, amount } = sideAsset(vaultCall, this.contracts);
    const data: DedustDepositData = {
      sender,
      pool: null,
      depositContract: block.message.destination,
      sides: [{ asset, amount, userWallet }],
      lpTokensMinted: null,
      targets: aimed,
      vaultExcesses: [],
    };
    return folded(DEDUST_DEPOSIT_PARTIAL, data, [block, ...others], false);
  }
}

const sameAsset = (a: string | null, b: string | null): boolean => a === b;
const sameSet = (a: (string | null)[], b: (string | null)[]): boolean =>
  a.every((x) => b.some((y) => sameAsset(x, y))) && b.every((x) => a.some((y) => sameAsset(x, y)));

/**
 * The two sides of one deposit as one (toncenter's `combine_deposits`): each asset with its amount and wallet, the
 * first side's first. Kept as toncenter writes it: the target assets follow that order, their amounts stay the
 * completing side's (so a target amount can sit beside the other asset). Throws where toncenter does.
 */
function joined(first: DedustDepositData, last: DedustDepositData): DedustDepositData {
  const firstTargets = first.targets.map((t) => t.asset);
  if (
    !sameSet(
      firstTargets,
      last.targets.map((t) => t.asset),
    )
  )
    throw new Error("the deposit's sides aim at different assets");
  const sides: DepositSide[] = first.sides.map((s) => ({ ...s }));
  for (const side of last.sides) {
    const existing = sides.find((s) => sameAsset(s.asset, side.asset));
    if (!existing) sides.push({ ...side });
    else if (existing.userWallet !== side.userWallet) throw new Error('a deposit of one asset from two wallets');
    else existing.amount += side.amount;
  }
  const assets = sides.map((s) => s.asset);
  if (new Set(assets).size !== 2 || !sameSet(assets, firstTargets)) throw new Error("a deposit's sides are not the pool's two assets");
  return {
    ...last,
    sides,
    targets: [
      { asset: sides[0].asset, amount: last.targets[0].amount },
      { asset: sides[1].asset, amount: last.targets[1].amount },
    ],
  };
}

/**
 * toncenter's post-processing of a trace's blocks: a first side whose deposit contract's completing side is in the
 * same trace is joined into it (its events, transactions and children) and leaves the list. Nothing is joined
 * when some contract has more than two sides here.
 */
export function joinDedustDeposits(blocks: Block[]): Block[] {
  const partials = blocks.filter((b) => b.type === DEDUST_DEPOSIT_PARTIAL);
  const finals = blocks.filter((b) => b.type === DEDUST_DEPOSIT);
  const uses = new Map<string | null, number>();
  for (const b of [...partials, ...finals]) {
    const contract = (b.data as DedustDepositData).depositContract;
    uses.set(contract, (uses.get(contract) ?? 0) + 1);
  }
  if ([...uses.values()].some((n) => n > 2)) return blocks;
  let out = blocks;
  for (const first of partials) {
    const firstData = first.data as DedustDepositData;
    const last = finals.find((b) => (b.data as DedustDepositData).depositContract === firstData.depositContract);
    if (!last) continue;
    last.data = joined(firstData, last.data as DedustDepositData);
    out = out.filter((b) => b !== first);
    absorbSide(last, first);
  }
  return out;
}

/**
 * A deposit's other side taken into the completing one (toncenter's post-processing, DeDust v1's and v2's): its
 * events, the transaction that sent it when another did, its children.
 */
export function absorbSide(last: Block, first: Block): void {
  for (const node of first.eventNodes) if (!last.eventNodes.includes(node)) last.eventNodes.push(node);
  const initiating = first.initiatingEventNode;
  if (initiating && initiating !== last.initiatingEventNode && !last.eventNodes.includes(initiating)) last.eventNodes.push(initiating);
  for (const child of first.childrenBlocks) if (!last.childrenBlocks.includes(child)) last.childrenBlocks.push(child);
  last.recalculateBounds();
}

/** One of the pool's two payouts: payout_from_pool to a vault, which pays TON or sends a jetton transfer. */
const poolPayout = (): Matcher =>
  new ContractMatcher(DEDUST_LIQUIDITY_OP.payoutFromPool, {
    child: new OrMatcher([new ContractMatcher(DEDUST_LIQUIDITY_OP.payout), new BlockTypeMatcher('jetton_transfer')]),
  });

class DedustWithdrawMatcher extends ContractMatcher {
  constructor(private readonly contracts: KnownContracts) {
    super(OP.jettonBurn, { child: new ContractMatcher(OP.jettonBurnNotification, { children: [poolPayout(), poolPayout()] }) });
  }

  override build(block: CallContractBlock, others: Block[]): Block[] {
    const senderWallet = block.message.destination;
    const notified = block.nextBlocks[0];
    if (!isCallContract(notified)) throw new Error('a burn without its notification');
    const lpWallet = senderWallet === null ? undefined : this.contracts.jettonWallets.get(senderWallet);
    // toncenter builds nothing for an LP wallet it does not know (the burn stays as later matchers see it).
    if (!lpWallet) return [];
    const outs: WithdrawLiquidityData['outs'] = [];
    for (const request of notified.nextBlocks) {
      if (!others.includes(request) || !isCallContract(request, DEDUST_LIQUIDITY_OP.payoutFromPool)) continue;
      const paid = request.nextBlocks.find(
        (b) => others.includes(b) && (isCallContract(b, DEDUST_LIQUIDITY_OP.payout) || b.type === 'jetton_transfer'),
      );
      if (!paid) continue;
      const amount = payoutAmount(request.message.body());
      if (paid.type === 'jetton_transfer') {
        const t = paid.data as JettonTransferData;
        outs.push({ amount, asset: t.asset, userWallet: t.receiverWallet });
      } else {
        outs.push({ amount, asset: null, userWallet: null });
      }
    }
    const data: WithdrawLiquidityData = {
      dex: 'dedust',
      sender: block.message.source,
      senderWallet,
      pool: notified.message.destination,
      lpAsset: lpWallet.jetton,
      lpTokensBurnt: jettonBurnAmount(block.message.body()),
      outs,
    };
    // toncenter leaves a withdrawal's `failed` at its default.
    return folded('dex_withdraw_liquidity', data, [block, ...others], false);
  }
}

export const dedustDepositMatcher = (contracts: KnownContracts): Matcher => new DedustDepositMatcher(contracts);
export const dedustDepositFirstSideMatcher = (contracts: KnownContracts): Matcher => new DedustDepositFirstSideMatcher(contracts);
export const dedustWithdrawMatcher = (contracts: KnownContracts): Matcher => new DedustWithdrawMatcher(contracts);

/**
 * A DeDust deposit (`_fill_dedust_deposit_liquidity_action` and its partial twin): the deposit contract is the
 * secondary destination, which ton-index-go answers as `destination_liquidity` for DeDust; a side that only topped
 * the contract up has no pool and no LP tokens.
 */
export function dedustDepositParts(d: DedustDepositData): ActionParts {
  const [first, second] = d.sides;
  return {
    type: 'dex_deposit_liquidity',
    details: {
      dex: 'dedust',
      amount_1: str(first?.amount),
      amount_2: str(second?.amount),
      asset_1: first?.asset ?? null,
      asset_2: second?.asset ?? null,
      user_jetton_wallet_1: first?.userWallet ?? null,
      user_jetton_wallet_2: second?.userWallet ?? null,
      source: d.sender,
      pool: d.pool,
      destination_liquidity: d.depositContract,
      lp_tokens_minted: str(d.lpTokensMinted),
      target_asset_1: d.targets[0].asset,
      target_asset_2: d.targets[1].asset,
      target_amount_1: str(d.targets[0].amount),
      target_amount_2: str(d.targets[1].amount),
      vault_excesses: assetAmounts(d.vaultExcesses),
      tick_lower: null,
      tick_upper: null,
      nft_index: null,
      nft_address: null,
    },
    ends: [d.sender, null, d.pool, d.depositContract],
  };
}
