/**
 * DeDust v2 (CPMM v2) liquidity (ton-indexer v1.3's `blocks/dedust_v2/liquidity.py`, bodies of
 * `messages/dedust_v2.py`), recognised by opcodes alone as toncenter does. A v2 position is no LP jetton: the share
 * sits in the user's Position contract.
 *
 *   dex_withdraw_liquidity  withdraw#20b5ef89 to the pool, its withdraw_liquidity#bc1531a9 to the position, the
 *                           position's exit_liquidity#f6f6a3aa back to the pool, whose withdrawal log#c0d77b54 gives
 *                           the liquidity burnt and whose payouts (a jetton transfer, or payout#3216ca09 of TON) the
 *                           amounts; failed without the log (the pool refused, say on slippage: the liquidity asked
 *                           for is then the one burnt). A withdrawal that also claims fees (auto_claim_fees) is none:
 *                           its payouts mix the two, toncenter leaves it.
 *
 *   dex_deposit_liquidity   each asset brought to the pool (pay_native#a5a7cbf8 with TON, or a jetton transfer
 *                           whose forward payload is pay_jetton#cbc33949, either paying with deposit#c9a015da: the
 *                           amounts asked for) is credited to the user's deposit contract (credit_asset#dc5ddba1, x
 *                           or y); once both are in, the contract's join_liquidity#25251ee0 to the pool, which logs
 *                           deposit#35df2e12 (the amounts taken, the liquidity), credits the position
 *                           (credit_liquidity#855afcbd) and pays back what it did not take (`vault_excesses`). That
 *                           side is block type `dedust_v2_deposit_liquidity`; without the log the pool refused it
 *                           and paid everything back: the same type, failed, with the amounts join_liquidity named.
 *                           A side only credited is `dedust_v2_deposit_liquidity_partial`. Both are answered as
 *                           `dex_deposit_liquidity`, and both sides of one deposit contract in one trace are joined
 *                           (`joinDedustV2Deposits`, toncenter's post-processing).
 *
 * Kept as toncenter decides it: a withdrawal's payouts in lt order fill the first slot, then the second; no LP
 * wallet nor LP asset; `is_refund` null (ton-index-go never fills it); no excess taken along (the pool's stays a
 * contract call). A deposit's side fills the pool's x slot (`_1`) or y slot (`_2`) as credit_asset says; the
 * other slot's asset stays null (as TON) until its side is joined; the target amounts are the completing side's
 * payload; every payback must go to the user named by join_liquidity, and a refused deposit needs one.
 */
import { Cell } from '@ton/core';
import { folded, isCallContract, type Block, type CallContractBlock } from './blocks.js';
import { OP, afterOpcode, readAddress } from './bodies.js';
import { absorbSide } from './dedust-liquidity.js';
import { payoutLeg, payoutsAfter, readPayout } from './dedust-v2-claims.js';
import type { JettonTransferData } from './jettons.js';
import type { WithdrawLiquidityData } from './liquidity.js';
import { BlockTypeMatcher, ContractMatcher, OrMatcher, type Matcher } from './matcher.js';
import { str, assetAmounts, type ActionParts } from './details-common.js';

export const DEDUST_V2_LIQUIDITY_OP = {
  withdraw: 0x20b5ef89,
  withdrawLiquidity: 0xbc1531a9,
  exitLiquidity: 0xf6f6a3aa,
  withdrawalLog: 0xc0d77b54,
  payNative: 0xa5a7cbf8,
  payJetton: 0xcbc33949,
  depositPayload: 0xc9a015da,
  creditAsset: 0xdc5ddba1,
  joinLiquidity: 0x25251ee0,
  depositLog: 0x35df2e12,
  creditLiquidity: 0x855afcbd,
  payout: 0x3216ca09,
} as const;

/** The block types of a deposit (hashed into the action id; the action's type is `dex_deposit_liquidity`). */
export const DEDUST_V2_DEPOSIT = 'dedust_v2_deposit_liquidity';
export const DEDUST_V2_DEPOSIT_PARTIAL = 'dedust_v2_deposit_liquidity_partial';

/** An asset brought to one of the pool's slots: TON is null; the user's jetton wallet it came from. */
export interface DedustV2DepositSide {
  asset: string | null;
  userWallet: string | null;
}

