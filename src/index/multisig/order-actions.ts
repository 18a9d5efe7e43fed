/**
 * An order's actions, as toncenter's /api/v3/multisig/orders writes them with `parse_actions=true` (ton-index-go
 * parse/multisig_parse.go, models OrderAction). The order cell is multisig v2's `HashmapE 8 ^Action`, read in key order:
 *   send_message#f1381e5b mode:uint8 message:^MessageRelaxed     -> destination, value, body_raw, parsed_body, send_mode
 *   update_multisig_params#1d0cfbd3 threshold:uint8 signers:^(Hashmap 8 MsgAddressInt)
 *       proposers:(Maybe ^(Hashmap 8 MsgAddressInt))            -> parsed_body {new_threshold, new_signers, new_proposers}
 * An action that does not read is `{"parsed":false,"error":"...","parsed_body_type":"unknown"}`; an order cell that
 * is not such a dictionary has no actions (null), as toncenter.
 */
import { Cell, Dictionary, loadMessageRelaxed, type Slice } from '@ton/core';
import { formatRawUpper } from '../../ton/address.js';
import { addressList } from './detect.js';
import { parsedBody } from './order-bodies.js';

const SEND_MESSAGE = 0xf1381e5b;
const UPDATE_MULTISIG_PARAMS = 0x1d0cfbd3;

export interface OrderActionJson {
  destination: string | null;
  value: string | null;
  /** The message body's BoC, base64 (Go's []byte). */
  body_raw: string | null;
  parsed: boolean;
  error: string | null;
  parsed_body: Record<string, unknown> | null;
  parsed_body_type: string;
  send_mode: number;
}

/** The actions of an order's `order_boc` (base64); null when it is not an actions dictionary. */
export function orderActions(orderBoc: string): OrderActionJson[] | null {
  let actions: Map<number, Cell>;
  try {
    const root = Cell.fromBase64(orderBoc);
    const dict = Dictionary.loadDirect(Dictionary.Keys.Uint(8), Dictionary.Values.Cell(), root);
    actions = new Map([...dict.keys()].sort((a, b) => a - b).map((key) => [key, dict.get(key)!]));
  } catch {
    return null;
  }
  if (actions.size === 0) return null; // toncenter's list stays nil
  return [...actions.values()].map(orderAction);
}

function orderAction(action: Cell): OrderActionJson {
  try {
    const cs = action.beginParse();
    const kind = cs.loadUint(32);
    if (kind === SEND_MESSAGE) return sendMessage(cs);
    if (kind === UPDATE_MULTISIG_PARAMS) return updateParams(cs);
    throw new Error(`unknown order action type: ${kind}`);
  } catch (error) {
    return {
      destination: null,
      value: null,
      body_raw: null,
      parsed: false,
      error: `failed to parse order action: ${(error as Error).message}`,
      parsed_body: null,
      parsed_body_type: 'unknown',
      send_mode: 0,
    };
  }
}

function sendMessage(cs: Slice): OrderActionJson {
  const sendMode = cs.loadUint(8);
  const message = loadMessageRelaxed(cs.loadRef().beginParse());
  const internal = message.info.type === 'internal' ? message.info : null;
  const parsed = parsedBody(message.body);
  return {
    destination: internal ? formatRawUpper(internal.dest) : null,
    value: (internal?.value.coins ?? 0n).toString(),
    body_raw: message.body.toBoc({ idx: false, crc32: true }).toString('base64'),
    parsed: true,
    error: null,
    parsed_body: parsed.body,
    parsed_body_type: parsed.type,
    send_mode: sendMode,
  };
}

function updateParams(cs: Slice): OrderActionJson {
  const threshold = cs.loadUint(8);
  const signers = addressList(cs.loadRef(), 'new signers');
  const proposers = cs.loadMaybeRef();
  return {
    destination: null,
    value: null,
    body_raw: null,
    parsed: true,
    error: null,
    parsed_body: {
      new_threshold: threshold,
      new_signers: signers,
      // toncenter: null when the order names no proposers
      new_proposers: proposers ? addressList(proposers, 'new proposers') : null,
    },
    parsed_body_type: 'multisig_update_params',
    send_mode: 0,
  };
}

const RAW_ADDRESS = /^-?\d+:[0-9A-F]{64}$/;

/** Every address the actions name (destinations, and the addresses in their bodies): toncenter puts them in the address book. */
export function actionAddresses(actions: OrderActionJson[] | null): string[] {
  const found: string[] = [];
  const visit = (value: unknown): void => {
    if (typeof value === 'string') {
      if (RAW_ADDRESS.test(value)) found.push(value);
    } else if (Array.isArray(value)) value.forEach(visit);
    else if (value && typeof value === 'object') Object.values(value).forEach(visit);
  };
  for (const action of actions ?? []) {
    visit(action.destination);
    visit(action.parsed_body);
  }
  return found;
}
