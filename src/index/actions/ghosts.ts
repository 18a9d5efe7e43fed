/**
 * The transfers a wallet was asked for and did not send (ton-indexer's `init_from_external` and
 * `extract_payload_from_wallet_message`): a trace of one transaction, a wallet taking an external message and
 * sending nothing (its balance too low, a send mode that ignores errors), is described by the messages its
 * request carried, as "ghost" events that failed. Read from the request's body as a v3/v4 wallet lays it out (the
 * messages in its refs after the signature and header) or a v5r1 one (`sign` op, the out-action list); a body that
 * is neither gives none.
 */
import { Address, loadMessageRelaxed, type Cell, type Slice } from '@ton/core';
import { formatRawUpper } from '../../ton/address.js';
import { EventNode } from './blocks.js';
import type { ActionMessage, ActionTransaction } from './trace-input.js';

const V5_SIGNED_EXTERNAL = 0x7369676e;

/** The message cells a wallet request carries, in its order. */
function requestedMessages(body: Cell): Cell[] {
  const cs = body.beginParse();
  if (cs.remainingBits >= 32 && cs.preloadUint(32) === V5_SIGNED_EXTERNAL) {
    cs.skip(32 * 4);
    const messages: Cell[] = [];
    for (let list = cs.loadMaybeRef(); list;) {
      const item = list.beginParse();
      if (item.remainingBits === 0) break;
      list = item.loadRef();
      messages.push(item.loadRef());
    }
    // The list's head is the last action: ton-indexer numbers them in that order, newest first.
    return messages;
  }
  // v3 (signature, subwallet, valid_until, seqno) and v4 (and its op): every ref is a message.
  cs.skip(512 + 32 * 3);
  return [...Array(cs.remainingRefs)].map(() => cs.loadRef());
}

function ghostMessage(cell: Cell, index: number, tx: ActionTransaction): ActionMessage | null {
  const message = loadMessageRelaxed(cell.beginParse() as Slice);
  const info = message.info;
  if (info.type !== 'internal') return null;
  const body = message.body;
  return {
    // ton-indexer's made-up hash: base64 of the text "<payload hash, base64><index>".
    hash: Buffer.from(`${cell.hash().toString('base64')}${index}`).toString('base64'),
    source: tx.account,
    destination: Address.isAddress(info.dest) ? formatRawUpper(info.dest) : null,
    value: info.value.coins,
    fwdFee: info.forwardFee,
    extraCurrencies: {},
    opcode: body.bits.length >= 32 ? body.beginParse().loadUint(32) >>> 0 : null,
    bounce: info.bounce,
    bounced: info.bounced,
    createdLt: tx.lt,
    createdAt: tx.now,
    body: () => body,
  };
}

/** The failed events a lone wallet transaction stands for, hung under its node (none when its body is no wallet request). */
export function addGhostEvents(root: EventNode): EventNode[] {
  root.failed = true;
  let cells: Cell[];
  try {
    cells = requestedMessages(root.message.body());
  } catch {
    return [];
  }
  const ghosts: EventNode[] = [];
  for (const [index, cell] of cells.entries()) {
    let message: ActionMessage | null;
    try {
      message = ghostMessage(cell, index, root.tx);
    } catch {
      message = null;
    }
    if (!message) continue;
    const node = new EventNode(message, root.tx, 'in', true);
    node.failed = true;
    root.addChild(node);
    ghosts.push(node);
  }
  return ghosts;
}

/** The accounts a lone wallet transaction's request names (looked up as token contracts before classifying). */
export function ghostDestinations(tx: ActionTransaction): string[] {
  if (!tx.inMsg || tx.inMsg.source !== null || tx.outMsgs.length > 0) return [];
  try {
    return requestedMessages(tx.inMsg.body()).flatMap((cell, i) => ghostMessage(cell, i, tx)?.destination ?? []);
  } catch {
    return [];
  }
}
