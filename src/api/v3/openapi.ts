/**
 * Our own OpenAPI 3 document for v3, built from the endpoint list so it documents exactly what we
 * serve: each endpoint's query parameters (from its declarations), its answer, the `{"error"}` body of
 * failures and the two ways to pass an API key. The schemas describe what tongate writes, nulls
 * included (toncenter's published file leaves `nullable` out everywhere and types opcode as an integer).
 */
import type { ParamSpec as BodySpec } from '../v2/params.js';
import type { AnyV3Endpoint, AnyV3PostEndpoint } from './endpoint.js';
import { DEFAULT_LIMIT, MAX_LIMIT, type ParamSpec, type ParamType } from './params.js';

const str = { type: 'string' };
const nstr = { type: 'string', nullable: true };
const int = { type: 'integer' };
const bool = { type: 'boolean' };
const nbool = { type: 'boolean', nullable: true };
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const obj = (properties: Record<string, object>, required: string[] = Object.keys(properties)) => ({
  type: 'object',
  properties,
  required,
});
const amountMap = { type: 'object', additionalProperties: str };
const nAmountMap = { ...amountMap, nullable: true };
const list = (items: object) => ({ type: 'array', items });

/** A payload decoded as message_content.decoded is (src/ton/decoded); null when absent or not decodable. */
const DECODED_PAYLOAD = {
  type: 'object',
  nullable: true,
  additionalProperties: true,
  description:
    'The payload decoded as message bodies are (a text comment: {"@type":"text_comment","comment","type"}); null when absent or not decodable.',
};

const NFT_COLLECTION = obj({
  address: str,
  owner_address: nstr,
  last_transaction_lt: str,
  next_item_index: str,
  collection_content: { type: 'object', additionalProperties: str, description: 'TEP-64 content, as jetton_content.' },
  data_hash: str,
  code_hash: str,
});

const PARAM_SCHEMAS: Record<ParamType, object> = {
  int32: { type: 'integer', format: 'int32' },
  int64: { type: 'integer', format: 'int64' },
  utime: { type: 'number', minimum: 0 },
  bool: { type: 'boolean' },
  address: str,
  'address|null': str,
  'address[]': list(str),
  string: str,
  'string[]': list(str),
  hash: str,
  'hash[]': list(str),
  shard: { type: 'string', example: '8000000000000000' },
  opcode: { type: 'string', example: '0x0f8a7ea5' },
  direction: { type: 'string', enum: ['in', 'out'] },
  'direction|both': { type: 'string', enum: ['in', 'out', 'both'] },
  sort: { type: 'string', enum: ['asc', 'desc'], default: 'desc' },
  'sort|none': { type: 'string', enum: ['asc', 'desc'] },
  limit: { type: 'integer', minimum: 1, maximum: MAX_LIMIT, default: DEFAULT_LIMIT },
  offset: { type: 'integer', minimum: 0, default: 0 },
};

function parameter(name: string, spec: ParamSpec): object {
  const schema = spec.default === undefined ? PARAM_SCHEMAS[spec.type] : { ...PARAM_SCHEMAS[spec.type], default: spec.default };
  const isList = spec.type.endsWith('[]');
  return {
    name,
    in: 'query',
    required: Boolean(spec.required),
    description: spec.description,
    schema: isList && spec.maxItems ? { ...schema, maxItems: spec.maxItems } : schema,
    ...(isList ? { style: 'form', explode: true } : {}),
  };
}

/** JSON body fields of the POST endpoints, by their v2 type. */
function bodyField(spec: BodySpec): object {
  const description = spec.description ? { description: spec.description } : {};
  switch (spec.type) {
    case 'method':
      return { oneOf: [str, int], ...description };
    case 'stack':
      return { type: 'array', items: ref('V2StackEntity'), ...description };
    case 'string[]':
      return { type: 'array', items: str, ...description };
    case 'bool':
      return { ...bool, ...(spec.default === undefined ? {} : { default: spec.default }), ...description };
    default:
      return { ...str, ...description };
  }
}