export interface DedustV2DepositData {
  sender: string | null;
  pool: string | null;
  depositContract: string | null;
  /** The pool's x and y slots: the side brought there, null when it is not in this trace. */
  sides: [DedustV2DepositSide | null, DedustV2DepositSide | null];
  amounts: [bigint | null, bigint | null];
  /** The amounts asked for (the completing side's deposit payload); null on a partial or a payload that did not parse. */
  targets: [bigint, bigint] | null;
  lpTokensMinted: bigint | null;
  vaultExcesses: { asset: string | null; amount: bigint }[];
}

const NO_EXCESS = { includeExcess: false } as const;

/** withdraw#20b5ef89 query_id liquidity:Coins minimal_x_out:Coins minimal_y_out:Coins auto_claim_fees:Bool ^payout_config. */
function withdrawRequest(body: Cell): { liquidity: bigint; autoClaimFees: boolean } {
  const cs = afterOpcode(body);
  cs.loadUintBig(64);
  const liquidity = cs.loadCoins();
  cs.loadCoins();
  cs.loadCoins();
  const autoClaimFees = cs.loadBit();
  cs.loadRef();
  return { liquidity, autoClaimFees };
}

/** withdrawal#c0d77b54 liquidity:Coins amount_x_out:Coins amount_y_out:Coins initiator recipient ^next_state (no query id). */
function withdrawalLog(body: Cell): bigint {
  const cs = afterOpcode(body);
  const liquidity = cs.loadCoins();
  cs.loadCoins();
  cs.loadCoins();
  readAddress(cs);
  readAddress(cs);
  cs.loadRef();
  return liquidity;
}

const inOthers = (block: Block, others: Block[]): Block[] => block.nextBlocks.filter((b) => others.includes(b));

class DedustV2WithdrawMatcher extends ContractMatcher {
  constructor() {
    const exit = new ContractMatcher(DEDUST_V2_LIQUIDITY_OP.exitLiquidity, {
      ...NO_EXCESS,
      children: [new ContractMatcher(DEDUST_V2_LIQUIDITY_OP.withdrawalLog, { ...NO_EXCESS, optional: true }), payoutLeg(), payoutLeg()],
    });
    const toPosition = new ContractMatcher(DEDUST_V2_LIQUIDITY_OP.withdrawLiquidity, { ...NO_EXCESS, child: exit });
    super(DEDUST_V2_LIQUIDITY_OP.withdraw, { ...NO_EXCESS, child: toPosition });
  }

  override build(block: CallContractBlock, others: Block[]): Block[] {
    let request: ReturnType<typeof withdrawRequest>;
    try {
      request = withdrawRequest(block.message.body());
    } catch {
      return [];
    }
    if (request.autoClaimFees) return [];
    const toPosition = inOthers(block, others).find((b): b is CallContractBlock =>
      isCallContract(b, DEDUST_V2_LIQUIDITY_OP.withdrawLiquidity),
    );
    const exit = toPosition && inOthers(toPosition, others).find((b) => isCallContract(b, DEDUST_V2_LIQUIDITY_OP.exitLiquidity));
    if (!exit) return [];
    const log = inOthers(exit, others).find((b): b is CallContractBlock => isCallContract(b, DEDUST_V2_LIQUIDITY_OP.withdrawalLog));
    // A TON payout that does not parse makes no withdrawal (toncenter bails).
    const outs = payoutsAfter(exit, others).map((leg) => {
      const paid = readPayout(leg);
      return { amount: paid.amount, asset: paid.payout.asset, userWallet: paid.payout.userWallet };
    });
    const data: WithdrawLiquidityData = {
      dex: 'dedust_v2',
      sender: block.message.source,
      senderWallet: null,
      pool: block.message.destination,
      lpAsset: null,
      lpTokensBurnt: log ? withdrawalLog(log.message.body()) : request.liquidity,
      outs: outs.slice(0, 2),
    };
    return folded('dex_withdraw_liquidity', data, [block, ...others], !log);
  }
}

/** credit_asset#dc5ddba1 query_id is_x:Bool amount:Coins: the pool's slot (0 for x) and the amount credited. */
function creditAsset(body: Cell): { slot: 0 | 1; amount: bigint } {
  const cs = afterOpcode(body);
  cs.loadUintBig(64);
  const slot = cs.loadBit() ? 0 : 1;
  return { slot, amount: cs.loadCoins() };
}

