/**
 * What every action type's details share (`details.ts` dispatches, the protocols' files build their own): the
 * parts an action is answered with, and ton-index-go's ways of writing values (amounts as decimal strings, absent
 * values null or, where Go says omitempty, left out). Imports nothing of the classifier, so every file may use it.
 */

export type Json = Record<string, unknown>;

export interface ActionParts {
  details: Json;
  /** toncenter's source, source_secondary, destination, destination_secondary columns. */
  ends: (string | null)[];
  /**
   * The action's type when the block's is toncenter's own name (DeDust's deposits): the block's type still makes
   * the action id, as toncenter's serializer hashes the block type.
   */
  type?: string;
  /** The type the answer shows when it differs from the stored one (a transfer with extra currencies). */
  shownType?: string;
  /** Accounts the action concerns beyond its transactions and ends (a multisig order's signers). */
  accounts?: string[];
}

export const str = (value: bigint | null | undefined): string | null => (value === null || value === undefined ? null : value.toString());

/** Go's omitempty: the key left out when the value is absent. */
export const omitEmpty = (details: Json): Json =>
  Object.fromEntries(Object.entries(details).filter(([, v]) => v !== null && v !== undefined));

/** A DEX's assets given back (ton-index-go's `vault_excesses`): each asset with its amount as a decimal string. */
export const assetAmounts = (items: { asset: string | null; amount: bigint }[]): Json[] =>
  items.map((e) => ({ asset: e.asset, amount: str(e.amount) }));
