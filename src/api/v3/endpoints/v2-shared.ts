/**
 * The v3 endpoints toncenter serves by calling its v2 API (index/proxy.go), served here by v2's own
 * code: its method definitions, parameter parsing and codecs (errors get their statuses from ../../error-statuses.ts, as everywhere). What v3 adds is the
 * shape of the answer, and toncenter's quirks: a missing required field is a 401 ("boc is required"),
 * and addressInformation/walletInformation read the index unless use_v2=true.
 */
import { Address } from '@ton/core';
import { formatHash, ZERO_HASH } from '../../../ton/hash.js';
import { v3Stack } from '../../../ton/stack-output.js';
import { parseVmStack } from '../../../ton/vm-stack.js';
import { ApiError } from '../../../http/api-error.js';
import type { NetworkContext } from '../../../http/network-context.js';
import type { RawFullAccountState } from '../../v2/format/account.js';
import type { WalletInformationJson } from '../../v2/format/wallet.js';
import { getAddressInformation, getWalletInformation } from '../../v2/methods/accounts.js';
import { estimateFee as v2EstimateFee } from '../../v2/methods/estimate-fee.js';
import { runGetMethod as v2RunGetMethod } from '../../v2/methods/run-get-method.js';
import { sendBocReturnHash } from '../../v2/methods/send.js';
import { defineEndpoint, definePostEndpoint, indexOf, ref } from '../endpoint.js';
import { answerValue } from '../../json-text.js';

const ACCOUNT = {
  address: {
    type: 'address',
    required: true,
    missing: 'address of account is required',
    missingStatus: 401,
    description: 'Account address in any form.',
  },
  use_v2: {
    type: 'bool',
    default: false,
    description: 'Read the chain through the v2 method instead of the index (default false, as toncenter).',
  },
} as const;

const orNull = (text: string) => (text === '' ? null : text);

async function latestState(network: NetworkContext, raw: string) {
  const [state] = await indexOf(network).latestStates([raw], true);
  return state;
}

/** An account the index has never seen: toncenter's zero answer. */
const UNKNOWN = { balance: '0', last_transaction_lt: '0', last_transaction_hash: formatHash(ZERO_HASH), status: 'uninit' };

export const addressInformation = defineEndpoint({
  path: '/addressInformation',
  aliases: ['/account'],
  tag: 'accounts',
  summary: 'Balance, code, data and last transaction of an account (v2 getAddressInformation, v3 shape)',
  params: ACCOUNT,
  response: ref('V2AddressInformation'),
  async handle(p, network) {
    if (p.use_v2) {
      const v2 = answerValue(
        await getAddressInformation.handle({ address: Address.parseRaw(p.address), seqno: undefined }, network),
      ) as RawFullAccountState;
      return {
        balance: v2.balance,
        code: orNull(v2.code),
        data: orNull(v2.data),
        last_transaction_lt: v2.last_transaction_id.lt,
        last_transaction_hash: v2.last_transaction_id.hash,
        frozen_hash: orNull(v2.frozen_hash),
        // toncenter passes v2's word through here ("uninitialized"), unlike the index's "uninit".
        status: v2.state,
      };
    }
    const state = await latestState(network, p.address);
    if (!state)
      return {
        balance: UNKNOWN.balance,
        code: null,
        data: null,
        last_transaction_lt: UNKNOWN.last_transaction_lt,
        last_transaction_hash: UNKNOWN.last_transaction_hash,
        frozen_hash: null,
        status: UNKNOWN.status,
      };
    return {
      balance: state.balance,
      code: state.codeBoc?.toString('base64') ?? null,
      data: state.dataBoc?.toString('base64') ?? null,
      last_transaction_lt: state.lastTransLt.toString(),
      last_transaction_hash: formatHash(state.lastTransHash),
      frozen_hash: state.frozenHash ? formatHash(state.frozenHash) : null,
      status: state.status,
    };
  },
});

