/**
 * The `metadata` of v3 answers and /api/v3/metadata (ton-index-go's QueryMetadataImpl): an entry for each
 * address that is a jetton master or wallet, an NFT item or collection; others left out. A wallet's entry is
 * `{type: jetton_wallets, extra: {owner, jetton, balance}}` and brings its master's entry along. A master's,
 * an item's or a collection's entry is its onchain content merged with what its `uri` gave
 * (index/metadata-fetch/token-info.ts, toncenter's metadata fetcher's rules). A `uri` not fetched yet (always,
 * without --fetch-metadata: no internet is assumed) gives `is_indexed: false` and a bare `{type}`, as toncenter
 * answers before its fetcher has run.
 */
import { tokenInfoOf, type TokenInfoType, type TokenMetadataEntry } from '../metadata-fetch/token-info.js';
import type { NftReader } from '../tokens/nft-reader.js';
import type { TokenReader } from '../tokens/reader.js';

export type AddressMetadata =
  TokenMetadataEntry | { is_indexed: true; token_info: [{ valid: true; type: 'jetton_wallets'; extra: Record<string, string> }] };

interface Contract {
  address: string;
  type: TokenInfoType;
  /** Content as JSON text (tokens/content.ts), null when the contract has none yet. */
  content: string | null;
  nftIndex?: string;
}

export class MetadataReader {
  constructor(
    private readonly tokens: TokenReader,
    private readonly nfts: NftReader,
  ) {}

  /** Metadata of the token contracts among `addresses` (null entries skipped). */
  async metadata(addresses: Iterable<string | null>): Promise<Record<string, AddressMetadata>> {
    const list = [...new Set([...addresses].filter((a): a is string => a !== null))];
    if (list.length === 0) return {};
    const [{ wallets, masters }, items, collections] = await Promise.all([
      this.tokens.tokenContracts(list),
      this.nfts.itemsByAddress(list),
      this.nfts.collectionsByAddress(list),
    ]);
    const metadata: Record<string, AddressMetadata> = {};
    for (const wallet of wallets) {
      metadata[wallet.address] = {
        is_indexed: true,
        token_info: [
          { valid: true, type: 'jetton_wallets', extra: { owner: wallet.owner, jetton: wallet.jetton, balance: wallet.balance } },
        ],
      };
    }
    const contracts: Contract[] = [
      ...masters.map((m): Contract => ({ address: m.address, type: 'jetton_masters', content: m.jettonContent })),
      ...items.map((i): Contract => ({ address: i.address, type: 'nft_items', content: i.content, nftIndex: i.index })),
      ...collections.map((c): Contract => ({ address: c.address, type: 'nft_collections', content: c.collectionContent })),
    ];
    // No content yet (an item not initialised): nothing to show but its type, as toncenter before it knows more.
    const withContent = contracts.filter((c) => c.content !== null);
    const onchain = withContent.map((c) => JSON.parse(c.content!) as Record<string, string>);
    const offchain = await this.tokens.offchainStates(onchain);
    for (const c of contracts)
      if (c.content === null)
        metadata[c.address] = {
          is_indexed: false,
          token_info: [{ type: c.type, ...(c.nftIndex === undefined ? {} : { nft_index: c.nftIndex }) }],
        };
    withContent.forEach((c, i) => {
      // A DNS item's content carries its domain (src/index/dns): valid without a name.
      const domain = c.type === 'nft_items' ? onchain[i].domain : undefined;
      metadata[c.address] = tokenInfoOf({ type: c.type, onchain: onchain[i], offchain: offchain[i], nftIndex: c.nftIndex, domain });
    });
    return metadata;
  }
}
