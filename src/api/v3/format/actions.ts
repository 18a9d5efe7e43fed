/**
 * Actions as v3 answers them (ton-index-go's ActionsResponse): each action's stored text (index/actions
 * action-rows.ts) with `accounts` when asked, `transactions_full` (its transactions as /transactions writes them,
 * in its `transactions` order) when asked, and `finality`; then the address_book and metadata of every address
 * the actions name (toncenter's CollectAddressesFromAction: their ends, assets, response destinations...).
 * For /traces?include_actions: each trace's actions and its classification_state. No I/O: the endpoints read the
 * page (endpoints/actions.ts) and hand it over.
 */
import type { AddressBookStates } from '../../../index/read/accounts.js';
import type { AddressMetadata } from '../../../index/read/metadata.js';
import type { TransactionPage } from '../../../index/read/pages.js';
import { actionText, type StoredAction } from '../../../index/actions/reader.js';
import { jsonObject, type JsonText } from '../../json-text.js';
import { addressBookOf, type AddressBookRow } from './address-book.js';
import { renderTransactions } from './transactions.js';

const RAW_ADDRESS = /^-?\d+:[0-9A-F]{64}$/;

/** Every raw address in an action's details (the only strings of that form in them). */
function addressesOf(value: unknown, into: Set<string>): void {
  if (typeof value === 'string') {
    if (RAW_ADDRESS.test(value)) into.add(value);
  } else if (Array.isArray(value)) for (const item of value) addressesOf(item, into);
  else if (value !== null && typeof value === 'object') for (const item of Object.values(value)) addressesOf(item, into);
}

/** The raw addresses an action's details name (its ends, assets, response destinations...). */
export function detailsAddresses(details: unknown): string[] {
  const addresses = new Set<string>();
  addressesOf(details, addresses);
  return [...addresses];
}

/** The addresses the actions' answer describes in its address_book and metadata. */
export function actionAddresses(actions: readonly StoredAction[]): string[] {
  const addresses = new Set<string>();
  for (const action of actions) addressesOf((JSON.parse(action.doc) as { details: unknown }).details, addresses);
  return [...addresses];
}

/** The transactions an action holds, by its document. */
export const actionTransactions = (action: StoredAction): string[] => (JSON.parse(action.doc) as { transactions: string[] }).transactions;

/** A page of actions with what its answer shows (read by endpoints/actions.ts). */
export interface ActionPage {
  actions: StoredAction[];
  book: AddressBookStates;
  metadata: Record<string, AddressMetadata>;
  /** The actions' transactions, when `include_transactions`. */
  transactions: TransactionPage | null;
}

export function actionsText(page: ActionPage, options: { accounts: boolean; testOnly: boolean }): JsonText {
  const texts = new Map<string, string>();
  if (page.transactions) {
    const rendered = renderTransactions(page.transactions, options.testOnly);
    page.transactions.records.forEach((r, i) => texts.set(r.hash.toString('base64'), rendered.texts[i]));
  }
  const answers = page.actions.map((action) =>
    actionText(action, {
      accounts: options.accounts,
      transactions: page.transactions ? actionTransactions(action).flatMap((h) => texts.get(h) ?? []) : undefined,
    }),
  );
  return jsonObject([
    ['actions', `[${answers.join(',')}]`],
    ['address_book', JSON.stringify(addressBookOf(actionAddresses(page.actions), page.book, options.testOnly))],
    ['metadata', JSON.stringify(page.metadata)],
  ]);
}

/** What /traces adds of actions: each trace's classification_state, and with include_actions its actions and their addresses. */
export interface TraceActions {
  /** trace_id (base64) -> classification_state; a trace not classified is `unclassified`. */
  states: Map<string, string>;
  /** trace_id -> its actions' texts; null without include_actions. */
  actions: Map<string, string[]> | null;
  addressBook: Record<string, AddressBookRow>;
  metadata: Record<string, AddressMetadata>;
}

/** The page's actions as /traces writes them (no `accounts`), from what endpoints/actions.ts read. */
export function traceActionsOf(
  read: {
    states: Map<string, string>;
    actions: Map<string, StoredAction[]> | null;
    book: AddressBookStates;
    metadata: Record<string, AddressMetadata>;
  },
  testOnly: boolean,
): TraceActions {
  if (!read.actions) return { states: read.states, actions: null, addressBook: {}, metadata: {} };
  const all = [...read.actions.values()].flat();
  const actions = new Map([...read.actions].map(([id, list]) => [id, list.map((a) => actionText(a))]));
  return { states: read.states, actions, addressBook: addressBookOf(actionAddresses(all), read.book, testOnly), metadata: read.metadata };
}
