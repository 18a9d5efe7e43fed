/**
 * What one block offers token detection, found in the render thread (pure, no I/O): the accounts it
 * changed whose code has a token get-method (with the methods), and the transactions whose inbound
 * internal message is a jetton transfer or burn, or an NFT transfer, that parses. Whether those accounts really are jetton
 * contracts is decided in the store thread (detector.ts), which can run get-methods and read the store.
 * Everything here crosses a thread by structured clone (plain objects, Buffers, bigints).
 */
import { loadMessage, type Cell, type Transaction } from '@ton/core';
import { formatRawUpper } from '../../ton/address.js';
import {
  JETTON_BURN,
  JETTON_TRANSFER,
  parseJettonBurn,
  parseJettonTransfer,
  type JettonBurnBody,
  type JettonTransferBody,
} from './jetton-messages.js';
import { codeHashOf, tokenMethods, type TokenMethod } from './method-ids.js';
import { NFT_TRANSFER, parseNftTransfer, type NftTransferBody } from './nft-messages.js';

export interface TokenAccountCandidate {
  /** Raw uppercase. */
  account: string;
  codeHash: Buffer;
  dataHash: Buffer;
  lastTxLt: bigint;
  methods: TokenMethod[];
  /** For code that is a library cell: the library's hash (hex upper case), what code-hash rules compare too. */
  libraryHash?: string;
}

export interface EventBase {
  txHash: Buffer;
  txLt: bigint;
  txNow: number;
  aborted: boolean;
  /** The transaction's account (the jetton wallet, if detection says so). */
  account: string;
  /** The inbound message's source (the wallet's owner). */
  source: string | null;
}

export type TokenEventCandidate =
  | (EventBase & { kind: 'transfer'; body: JettonTransferBody })
  | (EventBase & { kind: 'burn'; body: JettonBurnBody })
  | (EventBase & { kind: 'nft_transfer'; body: NftTransferBody });

export interface BlockTokens {
  seqno: number;
  accounts: TokenAccountCandidate[];
  events: TokenEventCandidate[];
}

/** Method lists by code hash: every wallet of a kind has the same code (bounded: code is attacker-chosen). */
export class MethodCache {
  private readonly byCode = new Map<string, TokenMethod[]>();
  constructor(private readonly capacity = 1024) {}

  of(code: Cell): TokenMethod[] {
    const key = code.hash().toString('base64');
    let methods = this.byCode.get(key);
    if (!methods) {
      methods = tokenMethods(code);
      if (this.byCode.size >= this.capacity) this.byCode.delete(this.byCode.keys().next().value as string);
      this.byCode.set(key, methods);
    }
    return methods;
  }
}

/** The get-methods a detector starts from (detector.ts). */
const DETECTED = new Set<TokenMethod>([
  'get_jetton_data',
  'get_wallet_data',
  'get_nft_data',
  'get_collection_data',
  'get_sale_data',
  'get_auction_data_v4',
  'get_fix_price_data_v4',
  'get_multisig_data',
  'get_order_data',
  'get_vesting_data',
  'get_assets',
]);

/** The candidate of an account's state after the block, or null when its code has no token get-method. */
export function accountCandidate(
  account: string,
  code: Cell | undefined,
  data: Cell | undefined,
  lastTxLt: bigint,
  methods: MethodCache,
): TokenAccountCandidate | null {
  if (!code) return null;
  const found = methods.of(code);
  if (!found.some((m) => DETECTED.has(m))) return null;
  const candidate: TokenAccountCandidate = {
    account,
    codeHash: code.hash(),
    dataHash: data?.hash() ?? Buffer.alloc(32),
    lastTxLt,
    methods: found,
  };
  const standsFor = code.isExotic ? codeHashOf(code) : undefined;
  if (standsFor && standsFor !== candidate.codeHash.toString('hex').toUpperCase()) candidate.libraryHash = standsFor;
  return candidate;
}

/** The jetton event a transaction's inbound message is, when its opcode says so and its body parses. */
export function eventCandidate(
  tx: Transaction,
  account: string,
  inMessage: Cell | null,
  opcode: number | null,
): TokenEventCandidate | null {
  if (!inMessage || (opcode !== JETTON_TRANSFER && opcode !== JETTON_BURN && opcode !== NFT_TRANSFER)) return null;
  let message;
  try {
    message = loadMessage(inMessage.beginParse());
  } catch {
    return null;
  }
  if (message.info.type !== 'internal') return null;
  const base: EventBase = {
    txHash: tx.hash(),
    txLt: tx.lt,
    txNow: tx.now,
    aborted: tx.description.type === 'generic' && tx.description.aborted,
    account,
    source: formatRawUpper(message.info.src),
  };
  return eventOfBody(base, opcode, message.body);
}

/** The event an inbound internal message's body makes of its transaction (`base`), when it parses (also tokens/backfill.ts, from stored rows). */
export function eventOfBody(base: EventBase, opcode: number, body: Cell): TokenEventCandidate | null {
  if (opcode === JETTON_TRANSFER) {
    const transfer = parseJettonTransfer(body);
    return transfer ? { ...base, kind: 'transfer', body: transfer } : null;
  }
  if (opcode === NFT_TRANSFER) {
    const transfer = parseNftTransfer(body);
    return transfer ? { ...base, kind: 'nft_transfer', body: transfer } : null;
  }
  if (opcode !== JETTON_BURN) return null;
  const burn = parseJettonBurn(body);
  return burn ? { ...base, kind: 'burn', body: burn } : null;
}
