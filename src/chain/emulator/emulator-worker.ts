/**
 * An emulator worker thread: loads the WASM emulator once, keeps one emulator per config id with the
 * last PREVBLOCKSINFO and libraries it was sent (emulator-protocol.ts), and runs requests in arrival
 * order, answering each. Get-methods that queued up while it was busy, all of one config and block,
 * run in one emulator call (get-method-batch.ts): what a burst of detection get-methods after a block
 * looks like. A request that arrives alone runs alone, at once.
 *
 * If the emulator itself throws (a WASM trap: its memory may be corrupt), the worker answers that one
 * request with a fatal error and ignores everything after it: the pool terminates it and sends the
 * requests still waiting to a fresh worker.
 */
// @ton/core's cell hashing and bit copying, made fast in this thread (see core-speedups.ts).
import '../../ton/core-speedups.js';
import { parentPort, receiveMessageOnPort, workerData } from 'node:worker_threads';
import { Emulator, loadExecutorAndModule, type Executor, type GetRunResult } from './emulator.js';
import type { DropRequest, EmulatorWorkerData, ManyRequests, WorkerRequest, WorkerResponse } from './emulator-protocol.js';
import { IDLE_FROM_NICE, lowerThisThreadPriority } from '../../util/thread-priority.js';
import { callOfArgs, MAX_BATCH, runGetMethodBatch, type BatchCall } from './get-method-batch.js';
import { stateGetCall, UnreadableState } from './state-get-method.js';

interface ConfigSlot {
  config: string;
  emulator?: Emulator;
  prevBlocksInfo?: string;
  libs?: string;
}

/** Not a WASM failure: the request itself could not be served (unknown config id, refused config). */
class RequestError extends Error {}

const port = parentPort;
if (!port) throw new Error('emulator-worker.ts runs as a worker thread (see emulator-pool.ts)');

// An idle-class worker (IDLE_FROM_NICE and up: SCHED_IDLE, the index's get-methods) lowers its priority once the WASM
// emulator is loaded (below), not before: the load is ~1-2 s of CPU, and in SCHED_IDLE on a busy machine it took
// minutes, which the index's first token detection waited for. Others (the transaction workers, nice 10) lower it
// at once, so their load yields to the thread serving HTTP as before.
const nice = (workerData as EmulatorWorkerData | undefined)?.nice ?? null;
const handedModule = (workerData as EmulatorWorkerData | undefined)?.compiled;
const lowerAfterLoading = nice !== null && nice >= IDLE_FROM_NICE;
if (nice !== null && !lowerAfterLoading) lowerThisThreadPriority(nice);

const slots = new Map<number, ConfigSlot>();
let poisoned = false;

const post = (response: WorkerResponse): void => port.postMessage(response);

function slotFor(executor: Executor, req: WorkerRequest): ConfigSlot & { emulator: Emulator } {
  let slot = slots.get(req.cfg);
  if (req.config !== undefined) {
    slot?.emulator?.close();
    slot = { config: req.config };
    slots.set(req.cfg, slot);
  }
  if (!slot) throw new RequestError(`emulator worker: config ${req.cfg} was never sent`);
  if (req.prevBlocksInfo !== undefined) slot.prevBlocksInfo = req.prevBlocksInfo ?? undefined;
  if (req.libs !== undefined) slot.libs = req.libs ?? undefined;
  if (!slot.emulator) {
    try {
      slot.emulator = new Emulator(executor, slot.config);
    } catch (err) {
      throw new RequestError((err as Error).message);
    }
  }
  return slot as ConfigSlot & { emulator: Emulator };
}

type GetRequest = WorkerRequest & { op: 'get' | 'getState' };

/** A get-method waiting in a group: its call (null: the account cannot run code) and how to answer it. */
interface Pending {
  req: GetRequest;
  call: BatchCall | null;
  answer(run: GetRunResult | null): unknown;
}