const blockId = obj({ workchain: int, shard: str, seqno: int });
const messageContent = obj({ hash: str, body: str, decoded: { type: 'object', nullable: true } });
const accountState = obj({
  hash: str,
  balance: nstr,
  extra_currencies: nAmountMap,
  account_status: { type: 'string', enum: ['active', 'uninit', 'frozen', null], nullable: true },
  frozen_hash: nstr,
  data_hash: nstr,
  code_hash: nstr,
});

// A nullable object is written inline (`nullable` needs a `type` beside it, which a $ref cannot carry).
const message = obj(
  {
    hash: str,
    source: nstr,
    destination: nstr,
    value: nstr,
    value_extra_currencies: nAmountMap,
    fwd_fee: nstr,
    ihr_fee: nstr,
    extra_flags: nstr,
    created_lt: nstr,
    created_at: nstr,
    opcode: { type: 'string', pattern: '^0x[0-9a-f]{8}$', nullable: true, description: 'The first 32 bits of the body, "0x%08x".' },
    decoded_opcode: nstr,
    ihr_disabled: nbool,
    bounce: nbool,
    bounced: nbool,
    import_fee: nstr,
    in_msg_tx_hash: { ...str, description: 'The receiving transaction (in /messages only, when known).' },
    out_msg_tx_hash: { ...str, description: 'The creating transaction (in /messages only, when known).' },
    message_content: ref('MessageContent'),
    init_state: { ...messageContent, nullable: true },
    hash_norm: { ...str, description: 'External-in messages: the normalized hash (TEP-467).' },
  },
  ['hash', 'source', 'destination', 'value', 'created_lt', 'created_at', 'opcode', 'message_content', 'init_state'],
);

