/**
 * How the store thread runs get-methods: through the chain that feeds the index (Chain.runGetMethod, at
 * the block's masterchain seqno), never by itself. The chain lives in the main thread, so the store
 * thread asks over its port (PortGetMethods) and the main thread relays to the chain (serveGetMethods):
 * the local chain runs them on its emulator read workers, chain/lite asks a liteserver. The main thread
 * only passes BoCs along. Stacks cross as BoCs (cells do not survive structured clone).
 */
import { Address, Cell, parseTuple, serializeTuple, type TupleItem } from '@ton/core';
import type { GetMethodResult } from '../../chain/types.js';
import { parseVmStack, type VmValue } from '../../ton/vm-stack.js';

/** The result stack (bottom first) of a successful call, or null for a non-zero exit code. */
export interface GetMethodRunner {
  run(address: string, method: string, stack: TupleItem[], mcSeqno: number): Promise<VmValue[] | null>;
}

/** What the relay needs of a chain. */
export type RunGetMethod = (address: Address, method: string, stack: TupleItem[], mcSeqno: number) => PromiseLike<GetMethodResult> | GetMethodResult;

export interface GetMethodRequest {
  getMethod: { id: number; address: string; method: string; stack: Uint8Array | null; mcSeqno: number };
}
export interface GetMethodReply {
  getMethodResult: { id: number; exitCode?: number; stack?: Uint8Array; error?: string };
}

function resultStack(exitCode: number, stack: Cell): VmValue[] | null {
  return exitCode === 0 || exitCode === 1 ? parseVmStack(stack) : null;
}

/** In the thread that holds the chain (tests, tools, `attach` with `thread: 'main'`). */
export function directGetMethods(run: RunGetMethod): GetMethodRunner {
  return {
    async run(address, method, stack, mcSeqno) {
      const result = await run(Address.parseRaw(address), method, stack, mcSeqno);
      return resultStack(result.exitCode, result.stackBoc);
    },
  };
}

/**
 * A get-method not answered within this time fails (the account stays undetected this time): a chain that
 * hangs (a liteserver that never answers) must not hold the index's commits forever.
 */
export const GET_METHOD_TIMEOUT_MS = 10_000;

/** The store thread's side: each call a message to the main thread, answered by id. */
export class PortGetMethods implements GetMethodRunner {
  private nextId = 1;
  private readonly waiting = new Map<number, { resolve(v: VmValue[] | null): void; reject(e: Error): void }>();

  constructor(
    private readonly post: (request: GetMethodRequest) => void,
    private readonly timeoutMs = GET_METHOD_TIMEOUT_MS,
  ) {}

  run(address: string, method: string, stack: TupleItem[], mcSeqno: number): Promise<VmValue[] | null> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting.delete(id);
        reject(new Error(`${method} on ${address}: no answer from the chain within ${this.timeoutMs} ms`));
      }, this.timeoutMs);
      timer.unref();
      const done = () => clearTimeout(timer);
      this.waiting.set(id, {
        resolve: (values) => (done(), resolve(values)),
        reject: (error) => (done(), reject(error)),
      });
      this.post({ getMethod: { id, address, method, stack: stack.length > 0 ? serializeTuple(stack).toBoc() : null, mcSeqno } });
    });
  }

  /** A reply from the main thread. */
  settle({ getMethodResult: reply }: GetMethodReply): void {
    const waiter = this.waiting.get(reply.id);
    if (!waiter) return;
    this.waiting.delete(reply.id);
    if (reply.error !== undefined) return waiter.reject(new Error(reply.error));
    try {
      waiter.resolve(resultStack(reply.exitCode!, Cell.fromBoc(Buffer.from(reply.stack!))[0]));
    } catch (error) {
      waiter.reject(error as Error);
    }
  }
}

/** The main thread's side: runs a request on the chain and answers it (an error as its text). */
export async function serveGetMethod(run: RunGetMethod, { getMethod: request }: GetMethodRequest): Promise<GetMethodReply> {
  try {
    const stack = request.stack ? parseTuple(Cell.fromBoc(Buffer.from(request.stack))[0]) : [];
    const result = await run(Address.parseRaw(request.address), request.method, stack, request.mcSeqno);
    // The chain's own BoC when it has it (a local chain: the emulator's), not parsed and serialized again here;
    // a copy of its own, so the pool slab a short Buffer sits in does not cross with it.
    const answer = result.stackBase64 !== undefined ? new Uint8Array(Buffer.from(result.stackBase64, 'base64')) : result.stackBoc.toBoc();
    return { getMethodResult: { id: request.id, exitCode: result.exitCode, stack: answer } };
  } catch (error) {
    return { getMethodResult: { id: request.id, error: (error as Error).message } };
  }
}
