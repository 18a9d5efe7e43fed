/**
 * An action as a stream notification or a pending answer carries it: its answer's text with its `accounts`, left
 * open for what the sender adds (`transactions_full`, `finality`), and what a per-client filter reads (its type,
 * accounts, the types it is part of). Written once per action, whoever it is sent to.
 */
import { actionDoc } from './action-rows.js';
import type { ActionRecord } from './classify.js';

export interface ActionPart {
  /** The answer up to (not including) its closing brace, `accounts` included. */
  head: string;
  /** The stored type (what `action_type` and the version filter read). */
  type: string;
  accounts: string[];
  /** Types of the actions it is part of (hidden from a client that understands one of them). */
  ancestorTypes: string[];
}

/** An action's stored answer with its accounts (JSON text), open for what follows them (`transactions_full`, `finality`). */
export const actionHead = (doc: string, accounts: string): string => `${doc.slice(0, -1)},"accounts":${accounts}`;

export function actionPart(action: ActionRecord): ActionPart {
  return {
    head: actionHead(actionDoc(action), JSON.stringify(action.accounts)),
    type: action.type,
    accounts: action.accounts,
    ancestorTypes: action.ancestors,
  };
}

/** The action closed at a finality, with its transactions when given (`transactions_full`). */
export function closedAction(part: ActionPart, finality: string, transactions?: readonly string[]): string {
  const full = transactions && transactions.length > 0 ? `,"transactions_full":[${transactions.join(',')}]` : '';
  return `${part.head}${full},"finality":"${finality}"}`;
}

/** toncenter's order of a trace's actions in a stream or a pending answer: the latest end first, then the latest start. */
export function newestFirst(a: { endLt: bigint; startLt: bigint }, b: { endLt: bigint; startLt: bigint }): number {
  if (a.endLt !== b.endLt) return a.endLt > b.endLt ? -1 : 1;
  return a.startLt === b.startLt ? 0 : a.startLt > b.startLt ? -1 : 1;
}
