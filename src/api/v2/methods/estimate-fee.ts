/**
 * estimateFee: the fees of an external message, from a real emulation of it on the account's current
 * state (nothing is recorded). With ignore_chksig (the default, as toncenter) signature checks succeed,
 * so an unsigned body of a wallet transfer can be priced. Fees are numbers, as tonlib writes them and
 * TonClient's schema requires.
 *
 * A message the contract would not accept (no balance to buy gas, wrong seqno, ...) runs nothing: as
 * tonlib does, the answer is then only the import fee, with no gas and no forwarding fee, still a 200
 * (wallet software asks this before funding a new wallet). destination_fees stays empty: the emulation
 * covers the account's own transaction, not what its outbound messages will cost where they land.
 */
import { beginCell, external, storeMessage, type Cell } from '@ton/core';
import { badParameter } from '../../../http/api-error.js';
import { importFee } from '../import-fee.js';
import { defineMethod } from '../method.js';
import { ADDRESS } from './common-params.js';

const fees = (inFwdFee: bigint, storageFee: bigint, gasFee: bigint, fwdFee: bigint) => ({
  '@type': 'query.fees',
  source_fees: {
    '@type': 'fees',
    in_fwd_fee: Number(inFwdFee),
    storage_fee: Number(storageFee),
    gas_fee: Number(gasFee),
    fwd_fee: Number(fwdFee),
  },
  destination_fees: [],
});

/**
 * A cell a message may carry. No part of a message may hold a pruned branch (its level would be
 * non-zero: validators and the emulator refuse such a message); the body is read as the message's
 * tail, so it must be an ordinary cell (code may be a library cell: jetton wallets are deployed so).
 */
function checkMessagePart(name: string, cell: Cell, ordinary: boolean): void {
  if (cell.level() > 0) throw badParameter(name, 'holds a pruned branch: a message cannot carry one');
  if (ordinary && cell.isExotic) throw badParameter(name, 'an exotic cell (library or pruned branch) cannot be a message body');
}

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
    checkMessagePart('body', body, true);
    if (init_code) checkMessagePart('init_code', init_code, false);
    if (init_data) checkMessagePart('init_data', init_data, false);
    const { chain } = network;
    const result = await chain.emulateExternal(
      { address, body, initCode: init_code, initData: init_data },
      { ignoreChksig: ignore_chksig },
    );
    if (result.accepted) {
      const { inFwdFee, storageFee, gasFee, fwdFee } = result.fees;
      return fees(inFwdFee, storageFee, gasFee, fwdFee);
    }
    const init = init_code && init_data ? { code: init_code, data: init_data } : undefined;
    const message = beginCell()
      .store(storeMessage(external({ to: address, body, init })))
      .endCell();
    return fees(importFee(await chain.config(), address.workChain, message), 0n, 0n, 0n);
  },
});
