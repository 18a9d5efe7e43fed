/**
 * Sending external messages. The chain executes the message when it arrives: a message the contract
 * accepts is in the next block; one it refuses is an error (400, the liteserver's words; see
 * api/error-statuses.ts), never a 200, because the message will never be executed.
 */
import type { Cell } from '@ton/core';
import { bocBytes } from '../../../ton/boc.js';
import { formatHash } from '../../../ton/hash.js';
import type { NetworkContext } from '../../../http/network-context.js';
import { defineMethod } from '../method.js';

const params = { boc: { type: 'boc', required: true, description: 'The external-in message, a base64 BoC.' } } as const;

function send(boc: Cell, network: NetworkContext) {
  // The client's bytes as they came (already checked by the parameter parser), not serialized again.
  return network.chain.sendExternal(bocBytes(boc));
}

export const sendBoc = defineMethod({
  name: 'sendBoc',
  verbs: ['POST'],
  summary: 'Sends an external message; {"@type":"ok"} once the contract accepted it.',
  params,
  async handle({ boc }, network) {
    await send(boc, network);
    return { '@type': 'ok' };
  },
});

/**
 * sendBocReturnHashNoError is toncenter's variant that reports a refused message as a 400 instead of a
 * 500. tongate reports it as a 400 on every send method, so the two are the same.
 */
export const sendBocReturnHash = defineMethod({
  name: 'sendBocReturnHash',
  aliases: ['sendBocReturnHashNoError'],
  verbs: ['POST'],
  summary: 'Sends an external message; answers its hash and its normalized hash (TEP-467).',
  params,
  async handle({ boc }, network) {
    const sent = await send(boc, network);
    return { '@type': 'raw.extMessageInfo', hash: formatHash(sent.hash), hash_norm: formatHash(sent.hashNorm) };
  },
});
