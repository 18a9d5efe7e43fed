import { formatRawUpper, parseAddress } from '../../../ton/address.js';
import { TonInputError } from '../../../ton/errors.js';
import { defineEndpoint, indexOf, ref } from '../endpoint.js';
import { accountStateFull, walletState } from '../format/accounts.js';
import { addressBookOf, addressBookRow, type AddressBookRow } from '../format/address-book.js';
import { PAGE_PARAMS } from '../params.js';
import { atIndexedHead } from '../../per-block/head-answers.js';

/** The most addresses of an accountStates question whose answer is kept per indexed block. */
const KEPT_STATES_ADDRESSES = 16;

/** Raw form of an address, or null when it cannot be parsed (addressBook answers those with nulls). */
function rawOrNull(input: string): string | null {
  try {
    return formatRawUpper(parseAddress(input).address);
  } catch (error) {
    if (error instanceof TonInputError) return null;
    throw error;
  }
}

/** Keyed by the address exactly as given; an unparseable one gets `user_friendly: null`, as toncenter does. */
export const addressBookEndpoint = defineEndpoint({
  path: '/addressBook',
  tag: 'accounts',
  summary: 'User-friendly forms and interfaces of addresses, keyed as given',
  params: {
    address: {
      type: 'string[]',
      required: true,
      maxItems: 1024,
      missing: 'at least 1 address required',
      description: 'Addresses in any form; repeat the key for several.',
    },
  },
  response: ref('AddressBook'),
  async handle(p, network) {
    const reader = indexOf(network);
    const raws = new Map(p.address.map((input) => [input, rawOrNull(input)]));
    const known = [...new Set([...raws.values()].filter((r): r is string => r !== null))];
    const { states: stateList, domains } = await reader.addressBookStates(known);
    const states = new Map(stateList.map((s) => [s.account, s]));
    const book: Record<string, AddressBookRow> = {};
    for (const [input, raw] of raws) {
      book[input] =
        raw === null
          ? { user_friendly: null, domain: null, interfaces: [] }
          : addressBookRow(raw, states.get(raw), network.testOnly, domains.get(raw) ?? null);
    }
    return book;
  },
});

/**
 * Token metadata (jetton masters and wallets) of addresses (index/read/metadata.ts); addresses that are no
 * token contract are left out, as toncenter does (so `{}` for none). Keyed raw, as toncenter keys it.
 */
export const metadata = defineEndpoint({
  path: '/metadata',
  tag: 'accounts',
  summary: 'Token metadata of addresses (jetton masters and wallets)',
  params: {
    address: {
      type: 'string[]',
      required: true,
      maxItems: 1024,
      missing: 'at least 1 address required',
      description: 'Addresses in any form; repeat the key for several.',
    },
  },
  response: ref('Metadata'),
  async handle(p, network) {
    return indexOf(network).metadata(p.address.map(rawOrNull));
  },
});

const ACCOUNTS = {
  type: 'address[]',
  required: true,
  maxItems: 1000,
  missing: 'address of account is required',
  description: 'Addresses in any form (at most 1000); repeat the key for several.',
} as const;

/** Known accounts only, in the order asked (an address the chain never touched is left out). */
async function latestInOrder(network: Parameters<typeof indexOf>[0], addresses: string[], withBocs: boolean) {
  const reader = indexOf(network);
  const byAccount = new Map((await reader.latestStates([...new Set(addresses)], withBocs)).map((s) => [s.account, s]));
  const states = [...new Set(addresses)].map((a) => byAccount.get(a)).filter((s) => s !== undefined);
  return { reader, states };
}

export const accountStates = defineEndpoint({
  path: '/accountStates',
  tag: 'accounts',
  summary: 'Latest states of accounts',
  params: {
    address: ACCOUNTS,
    include_boc: { type: 'bool', default: true, description: 'Include code and data BoCs (default true).' },
  },
  response: ref('AccountStatesResponse'),
  handle(p, network) {
    const build = async () => {
      const { reader, states } = await latestInOrder(network, p.address, p.include_boc);
      const accounts = states.map((s) => s.account);
      return {
        accounts: states.map((s) => accountStateFull(s, p.include_boc)),
        address_book: addressBookOf(accounts, await reader.addressBookStates(accounts), network.testOnly),
        metadata: await reader.metadata(accounts),
      };
    };
    // The latest states change only when the index takes a block: a few accounts' answer is built once per indexed
    // block (src/api/per-block), keyed by the raw addresses. Not with token metadata fetched off-chain between
    // blocks (--fetch-metadata), which the answer carries and a kept text would miss.
    if (p.address.length > KEPT_STATES_ADDRESSES || network.metadataBetweenBlocks) return build();
    return atIndexedHead(network, `accountStates\n${p.include_boc}\n${[...new Set(p.address)].join(',')}`, build);
  },
});

export const walletStates = defineEndpoint({
  path: '/walletStates',
  tag: 'accounts',
  summary: 'Wallet details (type, seqno, wallet id) of accounts',
  params: { address: ACCOUNTS },
  response: ref('WalletStatesResponse'),
  async handle(p, network) {
    const { reader, states } = await latestInOrder(network, p.address, false);
    const accounts = states.map((s) => s.account);
    return {
      wallets: states.map(walletState),
      address_book: addressBookOf(accounts, await reader.addressBookStates(accounts), network.testOnly),
      metadata: await reader.metadata(accounts),
    };
  },
});

export const topAccountsByBalance = defineEndpoint({
  path: '/topAccountsByBalance',
  tag: 'accounts',
  summary: 'Accounts with the largest balances',
  params: { ...PAGE_PARAMS },
  response: { type: 'array', items: ref('AccountBalance') },
  async handle(p, network) {
    return indexOf(network).topAccountsByBalance(p);
  },
});