/** Runs what arrived, in order; consecutive get-methods of one config and block as one group. */
function serve(executor: Executor, requests: Array<WorkerRequest | DropRequest>): void {
  let group: Pending[] = [];
  let slot: (ConfigSlot & { emulator: Emulator }) | undefined;
  const flush = () => {
    if (group.length > 0 && slot) runGroup(slot, group);
    group = [];
  };
  for (const req of requests) {
    if (poisoned) return;
    if (req.op !== 'get' && req.op !== 'getState') {
      flush();
      handle(executor, req);
      continue;
    }
    if (group.length > 0 && !joins(group[0].req, req)) flush();
    try {
      slot = slotFor(executor, req);
      const sticky = { prevBlocksInfo: slot.prevBlocksInfo, libs: slot.libs };
      if (req.op === 'get') {
        const args = { ...req.args, ...sticky };
        group.push({ req, call: callOfArgs(args), answer: (run) => run });
      } else {
        const { call, answer } = stateGetCall({ ...req.args, ...sticky });
        group.push({ req, call, answer });
      }
    } catch (err) {
      flush();
      fail(req.id, err);
    }
    if (group.length >= MAX_BATCH) flush();
  }
  flush();
}

/** Same config, nothing sticky changed, same block (time, seed, gas limit): one emulator call can serve both. */
function joins(first: GetRequest, req: GetRequest): boolean {
  if (first.alone || req.alone) return false;
  if (req.cfg !== first.cfg || req.config !== undefined || req.prevBlocksInfo !== undefined || req.libs !== undefined) return false;
  const a = first.args;
  const b = req.args;
  return a.unixTime === b.unixTime && a.randSeedHex === b.randSeedHex && a.gasLimit === b.gasLimit;
}

function runGroup(slot: ConfigSlot & { emulator: Emulator }, group: Pending[]): void {
  const runnable = group.filter((p) => p.call !== null);
  let runs: GetRunResult[];
  try {
    runs = runGetMethodBatch(
      slot.emulator,
      runnable.map((p) => p.call!),
    );
  } catch (err) {
    // The emulator threw: the oldest request takes the failure, the pool sends the rest to a new worker.
    fail(group[0].req.id, err);
    return;
  }
  let next = 0;
  const results: WorkerResponse[] = group.map((p) => ({
    op: 'result',
    id: p.req.id,
    ok: true,
    result: p.answer(p.call ? runs[next++] : null) as GetRunResult,
  }));
  // One message for the group's answers (each crossing costs both threads).
  post(results.length === 1 ? results[0] : { op: 'results', results });
}

function fail(id: number, err: unknown): void {
  const fatal = !(err instanceof RequestError) && !(err instanceof UnreadableState);
  if (fatal) poisoned = true;
  post({ op: 'result', id, ok: false, error: err instanceof Error ? err.message : String(err), fatal });
}

/** Every request but a get-method: init, a transaction, drop. */
function handle(executor: Executor, req: WorkerRequest | DropRequest): void {
  if (req.op === 'drop') {
    slots.get(req.cfg)?.emulator?.close();
    slots.delete(req.cfg);
    return;
  }
  try {
    const slot = slotFor(executor, req);
    const sticky = { prevBlocksInfo: slot.prevBlocksInfo, libs: slot.libs };
    if (req.op === 'init') post({ op: 'result', id: req.id, ok: true, result: null });
    else if (req.op === 'tx')
      post({ op: 'result', id: req.id, ok: true, result: slot.emulator.runTransaction({ ...req.args, ...sticky }) });
  } catch (err) {
    fail(req.id, err);
  }
}

// Requests wait in arrival order: those the port delivered as events, then those still queued in it (taken
// at once, so the get-methods of a burst meet in one group). Before the WASM module has loaded, they wait.
const inbox: Array<WorkerRequest | DropRequest> = [];
let scheduled = false;
const loading = loadExecutorAndModule(handedModule);
const ready = loading.then(({ executor }) => executor);
const receive = (message: WorkerRequest | DropRequest | ManyRequests) => {
  if (message.op === 'many') inbox.push(...message.requests);
  else inbox.push(message);
};
port.on('message', (message: WorkerRequest | DropRequest | ManyRequests) => {
  receive(message);
  if (scheduled) return;
  scheduled = true;
  void ready.then((executor) => {
    scheduled = false;
    for (let queued = receiveMessageOnPort(port); queued; queued = receiveMessageOnPort(port))
      receive(queued.message as WorkerRequest | DropRequest | ManyRequests);
    serve(executor, inbox.splice(0));
  });
});
loading.then(
  ({ compiled }) => {
    if (lowerAfterLoading) lowerThisThreadPriority(nice);
    post(handedModule ? { op: 'ready' } : { op: 'ready', compiled });
  },
  (err) => {
    // Nothing can run here: let the pool see the worker fail to start.
    throw err;
  },
);
