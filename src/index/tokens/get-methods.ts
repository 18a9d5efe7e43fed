/**
 * How the store thread runs get-methods: through the chain that feeds the index (Chain.runGetMethod, at
 * the block's masterchain seqno), never by itself. The chain lives in the main thread, so the store
 * thread asks over its port (PortGetMethods) and the main thread relays to the chain (serveGetMethods):
 * the local chain runs them on its emulator read workers, chain/lite asks a liteserver. The main thread
 * only passes BoCs along. Stacks cross as BoCs (cells do not survive structured clone). The calls asked in
 * one turn of the store thread's event loop (a block's detection asks dozens at once) cross in one message, and
 * their answers come back in one: each crossing costs both threads, the main thread being the one that produces
 * blocks.
 */
import { Address, Cell, parseTuple, serializeTuple, type TupleItem } from '@ton/core';
import type { GetMethodResult } from '../../chain/types.js';
import { parseVmStack, type VmValue } from '../../ton/vm-stack.js';

/** The result stack (bottom first) of a successful call, or null for a non-zero exit code. */
export interface GetMethodRunner {
  run(address: string, method: string, stack: TupleItem[], mcSeqno: number): Promise<VmValue[] | null>;
}

/** What the store thread's detection is given of a chain: its get-methods, and how long one may take (null: no limit). */
export interface GetMethodRelay {
  run: RunGetMethod;
  timeoutMs: number | null;
}

/** What the relay needs of a chain. */
export type RunGetMethod = (
  address: Address,
  method: string,
  stack: TupleItem[],
  mcSeqno: number,
) => PromiseLike<GetMethodResult> | GetMethodResult;

export interface GetMethodRequest {
  getMethod: { id: number; address: string; method: string; stack: Uint8Array | null; mcSeqno: number };
}
export interface GetMethodReply {
  getMethodResult: { id: number; exitCode?: number; stack?: Uint8Array; error?: string };
}
/** What crosses the port: the calls of one turn, and their answers. */
export interface GetMethodRequests {
  getMethods: Array<GetMethodRequest['getMethod']>;
}
export interface GetMethodReplies {
  getMethodResults: Array<GetMethodReply['getMethodResult']>;
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

/** The store thread's side: the calls of a turn in one message to the main thread, answered by id. */
export class PortGetMethods implements GetMethodRunner {
  private nextId = 1;
  private readonly waiting = new Map<number, { resolve(v: VmValue[] | null): void; reject(e: Error): void }>();
  private outbox: Array<GetMethodRequest['getMethod']> = [];

  /** `timeoutMs` null: the chain always answers (IndexFeed.getMethodsAlwaysAnswer), a call waits as long as it takes. */
  constructor(
    private readonly post: (requests: GetMethodRequests) => void,
    private readonly timeoutMs: number | null = GET_METHOD_TIMEOUT_MS,
  ) {}

  run(address: string, method: string, stack: TupleItem[], mcSeqno: number): Promise<VmValue[] | null> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timeoutMs = this.timeoutMs;
      const timer =
        timeoutMs === null
          ? undefined
          : setTimeout(() => {
              this.waiting.delete(id);
              reject(new Error(`${method} on ${address}: no answer from the chain within ${timeoutMs} ms`));
            }, timeoutMs);
      timer?.unref();
      const done = () => clearTimeout(timer);
      this.waiting.set(id, {
        resolve: (values) => (done(), resolve(values)),
        reject: (error) => (done(), reject(error)),
      });
      if (this.outbox.length === 0) setImmediate(() => this.flush());
      this.outbox.push({ id, address, method, stack: stack.length > 0 ? serializeTuple(stack).toBoc() : null, mcSeqno });
    });
  }

  private flush(): void {
    const getMethods = this.outbox;
    this.outbox = [];
    if (getMethods.length > 0) this.post({ getMethods });
  }

  /** Replies from the main thread. */
  settle({ getMethodResults }: GetMethodReplies): void {
    for (const reply of getMethodResults) this.settleOne(reply);
  }

  private settleOne(reply: GetMethodReply['getMethodResult']): void {
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

/** The main thread's side of a turn's calls: each run on the chain, the answers in one reply. */
export async function serveGetMethods(run: RunGetMethod, { getMethods }: GetMethodRequests): Promise<GetMethodReplies> {
  const answers = await Promise.all(getMethods.map((getMethod) => serveGetMethod(run, { getMethod })));
  return { getMethodResults: answers.map((answer) => answer.getMethodResult) };
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
