/**
 * Calling get-methods on the chain from inside a v2 method (getTokenData, dnsResolve), with typed reads
 * of the answer. A contract that lacks the method, fails it or answers the wrong shape is "not that kind
 * of contract": the readers return null / throw NotThatContract, and the caller decides what to answer.
 */
import type { Address, TupleItem } from '@ton/core';
import { parseVmStack, type VmValue } from '../../../ton/vm-stack.js';
import type { NetworkContext } from '../../../http/network-context.js';
import { runGetMethodAt } from '../get-method-cache.js';

// Typed reads of a result stack live in src/ton (the token index reads stacks the same way).
export { NotThatContract, StackReader } from '../../../ton/stack-reader.js';

/** The result stack (bottom first) of a successful call, or null for a non-zero exit code. */
export async function callGetMethod(
  network: NetworkContext,
  address: Address,
  method: string,
  args: TupleItem[] = [],
  seqno?: number,
): Promise<VmValue[] | null> {
  const result = await runGetMethodAt(network.chain, address, method, args, seqno);
  return result.exitCode === 0 || result.exitCode === 1 ? parseVmStack(result.stackBoc) : null;
}
