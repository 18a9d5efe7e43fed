/**
 * A pending trace's accounts as it left them, for the token detection its classification runs on the accounts the
 * index does not know yet (actions.ts): each account's state after its last transaction in the trace (the
 * ShardAccount the chain's emulator returned with it: a local chain's open-block transaction, a lite network's
 * emulated one), and get-methods run on those states by the chain (Chain.runGetMethodOnState); an account the trace
 * did not reach (a jetton master asked to vouch for its wallet) answers as the chain has it.
 */
import type { Chain, TraceStates } from '../chain/types.js';
import type { PendingTrace } from './pending-traces.js';

/** undefined: the chain cannot run a get-method on a state it is given (nothing is detected then). */
export function pendingTraceStates(trace: PendingTrace, chain: Chain): TraceStates | undefined {
  const onState = chain.runGetMethodOnState?.bind(chain);
  if (!onState) return undefined;
  const states = new Map<string, string>();
  // In the order they ran: an account's later transaction leaves the state that stands.
  for (const tx of trace.txs) states.set(tx.source.account.toRawString(), tx.source.shardAccount);
  return {
    mcSeqno: chain.masterchainInfo().last.id.seqno,
    states,
    runGetMethod: async (address, method, stack) => {
      const state = states.get(address.toRawString());
      return state === undefined ? chain.runGetMethod(address, method, stack) : onState(address, state, method, stack);
    },
  };
}