const SCHEMAS: Record<string, object> = {
  Error: obj({ error: str }),
  BlockId: blockId,
  Block: obj({
    workchain: int,
    shard: str,
    seqno: int,
    root_hash: str,
    file_hash: str,
    global_id: int,
    version: int,
    after_merge: bool,
    before_split: bool,
    after_split: bool,
    want_merge: bool,
    want_split: bool,
    key_block: bool,
    vert_seqno_incr: bool,
    flags: int,
    gen_utime: str,
    start_lt: str,
    end_lt: str,
    validator_list_hash_short: int,
    gen_catchain_seqno: int,
    min_ref_mc_seqno: int,
    prev_key_block_seqno: int,
    vert_seqno: int,
    master_ref_seqno: int,
    rand_seed: str,
    created_by: str,
    tx_count: int,
    masterchain_block_ref: ref('BlockId'),
    prev_blocks: list(ref('BlockId')),
  }),
  BlocksResponse: obj({ blocks: list(ref('Block')) }),
  MasterchainInfo: obj({ last: ref('Block'), first: ref('Block') }),
  MessageContent: messageContent,
  Message: message,
  AccountState: accountState,
  Transaction: obj({
    account: str,
    hash: str,
    lt: str,
    now: int,
    mc_block_seqno: int,
    trace_id: { ...str, description: 'The hash of the root transaction of its trace.' },
    prev_trans_hash: str,
    prev_trans_lt: str,
    orig_status: str,
    end_status: str,
    total_fees: str,
    total_fees_extra_currencies: amountMap,
    description: { type: 'object', description: 'Transaction phases, toncenter layout (type, aborted, compute_ph, action, bounce, ...).' },
    block_ref: ref('BlockId'),
    in_msg: { ...message, nullable: true },
    out_msgs: list(ref('Message')),
    account_state_before: ref('AccountState'),
    account_state_after: ref('AccountState'),
    emulated: bool,
    finality: { type: 'string', enum: ['finalized'] },
  }),
  TraceNode: obj(
    {
      tx_hash: str,
      in_msg_hash: { ...str, description: 'Absent for a root transaction without inbound message (tick-tock).' },
      children: list(ref('TraceNode')),
    },
    ['tx_hash', 'children'],
  ),
  TraceMeta: obj({
    trace_state: { type: 'string', enum: ['complete', 'pending', 'broken'] },
    messages: {
      ...int,
      description: "Completed message edges: the root's inbound message, every received internal message, every external-out message.",
    },
    transactions: int,
    pending_messages: {
      ...int,
      description: 'Internal messages sent and not yet received (a broken trace counts its unsent root message too).',
    },
    classification_state: {
      type: 'string',
      enum: ['unclassified', 'ok', 'broken', 'failed'],
      description: 'unclassified until the trace is complete (and for traces of more than 4000 transactions).',
    },
  }),
  Trace: obj(
    {
      trace_id: { ...str, description: 'The hash of the root transaction.' },
      external_hash: { ...nstr, description: "The root transaction's inbound message hash; null without one." },
      mc_seqno_start: str,
      mc_seqno_end: str,
      start_lt: str,
      start_utime: int,
      end_lt: str,
      end_utime: int,
      trace_info: ref('TraceMeta'),
      is_incomplete: { ...bool, description: 'True for a trace of more than 4000 transactions, listed without them.' },
      warning: str,
      actions: {
        ...list(ref('Action')),
        description:
          "With include_actions: the trace's actions the client understands (supported_action_types), by start_lt; no `accounts`.",
      },
      trace: ref('TraceNode'),
      transactions_order: list(str),
      transactions: { type: 'object', additionalProperties: ref('Transaction') },
    },
    [
      'trace_id',
      'external_hash',
      'mc_seqno_start',
      'mc_seqno_end',
      'start_lt',
      'start_utime',
      'end_lt',
      'end_utime',
      'trace_info',
      'is_incomplete',
    ],
  ),
  TracesResponse: obj({ traces: list(ref('Trace')), address_book: ref('AddressBook'), metadata: ref('Metadata') }),
  Action: obj(
    {
      trace_id: str,
      action_id: str,
      start_lt: str,
      end_lt: str,
      start_utime: int,
      end_utime: int,
      trace_end_lt: str,
      trace_end_utime: int,
      trace_mc_seqno_end: int,
      transactions: { ...list(str), description: 'The transactions of the action and the one that started it, by lt.' },
      success: bool,
      type: {
        ...str,
        description:
          "toncenter's action type (ton_transfer, call_contract, contract_deploy, jetton_transfer, nft_transfer, change_dns, unknown, ...).",
      },
      details: {
        type: 'object',
        additionalProperties: true,
        description: "The type's fields as toncenter writes them (index/actions/details.ts).",
      },
      trace_external_hash: str,
      trace_external_hash_norm: str,
      accounts: { ...list(str), description: 'With include_accounts.' },
      transactions_full: { ...list(ref('Transaction')), description: 'With include_transactions.' },
      finality: { type: 'string', enum: ['finalized'] },
    },
    [
      'trace_id',
      'action_id',
      'start_lt',
      'end_lt',
      'start_utime',
      'end_utime',
      'trace_end_lt',
      'trace_end_utime',
      'trace_mc_seqno_end',
      'transactions',
      'success',
      'type',
      'details',
      'finality',
    ],
  ),
  ActionsResponse: obj({ actions: list(ref('Action')), address_book: ref('AddressBook'), metadata: ref('Metadata') }),
  EventsResponse: obj({ events: list(ref('Trace')), address_book: ref('AddressBook'), metadata: ref('Metadata') }),
  BalanceChangesResponse: obj({
    changes: { type: 'object', nullable: true, additionalProperties: int, description: 'nanotons per account, net of fees.' },
    fees: {
      type: 'object',
      nullable: true,
      additionalProperties: int,
      description: "nanotons per account: its transactions' fees and the forwarding fees of what it sent.",
    },
    jettons: {
      type: 'object',
      nullable: true,
      additionalProperties: { type: 'object', additionalProperties: str },
      description: 'Per account, per jetton master: the amount sent (negative) or received.',
    },
  }),
  AddressBookRow: obj({ user_friendly: nstr, domain: nstr, interfaces: list(str) }),
  AddressBook: { type: 'object', additionalProperties: ref('AddressBookRow') },
  TokenInfo: obj(
    {
      valid: bool,
      type: { type: 'string', enum: ['jetton_masters', 'jetton_wallets', 'nft_items', 'nft_collections'] },
      name: str,
      symbol: str,
      description: str,
      image: str,
      nft_index: str,
      is_nsfw: bool,
      is_scam: bool,
      extra: { type: 'object', additionalProperties: true },
    },
    ['type'],
  ),
  AddressMetadata: obj({
    is_indexed: { ...bool, description: 'False for content kept elsewhere (uri) not fetched yet (always without --fetch-metadata).' },
    token_info: list(ref('TokenInfo')),
  }),
  Metadata: {
    type: 'object',
    description: 'Token metadata of the jetton masters and wallets, NFT items and collections among the addresses (others are left out).',
    additionalProperties: ref('AddressMetadata'),
  },
  JettonMaster: obj({
    address: str,
    total_supply: str,
    mintable: bool,
    admin_address: nstr,
    jetton_content: {
      type: 'object',
      additionalProperties: str,
      description:
        'TEP-64: {"uri"} for offchain content, else the onchain keys (uri, name, description, image, image_data, symbol, decimals, amount_style, render_type).',
    },
    jetton_wallet_code_hash: str,
    code_hash: str,
    data_hash: str,
    last_transaction_lt: str,
  }),
  JettonMastersResponse: obj({ jetton_masters: list(ref('JettonMaster')), address_book: ref('AddressBook'), metadata: ref('Metadata') }),
  JettonWallet: obj({ address: str, balance: str, owner: str, jetton: str, last_transaction_lt: str, code_hash: nstr, data_hash: nstr }),
  JettonWalletsResponse: obj({ jetton_wallets: list(ref('JettonWallet')), address_book: ref('AddressBook'), metadata: ref('Metadata') }),
  JettonTransfer: obj({
    query_id: str,
    source: nstr,
    destination: nstr,
    amount: str,
    source_wallet: str,
    jetton_master: str,
    transaction_hash: str,
    transaction_lt: str,
    transaction_now: int,
    transaction_aborted: bool,
    response_destination: nstr,
    custom_payload: nstr,
    decoded_custom_payload: DECODED_PAYLOAD,
    forward_ton_amount: nstr,
    forward_payload: nstr,
    decoded_forward_payload: DECODED_PAYLOAD,
    trace_id: nstr,
  }),
  JettonTransfersResponse: obj({
    jetton_transfers: list(ref('JettonTransfer')),
    address_book: ref('AddressBook'),
    metadata: ref('Metadata'),
  }),
  JettonBurn: obj({
    query_id: str,
    owner: nstr,
    jetton_wallet: str,
    jetton_master: str,
    transaction_hash: str,
    transaction_lt: str,
    transaction_now: int,
    transaction_aborted: bool,
    amount: str,
    response_destination: nstr,
    custom_payload: nstr,
    decoded_custom_payload: DECODED_PAYLOAD,
    trace_id: nstr,
  }),
  NFTCollection: NFT_COLLECTION,
  NFTCollectionsResponse: obj({ nft_collections: list(ref('NFTCollection')), address_book: ref('AddressBook'), metadata: ref('Metadata') }),
  NFTItem: obj(
    {
      address: str,
      init: bool,
      index: str,
      collection_address: nstr,
      owner_address: nstr,
      content: {
        type: 'object',
        additionalProperties: str,
        nullable: true,
        description: "TEP-64 content (through the collection's get_nft_content); null before the item is initialized.",
      },
      last_transaction_lt: str,
      code_hash: str,
      data_hash: str,
      collection: { ...NFT_COLLECTION, nullable: true },
      on_sale: {
        ...bool,
        description: 'Owned by a sale or auction contract that sells it (getgems fixed-price sales and auctions).',
      },
      sale_contract_address: { ...str, description: 'The sale contract, when a sale owns it (left out otherwise).' },
      auction_contract_address: { ...str, description: 'The auction contract, when an auction owns it (left out otherwise).' },
      real_owner: { ...str, description: 'The seller, when on_sale and the sale or auction names one (left out otherwise).' },
    },
    [
      'address',
      'init',
      'index',
      'collection_address',
      'owner_address',
      'content',
      'last_transaction_lt',
      'code_hash',
      'data_hash',
      'collection',
      'on_sale',
    ],
  ),
  NFTSale: obj(
    {
      type: { ...str, description: 'getgems_sale or getgems_auction (Telemint items are not indexed).' },
      address: str,
      nft_address: str,
      nft_owner_address: str,
      marketplace_address: str,
      created_at: int,
      last_transaction_lt: str,
      code_hash: str,
      data_hash: str,
      // A sale's details or an auction's (by type), as ton-index-go's NFTSaleDetails* (every field omitempty).
      details: obj(
        {
          is_complete: bool,
          full_price: str,
          marketplace_fee_address: str,
          marketplace_fee: str,
          royalty_address: str,
          royalty_amount: str,
          end_flag: bool,
          end_time: int,
          last_bid: str,
          last_member: str,
          min_step: int,
          mp_fee_address: str,
          mp_fee_factor: int,
          mp_fee_base: int,
          royalty_fee_address: str,
          royalty_fee_factor: int,
          royalty_fee_base: int,
          max_bid: str,
          min_bid: str,
          last_bid_at: int,
          is_canceled: bool,
        },
        [],
      ),
      nft_item: ref('NFTItem'),
    },
    ['type', 'address', 'details'],
  ),
  NFTSalesResponse: obj({ nft_sales: list(ref('NFTSale')), address_book: ref('AddressBook'), metadata: ref('Metadata') }),
  NFTItemsResponse: obj({ nft_items: list(ref('NFTItem')), address_book: ref('AddressBook'), metadata: ref('Metadata') }),
  NFTTransfer: obj({
    query_id: str,
    nft_address: str,
    nft_collection: nstr,
    transaction_hash: str,
    transaction_lt: str,
    transaction_now: int,
    transaction_aborted: bool,
    old_owner: nstr,
    new_owner: nstr,
    response_destination: nstr,
    custom_payload: nstr,
    decoded_custom_payload: DECODED_PAYLOAD,
    forward_amount: nstr,
    forward_payload: nstr,
    decoded_forward_payload: DECODED_PAYLOAD,
    trace_id: nstr,
  }),
  DNSRecord: obj({
    nft_item_address: str,
    nft_item_owner: nstr,
    domain: str,
    dns_next_resolver: nstr,
    dns_wallet: nstr,
    dns_site_adnl: { ...nstr, description: 'ADNL address, 64 hex digits.' },
    dns_storage_bag_id: { ...nstr, description: 'TON Storage bag id, 64 hex digits.' },
  }),
  DNSRecordsResponse: obj({ records: list(ref('DNSRecord')), address_book: ref('AddressBook') }),
  MultisigOrder: obj({
    address: str,
    multisig_address: str,
    order_seqno: { ...str, description: 'Decimal (uint256).' },
    threshold: int,
    sent_for_execution: bool,
    approvals_mask: { ...str, description: 'Decimal (uint256): bit i set when signer i approved.' },
    approvals_num: int,
    expiration_date: int,
    order_boc: { ...str, description: 'The actions dictionary, base64 BoC.' },
    signers: list(str),
    last_transaction_lt: str,
    code_hash: str,
    data_hash: str,
    actions: {
      type: 'array',
      items: ref('OrderAction'),
      nullable: true,
      description: 'With parse_actions: the actions, in order; else null.',
    },
  }),
  OrderAction: obj({
    destination: { ...nstr, description: "send_message: the message's destination; else null." },
    value: { ...nstr, description: 'send_message: nanotons sent (decimal); else null.' },
    body_raw: { ...nstr, description: "send_message: the message body's BoC, base64; else null." },
    parsed: bool,
    error: { ...nstr, description: 'Why the action did not read (then parsed is false).' },
    parsed_body: {
      type: 'object',
      nullable: true,
      additionalProperties: true,
      description:
        "The body's fields as toncenter names them (index/multisig/order-bodies.ts); multisig_update_params: new_threshold, new_signers, new_proposers.",
    },
    parsed_body_type: {
      ...str,
      description:
        'ton_transfer, jetton_transfer, jetton_burn, jetton_mint, nft_transfer, jetton_*, single_nominator_*, vesting_internal_transfer, multisig_update_params or unknown.',
    },
    send_mode: int,
  }),
  Multisig: obj({
    address: str,
    next_order_seqno: { ...str, description: 'Decimal; -1 for a wallet that takes any order seqno.' },
    threshold: int,
    signers: list(str),
    proposers: list(str),
    last_transaction_lt: str,
    code_hash: str,
    data_hash: str,
    orders: { type: 'array', items: ref('MultisigOrder'), nullable: true, description: 'null with include_orders=false.' },
  }),
  MultisigResponse: obj({ multisigs: list(ref('Multisig')), address_book: ref('AddressBook') }),
  MultisigOrderResponse: obj({ orders: list(ref('MultisigOrder')), address_book: ref('AddressBook') }),
  VestingInfo: obj({
    address: str,
    start_time: int,
    total_duration: int,
    unlock_period: int,
    cliff_duration: int,
    sender_address: str,
    owner_address: str,
    total_amount: str,
    whitelist: list(str),
  }),
  VestingContractsResponse: obj({ vesting_contracts: list(ref('VestingInfo')), address_book: ref('AddressBook') }),
  NFTTransfersResponse: obj({ nft_transfers: list(ref('NFTTransfer')), address_book: ref('AddressBook'), metadata: ref('Metadata') }),
  JettonBurnsResponse: obj({ jetton_burns: list(ref('JettonBurn')), address_book: ref('AddressBook'), metadata: ref('Metadata') }),
  TransactionsResponse: obj({ transactions: list(ref('Transaction')), address_book: ref('AddressBook') }),
  MessagesResponse: obj({ messages: list(ref('Message')), address_book: ref('AddressBook'), metadata: ref('Metadata') }),
  AccountStateFull: obj(
    {
      address: str,
      account_state_hash: str,
      balance: str,
      extra_currencies: amountMap,
      status: { type: 'string', enum: ['active', 'uninit', 'frozen', 'nonexist'] },
      frozen_hash: str,
      last_transaction_hash: str,
      last_transaction_lt: str,
      data_hash: str,
      code_hash: str,
      data_boc: str,
      code_boc: str,
      contract_methods: { type: 'array', items: int, nullable: true, description: 'Not extracted from code: always null.' },
      interfaces: list(str),
    },
    ['address', 'account_state_hash', 'balance', 'status', 'last_transaction_hash', 'last_transaction_lt', 'interfaces'],
  ),
  AccountStatesResponse: obj({ accounts: list(ref('AccountStateFull')), address_book: ref('AddressBook'), metadata: ref('Metadata') }),
  WalletState: obj(
    {
      address: str,
      is_wallet: bool,
      wallet_type: str,
      seqno: int,
      wallet_id: int,
      balance: str,
      extra_currencies: amountMap,
      is_signature_allowed: bool,
      status: str,
      code_hash: str,
      last_transaction_hash: str,
      last_transaction_lt: str,
    },
    ['address', 'is_wallet', 'balance', 'status', 'last_transaction_hash', 'last_transaction_lt'],
  ),
  WalletStatesResponse: obj({ wallets: list(ref('WalletState')), address_book: ref('AddressBook'), metadata: ref('Metadata') }),
  AccountBalance: obj({ account: str, balance: str }),
  V2AddressInformation: obj({
    balance: str,
    code: nstr,
    data: nstr,
    last_transaction_lt: nstr,
    last_transaction_hash: nstr,
    frozen_hash: nstr,
    status: str,
  }),
  V2WalletInformation: obj(
    { balance: str, wallet_type: str, seqno: int, wallet_id: int, last_transaction_lt: str, last_transaction_hash: str, status: str },
    ['balance', 'last_transaction_lt', 'last_transaction_hash', 'status'],
  ),
  V2SendMessageResult: obj({ message_hash: str, message_hash_norm: str }),
  V2StackEntity: obj({
    type: { type: 'string', enum: ['num', 'cell', 'slice', 'tuple', 'list'] },
    value: { description: 'num: hex string ("0x1a", "-0x5"); cell/slice: base64 BoC; tuple/list: an array of entries.' },
  }),
  DecodeResponse: obj({
    opcodes: list({ ...str, description: "toncenter's name of the opcode, or unknown." }),
    bodies: list({
      type: 'object',
      additionalProperties: true,
      description:
        'The body decoded as message_content.decoded is (a comment as {"@type":"text_comment","text"}), or {"error":"unknown: ..."}.',
    }),
  }),
  V2RunGetMethodResult: obj({ gas_used: int, exit_code: int, stack: list(ref('V2StackEntity')) }),
  V2EstimatedFee: obj({ in_fwd_fee: int, storage_fee: int, gas_fee: int, fwd_fee: int }),
  V2EstimateFeeResult: obj({ source_fees: ref('V2EstimatedFee'), destination_fees: list(ref('V2EstimatedFee')) }),
};

