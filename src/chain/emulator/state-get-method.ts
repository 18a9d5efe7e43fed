/**
 * A get-method on an account state as the store keeps it (its ShardAccount BoC), prepared where it runs: in an
 * emulator read worker. A get-method pinned to a past masterchain block (v2's `seqno`, and above all the index's
 * token detection, which runs every get-method of a block at that block's seqno, usually behind the head) reads
 * a state nobody else reads: parsing it and turning its code and data into the emulator's BoCs cost the main
 * thread ~0.25 ms per call (most of what was left of a relayed detection get-method once PREVBLOCKSINFO was
 * kept per block). The main thread now only finds the row and sends its bytes; the worker parses them (the same
 * AccountView the main thread uses for the head's states) and answers the account's last transaction with the result.
 */
import { createHash } from 'node:crypto';
import { Address, Cell } from '@ton/core';
import { AccountView } from '../account-view.js';
import type { Emulator, GetRunArgs, GetRunResult } from './emulator.js';
import { standaloneArgs, type BatchCall } from './get-method-batch.js';

export interface StateGetArgs extends Omit<GetRunArgs, 'code' | 'data' | 'balance'> {
  /** The ShardAccount BoC as stored. */
  shardAccount: Uint8Array;
}

export interface StateGetResult {
  lastTxLt: bigint;
  lastTxHash: Uint8Array;
  /** null: the account cannot run code (not active, or no code). */
  run: GetRunResult | null;
}

/** Thrown when the state cannot be read (not the emulator's failure: the worker stays usable). */
export class UnreadableState extends Error {}

/** What a get-method needs of a stored state, read once. */
interface ReadState {
  lastTxLt: bigint;
  lastTxHash: Uint8Array;
  balance: bigint;
  /** The account's code and data (undefined: it cannot run code). */
  runnable: { code: Cell; data: Cell } | undefined;
}

/**
 * States read lately, by the SHA-256 of their stored bytes (equal bytes, equal state: the key cannot go stale,
 * whatever a snapshot restore does to seqnos and lts). Detection asks a few accounts many times at one state:
 * an NFT collection answers get_nft_address_by_index and get_nft_content for every item minted in a block, a
 * jetton master get_wallet_address for every new wallet; each call would parse the same state again (every
 * cell hashed) and serialize its code and data again. Hashing the bytes costs a few microseconds.
 */
const READ_STATES_KEPT = 256;
const readStates = new Map<string, ReadState>();

function readState(address: string, shardAccount: Uint8Array): ReadState {
  const bytes = Buffer.from(shardAccount.buffer, shardAccount.byteOffset, shardAccount.byteLength);
  const key = createHash('sha256').update(bytes).digest('base64');
  const kept = readStates.get(key);
  if (kept) {
    // Most recently used last: the Map's first key is the one to drop.
    readStates.delete(key);
    readStates.set(key, kept);
    return kept;
  }
  let read: ReadState;
  try {
    const view = new AccountView(Address.parseRaw(address), bytes);
    const runnable = view.status === 'active' && view.code ? { code: view.code, data: view.data ?? Cell.EMPTY } : undefined;
    read = { lastTxLt: view.lastTxLt, lastTxHash: view.lastTxHash, balance: view.balance, runnable };
  } catch (err) {
    throw new UnreadableState(`account state of ${address}: ${(err as Error).message}`);
  }
  readStates.set(key, read);
  if (readStates.size > READ_STATES_KEPT) readStates.delete(readStates.keys().next().value!);
  return read;
}

/** How many states the cache holds (tests). */
export function readStatesKept(): number {
  return readStates.size;
}

/**
 * The call a get-method on a stored state makes (null: the account cannot run code), and how to answer with its
 * result: the worker runs the calls it has queued together (get-method-batch.ts).
 */
export function stateGetCall(args: StateGetArgs): { call: BatchCall | null; answer(run: GetRunResult | null): StateGetResult } {
  const { shardAccount, ...rest } = args;
  const { lastTxLt, lastTxHash, balance, runnable } = readState(args.address, shardAccount);
  const call = runnable ? { args: { ...rest, balance }, code: runnable.code, data: runnable.data } : null;
  return { call, answer: (run) => ({ lastTxLt, lastTxHash, run }) };
}

/** One get-method on a stored state, alone (tests). */
export function runGetMethodOnState(emulator: Emulator, args: StateGetArgs): StateGetResult {
  const { call, answer } = stateGetCall(args);
  return answer(call && emulator.runGetMethod(standaloneArgs(call)));
}