/** join_liquidity#25251ee0 query_id ^config amount_x:Coins amount_y:Coins initiator. */
function joinLiquidity(body: Cell): { amounts: [bigint, bigint]; initiator: string | null } {
  const cs = afterOpcode(body);
  cs.loadUintBig(64);
  cs.loadRef();
  const amounts: [bigint, bigint] = [cs.loadCoins(), cs.loadCoins()];
  return { amounts, initiator: readAddress(cs) };
}

/** deposit#35df2e12 amount_x_in:Coins amount_y_in:Coins liquidity:Coins initiator recipient ^next_state (the pool's log). */
function depositLog(body: Cell): { amounts: [bigint, bigint]; liquidity: bigint } {
  const cs = afterOpcode(body);
  const amounts: [bigint, bigint] = [cs.loadCoins(), cs.loadCoins()];
  const liquidity = cs.loadCoins();
  readAddress(cs);
  readAddress(cs);
  cs.loadRef();
  return { amounts, liquidity };
}

/** The payment a carrier makes: pay_native's first ref, or the first ref of a jetton transfer's pay_jetton payload. */
function payment(carrier: Block): Cell {
  if (carrier.type === 'jetton_transfer') {
    const forward = (carrier.data as JettonTransferData).forwardPayload;
    if (forward === null) throw new Error('a jetton transfer without a forward payload');
    const cs = Cell.fromBase64(forward).beginParse();
    if (cs.loadUint(32) >>> 0 !== DEDUST_V2_LIQUIDITY_OP.payJetton) throw new Error('not pay_jetton');
    const paid = cs.loadRef();
    cs.loadRef();
    return paid;
  }
  const cs = afterOpcode((carrier as CallContractBlock).message.body());
  cs.loadUintBig(64);
  cs.loadCoins();
  const paid = cs.loadRef();
  cs.loadRef();
  return paid;
}

/** deposit#c9a015da amount_x:Coins amount_y:Coins minimal_liquidity:Coins locked_liquidity_share:uint16: null when not one. */
function depositTargets(carrier: Block): [bigint, bigint] | null {
  try {
    const cs = payment(carrier).beginParse();
    if (cs.loadUint(32) >>> 0 !== DEDUST_V2_LIQUIDITY_OP.depositPayload) return null;
    const targets: [bigint, bigint] = [cs.loadCoins(), cs.loadCoins()];
    cs.loadCoins();
    cs.loadUint(16);
    return targets;
  } catch {
    return null;
  }
}

/** One side: its slot, what came (the jetton transfer's asset and wallets, or TON from pay_native's sender), how much was credited. */
function depositLeg(carrier: Block, credit: CallContractBlock) {
  const { slot, amount } = creditAsset(credit.message.body());
  if (carrier.type === 'jetton_transfer') {
    const t = carrier.data as JettonTransferData;
    return { slot, amount, side: { asset: t.asset, userWallet: t.senderWallet }, sender: t.sender };
  }
  return { slot, amount, side: { asset: null, userWallet: null }, sender: (carrier as CallContractBlock).message.source };
}

/** What the pool paid back after join_liquidity (jetton transfers by lt, then TON), or null when some went elsewhere. */
function paybacks(join: Block, others: Block[], initiator: string | null): DedustV2DepositData['vaultExcesses'] | null {
  const next = inOthers(join, others);
  const paid: DedustV2DepositData['vaultExcesses'] = [];
  const jettons = next.filter((b) => b.type === 'jetton_transfer').sort((a, b) => (a.minLt < b.minLt ? -1 : a.minLt > b.minLt ? 1 : 0));
  for (const b of jettons) {
    const t = b.data as JettonTransferData;
    if (t.receiver !== initiator) return null;
    paid.push({ asset: t.asset, amount: t.amount });
  }
  const ton = next.find((b): b is CallContractBlock => isCallContract(b, DEDUST_V2_LIQUIDITY_OP.payout));
  if (ton) {
    let amount: bigint;
    try {
      amount = readPayout(ton).amount;
    } catch {
      return null;
    }
    if (ton.message.destination !== initiator) return null;
    paid.push({ asset: null, amount });
  }
  return paid;
}

/** A side's way in: a jetton transfer, or pay_native with TON. */
const carrierMatcher = (): Matcher =>
  new OrMatcher([new BlockTypeMatcher('jetton_transfer'), new ContractMatcher(DEDUST_V2_LIQUIDITY_OP.payNative, NO_EXCESS)]);
