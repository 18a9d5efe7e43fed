/**
 * estimateFee: the fees of an external message, from a real emulation of it on the account's current
 * state (nothing is recorded). With ignore_chksig (the default, as toncenter) signature checks succeed,
 * so an unsigned body of a wallet transfer can be priced. Fees are numbers, as tonlib writes them and
 * TonClient's schema requires. destination_fees stays empty: the emulation covers the account's own
 * transaction, not what its outbound messages will cost where they land.
 */
import { ApiError } from '../../errors.js';
import { defineMethod } from '../method.js';
import { ADDRESS } from './common-params.js';

export const estimateFee = defineMethod({
  name: 'estimateFee',
  verbs: ['POST'],
  summary: 'Fees of an external message (query.fees), from an emulation of it.',
  params: {
    address: ADDRESS,
    body: { type: 'boc', required: true, description: 'Message body, a base64 BoC.' },
    init_code: { type: 'boc', description: 'StateInit code for a deploy (base64 BoC; "" for none).' },
    init_data: { type: 'boc', description: 'StateInit data for a deploy (base64 BoC; "" for none).' },
    ignore_chksig: { type: 'bool', default: true, description: 'Let signature checks succeed (default true).' },
  },
  async handle({ address, body, init_code, init_data, ignore_chksig }, network) {
    const result = await network.chain.emulateExternal({ address, body, initCode: init_code, initData: init_data }, { ignoreChksig: ignore_chksig });
    if (!result.accepted) {
      const exit = result.exitCode === undefined ? '' : ` (exit code ${result.exitCode})`;
      throw new ApiError(400, `cannot estimate fees: the contract does not accept this external message: ${result.error ?? 'rejected'}${exit}`);
    }
    const { inFwdFee, storageFee, gasFee, fwdFee } = result.fees;
    return {
      '@type': 'query.fees',
      source_fees: { '@type': 'fees', in_fwd_fee: Number(inFwdFee), storage_fee: Number(storageFee), gas_fee: Number(gasFee), fwd_fee: Number(fwdFee) },
      destination_fees: [],
    };
  },
});