/** 409 `not a wallet` for an account that has code and is no wallet (an uninit account is answered). */
export const walletInformation = defineEndpoint({
  path: '/walletInformation',
  aliases: ['/wallet'],
  tag: 'accounts',
  summary: 'Wallet type, seqno and wallet id of an account (v2 getWalletInformation, v3 shape)',
  params: ACCOUNT,
  response: ref('V2WalletInformation'),
  async handle(p, network) {
    if (p.use_v2) {
      const v2 = (await getWalletInformation.handle(
        { address: Address.parseRaw(p.address), seqno: undefined },
        network,
      )) as WalletInformationJson;
      if (!v2.wallet && v2.account_state !== 'uninitialized') throw new ApiError(409, 'not a wallet');
      return {
        balance: v2.balance,
        ...(v2.wallet_type ? { wallet_type: v2.wallet_type } : {}),
        ...(v2.seqno !== undefined ? { seqno: v2.seqno } : {}),
        ...(v2.wallet_id !== undefined ? { wallet_id: v2.wallet_id } : {}),
        last_transaction_lt: v2.last_transaction_id.lt,
        last_transaction_hash: v2.last_transaction_id.hash,
        // toncenter passes v2's word through here ("uninitialized"), unlike the index's "uninit".
        status: v2.account_state,
      };
    }
    const state = await latestState(network, p.address);
    if (!state) return UNKNOWN;
    const wallet = state.wallet?.family === 'wallet' ? state.wallet : null;
    if (!wallet && state.status !== 'uninit') throw new ApiError(409, 'not a wallet');
    return {
      balance: state.balance,
      ...(wallet ? { wallet_type: wallet.walletType } : {}),
      ...(wallet?.seqno !== undefined ? { seqno: wallet.seqno } : {}),
      ...(wallet?.walletId !== undefined ? { wallet_id: wallet.walletId } : {}),
      last_transaction_lt: state.lastTransLt.toString(),
      last_transaction_hash: formatHash(state.lastTransHash),
      status: state.status,
    };
  },
});

export const message = definePostEndpoint({
  path: '/message',
  tag: 'blockchain',
  summary: 'Sends an external message (v2 sendBocReturnHash): its hash and normalized hash',
  body: sendBocReturnHash.params,
  missing: { boc: 'boc is required' },
  response: ref('V2SendMessageResult'),
  async handle(body, network) {
    const sent = (await sendBocReturnHash.handle(body, network)) as { hash: string; hash_norm: string };
    return { message_hash: sent.hash, message_hash_norm: sent.hash_norm };
  },
});

export const runGetMethod = definePostEndpoint({
  path: '/runGetMethod',
  tag: 'blockchain',
  summary: 'Runs a get-method; stack entries as {"type":"num"|"cell"|"slice"|"tuple"|"list","value":...}',
  body: { address: v2RunGetMethod.params.address, method: v2RunGetMethod.params.method, stack: v2RunGetMethod.params.stack },
  missing: { address: 'address is required', method: 'method is required' },
  response: ref('V2RunGetMethodResult'),
  async handle({ address, method, stack }, network) {
    // The chain's refusals become statuses in routes.ts, as for every endpoint.
    const result = await network.chain.runGetMethod(address, method, stack);
    return { gas_used: Number(result.gasUsed), exit_code: result.exitCode, stack: v3Stack(parseVmStack(result.stackBoc)) };
  },
});

export const estimateFee = definePostEndpoint({
  path: '/estimateFee',
  tag: 'blockchain',
  summary: 'Fees of an external message, from an emulation of it (v2 estimateFee)',
  body: v2EstimateFee.params,
  missing: { address: 'address is required', body: 'body is required' },
  response: ref('V2EstimateFeeResult'),
  async handle(body, network) {
    const fees = (await v2EstimateFee.handle(body, network)) as {
      source_fees: Record<string, unknown>;
      destination_fees: Record<string, unknown>[];
    };
    const plain = ({ '@type': _type, ...rest }: Record<string, unknown>) => rest;
    return { source_fees: plain(fees.source_fees), destination_fees: fees.destination_fees.map(plain) };
  },
});
