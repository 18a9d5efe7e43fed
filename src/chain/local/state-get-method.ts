/**
 * A get-method on an account state as the store keeps it (its ShardAccount BoC), prepared where it runs: in an
 * emulator read worker. A get-method pinned to a past masterchain block (v2's `seqno`, and above all the index's
 * token detection, which runs every get-method of a block at that block's seqno, usually behind the head) reads
 * a state nobody else reads: parsing it and turning its code and data into the emulator's BoCs cost the main
 * thread ~0.25 ms per call (most of what was left of a relayed detection get-method once PREVBLOCKSINFO was
 * kept per block). The main thread now only finds the row and sends its bytes; the worker parses them (the same
 * AccountView the main thread uses for the head's states) and answers the account's last transaction with the result.
 */
import { Address } from '@ton/core';
import { AccountView } from './account-view.js';
import type { Emulator, GetRunArgs, GetRunResult } from './emulator.js';

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

export function runGetMethodOnState(emulator: Emulator, args: StateGetArgs): StateGetResult {
  const { shardAccount, ...call } = args;
  let view: AccountView;
  let runnable: ReturnType<AccountView['runnable']>;
  try {
    view = new AccountView(Address.parseRaw(args.address), Buffer.from(shardAccount.buffer, shardAccount.byteOffset, shardAccount.byteLength));
    runnable = view.runnable();
  } catch (err) {
    throw new UnreadableState(`account state of ${args.address}: ${(err as Error).message}`);
  }
  const account = { lastTxLt: view.lastTxLt, lastTxHash: view.lastTxHash };
  if (!runnable) return { ...account, run: null };
  return { ...account, run: emulator.runGetMethod({ ...call, ...runnable, balance: view.balance }) };
}
