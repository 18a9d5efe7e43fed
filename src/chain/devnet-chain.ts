/**
 * The devnet side of a chain: what a local chain offers besides the Chain reads (faucets, mining, time, state
 * surgery, config, snapshots), which src/devnet serves over HTTP. Networks of validators (chain/lite) and upstream
 * networks have none of it.
 */
import type { Address, Cell } from '@ton/core';
import type { Block, Chain } from './types.js';

export interface FaucetInfo {
  kind: 'v4r2' | 'v5r1';
  address: Address;
  walletId: number;
}

/** What the faucet sends for `sendFromFaucet`: bounceable unless told otherwise. */
export interface FaucetMessage {
  to: Address;
  value: bigint;
  body?: Cell;
  init?: { code: Cell; data: Cell };
  bounce?: boolean;
}

/** How a local chain makes blocks: on a timer, or only when asked (`mine`). */
export type MiningMode = { mode: 'auto'; intervalMs: number } | { mode: 'manual' };

/** A local chain's (virtual) clock, in unix seconds. */
export interface ChainTime {
  /** The chain's time now: what the next block opened gets as gen_utime (unless pinned). */
  utime: number;
  /** The same in milliseconds (health checks measure a block's age against it). */
  nowMs: number;
  lastBlockUtime: number;
  /** Set by `setNextBlockTime` until the next block opens. */
  nextBlockUtime?: number;
  /**
   * How far the chain's clock is ahead of the machine's (seconds; negative when set back): what the time controls
   * moved. Wallet messages are checked against the chain's clock, so a valid_until taken from the machine's clock
   * expires this much sooner.
   */
  aheadSeconds: number;
}

/** An internal message delivered from outside the chain (devnet): the block it is in, its transaction. */
export interface InjectedMessage {
  hash: Buffer;
  seqno: number;
  transaction?: { hash: Buffer; lt: bigint };
}

/** A named point a local chain can be put back to. */
export interface Snapshot {
  name: string;
  seqno: number;
  rootHash: Buffer;
  /** Unix ms, the chain's clock. */
  createdAtMs: number;
  pendingMessages: number;
}

export interface SnapshotRestored extends Snapshot {
  /** Snapshots taken after this one, dropped with the blocks they stood on. */
  droppedSnapshots: string[];
}

/** A local chain with the devnet controls (src/devnet serves them over HTTP). */
export interface DevnetChain extends Chain {
  faucets(): FaucetInfo[];
  /** A signed transfer from the v4r2 faucet; resolves once its transaction is in a sealed block. */
  fund(address: Address, amount: bigint): Promise<{ txHash: Buffer; lt: bigint; seqno: number }>;
  /** Any one message from the v4r2 faucet (the jetton faucet's mint); resolves once its transaction is sealed. */
  sendFromFaucet(message: FaucetMessage): Promise<{ txHash: Buffer; lt: bigint; seqno: number; messageHash: Buffer }>;
  miningMode(): MiningMode;
  /** How long auto mining has gone without sealing a block (ms, since the last seal or the start of auto mining); undefined while none is due. */
  msWithoutBlock(): number | undefined;
  /** Auto mining without an interval: the last one used, or the configured one. */
  setMiningMode(mode: { mode: 'auto'; intervalMs?: number } | { mode: 'manual' }): MiningMode;
  /** Seals `blocks` blocks (the first with everything pending); resolves with the last. */
  mine(blocks?: number): Promise<Block>;
  time(): ChainTime;
  increaseTime(seconds: number): Promise<ChainTime>;
  setTime(utime: number): Promise<ChainTime>;
  setNextBlockTime(utime: number): Promise<ChainTime>;
  setAccount(address: Address, change: { balance?: bigint; code?: Cell; data?: Cell } | { shardAccount: Cell }): Promise<{ seqno: number }>;
  sendInternal(boc: Buffer): Promise<InjectedMessage>;
  /** Sets config params (checked, sealed in a block with the config contract's new data); resolves with its seqno. */
  setConfig(params: ReadonlyMap<number, Cell>): Promise<{ seqno: number; configSeqno: number }>;
  snapshots(): Snapshot[];
  saveSnapshot(name: string): Promise<Snapshot>;
  restoreSnapshot(name: string): Promise<SnapshotRestored>;
  deleteSnapshot(name: string): Snapshot;
  exportSnapshot(name: string): Promise<Buffer>;
  importSnapshot(name: string, file: Buffer): Promise<Snapshot>;
}

/** Whether a network's chain has the devnet controls (a local chain does; lite and upstream networks do not). */
export function isDevnetChain(chain: Chain | undefined | null): chain is DevnetChain {
  return typeof (chain as Partial<DevnetChain> | undefined)?.mine === 'function';
}
