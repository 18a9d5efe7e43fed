/**
 * The `metadata` of v3 answers and /api/v3/metadata (ton-index-go's QueryMetadataImpl): an entry for each
 * address that is a jetton master or a jetton wallet, others left out. A wallet's entry is
 * `{type: jetton_wallets, extra: {owner, jetton, balance}}` and brings its master's entry along. A master's
 * entry comes from its onchain content (toncenter's metadata fetcher: name, symbol, description, image as
 * fields, every other key in `extra`; valid when it has a symbol). Content that points elsewhere (`uri`) is
 * not fetched (no internet is assumed): `is_indexed: false` and a bare `{type}`, as toncenter answers
 * before its fetcher has run.
 */
import type { IndexReader } from '../../../index/reader.js';
import type { JettonMasterRecord } from '../../../index/tokens/reader.js';

interface TokenInfo {
  valid?: boolean;
  type: string;
  name?: string;
  symbol?: string;
  description?: string;
  image?: string;
  is_nsfw?: boolean;
  is_scam?: boolean;
  extra?: Record<string, unknown>;
}

export interface AddressMetadata {
  is_indexed: boolean;
  token_info: TokenInfo[];
}

const FIELDS = ['name', 'symbol', 'description', 'image'] as const;

function masterInfo(master: JettonMasterRecord): { indexed: boolean; info: TokenInfo } {
  const content = JSON.parse(master.jettonContent) as Record<string, string>;
  if (content.uri !== undefined) return { indexed: false, info: { type: 'jetton_masters' } };
  if (content.symbol === undefined) return { indexed: true, info: { valid: false, type: 'jetton_masters' } };
  const info: TokenInfo = { valid: true, type: 'jetton_masters' };
  for (const field of FIELDS) if (content[field] !== undefined) info[field] = content[field];
  info.is_nsfw = false;
  info.is_scam = false;
  const extra = Object.fromEntries(Object.entries(content).filter(([key]) => !(FIELDS as readonly string[]).includes(key)));
  if (Object.keys(extra).length > 0) info.extra = extra;
  return { indexed: true, info };
}

/** Metadata of the token contracts among `addresses` (null entries skipped). */
export async function metadataOf(reader: IndexReader, addresses: Iterable<string | null>): Promise<Record<string, AddressMetadata>> {
  const list = [...new Set([...addresses].filter((a): a is string => a !== null))];
  const { wallets, masters } = await reader.tokens.tokenContracts(list);
  const metadata: Record<string, AddressMetadata> = {};
  for (const wallet of wallets) {
    metadata[wallet.address] = {
      is_indexed: true,
      token_info: [{ valid: true, type: 'jetton_wallets', extra: { owner: wallet.owner, jetton: wallet.jetton, balance: wallet.balance } }],
    };
  }
  for (const master of masters) {
    const { indexed, info } = masterInfo(master);
    metadata[master.address] = { is_indexed: indexed, token_info: [info] };
  }
  return metadata;
}
