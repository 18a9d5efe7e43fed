import { ApiError } from '../../../http/api-error.js';
import { readTokenData } from '../contracts/token-data.js';
import { defineMethod } from '../method.js';
import { ADDRESS, SEQNO_OPTIONAL } from './common-params.js';

/** Jetton master or wallet, NFT collection or item, read through their standard get-methods. */
export const getTokenData = defineMethod({
  name: 'getTokenData',
  verbs: ['GET', 'POST'],
  summary: 'Jetton master / wallet or NFT collection / item data, read through their standard get-methods.',
  params: { address: ADDRESS, seqno: SEQNO_OPTIONAL },
  async handle({ address, seqno }, network) {
    const data = await readTokenData(network, address, seqno);
    if (!data) throw new ApiError(409, 'Smart contract is not Jetton or NFT');
    return data;
  },
});