const responses = (schema: object) => ({
  '200': { description: 'ok', content: { 'application/json': { schema } } },
  default: { $ref: '#/components/responses/Error' },
});

export function v3OpenApi(endpoints: AnyV3Endpoint[], postEndpoints: AnyV3PostEndpoint[], version: string): object {
  const paths: Record<string, object> = {};
  for (const endpoint of endpoints) {
    const operation = {
      get: {
        operationId: `v3_${endpoint.path.slice(1).replace(/\//g, '_')}`,
        tags: [endpoint.tag],
        summary: endpoint.summary,
        parameters: Object.entries(endpoint.params as Record<string, ParamSpec>).map(([name, spec]) => parameter(name, spec)),
        responses: responses(endpoint.response),
      },
    };
    for (const path of [endpoint.path, ...(endpoint.aliases ?? [])]) paths[`/api/v3${path}`] = operation;
  }
  for (const endpoint of postEndpoints) {
    const fields = Object.entries(endpoint.body as Record<string, BodySpec>);
    const missing = Object.keys(endpoint.missing);
    // A path served on both verbs (/decode) keeps its GET beside the POST.
    paths[`/api/v3${endpoint.path}`] = {
      ...paths[`/api/v3${endpoint.path}`],
      post: {
        operationId: `v3_${endpoint.path.slice(1)}${paths[`/api/v3${endpoint.path}`] ? '_post' : ''}`,
        tags: [endpoint.tag],
        summary: endpoint.summary,
        ...(missing.length > 0 ? { description: `A missing ${missing.join(' or ')} is answered 401, as toncenter does.` } : {}),
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: {
                type: 'object',
                properties: Object.fromEntries(fields.map(([name, spec]) => [name, bodyField(spec)])),
                required: fields.filter(([, spec]) => spec.required).map(([name]) => name),
              },
            },
          },
        },
        responses: responses(endpoint.response),
      },
    };
  }
  return {
    openapi: '3.0.3',
    info: {
      title: 'tongate: toncenter-compatible API v3 (indexed)',
      version,
      description:
        'API key: header X-API-Key or query api_key. Lists are repeated keys (`?account=A&account=B`), bracketed keys (`account[]=A`) or comma-separated values; `limit` defaults to 10, at most 1000. ' +
        'Addresses are written raw (`0:ABC...`) with user-friendly forms in `address_book`; lt, utime and amounts are strings; shard ids are uppercase hex.',
    },
    security: [{ APIKeyHeader: [] }, { APIKeyQuery: [] }, {}],
    paths,
    components: {
      securitySchemes: {
        APIKeyHeader: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
        APIKeyQuery: { type: 'apiKey', in: 'query', name: 'api_key' },
      },
      schemas: SCHEMAS,
      responses: {
        Error: { description: 'error: 4xx names the bad parameter', content: { 'application/json': { schema: ref('Error') } } },
      },
    },
  };
}
