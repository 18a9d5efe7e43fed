/**
 * The address_book of v3 responses: for each raw address, its user-friendly form, domain and
 * interfaces. The friendly form follows toncenter: non-bounceable for an account with no code (uninit,
 * nonexistent, unknown) or with wallet code, bounceable otherwise; the test-only flag is the network's.
 * Interfaces: a known wallet's name (by code hash), else the names its get-method ids say (jetton_master,
 * jetton_wallet, nft_item..., index/tokens/method-ids.ts), as toncenter's DetectInterface.
 * Domain: the shortest domain the account owns whose wallet record points back at it (index/dns), else null.
 */
import { Address } from '@ton/core';
import { formatFriendly } from '../../../ton/address.js';
import type { AddressBookStates } from '../../../index/read/accounts.js';
import type { LatestStateRecord } from '../../../index/read/records.js';
import { interfacesOf } from './interfaces.js';

export interface AddressBookRow {
  user_friendly: string | null;
  domain: string | null;
  interfaces: string[];
}

export function addressBookRow(
  raw: string,
  state: LatestStateRecord | undefined,
  testOnly: boolean,
  domain: string | null = null,
): AddressBookRow {
  const bounceable = Boolean(state?.codeHash) && !state?.wallet;
  return {
    user_friendly: formatFriendly(Address.parseRaw(raw), { bounceable, testOnly }),
    domain,
    interfaces: interfacesOf(state),
  };
}

const distinct = (addresses: Iterable<string | null>) => [...new Set([...addresses].filter((a): a is string => a !== null))];

/**
 * Rows keyed by raw address, for every distinct address given (null entries are skipped), from the states and
 * domains the index knows of them (IndexReader.addressBookStates).
 */
export function addressBookOf(
  addresses: Iterable<string | null>,
  known: AddressBookStates,
  testOnly: boolean,
): Record<string, AddressBookRow> {
  const byAccount = new Map(known.states.map((s) => [s.account, s]));
  const book: Record<string, AddressBookRow> = {};
  for (const raw of distinct(addresses)) book[raw] = addressBookRow(raw, byAccount.get(raw), testOnly, known.domains.get(raw) ?? null);
  return book;
}
