/**
 * /multisig/wallets, /multisig/orders (multisig v2: src/index/multisig) and /vesting (vesting wallets:
 * src/index/vesting), with toncenter's parameters, orders and 422s (ton-index-go crud_multisig.go, crud_vesting.go).
 * Their answers have an address_book and, as toncenter's, no `metadata`.
 */
import { ApiError } from '../../../http/api-error.js';
import type { NetworkContext } from '../../../http/network-context.js';
import { defineEndpoint, indexOf, ref } from '../endpoint.js';
import { addressBookOf } from '../format/address-book.js';
import { actionAddresses, orderActions } from '../../../index/multisig/order-actions.js';
import { multisigJson, multisigOrderJson, vestingJson } from '../format/multisig.js';
import { PAGE_PARAMS } from '../params.js';

async function withAddressBook(network: NetworkContext, key: string, rows: object[], addresses: string[]) {
  const known = await indexOf(network).addressBookStates(addresses);
  return { [key]: rows, address_book: addressBookOf(addresses, known, network.testOnly) };
}

const SORT = {
  sort: { type: 'sort', description: 'Sort by the order first indexed (toncenter: by last_transaction_lt): `asc` or `desc` (default).' },
} as const;

export const multisigWallets = defineEndpoint({
  path: '/multisig/wallets',
  tag: 'multisig',
  summary: 'Multisig v2 wallets with their signers, proposers, threshold and orders',
  params: {
    address: { type: 'address[]', maxItems: 1024, description: 'Multisig contract address in any form. Max: 1024.' },
    wallet_address: { type: 'address[]', maxItems: 1024, description: 'Address of signer or proposer wallet in any form. Max: 1024.' },
    ...PAGE_PARAMS,
    ...SORT,
    include_orders: { type: 'bool', default: true, description: 'Gather multisig orders' },
  },
  response: ref('MultisigResponse'),
  async handle(p, network) {
    const reader = indexOf(network).multisig;
    const wallets = await reader.wallets({ addresses: p.address, members: p.wallet_address }, p.sort, p);
    const withOrders = p.include_orders !== false;
    const orders = withOrders ? await reader.ordersOf(wallets.map((w) => w.address)) : [];
    const rows = wallets.map((w) => multisigJson(w, withOrders ? orders.filter((o) => o.multisigAddress === w.address) : null));
    const addresses = [
      ...wallets.flatMap((w) => [w.address, ...w.signers, ...w.proposers]),
      ...orders.flatMap((o) => [o.address, ...o.signers]),
    ];
    return withAddressBook(network, 'multisigs', rows, addresses);
  },
});

export const multisigOrders = defineEndpoint({
  path: '/multisig/orders',
  tag: 'multisig',
  summary: 'Multisig v2 orders with their state and approvals',
  params: {
    address: { type: 'address[]', maxItems: 1024, description: 'Order address in any form. Max: 1024.' },
    multisig_address: { type: 'address[]', maxItems: 1024, description: 'Address of corresponding multisig. Max: 1024.' },
    parse_actions: { type: 'bool', default: false, description: "Parse the order's actions (messages it sends, parameter updates)." },
    ...PAGE_PARAMS,
    ...SORT,
  },
  response: ref('MultisigOrderResponse'),
  async handle(p, network) {
    const orders = await indexOf(network).multisig.orders({ addresses: p.address, multisigs: p.multisig_address }, p.sort, p);
    const rows = orders.map((o) => {
      const actions = p.parse_actions === true ? orderActions(o.orderBoc) : null;
      return { json: multisigOrderJson(o, actions), addresses: [o.address, o.multisigAddress, ...o.signers, ...actionAddresses(actions)] };
    });
    return withAddressBook(
      network,
      'orders',
      rows.map((r) => r.json),
      rows.flatMap((r) => r.addresses),
    );
  },
});

export const vestingContracts = defineEndpoint({
  path: '/vesting',
  tag: 'vesting',
  summary: 'Vesting wallets with their schedule, parties and whitelist',
  params: {
    contract_address: { type: 'address[]', maxItems: 1000, description: 'Vesting contract address in any form. Max: 1000.' },
    wallet_address: { type: 'address[]', maxItems: 1000, description: 'Wallet address to filter by owner or sender. Max: 1000.' },
    check_whitelist: { type: 'bool', default: false, description: 'Check if wallet address is in whitelist.' },
    ...PAGE_PARAMS,
  },
  response: ref('VestingContractsResponse'),
  async handle(p, network) {
    const contracts = p.contract_address ?? [];
    const wallets = p.wallet_address ?? [];
    if (contracts.length === 0 && wallets.length === 0)
      throw new ApiError(422, 'at least one of contract_address or wallet_address is required');
    if (contracts.length > 0 && wallets.length > 0)
      throw new ApiError(422, 'only one of contract_address or wallet_address should be specified');
    const found = await indexOf(network).vesting.contracts({ contracts, wallets, checkWhitelist: p.check_whitelist === true }, p);
    const addresses = found.flatMap((v) => [v.address, v.senderAddress, v.ownerAddress, ...v.whitelist]);
    return withAddressBook(network, 'vesting_contracts', found.map(vestingJson), addresses);
  },
});
