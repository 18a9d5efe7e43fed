/**
 * One token contract's `/api/v3/metadata` entry from its onchain content and what its `uri` gave, the way
 * toncenter's ton-metadata-fetcher merges them: the fetched JSON's `name`, `description`, `image`, `symbol`
 * become fields (when they are strings), every other key goes to `extra`; then the onchain values override
 * (onchain `name` over fetched `name`, onchain `decimals` over fetched `decimals`, onchain `uri` kept in extra).
 * Valid: a jetton master needs a symbol; an NFT item a name or a domain; an NFT collection a name. Pure.
 */

export type TokenInfoType = 'jetton_masters' | 'nft_items' | 'nft_collections';

/** What became of the contract's `uri` (onchain content has none: `absent`). */
export type OffchainContent =
  | { state: 'absent' }
  /** Not fetched yet (or fetching is off): toncenter's answer before its fetcher ran. */
  | { state: 'pending' }
  | { state: 'fetched'; json: Record<string, unknown> }
  /** Fetched and failed for good (404, not JSON, refused address...): the onchain values alone. */
  | { state: 'failed' };

export interface TokenInfo {
  valid?: boolean;
  type: TokenInfoType;
  name?: string;
  symbol?: string;
  description?: string;
  image?: string;
  nft_index?: string;
  is_nsfw?: boolean;
  is_scam?: boolean;
  extra?: Record<string, unknown>;
}

export interface TokenMetadataEntry {
  is_indexed: boolean;
  token_info: TokenInfo[];
}

export interface TokenInfoInput {
  type: TokenInfoType;
  /** The onchain TEP-64 values as v3 keeps them (src/index/tokens content.ts): offchain content is `{uri}` only. */
  onchain: Record<string, string>;
  offchain: OffchainContent;
  /** NFT items: their index in the collection, as a decimal string. */
  nftIndex?: string;
  /** DNS items: the domain they hold (makes an item without a name valid). */
  domain?: string;
}

const FIELDS = ['name', 'symbol', 'description', 'image'] as const;
type Field = (typeof FIELDS)[number];
const isField = (key: string): key is Field => (FIELDS as readonly string[]).includes(key);

/**
 * The uri a contract's content asks to fetch: offchain content, or onchain content that carries a `uri` too.
 * The same rule in SQL enqueues it (src/index/tokens/metadata-queue-schema.ts `uriSql`): change both together.
 */
export function offchainUriOf(onchain: Record<string, string>): string | undefined {
  const uri = onchain.uri?.trim();
  return uri ? uri : undefined;
}

export function tokenInfoOf(input: TokenInfoInput): TokenMetadataEntry {
  const index = input.nftIndex === undefined ? {} : { nft_index: input.nftIndex };
  if (input.offchain.state === 'pending') return { is_indexed: false, token_info: [{ type: input.type, ...index }] };

  const fields: Partial<Record<Field, string>> = {};
  const extra: Record<string, unknown> = {};
  const fetched = input.offchain.state === 'fetched' ? input.offchain.json : {};
  for (const [key, value] of Object.entries(fetched)) {
    if (isField(key) && typeof value === 'string') fields[key] = value;
    else extra[key] = value;
  }
  for (const [key, value] of Object.entries(input.onchain)) {
    if (isField(key)) {
      fields[key] = value;
      delete extra[key];
    } else {
      extra[key] = value;
    }
  }

  if (!isValid(input.type, fields, input.domain)) return { is_indexed: true, token_info: [{ valid: false, type: input.type, ...index }] };
  const info: TokenInfo = { valid: true, type: input.type };
  for (const field of FIELDS) if (fields[field] !== undefined) info[field] = fields[field];
  Object.assign(info, index, { is_nsfw: false, is_scam: false });
  if (Object.keys(extra).length > 0) info.extra = extra;
  return { is_indexed: true, token_info: [info] };
}

function isValid(type: TokenInfoType, fields: Partial<Record<Field, string>>, domain: string | undefined): boolean {
  if (type === 'jetton_masters') return fields.symbol !== undefined;
  if (type === 'nft_items') return fields.name !== undefined || domain !== undefined;
  return fields.name !== undefined;
}
