/**
 * A whole trace emulated from one external message, on a state nothing is written to (emulateTrace): the external's
 * transaction, then every internal message it caused, each run on its receiver's state as the trace left it. The
 * messages are delivered in the order they were created (lt order), as a local chain's message queue delivers them
 * (chain/local/message-queue.ts), so a trace emulated here has the transactions sealing the same message gives.
 * Each chain says where an account's state comes from (chain/local: its last sealed block; chain/lite: the
 * liteservers, proven) and runs the transactions on its emulator read workers.
 *
 * Bounded as toncenter's trace emulator is (ton-indexer's ton-trace-emulator `EmulationContext`): at most 256
 * transactions, 32 levels of messages; what is left is not emulated and the trace is marked `incomplete`.
 */
import { Cell, type Address, type TupleItem } from '@ton/core';
import { ExternalNotAccepted } from './errors.js';
import { readExecutedTx } from './executed-tx.js';
import type { TxRunResult } from './emulator/emulator.js';
import type { EmulatedTrace, EmulatedTransaction, GetMethodResult, TraceBounds } from './types.js';

/** toncenter's bounds on an emulated trace. */
export const TRACE_TRANSACTION_LIMIT = 256;
export const TRACE_DEPTH_LIMIT = 32;

export interface TraceRunArgs {
  /** ShardAccount BoC, base64. */
  shardAccount: string;
  /** Message BoC, base64. */
  message: string;
  now: number;
  lt: bigint;
  ignoreChksig: boolean;
}

/** What a chain lends a trace emulation: the state it starts from and an emulator. */
export interface TraceEmulationEnv {
  /** An account's ShardAccount (BoC, base64) in the state emulated on. */
  account(address: Address): Promise<string> | string;
  /** Runs one transaction (config, PREVBLOCKSINFO, random seed and libraries are the chain's). */
  run(args: TraceRunArgs): Promise<TxRunResult>;
  /** Runs a get-method on an account's ShardAccount (BoC, base64), at the block emulated on. */
  getMethod(address: Address, shardAccount: string, method: string, stack: TupleItem[]): Promise<GetMethodResult>;
  /** The unix time the transactions run at. */
  now: number;
  /** A logical time above every transaction of the state emulated on. */
  startLt: bigint;
  /** The masterchain block whose state is emulated on. */
  mcSeqno: number;
  randSeed: Buffer;
}

interface Delivery {
  boc: string;
  dest: Address;
  createdLt: bigint;
  depth: number;
}

/** Runs the trace of `external` (a parsed external-in message: its destination and BoC, base64). */
export async function emulateTrace(
  env: TraceEmulationEnv,
  external: { dest: Address; boc: string },
  options: { ignoreChksig: boolean } & TraceBounds,
): Promise<EmulatedTrace> {
  const maxTransactions = options.maxTransactions ?? TRACE_TRANSACTION_LIMIT;
  const maxDepth = options.maxDepth ?? TRACE_DEPTH_LIMIT;
  // The trace's own view of the accounts it changed; the others are read from the chain once.
  const states = new Map<string, string>();
  const stateOf = async (address: Address): Promise<string> => {
    const key = address.toRawString();
    let state = states.get(key);
    if (state === undefined) {
      state = await env.account(address);
      states.set(key, state);
    }
    return state;
  };

  const transactions: EmulatedTransaction[] = [];
  const queue: Delivery[] = [{ boc: external.boc, dest: external.dest, createdLt: 0n, depth: 0 }];
  let nextLt = env.startLt;
  let incomplete = false;
  for (let head = 0; head < queue.length; head++) {
    if (transactions.length >= maxTransactions) {
      incomplete = true;
      break;
    }
    const delivery = queue[head];
    const before = await stateOf(delivery.dest);
    const lastLt = lastTransactionLt(before);
    let lt = nextLt;
    if (delivery.createdLt >= lt) lt = delivery.createdLt + 1n;
    if (lastLt >= lt) lt = lastLt + 1n;
    const result = await env.run({
      shardAccount: before,
      message: delivery.boc,
      now: env.now,
      lt,
      ignoreChksig: options.ignoreChksig,
    });
    if (!result.success) {
      if (head === 0) {
        const exit = result.exitCode === undefined ? '' : ` (exit code ${result.exitCode})`;
        throw new ExternalNotAccepted(
          `boc: the external message was not accepted by ${delivery.dest.toRawString()}${exit}: ${result.error}`,
        );
      }
      // An internal message always makes a transaction; an emulator that cannot run one leaves the trace cut here.
      incomplete = true;
      continue;
    }
    const tx = readExecutedTx(delivery.dest.workChain, result.transaction, result.shardAccount);
    transactions.push({ ...tx, shardAccountBefore: before, depth: delivery.depth });
    states.set(delivery.dest.toRawString(), result.shardAccount);
    nextLt = tx.endLt > nextLt ? tx.endLt : nextLt;
    for (const out of tx.outMsgs) {
      const info = out.message.info;
      if (info.type !== 'internal') continue;
      if (delivery.depth + 1 >= maxDepth) {
        incomplete = true;
        continue;
      }
      queue.push({ boc: out.cell.toBoc().toString('base64'), dest: info.dest, createdLt: info.createdLt, depth: delivery.depth + 1 });
    }
  }
  return {
    mcSeqno: env.mcSeqno,
    randSeed: env.randSeed,
    transactions,
    incomplete,
    states,
    runGetMethod: async (address, method, stack) => env.getMethod(address, await stateOf(address), method, stack),
  };
}

function lastTransactionLt(shardAccountBase64: string): bigint {
  // shard_account$_ account:^Account last_trans_hash:bits256 last_trans_lt:uint64: the account itself is not read.
  const s = Cell.fromBase64(shardAccountBase64).beginParse();
  s.loadRef();
  s.skip(256);
  return s.loadUintBig(64);
}