/** The credit that completed the deposit contract, after its carrier. */
const creditParent = (): Matcher => new ContractMatcher(DEDUST_V2_LIQUIDITY_OP.creditAsset, { ...NO_EXCESS, parent: carrierMatcher() });
const jettonPayback = (): Matcher => new BlockTypeMatcher('jetton_transfer', { optional: true });
const tonPayback = (): Matcher => new ContractMatcher(DEDUST_V2_LIQUIDITY_OP.payout, { ...NO_EXCESS, optional: true });

/** The credit before join_liquidity and that credit's carrier, when the matcher took them. */
function creditAndCarrier(join: Block, others: Block[]): { credit: CallContractBlock; carrier: Block } | null {
  const credit = join.previousBlock;
  const carrier = credit?.previousBlock ?? null;
  if (!isCallContract(credit, DEDUST_V2_LIQUIDITY_OP.creditAsset) || !others.includes(credit)) return null;
  if (carrier === null || !others.includes(carrier)) return null;
  return { credit, carrier };
}

function sidesWith(slot: 0 | 1, side: DedustV2DepositSide): DedustV2DepositData['sides'] {
  return slot === 0 ? [side, null] : [null, side];
}

class DedustV2DepositMatcher extends ContractMatcher {
  constructor() {
    super(DEDUST_V2_LIQUIDITY_OP.joinLiquidity, {
      ...NO_EXCESS,
      parent: creditParent(),
      children: [
        new ContractMatcher(DEDUST_V2_LIQUIDITY_OP.depositLog, { ...NO_EXCESS, optional: true }),
        new ContractMatcher(DEDUST_V2_LIQUIDITY_OP.creditLiquidity, { optional: true }),
        jettonPayback(),
        jettonPayback(),
        tonPayback(),
      ],
    });
  }

  override build(block: CallContractBlock, others: Block[]): Block[] {
    let join: ReturnType<typeof joinLiquidity>;
    try {
      join = joinLiquidity(block.message.body());
    } catch {
      return [];
    }
    const log = inOthers(block, others).find((b): b is CallContractBlock => isCallContract(b, DEDUST_V2_LIQUIDITY_OP.depositLog));
    // No log: the pool refused it (the next matcher's).
    if (!log) return [];
    const logged = depositLog(log.message.body());
    const found = creditAndCarrier(block, others);
    if (!found) return [];
    const leg = depositLeg(found.carrier, found.credit);
    const vaultExcesses = paybacks(block, others, join.initiator);
    if (vaultExcesses === null) return [];
    const data: DedustV2DepositData = {
      sender: join.initiator,
      pool: block.message.destination,
      depositContract: block.message.source,
      sides: sidesWith(leg.slot, leg.side),
      amounts: logged.amounts,
      targets: depositTargets(found.carrier),
      lpTokensMinted: logged.liquidity,
      vaultExcesses,
    };
    // toncenter never fails a deposit the pool logged.
    return folded(DEDUST_V2_DEPOSIT, data, [block, ...others], false);
  }
}

class DedustV2RejectedDepositMatcher extends ContractMatcher {
  constructor() {
    super(DEDUST_V2_LIQUIDITY_OP.joinLiquidity, {
      ...NO_EXCESS,
      parent: creditParent(),
      children: [jettonPayback(), jettonPayback(), tonPayback(), new ContractMatcher(OP.excess, { ...NO_EXCESS, optional: true })],
    });
  }

  override build(block: CallContractBlock, others: Block[]): Block[] {
    if (block.nextBlocks.some((b) => isCallContract(b, DEDUST_V2_LIQUIDITY_OP.depositLog))) return [];
    let join: ReturnType<typeof joinLiquidity>;
    try {
      join = joinLiquidity(block.message.body());
    } catch {
      return [];
    }
    const vaultExcesses = paybacks(block, others, join.initiator);
    // A refusal pays something back.
    if (vaultExcesses === null || vaultExcesses.length === 0) return [];
    const found = creditAndCarrier(block, others);
    if (!found) return [];
    const leg = depositLeg(found.carrier, found.credit);
    const data: DedustV2DepositData = {
      sender: join.initiator,
      pool: block.message.destination,
      depositContract: block.message.source,
      sides: sidesWith(leg.slot, leg.side),
      amounts: join.amounts,
      targets: depositTargets(found.carrier),
      lpTokensMinted: null,
      vaultExcesses,
    };
    return folded(DEDUST_V2_DEPOSIT, data, [block, ...others], true);
  }
}

