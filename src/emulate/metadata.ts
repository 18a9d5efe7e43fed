/**
 * The `metadata` entries of the token contracts an emulated trace reached that the network's index has none of (a
 * jetton master, an NFT collection or item the trace itself deploys), as toncenter's Emulate API adds them from the
 * interfaces its emulator detected on the emulated states (ton-emulate-go's appendRawInterfacesDataToMetadata and
 * convertTokenDataToTokenInfo): `is_indexed: false`, the on-chain content's `name`, `symbol`, `description` and
 * `image` as fields, its `uri`, `image_data`, `decimals`, `amount_style` and `render_type` in `extra`, nothing
 * fetched (the content a `uri` names is the index's to fetch once the contract is sealed). A jetton wallet gets
 * none, as toncenter's.
 */
import type { TraceStates } from '../chain/types.js';
import { tokenContentsOnStates } from '../index/actions/state-contracts.js';

const FIELDS = ['name', 'symbol', 'description', 'image'] as const;
const EXTRA = ['uri', 'image_data', 'decimals', 'amount_style', 'render_type'] as const;

export interface EmulatedTokenMetadata {
  is_indexed: false;
  token_info: [{ type: string } & Partial<Record<(typeof FIELDS)[number], string>> & { extra?: Record<string, string> }];
}

/** The entries of `accounts` (raw uppercase) that are token contracts on the states the trace left. */
export async function emulatedTokenMetadata(
  trace: TraceStates,
  accounts: ReadonlySet<string>,
): Promise<Record<string, EmulatedTokenMetadata>> {
  const metadata: Record<string, EmulatedTokenMetadata> = {};
  if (accounts.size === 0) return metadata;
  for (const [account, { type, content }] of await tokenContentsOnStates(trace, accounts)) {
    const info: EmulatedTokenMetadata['token_info'][0] = { type };
    for (const key of FIELDS) if (content[key] !== undefined) info[key] = content[key];
    const extra: Record<string, string> = {};
    for (const key of EXTRA) if (content[key] !== undefined) extra[key] = content[key];
    if (Object.keys(extra).length > 0) info.extra = extra;
    metadata[account] = { is_indexed: false, token_info: [info] };
  }
  return metadata;
}
