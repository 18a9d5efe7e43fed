/**
 * What the classifier reads: one complete trace, its transactions with their messages as the index stores
 * them (the v3 documents of `transactions.doc` and `messages.doc`), and what the index knows of the token
 * contracts among its accounts. Built the same way by the store thread (a trace completed by a group of
 * blocks) and by the back-fill (a trace read back from the store), so both classify alike.
 */
import { Cell } from '@ton/core';
import type { V3MessageJson } from '../../ton/message-json.js';

export interface ActionMessage {
  /** base64 */
  hash: string;
  /** Raw uppercase; null for an external-in message. */
  source: string | null;
  /** Raw uppercase; null for an external-out message (a log). */
  destination: string | null;
  /** nanotons; null for external messages */
  value: bigint | null;
  /** The forwarding fee the sender paid; null for external messages. */
  fwdFee: bigint | null;
  extraCurrencies: Record<string, string>;
  /** The body's first 32 bits, unsigned; null for a body of fewer bits. */
  opcode: number | null;
  bounce: boolean | null;
  bounced: boolean | null;
  createdLt: bigint | null;
  createdAt: number | null;
  /** The body as a cell, parsed on first use (most bodies are never read). */
  body(): Cell;
  /** The StateInit it carried, parsed on first use; absent or null: none. */
  initState?: () => Cell | null;
}

export interface ActionTransaction {
  /** base64 */
  hash: string;
  lt: bigint;
  now: number;
  /** Raw uppercase. */
  account: string;
  mcSeqno: number;
  aborted: boolean;
  tickTock: boolean;
  /** nanotons */
  totalFees: bigint;
  /** v3's words: active, uninit, frozen, nonexist. */
  origStatus: string;
  endStatus: string;
  /** The compute phase's skip reason (no_state, bad_state, no_gas), null when it ran. */
  skippedReason: string | null;
  /** The compute phase's exit code; null (or absent) when it did not run. */
  exitCode?: number | null;
  inMsg: ActionMessage | null;
  /** In the order the transaction sent them. */
  outMsgs: ActionMessage[];
}

export interface TraceInput {
  /** base64 hashes */
  traceId: string;
  externalHash: string | null;
  externalHashNorm: string | null;
  startLt: bigint;
  startUtime: number;
  endLt: bigint;
  endUtime: number;
  mcSeqnoEnd: number;
  transactions: ActionTransaction[];
}

export interface JettonWalletInfo {
  owner: string;
  /** The wallet's master. */
  jetton: string;
}

export interface NftItemInfo {
  /** Decimal. */
  index: string;
  collection: string | null;
  /** Telegram's item sold on Fragment (a username, a number): its content's uri is on nft.fragment.com (telemint.ts). */
  teleitem?: boolean;
  /** A .ton DNS item: its code or its collection is the .ton DNS one (telemint.ts). */
  dns?: boolean;
}

/** A fixed-price sale the index detected (nft_sales: getgems' get_sale_data), as its last state has it. */
export interface NftSaleInfo {
  nft: string;
  /** The seller; null until the NFT arrived. */
  owner: string | null;
  marketplace: string | null;
  /** nanotons, decimal */
  fullPrice: string;
  /** base64: what tells getgems' versions (and so their data layouts) apart. */
  codeHash: string;
}

/** An auction the index detected (nft_auctions: getgems' get_sale_data "AUC" or get_auction_data_v4), as its last state has it. */
export interface NftAuctionInfo {
  nft: string;
  /** The seller; null until the NFT arrived. */
  owner: string | null;
  marketplace: string;
  /** nanotons, decimal: what a purchase through the auction paid. */
  lastBid: string;
  /** base64: what tells getgems' versions (and so their data layouts) apart. */
  codeHash: string;
}

export interface MultisigOrderInfo {
  /** Raw addresses, in index order. */
  signers: string[];
}

/**
 * A DEX pool and the two assets it trades (toncenter's `dex_pools` row: jetton masters, null for TON), what a
 * multi-hop swap's steps are read against.
 */
export interface DexPoolInfo {
  dex: 'dedust';
  assets: readonly [string | null, string | null];
}

/** What a JVault stake wallet's and its pool's stored data tell (toncenter's `extract_jvault_assets`, jvault.ts). */
export interface JvaultStakeWalletInfo {
  pool: string | null;
  /** The staked jetton (the pool's lock wallet's); null when the pool's state is not known. */
  asset: string | null;
  /** The stake jetton (the stake wallet's minter). */
  stakingAsset: string | null;
}

