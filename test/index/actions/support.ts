/**
 * Traces built by hand for the classifier's tests: an external message into a wallet, then the messages each
 * transaction sends, as a tree of steps. Hashes are made up (distinct per message and transaction), lts grow along
 * the tree as a chain's would (a message is created after its sender's transaction and received later).
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { Address, beginCell, type Builder, type Cell } from '@ton/core';
import type { ActionMessage, ActionTransaction, TraceInput } from '../../../src/index/actions/trace-input.js';
import { actionDoc } from '../../../src/index/actions/action-rows.js';
import type { ActionRecord } from '../../../src/index/actions/classify.js';
import { toncenterV3 } from '../../api/v3/support/spec.js';

/** Mainnet's USDT master, raw (the DEX tests' usual jetton). */
export const USDT = Address.parse('EQCxE6mUtQJKFnGfaROTKOt1lZbDiiX1kCixRv7Nw2Id_sDs').toRawString().toUpperCase();

/** A message body's start as the DEX contracts write it: op:uint32 query_id:uint64. */
export const op = (code: number, queryId = 1n): Builder => beginCell().storeUint(code, 32).storeUint(queryId, 64);

/** A raw address of a made-up account. */
export const account = (n: number): string => `0:${n.toString(16).padStart(64, '0').toUpperCase()}`;
export const address = (raw: string): Address => Address.parseRaw(raw);

export interface Step {
  to: string;
  body?: Cell;
  value?: bigint;
  bounce?: boolean;
  bounced?: boolean;
  /** The receiving transaction aborted. */
  aborted?: boolean;
  /** The receiving transaction's compute exit code (none given: as if the trace carried none). */
  exitCode?: number;
  /** The receiving account went from uninit to active. */
  deploys?: boolean;
  /** Its compute phase was skipped for this reason. */
  skipped?: string;
  /** Whether the account stayed uninit (a transfer to an empty address). */
  endStatus?: string;
  /** What the receiving transaction sends on. */
  then?: Step[];
  /** External-out messages it emits. */
  logs?: number;
  /** External-out messages with these bodies it emits (after the `logs` empty ones). */
  logBodies?: Cell[];
  /** The StateInit the message carries. */
  init?: Cell;
}

let counter = 0;
const fakeHash = (tag: string): string => createHash('sha256').update(`${tag}:${counter++}`).digest('base64');

function message(
  source: string | null,
  destination: string | null,
  step: Partial<Step>,
  createdLt: bigint | null,
  createdAt: number | null,
): ActionMessage {
  const body = step.body ?? beginCell().endCell();
  const bits = body.bits.length;
  return {
    hash: fakeHash('msg'),
    source,
    destination,
    value: source === null || destination === null ? null : (step.value ?? 1_000_000_000n),
    fwdFee: source === null || destination === null ? null : 1_000n,
    extraCurrencies: {},
    opcode: bits >= 32 ? body.beginParse().loadUint(32) >>> 0 : null,
    bounce: source === null || destination === null ? null : (step.bounce ?? true),
    bounced: source === null || destination === null ? null : (step.bounced ?? false),
    createdLt,
    createdAt,
    body: () => body,
    initState: () => step.init ?? null,
  };
}

export interface Built {
  trace: TraceInput;
  /** Transactions in creation order (the root's first). */
  txs: ActionTransaction[];
  /** The message each step was (in the order of the steps, depth first). */
  messages: ActionMessage[];
}

/** A trace: an external into `wallet` (with `body`), whose transaction sends `steps`. */
export function buildTrace(
  wallet: string,
  steps: Step[],
  options: { externalBody?: Cell; walletAborted?: boolean; walletDeploys?: boolean } = {},
): Built {
  let lt = 10_000n;
  const now = 1_700_000_000;
  const txs: ActionTransaction[] = [];
  const messages: ActionMessage[] = [];
  const transaction = (accountId: string, inMsg: ActionMessage, step: Partial<Step>): ActionTransaction => {
    lt += 10n;
    const tx: ActionTransaction = {
      hash: fakeHash('tx'),
      lt,
      now: now + txs.length,
      account: accountId,
      mcSeqno: 7,
      totalFees: 2_000n,
      aborted: step.aborted ?? false,
      ...(step.exitCode === undefined ? {} : { exitCode: step.exitCode }),
      tickTock: false,
      origStatus: step.deploys ? 'uninit' : 'active',
      endStatus: step.endStatus ?? 'active',
      skippedReason: step.skipped ?? null,
      inMsg,
      outMsgs: [],
    };
    txs.push(tx);
    return tx;
  };
  const send = (from: ActionTransaction, children: Step[] = [], logs = 0, logBodies: Cell[] = []): void => {
    const sent: [Step, ActionMessage][] = [];
    for (const child of children) {
      const m = message(from.account, child.to, child, from.lt + 1n + BigInt(from.outMsgs.length), from.now);
      from.outMsgs.push(m);
      messages.push(m);
      sent.push([child, m]);
    }
    for (let i = 0; i < logs; i++) from.outMsgs.push(message(from.account, null, {}, from.lt + 1n + BigInt(from.outMsgs.length), from.now));
    for (const body of logBodies)
      from.outMsgs.push(message(from.account, null, { body }, from.lt + 1n + BigInt(from.outMsgs.length), from.now));
    for (const [child, m] of sent) send(transaction(child.to, m, child), child.then, child.logs, child.logBodies);
  };
  const external = message(null, wallet, { body: options.externalBody }, null, null);
  const root = transaction(wallet, external, { aborted: options.walletAborted, deploys: options.walletDeploys });
  send(root, steps);
  const last = txs.reduce((a, b) => (b.lt > a.lt ? b : a));
  return {
    trace: {
      traceId: root.hash,
      externalHash: external.hash,
      externalHashNorm: fakeHash('norm'),
      startLt: root.lt,
      startUtime: root.now,
      endLt: last.lt,
      endUtime: last.now,
      mcSeqnoEnd: 7,
      transactions: txs,
    },
    txs,
    messages,
  };
}

/** A text comment body (op 0 + the text). */
export const commentBody = (text: string): Cell => beginCell().storeUint(0, 32).storeStringTail(text).endCell();

/** An action as /api/v3/actions answers it, checked against toncenter's OpenAPI schema. */
export function againstSpec(action: ActionRecord): void {
  const body = { actions: [{ ...JSON.parse(actionDoc(action)), accounts: action.accounts }], address_book: {}, metadata: {} };
  assert.deepEqual(toncenterV3().errors('/api/v3/actions', body), [], `${action.type} against toncenter's spec`);
}

/** toncenter's action id: the base64 sha256 of the earliest message's hash and the block's type. */
export const actionId = (messageHash: string, blockType: string): string =>
  createHash('sha256')
    .update(messageHash + blockType)
    .digest('base64');
