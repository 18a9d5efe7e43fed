/**
 * An emulator worker thread: loads the WASM emulator once, keeps one emulator per config id with the
 * last PREVBLOCKSINFO and libraries it was sent (emulator-protocol.ts), and runs requests one at a
 * time, in arrival order, answering each.
 *
 * If the emulator itself throws (a WASM trap: its memory may be corrupt), the worker answers that one
 * request with a fatal error and ignores everything after it: the pool terminates it and sends the
 * requests still waiting to a fresh worker.
 */
// @ton/core's cell hashing and bit copying, made fast in this thread (see core-speedups.ts).
import '../../ton/core-speedups.js';
import { parentPort, workerData } from 'node:worker_threads';
import { Emulator, loadExecutor, type Executor } from './emulator.js';
import type { DropRequest, EmulatorWorkerData, WorkerRequest, WorkerResponse } from './emulator-protocol.js';
import { lowerThisThreadPriority } from '../../util/thread-priority.js';
import { runGetMethodOnState, UnreadableState } from './state-get-method.js';

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

if ((workerData as EmulatorWorkerData | undefined)?.background) lowerThisThreadPriority();

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

function handle(executor: Executor, req: WorkerRequest | DropRequest): void {
  if (poisoned) return;
  if (req.op === 'drop') {
    slots.get(req.cfg)?.emulator?.close();
    slots.delete(req.cfg);
    return;
  }
  try {
    const slot = slotFor(executor, req);
    const sticky = { prevBlocksInfo: slot.prevBlocksInfo, libs: slot.libs };
    let result: WorkerResponse & { ok: true };
    if (req.op === 'init') result = { op: 'result', id: req.id, ok: true, result: null };
    else if (req.op === 'tx') result = { op: 'result', id: req.id, ok: true, result: slot.emulator.runTransaction({ ...req.args, ...sticky }) };
    else if (req.op === 'get') result = { op: 'result', id: req.id, ok: true, result: slot.emulator.runGetMethod({ ...req.args, ...sticky }) };
    else result = { op: 'result', id: req.id, ok: true, result: runGetMethodOnState(slot.emulator, { ...req.args, ...sticky }) };
    post(result);
  } catch (err) {
    const fatal = !(err instanceof RequestError) && !(err instanceof UnreadableState);
    if (fatal) poisoned = true;
    post({ op: 'result', id: req.id, ok: false, error: err instanceof Error ? err.message : String(err), fatal });
  }
}

// Requests that arrive while the WASM module loads wait for it, in order.
const ready = loadExecutor();
port.on('message', (req: WorkerRequest | DropRequest) => {
  void ready.then((executor) => handle(executor, req));
});
ready.then(
  () => post({ op: 'ready' }),
  (err) => {
    // Nothing can run here: let the pool see the worker fail to start.
    throw err;
  },
);