/** The contracts the index has detected (tokens/, multisig/), by raw address. */
export interface KnownContracts {
  jettonWallets: ReadonlyMap<string, JettonWalletInfo>;
  nftItems: ReadonlyMap<string, NftItemInfo>;
  multisigOrders: ReadonlyMap<string, MultisigOrderInfo>;
  /** Absent where sales are not looked for. */
  nftSales?: ReadonlyMap<string, NftSaleInfo>;
  /** Absent where auctions are not looked for. */
  nftAuctions?: ReadonlyMap<string, NftAuctionInfo>;
  /** DEX pools by address (src/index/dex: dex_pools); absent where they are not looked for. */
  dexPools?: ReadonlyMap<string, DexPoolInfo>;
  /**
   * Nominator pools among the trace's accounts (latest state with the standard pool's code, nominator-pools.ts);
   * absent where they are not looked for.
   */
  nominatorPools?: ReadonlySet<string>;
  /**
   * JVault stake wallets an unstake in the trace asks, with what their and their pool's stored data tell
   * (jvault.ts); absent where they are not looked for.
   */
  jvaultStakeWallets?: ReadonlyMap<string, JvaultStakeWalletInfo>;
}

export const NO_CONTRACTS: KnownContracts = { jettonWallets: new Map(), nftItems: new Map(), multisigOrders: new Map() };

/** A v3 message document (src/ton/message-json.ts), as stored: the fields the classifier reads. */
export type StoredMessageDoc = Pick<
  V3MessageJson,
  | 'hash'
  | 'source'
  | 'destination'
  | 'value'
  | 'value_extra_currencies'
  | 'fwd_fee'
  | 'opcode'
  | 'bounce'
  | 'bounced'
  | 'created_lt'
  | 'created_at'
  | 'message_content'
  | 'init_state'
>;

/** A v3 transaction document as stored: its messages by hash (block-rows.ts). */
export interface StoredTransactionDoc {
  account: string;
  hash: string;
  lt: string;
  now: number;
  mc_block_seqno: number;
  orig_status: string;
  end_status: string;
  total_fees: string;
  description: { type?: string; aborted?: boolean; compute_ph?: { skipped?: boolean; reason?: string; exit_code?: number } };
  in_msg: string | null;
  out_msgs: string[];
}

function lazyCell(boc: string): () => Cell {
  let cell: Cell | undefined;
  return () => (cell ??= Cell.fromBase64(boc));
}

export function messageOf(doc: StoredMessageDoc): ActionMessage {
  return {
    hash: doc.hash,
    source: doc.source,
    destination: doc.destination,
    value: doc.value === null ? null : BigInt(doc.value),
    fwdFee: doc.fwd_fee === null ? null : BigInt(doc.fwd_fee),
    extraCurrencies: doc.value_extra_currencies ?? {},
    opcode: doc.opcode === null ? null : parseInt(doc.opcode.slice(2), 16) >>> 0,
    bounce: doc.bounce,
    bounced: doc.bounced,
    createdLt: doc.created_lt === null ? null : BigInt(doc.created_lt),
    createdAt: doc.created_at === null ? null : Number(doc.created_at),
    body: lazyCell(doc.message_content.body),
    initState: doc.init_state ? lazyCell(doc.init_state.body) : () => null,
  };
}

/** A stored transaction with its messages; a message the index does not hold is an error (the trace is not whole). */
export function transactionOf(doc: StoredTransactionDoc, messages: (hash: string) => StoredMessageDoc | undefined): ActionTransaction {
  const message = (hash: string): ActionMessage => {
    const found = messages(hash);
    if (!found) throw new Error(`message ${hash} of transaction ${doc.hash} is not in the index`);
    return messageOf(found);
  };
  return transactionWith(doc, doc.in_msg === null ? null : message(doc.in_msg), doc.out_msgs.map(message));
}

/** A transaction's fields as the classifier reads them, its messages given (stored apart, or inside a rendered one). */
export function transactionWith(
  doc: Omit<StoredTransactionDoc, 'in_msg' | 'out_msgs'>,
  inMsg: ActionMessage | null,
  outMsgs: ActionMessage[],
): ActionTransaction {
  const compute = doc.description.compute_ph;
  return {
    hash: doc.hash,
    lt: BigInt(doc.lt),
    now: doc.now,
    account: doc.account,
    mcSeqno: doc.mc_block_seqno,
    totalFees: BigInt(doc.total_fees),
    aborted: doc.description.aborted === true,
    tickTock: doc.description.type === 'tick_tock',
    origStatus: doc.orig_status,
    endStatus: doc.end_status,
    skippedReason: compute?.skipped ? (compute.reason ?? null) : null,
    exitCode: compute && !compute.skipped ? (compute.exit_code ?? null) : null,
    inMsg,
    outMsgs,
  };
}
