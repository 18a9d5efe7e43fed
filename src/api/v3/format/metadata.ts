/**
 * The `metadata` of v3 answers and /api/v3/metadata (ton-index-go's QueryMetadataImpl): an entry for each
 * address that is a jetton master or wallet, an NFT item or collection; others left out. A wallet's entry is
 * `{type: jetton_wallets, extra: {owner, jetton, balance}}` and brings its master's entry along. A master's
 * entry, an item's or a collection's, comes from its onchain content (toncenter's metadata fetcher: name,
 * symbol, description, image as fields, every other key in `extra`; valid when a jetton has a symbol, an NFT
 * a name). Content that points elsewhere (`uri`) is
 * not fetched (no internet is assumed): `is_indexed: false` and a bare `{type}`, as toncenter answers
 * before its fetcher has run.
 */
import type { IndexReader } from '../../../index/reader.js';

interface TokenInfo {
  valid?: boolean;
  type: string;
  name?: string;
  symbol?: string;
  description?: string;
  image?: string;
  nft_index?: string;
  is_nsfw?: boolean;
  is_scam?: boolean;
  extra?: Record<string, unknown>;
}

export interface AddressMetadata {
  is_indexed: boolean;
  token_info: TokenInfo[];
}

const FIELDS = ['name', 'symbol', 'description', 'image'] as const;

/**
 * One contract's entry from its content (JSON text, null when it has none yet). Valid as toncenter's
 * fetcher decides: a jetton needs a symbol, an NFT item or collection a name.
 */
function contentInfo(type: string, contentJson: string | null, needs: 'symbol' | 'name', nftIndex?: string): AddressMetadata {
  const content = contentJson === null ? null : (JSON.parse(contentJson) as Record<string, string>);
  const index = nftIndex === undefined ? {} : { nft_index: nftIndex };
  if (content === null || content.uri !== undefined) return { is_indexed: false, token_info: [{ type, ...index }] };
  if (content[needs] === undefined) return { is_indexed: true, token_info: [{ valid: false, type, ...index }] };
  const info: TokenInfo = { valid: true, type };
  for (const field of FIELDS) if (content[field] !== undefined) info[field] = content[field];
  Object.assign(info, index, { is_nsfw: false, is_scam: false });
  const extra = Object.fromEntries(Object.entries(content).filter(([key]) => !(FIELDS as readonly string[]).includes(key)));
  if (Object.keys(extra).length > 0) info.extra = extra;
  return { is_indexed: true, token_info: [info] };
}

/** Metadata of the token contracts among `addresses` (null entries skipped). */
export async function metadataOf(reader: IndexReader, addresses: Iterable<string | null>): Promise<Record<string, AddressMetadata>> {
  const list = [...new Set([...addresses].filter((a): a is string => a !== null))];
  if (list.length === 0) return {};
  const [{ wallets, masters }, items, collections] = await Promise.all([
    reader.tokens.tokenContracts(list),
    reader.nfts.itemsByAddress(list),
    reader.nfts.collectionsByAddress(list),
  ]);
  const metadata: Record<string, AddressMetadata> = {};
  for (const wallet of wallets) {
    metadata[wallet.address] = {
      is_indexed: true,
      token_info: [{ valid: true, type: 'jetton_wallets', extra: { owner: wallet.owner, jetton: wallet.jetton, balance: wallet.balance } }],
    };
  }
  for (const master of masters) metadata[master.address] = contentInfo('jetton_masters', master.jettonContent, 'symbol');
  for (const item of items) metadata[item.address] = contentInfo('nft_items', item.content, 'name', item.index);
  for (const collection of collections) metadata[collection.address] = contentInfo('nft_collections', collection.collectionContent, 'name');
  return metadata;
}
