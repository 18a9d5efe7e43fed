/**
 * Account reads: the state of one account as of the last masterchain block, or of block `seqno`.
 * All of them read the same AccountState from the chain and differ only in what they show of it.
 */
import { blockIdExt } from '../../../ton/block-id.js';
import { formatV2Address } from '../../../ton/address.js';
import { accountAddress } from '../../../ton/tonlib-json.js';
import { accountExtraCurrencies, lastTransactionId, rawFullAccountState, v2AccountState } from '../format/account.js';
import { cachedBocBase64 } from '../format/cached-boc.js';
import { tonlibAccountState, walletInformation } from '../format/wallet.js';
import { defineMethod } from '../method.js';
import { ADDRESS, SEQNO_OPTIONAL } from './common-params.js';
import { atChainHead } from '../../per-block/head-answers.js';

const params = { address: ADDRESS, seqno: SEQNO_OPTIONAL };

export const getAddressInformation = defineMethod({
  name: 'getAddressInformation',
  verbs: ['GET', 'POST'],
  summary: 'Balance, state, code and data of an account (raw.fullAccountState).',
  params,
  async handle({ address, seqno }, network) {
    const read = async () => rawFullAccountState(await network.chain.getAccount(address, seqno));
    // As of the head: built once a block per address (src/api/per-block); as of a given block, read each time.
    return seqno === undefined ? atChainHead(network, `getAddressInformation ${address.toRawString()}`, read) : read();
  },
});

export const getExtendedAddressInformation = defineMethod({
  name: 'getExtendedAddressInformation',
  verbs: ['GET', 'POST'],
  summary: 'The account with its contract recognised the way tonlib does (wallet v3/v4, highload, else raw).',
  params,
  async handle({ address, seqno }, network) {
    const state = await network.chain.getAccount(address, seqno);
    const raw = rawFullAccountState(state);
    const { accountState, revision } = tonlibAccountState(state, raw);
    return {
      '@type': 'fullAccountState',
      address: accountAddress(formatV2Address(address, network.testOnly)),
      balance: raw.balance,
      extra_currencies: accountExtraCurrencies(state),
      last_transaction_id: lastTransactionId(state),
      block_id: blockIdExt(state.block),
      sync_utime: state.syncUtime,
      account_state: accountState,
      revision,
    };
  },
});

export const getWalletInformation = defineMethod({
  name: 'getWalletInformation',
  verbs: ['GET', 'POST'],
  summary: 'Wallet type (by code hash: v1 to v5, highload), seqno and wallet_id of an account.',
  params,
  async handle({ address, seqno }, network) {
    return walletInformation(await network.chain.getAccount(address, seqno));
  },
});

export const getAddressBalance = defineMethod({
  name: 'getAddressBalance',
  verbs: ['GET', 'POST'],
  summary: 'The balance in nanotons, as a decimal string ("0" for an account that does not exist).',
  params,
  async handle({ address, seqno }, network) {
    const read = async () => (await network.chain.getAccount(address, seqno)).balance.toString();
    return seqno === undefined ? atChainHead(network, `getAddressBalance ${address.toRawString()}`, read) : read();
  },
});

export const getAddressState = defineMethod({
  name: 'getAddressState',
  verbs: ['GET', 'POST'],
  summary: '"active", "uninitialized" or "frozen".',
  params,
  async handle({ address, seqno }, network) {
    return v2AccountState((await network.chain.getAccount(address, seqno)).state);
  },
});

export const getShardAccountCell = defineMethod({
  name: 'getShardAccountCell',
  verbs: ['GET', 'POST'],
  summary: 'The ShardAccount cell of an account (tvm.cell): its full state and last transaction id.',
  params,
  async handle({ address, seqno }, network) {
    const state = await network.chain.getAccount(address, seqno);
    return { '@type': 'tvm.cell', bytes: cachedBocBase64(state.shardAccount) };
  },
});
