/**
 * /jetton/masters, /jetton/wallets, /jetton/transfers, /jetton/burns: the token tables the index fills
 * (src/index/tokens), with toncenter's parameters, defaults, 422s and orders (ton-index-go main.go and
 * crud_jettons.go). Each answer carries the address_book and metadata of the addresses its rows name.
 */
import { ApiError } from '../../../http/api-error.js';
import { defineEndpoint, indexOf, ref } from '../endpoint.js';
import { addressBookOf } from '../format/address-book.js';
import { jettonBurnJson, jettonMasterJson, jettonTransferJson, jettonWalletJson } from '../format/jettons.js';
import { PAGE_PARAMS, SORT_PARAM, WINDOW_PARAMS, windowOf } from '../params.js';
import type { NetworkContext } from '../../../http/network-context.js';

/** `{<key>: rows, address_book, metadata}` for the addresses the rows name. */
export async function answer(network: NetworkContext, key: string, rows: object[], addresses: (string | null)[]) {
  const reader = indexOf(network);
  const [known, metadata] = await Promise.all([reader.addressBookStates(addresses), reader.metadata(addresses)]);
  return { [key]: rows, address_book: addressBookOf(addresses, known, network.testOnly), metadata };
}

export const jettonMasters = defineEndpoint({
  path: '/jetton/masters',
  tag: 'jettons',
  summary: 'Jetton masters, in the order they were first indexed',
  params: {
    address: { type: 'address[]', maxItems: 1024, description: 'Jetton Master address in any form. Max: 1024.' },
    admin_address: { type: 'address[]', maxItems: 1024, description: "Address of Jetton Master's admin in any form. Max: 1024." },
    ...PAGE_PARAMS,
  },
  response: ref('JettonMastersResponse'),
  async handle(p, network) {
    const masters = await indexOf(network).tokens.jettonMasters({ addresses: p.address, admins: p.admin_address }, p);
    return answer(
      network,
      'jetton_masters',
      masters.map(jettonMasterJson),
      masters.flatMap((m) => [m.address, m.adminAddress]),
    );
  },
});

export const jettonWallets = defineEndpoint({
  path: '/jetton/wallets',
  tag: 'jettons',
  summary: 'Jetton wallets, by address, owner or jetton',
  params: {
    address: { type: 'address[]', maxItems: 1000, description: 'Jetton wallet address in any form. Max: 1000.' },
    owner_address: { type: 'address[]', maxItems: 1000, description: "Address of Jetton wallet's owner in any form. Max: 1000." },
    jetton_address: { type: 'address[]', maxItems: 1000, description: 'Jetton Master in any form.' },
    exclude_zero_balance: { type: 'bool', default: false, description: 'Exclude jetton wallets with 0 balance.' },
    ...PAGE_PARAMS,
    sort: { type: 'sort|none', description: 'Sort jetton wallets by balance (no order by balance unless given).' },
  },
  response: ref('JettonWalletsResponse'),
  async handle(p, network) {
    if (p.jetton_address.length > 1 && p.owner_address.length !== 1)
      throw new ApiError(422, 'exact one owner_address required for multiple jetton_address');
    const reader = indexOf(network);
    const wallets = await reader.tokens.jettonWallets(
      { addresses: p.address, owners: p.owner_address, jettons: p.jetton_address, excludeZeroBalance: p.exclude_zero_balance },
      p.sort,
      p,
    );
    return answer(
      network,
      'jetton_wallets',
      wallets.map(jettonWalletJson),
      wallets.flatMap((w) => [w.address, w.owner, w.jetton]),
    );
  },
});

export const EVENT_PARAMS = {
  jetton_wallet: { type: 'address[]', maxItems: 1000, description: 'Jetton wallet address in any form. Max: 1000.' },
  jetton_master: { type: 'address', description: 'Jetton master address in any form.' },
  ...WINDOW_PARAMS,
  ...PAGE_PARAMS,
  ...SORT_PARAM,
} as const;

export const jettonTransfers = defineEndpoint({
  path: '/jetton/transfers',
  tag: 'jettons',
  summary: 'Jetton transfers (one row per sending wallet transaction; aborted ones left out, as toncenter does)',
  params: {
    owner_address: { type: 'address[]', maxItems: 1000, description: 'Address of jetton wallet owner in any form. Max 1000' },
    address: { type: 'address', description: 'An owner address (used when owner_address is absent, as toncenter accepts it).' },
    direction: { type: 'direction|both', description: 'Direction of transfer (in, out, both). *Note:* applied only with owner_address.' },
    ...EVENT_PARAMS,
  },
  response: ref('JettonTransfersResponse'),
  async handle(p, network) {
    const owners = p.owner_address.length > 0 ? p.owner_address : p.address !== undefined ? [p.address] : [];
    const transfers = await indexOf(network).tokens.jettonTransfers(
      {
        owners,
        direction: p.direction === 'both' ? undefined : p.direction,
        wallets: p.jetton_wallet,
        master: p.jetton_master,
        ...windowOf(p),
      },
      p.sort,
      p,
    );
    return answer(
      network,
      'jetton_transfers',
      transfers.map(jettonTransferJson),
      transfers.flatMap((t) => [t.source, t.destination, t.jettonWallet, t.jettonMaster, t.responseDestination]),
    );
  },
});

export const jettonBurns = defineEndpoint({
  path: '/jetton/burns',
  tag: 'jettons',
  summary: 'Jetton burns (aborted ones included, as toncenter does)',
  params: {
    address: { type: 'address[]', maxItems: 1000, description: 'Address of jetton wallet owner in any form. Max 1000' },
    owner_address: { type: 'address[]', maxItems: 1000, description: 'The same as address (toncenter reads this name).' },
    ...EVENT_PARAMS,
  },
  response: ref('JettonBurnsResponse'),
  async handle(p, network) {
    const owners = p.owner_address.length > 0 ? p.owner_address : p.address;
    const burns = await indexOf(network).tokens.jettonBurns(
      { owners, wallets: p.jetton_wallet, master: p.jetton_master, ...windowOf(p) },
      p.sort,
      p,
    );
    return answer(
      network,
      'jetton_burns',
      burns.map(jettonBurnJson),
      burns.flatMap((b) => [b.owner, b.jettonWallet, b.jettonMaster, b.responseDestination]),
    );
  },
});
