/**
 * TONCO liquidity (ton-indexer's `ToncoDepositLiquidityMatcher` and `ToncoWithdrawLiquidityMatcher` in
 * `blocks/liquidity.py`, bodies of `messages/liquidity.py` and `messages/swaps.py`). TONCO is a concentrated
 * liquidity DEX: a position is an NFT of the pool, minted once both of its assets reached the user's account
 * contract, burnt to withdraw.
 *
 *   tonco_deposit_liquidity   one asset reaches the router: a jetton transfer (its notification) or TON through the
 *                             router's wTTON wallet (ton_transfer#01f3835d, then the wallet's notification), its
 *                             forward payload POOLV3_FUND_ACCOUNT#4468de77 naming the router's wallet of the other
 *                             asset; the router sends POOLV3_FUND_ACCOUNT to the pool, the pool
 *                             ACCOUNTV3_ADD_LIQUIDITY#3ebe5431 to the user's account contract. Once both assets are
 *                             there the account sends POOLV3_MINT#81702ef8 to the pool, which mints the position
 *                             NFT (POSITIONNFTV3_POSITION_INIT#d5ecca2a: an `nft_mint`) and pays back what was not
 *                             needed (ROUTERV3_PAY_TO#a1daa96d, then jetton transfers: `vault_excesses`)
 *   tonco_withdraw_liquidity  POOLV3_START_BURN#530b5f2c to the pool, its POSITIONNFTV3_POSITION_BURN#46ca335a to the
 *                             position NFT, the NFT's POOLV3_BURN#d73ac09d back, the pool's ROUTERV3_PAY_TO and the
 *                             router's two payouts (a jetton transfer, or wTTON whose wallet passes the TON on)
 *
 * Each asset of a deposit is its own action (toncenter joins none): the side that did not complete the position
 * has no LP amount and no NFT. Both block types are answered as `dex_deposit_liquidity` / `dex_withdraw_liquidity`
 * (their block types name the action id, as toncenter's serializer hashes them). Kept as toncenter decides it: a
 * deposit is never failed; a withdrawal failed when the pay_to's exit code is neither 0 nor 201.
 */
import type { Cell, Slice } from '@ton/core';
import { isCallContract, folded, type Block, type CallContractBlock } from './blocks.js';
import { afterOpcode, OP, readAddress } from './bodies.js';
import type { JettonTransferData } from './jettons.js';
import { BlockTypeMatcher, ContractMatcher, Matcher, OrMatcher } from './matcher.js';
import { PTON_TON_TRANSFER, swapAsset } from './pton.js';
import { payTo, TONCO_OP, type PayTo } from './tonco-swaps.js';
import type { ActionTransaction, KnownContracts } from './trace-input.js';
import { str, assetAmounts, type ActionParts } from './details-common.js';

export const TONCO_LIQUIDITY_OP = {
  fundAccount: 0x4468de77,
  addLiquidity: 0x3ebe5431,
  mintAndRefund: 0x81702ef8,
  startBurn: 0x530b5f2c,
  positionBurn: 0x46ca335a,
  poolBurn: 0xd73ac09d,
} as const;

/** The block types (answered as dex_deposit_liquidity / dex_withdraw_liquidity). */
export const TONCO_DEPOSIT = 'tonco_deposit_liquidity';
export const TONCO_WITHDRAW = 'tonco_withdraw_liquidity';

/**
 * The router's wTTON wallet on mainnet, as toncenter names it: a pay_to naming it pays TON (its asset is null
 * where the router's message decides the order of a withdrawal's payouts).
 */
export const TONCO_ROUTER_WTTON_WALLET = '0:871DA9215B14902166F0EA2A16DB56278D528108377F8158C5F4CCFDFDD22E17';

export interface ToncoDepositData {
  sender: string | null;
  pool: string | null;
  accountContract: string | null;
  /** The position's amounts the account holds after this side (ACCOUNTV3_ADD_LIQUIDITY's new_enough0/1). */
  positionAmounts: [bigint, bigint];
  /** The pool's two assets in its order (TON: null); the side brought is the one with an amount. */
  assets: [string | null, string | null];
  amounts: [bigint | null, bigint | null];
  senderWallets: [string | null, string | null];
  lpTokensMinted: bigint | null;
  tickLower: number;
  tickUpper: number;
  nftIndex: bigint | null;
  nftAddress: string | null;
  excesses: { asset: string | null; amount: bigint }[];
}

