/**
 * The message-body schemes decoded here, by 32-bit opcode, each list in the order toncenter's marker
 * tries them (its InternalMsgBody0..11, then ExternalMsgBody, then ForwardPayload): the first
 * constructor that reads wins, what is left after it is not checked. Field names, order and types are
 * those of its scheme file (toncenter/ton-indexer, ton-index-worker/ton-marker/src/schemes/schemes.tlb),
 * rewritten here as field kinds. Text comments (op 0) are decode.ts's own; wallet requests are wallets.ts's.
 */
import { msgAddress, msgAddressInt } from './address-kinds.js';
import { dnsRecord } from './dns-kinds.js';
import {
  bits,
  bool,
  bytes,
  coins,
  ctor,
  either,
  maybe,
  ref,
  refCell,
  rest,
  snakeString,
  uint,
  varUint16,
  type Field,
  type Kind,
} from './kinds.js';
import { currencyCollection } from './message-kinds.js';

const queryId: Field = ['query_id', uint(64)];
const forwardPayload = either(rest, refCell);
const maybeRefCell = maybe(refCell);

function op(name: string, opcode: number, fields: readonly Field[]): readonly [number, string, Kind] {
  return [opcode, name, ctor(name, 32, opcode, fields)];
}

const SCHEMES: readonly (readonly [number, string, Kind])[] = [
  // dns.xml (InternalMsgBody0, then delete_dns_record in InternalMsgBody1)
  op('dns_balance_release', 0x4ed14b65, [queryId]),
  op('change_dns_record', 0x4eb1f0f9, [queryId, ['key', bits(256)], ['value', ref(dnsRecord)]]),
  op('process_governance_decision', 0x44beae41, [queryId]),
  op('auction_fill_up', 0x370fec51, [queryId]),
  op('outbid_notification', 0x557cea20, [queryId]),
  // jettons.xml (TEP-74)
  op('jetton_transfer', 0x0f8a7ea5, [
    queryId,
    ['amount', varUint16],
    ['destination', msgAddress],
    ['response_destination', msgAddress],
    ['custom_payload', maybeRefCell],
    ['forward_ton_amount', varUint16],
    ['forward_payload', forwardPayload],
  ]),
  op('jetton_internal_transfer', 0x178d4519, [
    queryId,
    ['amount', varUint16],
    ['from', msgAddress],
    ['response_address', msgAddress],
    ['forward_ton_amount', varUint16],
    ['forward_payload', forwardPayload],
  ]),
  op('jetton_burn', 0x595f07bc, [queryId, ['amount', varUint16], ['response_destination', msgAddress], ['custom_payload', maybeRefCell]]),
  // InternalMsgBody1
  op('delete_dns_record', 0x4eb1f0f9, [queryId, ['key', bits(256)]]),
  // a jetton_internal_transfer without the Either bit: the payload is the rest of the cell
  op('jetton_internal_transfer', 0x178d4519, [
    queryId,
    ['amount', varUint16],
    ['from', msgAddress],
    ['response_address', msgAddress],
    ['forward_ton_amount', varUint16],
    ['forward_payload', rest],
  ]),
  op('jetton_burn_notification', 0x7bdd97de, [
    queryId,
    ['amount', varUint16],
    ['sender', msgAddress],
    ['response_destination', msgAddress],
  ]),
  op('jetton_notify', 0x7362d09c, [queryId, ['amount', varUint16], ['sender', msgAddress], ['forward_payload', forwardPayload]]),
  op('jetton_set_status', 0xeed236d3, [queryId, ['status', uint(4)]]),
  op('jetton_mint', 0x642b7d07, [queryId, ['to_address', msgAddressInt], ['ton_amount', coins]]),
  op('minter_jetton_mint', 0x00000015, [queryId, ['to_address', msgAddress], ['ton_amount', coins], ['master_msg', refCell]]),
  op('jetton_change_admin', 0x6501f354, [queryId, ['new_admin_address', msgAddress]]),
  // known.xml
  op('bounce', 0xffffffff, [['payload', rest]]),
  op('encrypted_text_comment', 0x2167da4b, [['cipher_text', bytes]]),
  op('excess', 0xd53276db, [queryId]),
  op('top_up', 0xd372158c, [queryId]),
  op('credit', 0x1690c604, [queryId, ['amount', coins]]),
  op('approve', 0x7b4b42e6, [queryId]),
  op('disapprove', 0xe8a0abfe, [queryId]),
  op('elector_new_stake', 0x4e73744b, [
    queryId,
    ['validator_pubkey', bits(256)],
    ['stake_at', uint(32)],
    ['max_factor', uint(32)],
    ['adnl_addr', bits(256)],
    ['signature', ref(bits(512))],
  ]),
  op('elector_new_stake_confirmation', 0xf374484c, [queryId]),
  op('elector_recover_stake_request', 0x47657424, [queryId]),
  op('elector_recover_stake_response', 0xf96f7324, [queryId]),
  // nfts.xml (TEP-62, TEP-66 royalties, TEP-85 SBTs): InternalMsgBody2
  op('nft_transfer', 0x5fcc3d14, [
    queryId,
    ['new_owner', msgAddress],
    ['response_destination', msgAddress],
    ['custom_payload', maybeRefCell],
    ['forward_amount', varUint16],
    ['forward_payload', forwardPayload],
  ]),
  op('nft_ownership_assigned', 0x05138d91, [queryId, ['prev_owner', msgAddress], ['forward_payload', forwardPayload]]),
  op('get_static_data', 0x2fcb26a2, [queryId]),
  op('report_static_data', 0x8b771735, [queryId, ['index', uint(256)], ['collection', msgAddress]]),
  op('get_royalty_params', 0x693d3950, [queryId]),
  op('report_royalty_params', 0xa8cb00ad, [queryId, ['numerator', uint(16)], ['denominator', uint(16)], ['destination', msgAddress]]),
  op('prove_ownership', 0x04ded148, [queryId, ['dest', msgAddress], ['forward_payload', refCell], ['with_content', bool]]),
  op('ownership_proof', 0x0524c7ae, [
    queryId,
    ['item_id', uint(256)],
    ['owner', msgAddress],
    ['data', refCell],
    ['revoked_at', uint(64)],
    ['content', maybeRefCell],
  ]),
  op('sbt_request_owner', 0xd0c3bfea, [queryId, ['dest', msgAddress], ['forward_payload', refCell], ['with_content', bool]]),
  op('sbt_owner_info', 0x0dd607e3, [
    queryId,
    ['item_id', uint(256)],
    ['initiator', msgAddress],
    ['owner', msgAddress],
    ['data', refCell],
    ['revoked_at', uint(64)],
    ['content', maybeRefCell],
  ]),
  op('sbt_destroy', 0x1f04537a, [queryId]),
  op('sbt_revoke', 0x6f89f5e3, [queryId]),
  // multisig v2 (its orders are dictionaries, which toncenter's printer does not write as JSON: not here)
  op('multisig_approve', 0xa762230f, [queryId, ['signer_index', uint(8)]]),
  op('multisig_approve_accepted', 0x82609bf6, [queryId]),
  op('multisig_approve_rejected', 0xafaf283e, [queryId, ['exit_code', uint(32)]]),
  // wallet v4 plugins: InternalMsgBody5
  op('wallet_plugin_installation_notification', 0x6e6f7465, [queryId]),
  op('wallet_plugin_destruct', 0x64737472, [queryId]),
  op('wallet_plugin_destruct_response', 0xe4737472, [queryId]),
  op('payment_request', 0x706c7567, [queryId, ['amount', currencyCollection]]),
  op('payment_confirmed', 0xf06c7567, [queryId]),
  // text_comment#00000000 text:SnakeString / text:^SnakeString, for payloads nested in other bodies
  op('text_comment', 0x00000000, [['text', snakeString]]),
  op('text_comment', 0x00000000, [['text', ref(snakeString)]]),
];

/** Opcode -> the constructors to try, in order. */
export const SCHEMES_BY_OPCODE: ReadonlyMap<number, readonly Kind[]> = (() => {
  const byOpcode = new Map<number, Kind[]>();
  for (const [opcode, , kind] of SCHEMES) {
    const list = byOpcode.get(opcode);
    if (list) list.push(kind);
    else byOpcode.set(opcode, [kind]);
  }
  return byOpcode;
})();

/** Opcode -> the name of its first constructor (what toncenter's `decoded_opcode` says; opcode-names.ts agrees). */
export const SCHEME_NAMES: ReadonlyMap<number, string> = new Map([...SCHEMES].reverse().map(([opcode, name]) => [opcode, name] as const));