class DedustV2DepositPartialMatcher extends ContractMatcher {
  constructor() {
    super(DEDUST_V2_LIQUIDITY_OP.creditAsset, {
      ...NO_EXCESS,
      parent: carrierMatcher(),
      // The deposit contract's excess for the gas it did not need.
      child: new ContractMatcher(OP.excess, { ...NO_EXCESS, optional: true }),
    });
  }

  override build(block: CallContractBlock, others: Block[]): Block[] {
    const carrier = block.previousBlock;
    if (carrier === null || !others.includes(carrier)) return [];
    const leg = depositLeg(carrier, block);
    const amounts: DedustV2DepositData['amounts'] = leg.slot === 0 ? [leg.amount, null] : [null, leg.amount];
    const data: DedustV2DepositData = {
      sender: leg.sender,
      pool: block.message.source,
      depositContract: block.message.destination,
      sides: sidesWith(leg.slot, leg.side),
      amounts,
      targets: null,
      lpTokensMinted: null,
      vaultExcesses: [],
    };
    return folded(DEDUST_V2_DEPOSIT_PARTIAL, data, [block, ...others], false);
  }
}

/**
 * toncenter's post-processing of a trace's blocks: a side only credited whose deposit contract's completing side
 * is in the same trace fills that side's empty slot and is taken into it (its events, its children). Nothing is
 * joined when some contract has more than two sides here.
 */
export function joinDedustV2Deposits(blocks: Block[]): Block[] {
  const partials = blocks.filter((b) => b.type === DEDUST_V2_DEPOSIT_PARTIAL);
  if (partials.length === 0) return blocks;
  const finals = blocks.filter((b) => b.type === DEDUST_V2_DEPOSIT);
  const uses = new Map<string | null, number>();
  for (const b of [...partials, ...finals]) {
    const contract = (b.data as DedustV2DepositData).depositContract;
    uses.set(contract, (uses.get(contract) ?? 0) + 1);
  }
  if ([...uses.values()].some((n) => n > 2)) return blocks;
  let out = blocks;
  for (const last of finals) {
    const data = last.data as DedustV2DepositData;
    const first = partials.find((p) => out.includes(p) && (p.data as DedustV2DepositData).depositContract === data.depositContract);
    if (!first) continue;
    const side = first.data as DedustV2DepositData;
    for (const i of [0, 1] as const) {
      if (data.sides[i] !== null || side.sides[i] === null) continue;
      data.sides[i] = side.sides[i];
      if (data.amounts[i] === null) data.amounts[i] = side.amounts[i];
    }
    out = out.filter((b) => b !== first);
    absorbSide(last, first);
  }
  return out;
}

/** In toncenter's order: after DeDust v2's swaps, before its claims. */
export const dedustV2LiquidityMatchers = (): Matcher[] => [
  new DedustV2WithdrawMatcher(),
  new DedustV2DepositMatcher(),
  new DedustV2RejectedDepositMatcher(),
  new DedustV2DepositPartialMatcher(),
];

/**
 * A DeDust v2 deposit (`_fill_dedust_v2_deposit_liquidity`): the deposit contract is the secondary destination,
 * `destination_liquidity` for ton-index-go (its DeDust exception names `dedust_v2` too); the target assets are the
 * sides' own. A side only credited goes through toncenter's plain filler (`_fill_dex_deposit_liquidity`): no
 * targets, no excesses.
 */
export function dedustV2DepositParts(d: DedustV2DepositData, partial: boolean): ActionParts {
  const [x, y] = d.sides;
  return {
    type: 'dex_deposit_liquidity',
    details: {
      dex: 'dedust_v2',
      amount_1: str(d.amounts[0]),
      amount_2: str(d.amounts[1]),
      asset_1: x?.asset ?? null,
      asset_2: y?.asset ?? null,
      user_jetton_wallet_1: x?.userWallet ?? null,
      user_jetton_wallet_2: y?.userWallet ?? null,
      source: d.sender,
      pool: d.pool,
      destination_liquidity: d.depositContract,
      lp_tokens_minted: str(d.lpTokensMinted),
      target_asset_1: partial ? null : (x?.asset ?? null),
      target_asset_2: partial ? null : (y?.asset ?? null),
      target_amount_1: str(d.targets?.[0]),
      target_amount_2: str(d.targets?.[1]),
      vault_excesses: assetAmounts(d.vaultExcesses),
      tick_lower: null,
      tick_upper: null,
      nft_index: null,
      nft_address: null,
    },
    ends: [d.sender, null, d.pool, d.depositContract],
  };
}
