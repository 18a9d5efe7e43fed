/**
 * Vesting wallet actions (ton-indexer's `blocks/vesting.py`, bodies of `blocks/messages/vesting.py`), on any
 * contract (toncenter does not ask for a detected vesting wallet here either):
 *   vesting_send_message   send#a7733acd query_id send_mode:uint8 ^message, with the wallet's
 *                          send_response#f7733acd: the message's destination and value
 *   vesting_add_whitelist  add_whitelist#7258a69b query_id addresses (the first in the body, the next each in a
 *                          reference of the one before), with add_whitelist_response#f258a69b
 */
import { loadMessageRelaxed } from '@ton/core';
import { folded, findCallContract, type Block, type CallContractBlock } from './blocks.js';
import { afterOpcode, plainBocBase64, readAddress } from './bodies.js';
import { ContractMatcher, type Matcher } from './matcher.js';
import { formatRawUpper } from '../../ton/address.js';
import { str, type ActionParts } from './details-common.js';

export const VESTING_OP = {
  send: 0xa7733acd,
  sendResponse: 0xf7733acd,
  addWhitelist: 0x7258a69b,
  addWhitelistResponse: 0xf258a69b,
} as const;

export interface VestingSendMessageData {
  queryId: bigint;
  sender: string | null;
  vesting: string | null;
  messageBoc: string;
  messageDestination: string | null;
  messageValue: bigint;
}

export interface VestingAddWhitelistData {
  queryId: bigint;
  adder: string | null;
  vesting: string | null;
  accountsAdded: string[];
}

/** The request with the wallet's answer, when there is one. */
function withAnswer(block: CallContractBlock, others: Block[], answer: number): Block[] {
  const response = findCallContract(others, answer);
  return response ? [block, response] : [block];
}

class SendMessageMatcher extends ContractMatcher {
  constructor() {
    super(VESTING_OP.send, { child: new ContractMatcher(VESTING_OP.sendResponse) });
  }

  override build(block: CallContractBlock, others: Block[]): Block[] {
    const body = afterOpcode(block.message.body());
    const queryId = body.loadUintBig(64);
    body.skip(8); // send_mode
    const messageCell = body.loadRef();
    const message = loadMessageRelaxed(messageCell.beginParse());
    if (message.info.type !== 'internal') throw new Error('vesting send: not an internal message');
    const data: VestingSendMessageData = {
      queryId,
      sender: block.message.source,
      vesting: block.message.destination,
      messageBoc: plainBocBase64(messageCell),
      messageDestination: formatRawUpper(message.info.dest),
      messageValue: message.info.value.coins,
    };
    return folded('vesting_send_message', data, withAnswer(block, others, VESTING_OP.sendResponse), block.failed);
  }
}

class AddWhitelistMatcher extends ContractMatcher {
  constructor() {
    super(VESTING_OP.addWhitelist, { child: new ContractMatcher(VESTING_OP.addWhitelistResponse) });
  }

  override build(block: CallContractBlock, others: Block[]): Block[] {
    const body = afterOpcode(block.message.body());
    const queryId = body.loadUintBig(64);
    const accountsAdded: string[] = [];
    let cs = body;
    while (cs.remainingRefs > 0) {
      const address = readAddress(cs);
      if (address) accountsAdded.push(address);
      cs = cs.loadRef().beginParse();
    }
    const last = readAddress(cs);
    if (last) accountsAdded.push(last);
    const data: VestingAddWhitelistData = { queryId, adder: block.message.source, vesting: block.message.destination, accountsAdded };
    return folded('vesting_add_whitelist', data, withAnswer(block, others, VESTING_OP.addWhitelistResponse), block.failed);
  }
}

export const vestingSendMessageMatcher = (): Matcher => new SendMessageMatcher();
export const vestingAddWhitelistMatcher = (): Matcher => new AddWhitelistMatcher();

/** A vesting action's details (ton-index-go's ActionDetailsVesting*). */
export function vestingParts(block: Block): ActionParts {
  switch (block.type) {
    case 'vesting_send_message': {
      const d = block.data as VestingSendMessageData;
      return {
        details: {
          query_id: str(d.queryId),
          message_boc: d.messageBoc,
          source: d.sender,
          vesting: d.vesting,
          destination: d.messageDestination,
          amount: str(d.messageValue),
        },
        ends: [d.sender, null, d.vesting, d.messageDestination],
      };
    }
    case 'vesting_add_whitelist': {
      const d = block.data as VestingAddWhitelistData;
      return {
        details: { query_id: str(d.queryId), accounts_added: d.accountsAdded, source: d.adder, vesting: d.vesting },
        ends: [d.adder, null, d.vesting, null],
      };
    }
    default:
      throw new Error(`no vesting details for ${block.type}`);
  }
}