export interface ToncoPayout {
  amount: bigint;
  asset: string | null;
  /** toncenter's dex_wallet / dex_jetton_wallet (kept for the order of the two) and the user's wallet. */
  dexJettonWallet: string | null;
  userWallet: string | null;
}

export interface ToncoWithdrawData {
  sender: string | null;
  pool: string | null;
  burntNftIndex: bigint;
  burntNftAddress: string | null;
  liquidityBurnt: bigint;
  tickLower: number;
  tickUpper: number;
  outs: ToncoPayout[];
}

/** ACCOUNTV3_ADD_LIQUIDITY#3ebe5431 query_id new_amount0 new_amount1 new_enough0 new_enough1 liquidity:uint128 tick_lower tick_upper */
function addLiquidity(body: Cell) {
  const cs = afterOpcode(body);
  cs.loadUintBig(64);
  const amount0 = cs.loadCoins();
  cs.loadCoins();
  const enough0 = cs.loadCoins();
  const enough1 = cs.loadCoins();
  cs.loadUintBig(128);
  return { amount0, enough0, enough1, tickLower: cs.loadInt(24), tickUpper: cs.loadInt(24) };
}

/** POSITIONNFTV3_POSITION_INIT#d5ecca2a query_id user liquidity:uint128 tick_lower tick_upper ^[fee0 fee1 nft_index:uint64 ...] */
function positionInit(body: Cell): { liquidity: bigint; nftIndex: bigint } {
  const cs = afterOpcode(body);
  cs.loadUintBig(64);
  readAddress(cs);
  const liquidity = cs.loadUintBig(128);
  cs.loadInt(24);
  cs.loadInt(24);
  const fees = cs.loadRef().beginParse();
  fees.loadUintBig(256);
  fees.loadUintBig(256);
  return { liquidity, nftIndex: fees.loadUintBig(64) };
}

/** transfer_notification's amount, sender and forward payload (a ref, else what is left inline), as toncenter reads it. */
function notification(body: Cell): { amount: bigint; sender: string | null; payload: Slice | null } {
  const cs = afterOpcode(body);
  cs.loadUintBig(64);
  const amount = cs.loadCoins();
  const sender = readAddress(cs);
  const ref = cs.loadMaybeRef();
  const payload = ref !== null ? ref.beginParse() : cs.remainingBits > 0 ? cs : null;
  return { amount, sender, payload };
}

/** The forward payload POOLV3_FUND_ACCOUNT#4468de77 other_jetton_wallet amount0 amount1 ...: the router's wallet of the other asset. */
function fundAccountPayload(payload: Slice): string {
  if (payload.remainingBits < 32 || payload.loadUint(32) >>> 0 !== TONCO_LIQUIDITY_OP.fundAccount) throw new Error('not a TONCO deposit');
  const other = readAddress(payload);
  payload.loadCoins();
  payload.loadCoins();
  if (other === null) throw new Error("a TONCO deposit payload without the other asset's wallet");
  return other;
}

/**
 * The router wallet of the other asset a deposit's notification names, which its classification looks up though
 * the trace may not reach it (toncenter's `extract_other_jetton_tonco_deposit`).
 */
export function toncoDepositWallets(tx: ActionTransaction): string[] {
  const m = tx.inMsg;
  if (m?.opcode !== OP.jettonNotify) return [];
  try {
    const { payload } = notification(m.body());
    return payload === null ? [] : [fundAccountPayload(payload)];
  } catch {
    return [];
  }
}

/** A payout of the router: a jetton transfer, wTTON's passing its TON on (a ton_transfer#01f3835d) when it is one. */
const payoutTransfer = (): Matcher =>
  new BlockTypeMatcher('jetton_transfer', { optional: true, child: new ContractMatcher(PTON_TON_TRANSFER, { optional: true }) });

