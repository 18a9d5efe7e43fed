import { ApiError } from '../../../http/api-error.js';
import { defineEndpoint, indexOf, ref } from '../endpoint.js';
import { messagesText } from '../format/messages.js';
import { PAGE_PARAMS, SORT_PARAM, WINDOW_PARAMS, windowOf } from '../params.js';

export const messages = defineEndpoint({
  path: '/messages',
  tag: 'blockchain',
  summary: 'Messages by filters, ordered by lt',
  params: {
    msg_hash: {
      type: 'hash[]',
      maxItems: 1000,
      description: 'Message hashes (or normalized hashes of external messages); repeat the key for several.',
    },
    hash: { type: 'hash[]', maxItems: 1000, description: 'Former name of msg_hash.' },
    body_hash: { type: 'hash', description: 'Hash of the message body.' },
    source: { type: 'address|null', description: 'Source address; `null` selects external-in messages.' },
    destination: { type: 'address|null', description: 'Destination address; `null` selects external-out messages.' },
    opcode: { type: 'opcode', description: 'Opcode, hex or signed 32-bit decimal.' },
    ...WINDOW_PARAMS,
    direction: { type: 'direction', description: '`in`: messages some transaction received; `out`: messages some transaction sent.' },
    exclude_externals: { type: 'bool', description: 'Leave out external-in messages.' },
    only_externals: { type: 'bool', description: 'Only external-in messages.' },
    ...PAGE_PARAMS,
    ...SORT_PARAM,
  },
  response: ref('MessagesResponse'),
  async handle(p, network) {
    if (p.hash.length > 0 && p.msg_hash.length > 0) throw new ApiError(422, 'cannot use both legacy and new message hashes');
    const reader = indexOf(network);
    const filter = {
      msgHashes: p.msg_hash.length > 0 ? p.msg_hash : p.hash,
      bodyHash: p.body_hash,
      source: p.source,
      destination: p.destination,
      opcode: p.opcode,
      direction: p.direction,
      excludeExternals: p.exclude_externals,
      onlyExternals: p.only_externals,
      ...windowOf(p),
    };
    return messagesText(await reader.messagePage(await reader.messages(filter, p.sort, p)), network.testOnly);
  },
});
