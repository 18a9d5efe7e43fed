/**
 * Get-methods, run by the chain's emulator on the account as of the last (or the given) masterchain
 * block. A failing exit code is a result, not an error (ok:true with exit_code set; -13 for an account
 * that has no code), exactly as toncenter answers: TonClient.runMethod and tonweb decide what it means.
 */
import type { GetMethodResult } from '../../../chain/types.js';
import { blockIdExt } from '../../../ton/block-id.js';
import { legacyStack, typedStack } from '../../../ton/stack-output.js';
import { transactionId } from '../../../ton/tonlib-json.js';
import { parseVmStack } from '../../../ton/vm-stack.js';
import type { NetworkContext } from '../../../http/network-context.js';
import { runGetMethodAt } from '../get-method-cache.js';
import { defineMethod } from '../method.js';
import type { ParsedParams } from '../params.js';
import { ADDRESS, SEQNO_OPTIONAL } from './common-params.js';

const params = {
  address: ADDRESS,
  method: { type: 'method', required: true, description: 'Get-method name (e.g. "seqno") or numeric id.' },
  stack: {
    type: 'stack',
    default: [],
    description:
      'Arguments, bottom first: `[["num","0x1"]]`, `[["tvm.Cell","<b64 boc>"]]`, `[["tvm.Slice",...]]`, tonlib typed entries or v3 `{type,value}`.',
  },
  seqno: SEQNO_OPTIONAL,
} as const;

function run({ address, method, stack, seqno }: ParsedParams<typeof params>, network: NetworkContext): Promise<GetMethodResult> {
  return runGetMethodAt(network.chain, address, method, stack, seqno);
}

export const runGetMethod = defineMethod({
  name: 'runGetMethod',
  verbs: ['POST'],
  summary: 'Runs a get-method; the stack in toncenter\'s legacy form (["num","0x.."], ["cell",{bytes,object}], tuples and lists).',
  params,
  async handle(p, network) {
    const result = await run(p, network);
    return {
      '@type': 'smc.runResult',
      gas_used: Number(result.gasUsed),
      stack: legacyStack(parseVmStack(result.stackBoc)),
      exit_code: result.exitCode,
      block_id: blockIdExt(result.block),
      last_transaction_id: transactionId(result.lastTxLt, result.lastTxHash),
    };
  },
});

export const runGetMethodStd = defineMethod({
  name: 'runGetMethodStd',
  verbs: ['POST'],
  summary: 'Runs a get-method; arguments and results as tonlib typed stack entries.',
  params,
  async handle(p, network) {
    const result = await run(p, network);
    return {
      '@type': 'smc.runResult',
      gas_used: Number(result.gasUsed),
      stack: typedStack(parseVmStack(result.stackBoc)),
      exit_code: result.exitCode,
    };
  },
});