/** A payout's TON pass-on (its ton_transfer) and what it paid: that TON, or the jetton transfer's amount and asset. */
function paidOut(transfer: Block): { amount: bigint; asset: string | null; ton: CallContractBlock | null } {
  const ton = transfer.nextBlocks.find((b): b is CallContractBlock => isCallContract(b, PTON_TON_TRANSFER)) ?? null;
  if (ton !== null) {
    const cs = afterOpcode(ton.message.body());
    cs.loadUintBig(64);
    return { amount: cs.loadCoins(), asset: null, ton };
  }
  const t = transfer.data as JettonTransferData;
  return { amount: t.amount, asset: t.asset, ton: null };
}

/** The asset of a router wallet as toncenter decides it: the wallet's jetton (wTTON/pTON: TON), or `unknown` if not known. */
function routerWalletAsset<T>(contracts: KnownContracts, wallet: string | null, unknown: T): string | null | T {
  const info = wallet === null ? undefined : contracts.jettonWallets.get(wallet);
  return info ? swapAsset(info.jetton) : unknown;
}

class ToncoDepositMatcher extends ContractMatcher {
  constructor(private readonly contracts: KnownContracts) {
    const tonInput = new ContractMatcher(OP.jettonNotify, { parent: new ContractMatcher(PTON_TON_TRANSFER) });
    const refund = new ContractMatcher(TONCO_OP.payTo, { optional: true, children: [payoutTransfer(), payoutTransfer()] });
    const mint = new ContractMatcher(TONCO_LIQUIDITY_OP.mintAndRefund, {
      optional: true,
      children: [refund, new BlockTypeMatcher('nft_mint'), new ContractMatcher(OP.excess, { optional: true })],
    });
    super(TONCO_LIQUIDITY_OP.addLiquidity, {
      parent: new ContractMatcher(TONCO_LIQUIDITY_OP.fundAccount, {
        parent: new OrMatcher([tonInput, new BlockTypeMatcher('jetton_transfer')]),
      }),
      child: mint,
    });
  }

  override build(block: CallContractBlock, others: Block[]): Block[] {
    const added = addLiquidity(block.message.body());
    // The side brought decides which of the pool's assets it is (toncenter: amount0 > 0 is the first).
    const first = added.amount0 > 0n;

    const nftMint = others.find((b) => b.type === 'nft_mint');
    const minted = nftMint ? positionInit(nftMint.eventNodes[0].message.body()) : null;

    // What came in: the jetton transfer (its notification among its messages) or wTTON's notification.
    const input = block.previousBlock?.previousBlock ?? null;
    if (input === null) throw new Error('a TONCO deposit without what it brought');
    const notifyMessage =
      input.type === 'jetton_transfer'
        ? input.eventNodes.find((n) => n.message.opcode === OP.jettonNotify)?.message
        : isCallContract(input, OP.jettonNotify)
          ? input.message
          : undefined;
    if (!notifyMessage) throw new Error('a TONCO deposit without its notification');
    const notified = notification(notifyMessage.body());
    if (notified.payload === null) throw new Error('a TONCO deposit without its payload');
    const otherWallet = fundAccountPayload(notified.payload);
    const senderWallet = input.type === 'jetton_transfer' ? (input.data as JettonTransferData).senderWallet : null;

    // toncenter: a router wallet it does not know is TON for the asset brought, unknown (null too) for the other.
    const broughtAsset = routerWalletAsset(this.contracts, notifyMessage.source, null);
    const otherAsset = routerWalletAsset(this.contracts, otherWallet, null);

    const excesses: ToncoDepositData['excesses'] = [];
    const refund = others.find((b): b is CallContractBlock => isCallContract(b, TONCO_OP.payTo));
    for (const transfer of refund?.nextBlocks.filter((b) => others.includes(b) && b.type === 'jetton_transfer') ?? []) {
      const { amount, asset } = paidOut(transfer);
      excesses.push({ asset, amount });
    }

    const data: ToncoDepositData = {
      sender: notified.sender,
      pool: block.message.source,
      accountContract: block.message.destination,
      positionAmounts: [added.enough0, added.enough1],
      assets: first ? [broughtAsset, otherAsset] : [otherAsset, broughtAsset],
      amounts: first ? [notified.amount, null] : [null, notified.amount],
      senderWallets: first ? [senderWallet, null] : [null, senderWallet],
      lpTokensMinted: minted?.liquidity ?? null,
      tickLower: added.tickLower,
      tickUpper: added.tickUpper,
      nftIndex: minted?.nftIndex ?? null,
      nftAddress: nftMint ? nftMint.eventNodes[0].message.destination : null,
      excesses,
    };
    // toncenter leaves a deposit's `failed` at its default.
    return folded(TONCO_DEPOSIT, data, [block, ...others], false);
  }
}

