/**
 * A trace as a tree of event nodes, and its first blocks (ton-indexer's `to_tree`, `init_block` and
 * `basic_blocks.py`): each node becomes a TON transfer (an internal message with no opcode, op 0 or the
 * encrypted-comment op), a tick-tock, or a contract call; a transaction that made its account active from
 * uninit or nonexistent also gets a `contract_deploy` child block.
 */
import { Block, CallContractBlock, EventNode, TonTransferBlock } from './blocks.js';
import { OP, tonTransferComment } from './bodies.js';
import type { ActionMessage, ActionTransaction } from './trace-input.js';

/** A tick-tock (or any transaction without an inbound message) is an event without one: its hash stands for the message's. */
function noMessage(tx: ActionTransaction): ActionMessage {
  return {
    hash: tx.hash,
    source: null,
    destination: null,
    value: null,
    fwdFee: null,
    extraCurrencies: {},
    opcode: null,
    bounce: null,
    bounced: null,
    createdLt: null,
    createdAt: null,
    body: () => {
      throw new Error('a transaction without an inbound message has no body');
    },
  };
}

/** The root node of a complete trace's transactions (any order). Throws when a message leads out of them. */
export function eventTree(transactions: readonly ActionTransaction[]): EventNode {
  const byLt = [...transactions].sort((a, b) => (a.lt === b.lt ? 0 : a.lt > b.lt ? -1 : 1));
  const receiver = new Map<string, EventNode>();
  const nodes = new Map<string, EventNode>();
  // Latest first: the transactions a message led to have their nodes when their sender's is built.
  for (const tx of byLt) {
    const node = tx.inMsg && !tx.tickTock ? new EventNode(tx.inMsg, tx, 'in') : new EventNode(tx.inMsg ?? noMessage(tx), tx, 'tick_tock');
    if (tx.inMsg) receiver.set(tx.inMsg.hash, node);
    nodes.set(tx.hash, node);
    for (const out of tx.outMsgs) {
      if (out.destination === null) {
        node.addChild(new EventNode(out, tx, 'out'));
        continue;
      }
      const child = receiver.get(out.hash);
      if (!child) throw new Error(`message ${out.hash} leads out of the trace`);
      node.addChild(child);
    }
  }
  let root = nodes.get(byLt[byLt.length - 1].hash)!;
  while (root.parent) root = root.parent;
  return root;
}

const deploys = (tx: ActionTransaction): boolean => tx.endStatus === 'active' && tx.origStatus !== 'active' && tx.origStatus !== 'frozen';

export interface DeployData {
  opcode: number | null;
  source: string | null;
  destination: string | null;
  value: bigint | null;
}

function withDeployment(block: Block, node: EventNode): void {
  if (!deploys(node.tx)) return;
  const m = node.message;
  const deploy = new Block('contract_deploy', [node], {
    opcode: node.opcode(),
    source: m.source,
    destination: m.destination,
    value: m.value,
  } satisfies DeployData);
  deploy.failed = node.failed;
  block.childrenBlocks.push(deploy);
}

function tonTransfer(node: EventNode): TonTransferBlock {
  const m = node.message;
  const { comment, encrypted } = tonTransferComment(m.body());
  const block = new TonTransferBlock(node, comment, encrypted);
  if (node.failed) {
    // A transfer that bounced failed; one that found no contract to run (kept as uninit) or no gas did not.
    if (m.bounce === true) block.failed = true;
    else if (node.tx.endStatus === 'uninit') block.failed = false;
    else block.failed = !(m.source !== null && node.tx.skippedReason === 'no_gas');
  }
  withDeployment(block, node);
  return block;
}

function callContract(node: EventNode): CallContractBlock {
  const m = node.message;
  const block = new CallContractBlock(node, node.opcode());
  // A call that carried nothing and failed (a notification nobody handles) is not a failure of the action.
  block.failed = node.failed && !(!m.value && node.opcode() && Object.keys(m.extraCurrencies).length === 0);
  withDeployment(block, node);
  return block;
}

/** The block of a node, connected to the blocks of its children. */
export function initialBlock(node: EventNode): Block {
  let block: Block;
  const opcode = node.opcode();
  const plainTransfer = opcode === null || opcode === 0 || opcode === OP.encryptedComment;
  if (node.isTickTock) {
    block = new Block('tick_tock', [node], { account: node.tx.account });
    block.failed = node.failed;
  } else if (plainTransfer && node.message.source !== null && node.message.destination !== null) block = tonTransfer(node);
  else block = callContract(node);
  for (const child of node.children) block.connect(initialBlock(child));
  return block;
}
