/**
 * The messages between the main thread (emulator-pool.ts) and an emulator worker
 * (emulator-worker.ts). Values cross by structured clone (bigints included).
 *
 * Large inputs that rarely change are sent once per worker and then only when they change
 * ("sticky"): the config (once per config id), PREVBLOCKSINFO and the library dictionary (per config
 * id; a new value on every sealed block at most). In a request, a sticky field that is `undefined`
 * means "same as the last request of this config id", `null` means "none".
 */
import type { GetRunArgs, GetRunResult, TxRunArgs, TxRunResult } from './emulator.js';
import type { StateGetArgs, StateGetResult } from './state-get-method.js';

/** What a worker is started with. */
export interface EmulatorWorkerData {
  /** This thread's CPU priority (a nice value: src/util/thread-priority.ts), or null to keep the process's. */
  nice: number | null;
  /** The emulator's WASM module, compiled by an earlier worker of this process: instantiated, not compiled again. */
  compiled?: WebAssembly.Module;
}

/** The call's arguments without the sticky ones. */
export type TxArgs = Omit<TxRunArgs, 'prevBlocksInfo' | 'libs'>;
export type GetArgs = Omit<GetRunArgs, 'prevBlocksInfo' | 'libs'>;
export type StateArgs = Omit<StateGetArgs, 'prevBlocksInfo' | 'libs'>;

export interface StickyInputs {
  /** The config BoC (base64): on the first request of a config id to a worker. */
  config?: string;
  prevBlocksInfo?: string | null;
  libs?: string | null;
}

export type WorkerRequest = { id: number; cfg: number } & StickyInputs &
  (
    | { op: 'init' }
    | { op: 'tx'; args: TxArgs }
    /** `alone`: not to be batched with others (sent again after a worker crashed while running a batch). */
    | { op: 'get'; args: GetArgs; alone?: true }
    /** A get-method on a stored ShardAccount, prepared in the worker (state-get-method.ts). */
    | { op: 'getState'; args: StateArgs; alone?: true }
  );

/** Get-methods asked in one turn of the main thread's event loop, posted together (answered one by one). */
export interface ManyRequests {
  op: 'many';
  requests: WorkerRequest[];
}

/** Frees a config's emulator in a worker (no answer). */
export interface DropRequest {
  op: 'drop';
  cfg: number;
}

export type WorkerResponse =
  /** `compiled`: the module this worker compiled (absent when it was handed one), for the pool's next workers. */
  | { op: 'ready'; compiled?: WebAssembly.Module }
  /** The answers of get-methods run together (get-method-batch.ts), in one message. */
  | { op: 'results'; results: WorkerResponse[] }
  | { op: 'result'; id: number; ok: true; result: TxRunResult | GetRunResult | StateGetResult | null }
  /** `fatal`: the WASM emulator threw; the worker is not to be used again (the pool replaces it). */
  | { op: 'result'; id: number; ok: false; error: string; fatal: boolean };