/** POOLV3_START_BURN#530b5f2c query_id burned_index:uint64 liquidity_to_burn:uint128 tick_lower tick_upper */
function startBurn(body: Cell) {
  const cs = afterOpcode(body);
  cs.loadUintBig(64);
  return { index: cs.loadUintBig(64), liquidity: cs.loadUintBig(128), tickLower: cs.loadInt(24), tickUpper: cs.loadInt(24) };
}

/** POSITIONNFTV3_POSITION_BURN#46ca335a query_id nft_owner liquidity_to_burn tick_lower tick_upper ^[fee0 fee1]: the owner. */
function positionBurnOwner(body: Cell): string | null {
  const cs = afterOpcode(body);
  cs.loadUintBig(64);
  const owner = readAddress(cs);
  cs.loadUintBig(128);
  cs.loadInt(24);
  cs.loadInt(24);
  const fees = cs.loadRef().beginParse();
  fees.loadUintBig(256);
  fees.loadUintBig(256);
  return owner;
}

/** POOLV3_BURN#d73ac09d query_id recipient burned_index:uint64 ...: the position's index. */
function poolBurnIndex(body: Cell): bigint {
  const cs = afterOpcode(body);
  cs.loadUintBig(64);
  readAddress(cs);
  return cs.loadUintBig(64);
}

/** pay_to exit codes of a withdrawal that went through (201: with the pool's burn info). */
const BURN_OK = new Set([0, 201]);

class ToncoWithdrawMatcher extends ContractMatcher {
  constructor(private readonly contracts: KnownContracts) {
    const payouts = new ContractMatcher(TONCO_OP.payTo, { children: [payoutTransfer(), payoutTransfer()] });
    super(TONCO_LIQUIDITY_OP.startBurn, {
      child: new ContractMatcher(TONCO_LIQUIDITY_OP.positionBurn, {
        child: new ContractMatcher(TONCO_LIQUIDITY_OP.poolBurn, { child: payouts }),
      }),
    });
  }

  override build(block: CallContractBlock, others: Block[]): Block[] {
    const burn = startBurn(block.message.body());
    const positionBurn = block.nextBlocks.find((b): b is CallContractBlock => isCallContract(b, TONCO_LIQUIDITY_OP.positionBurn));
    if (!positionBurn) return [];
    const sender = positionBurnOwner(positionBurn.message.body());
    const poolBurn = positionBurn.nextBlocks.find((b): b is CallContractBlock => isCallContract(b, TONCO_LIQUIDITY_OP.poolBurn));
    if (!poolBurn) return [];
    let index = burn.index;
    try {
      // The pool's own index wins when it names one (toncenter's rule: a zero index does not).
      const fromPool = poolBurnIndex(poolBurn.message.body());
      if (fromPool !== 0n) index = fromPool;
    } catch {
      // A pool burn that does not read keeps the request's index.
    }
    const payToBlock = poolBurn.nextBlocks.find((b): b is CallContractBlock => isCallContract(b, TONCO_OP.payTo));
    if (!payToBlock) return [];
    const pay: PayTo = payTo(payToBlock.message.body());
    if (pay.coins === null) throw new Error("a TONCO withdrawal's pay_to without its coins");
    // The router's message in the pool's order; its wTTON wallet is TON.
    const routerSide = (amount: bigint, wallet: string | null, receiver: string | null) => ({
      amount,
      wallet: wallet === TONCO_ROUTER_WTTON_WALLET ? null : wallet,
      receiver,
    });
    const router = [
      routerSide(pay.coins.amount0, pay.coins.wallet0, pay.receivers[0]),
      routerSide(pay.coins.amount1, pay.coins.wallet1, pay.receivers[1]),
    ];

    const transfers = payToBlock.nextBlocks.filter((b) => others.includes(b) && b.type === 'jetton_transfer');
    const extra: Block[] = [];
    let outs: ToncoPayout[] = [0, 1].map((i) => {
      const transfer = transfers[i];
      if (transfer) {
        const { amount, asset, ton } = paidOut(transfer);
        if (ton !== null) extra.push(ton);
        const t = transfer.data as JettonTransferData;
        return { amount, asset, dexJettonWallet: t.senderWallet, userWallet: t.receiverWallet };
      }
      // No payout seen: what the router's message says.
      const side = router[i];
      return {
        amount: side.amount,
        asset: routerWalletAsset(this.contracts, side.wallet, null),
        dexJettonWallet: side.wallet,
        userWallet: side.receiver,
      };
    });
    // The pool's order: the payouts turned round when the first is not paid from the router's wallet of asset 0.
    if (outs[0].dexJettonWallet !== router[0].wallet) outs = [outs[1], outs[0]];

    const data: ToncoWithdrawData = {
      sender,
      pool: block.message.destination,
      burntNftIndex: index,
      burntNftAddress: positionBurn.message.destination,
      liquidityBurnt: burn.liquidity,
      tickLower: burn.tickLower,
      tickUpper: burn.tickUpper,
      outs,
    };
    return folded(TONCO_WITHDRAW, data, [block, ...others, ...extra], !BURN_OK.has(pay.exitCode));
  }
}

export const toncoDepositMatcher = (contracts: KnownContracts): Matcher => new ToncoDepositMatcher(contracts);
export const toncoWithdrawMatcher = (contracts: KnownContracts): Matcher => new ToncoWithdrawMatcher(contracts);

/**
 * A TONCO deposit (`_fill_tonco_deposit_liquidity_action`): `amount_1`/`asset_1` are the side brought whichever of
 * the pool's assets it is (the user's wallet stays in its pool-ordered slot); the targets are the position's
 * amounts in the pool's order; the account contract is the secondary destination (ton-index-go answers the pool as
 * `destination_liquidity` for every DEX but DeDust).
 */
export function toncoDepositParts(d: ToncoDepositData): ActionParts {
  const brought = d.amounts[0] !== null ? 0 : 1;
  return {
    type: 'dex_deposit_liquidity',
    details: {
      dex: 'tonco',
      amount_1: str(d.amounts[brought]),
      amount_2: null,
      asset_1: d.assets[brought],
      asset_2: null,
      user_jetton_wallet_1: d.senderWallets[0],
      user_jetton_wallet_2: d.senderWallets[1],
      source: d.sender,
      pool: d.pool,
      destination_liquidity: d.pool,
      lp_tokens_minted: str(d.lpTokensMinted),
      target_asset_1: d.assets[0],
      target_asset_2: d.assets[1],
      target_amount_1: str(d.positionAmounts[0]),
      target_amount_2: str(d.positionAmounts[1]),
      vault_excesses: assetAmounts(d.excesses),
      tick_lower: String(d.tickLower),
      tick_upper: String(d.tickUpper),
      nft_index: str(d.nftIndex),
      nft_address: d.nftAddress,
    },
    ends: [d.sender, d.senderWallets[0] ?? d.senderWallets[1], d.pool, d.accountContract],
  };
}

/** A TONCO withdrawal (`_fill_tonco_withdraw_liquidity`): a position NFT burnt, no LP wallet nor LP asset. */
export function toncoWithdrawParts(d: ToncoWithdrawData): ActionParts {
  const [first, second] = d.outs;
  return {
    type: 'dex_withdraw_liquidity',
    details: {
      dex: 'tonco',
      amount_1: str(first?.amount),
      amount_2: str(second?.amount),
      asset_1: first?.asset ?? null,
      asset_2: second?.asset ?? null,
      user_jetton_wallet_1: first?.userWallet ?? null,
      user_jetton_wallet_2: second?.userWallet ?? null,
      lp_tokens_burnt: str(d.liquidityBurnt),
      // toncenter's TONCO filler writes none.
      is_refund: null,
      source: d.sender,
      pool: d.pool,
      destination_liquidity: d.pool,
      burnt_nft_index: str(d.burntNftIndex),
      burnt_nft_address: d.burntNftAddress,
      tick_lower: String(d.tickLower),
      tick_upper: String(d.tickUpper),
    },
    ends: [d.sender, null, d.pool, null],
  };
}
