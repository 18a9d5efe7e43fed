/**
 * An NFT collection: its data (owner, content, next item index; the content shown as text, whatever it holds) and its
 * items a page at a time, each with its owner (`/api/v3/nft/collections`, `/api/v3/nft/items`). Items change with
 * the chain: asked again with each block that holds transactions, and after a snapshot restore.
 */
import { Fragment } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { v3 } from '../api';
import { onBlocks } from '../live';
import { Addr, ErrorBox, remember, Section, useLoad, useUntilFound } from '../ui';

export const ITEMS_PER_PAGE = 20;

/** TEP-64 fields shown first, in this order; any other field the content holds follows. */
const KNOWN_FIELDS = ['name', 'description', 'image', 'uri'];

export function CollectionPage({ address }: { address: string }) {
  const { data, error, loading, reload } = useLoad(async () => {
    const answer = await v3<{ nft_collections: any[]; address_book: any; metadata: any }>('nft/collections', {
      collection_address: address,
      limit: 1,
    });
    remember(answer.address_book);
    const collection = answer.nft_collections[0];
    return { collection, info: collection ? answer.metadata?.[collection.address]?.token_info?.[0] : undefined };
  }, [address]);
  const collection = data?.collection;
  useUntilFound(!!collection, loading, reload, [address]);

  const [page, setPage] = useState(0);
  useEffect(() => setPage(0), [address]);
  const items = useLoad(async () => {
    // One more than a page: whether there is a next page, without counting them all.
    const answer = await v3<{ nft_items: any[]; address_book: any }>('nft/items', {
      collection_address: address,
      limit: ITEMS_PER_PAGE + 1,
      offset: page * ITEMS_PER_PAGE,
    });
    remember(answer.address_book);
    return { items: answer.nft_items.slice(0, ITEMS_PER_PAGE), more: answer.nft_items.length > ITEMS_PER_PAGE };
  }, [address, page, !!collection]);
  useEffect(
    () =>
      onBlocks((event) => {
        if (event.type === 'rewind') reload();
        if (event.type === 'rewind' || (event.type === 'block' && !!event.transactions)) items.reload();
      }),
    [address, page],
  );

  const content: Record<string, unknown> = collection?.collection_content ?? {};
  const fields = [...KNOWN_FIELDS.filter((f) => f in content), ...Object.keys(content).filter((f) => !KNOWN_FIELDS.includes(f))];
  const name = content.name ?? data?.info?.name;
  return (
    <>
      <Section title="NFT collection">
        <ErrorBox error={error} />
        {!loading && !error && !collection ? <p class="muted">No NFT collection at this address (yet).</p> : null}
        {collection ? (
          <dl class="facts" data-testid="collection">
            <dt>name</dt>
            <dd data-testid="collection-name">{name === undefined ? '' : String(name)}</dd>
            <dt>address</dt>
            <dd>
              <Addr address={collection.address} full />
            </dd>
            <dt>owner</dt>
            <dd data-testid="collection-owner">
              <Addr address={collection.owner_address} />
            </dd>
            <dt>next item index</dt>
            <dd data-testid="next-item-index">{String(collection.next_item_index)}</dd>
            {fields
              .filter((f) => f !== 'name')
              .map((f) => (
                <Fragment key={f}>
                  <dt>{f}</dt>
                  <dd class={f === 'image' || f === 'uri' ? 'mono' : undefined}>{String(content[f])}</dd>
                </Fragment>
              ))}
          </dl>
        ) : null}
      </Section>
      <Section title="Items">
        <ErrorBox error={items.error} />
        {items.data && items.data.items.length === 0 && page === 0 ? <p class="muted">No items indexed (yet).</p> : null}
        {items.data?.items.length ? (
          <div class="table-wrap">
            <table data-testid="nft-items">
              <thead>
                <tr>
                  <th>index</th>
                  <th>item</th>
                  <th>owner</th>
                </tr>
              </thead>
              <tbody>
                {items.data.items.map((item: any) => (
                  <tr key={item.address}>
                    <td class="mono">{String(item.index)}</td>
                    <td>
                      <Addr address={item.address} />
                    </td>
                    <td data-testid="item-owner">
                      {item.owner_address ? <Addr address={item.owner_address} /> : <span class="muted">not initialized</span>}
                      {item.on_sale ? <span class="muted"> (on sale)</span> : null}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : null}
        <nav class="pager" aria-label="item pages">
          <button class="secondary" disabled={page === 0} onClick={() => setPage(page - 1)}>
            Previous
          </button>
          <span data-testid="items-page">page {page + 1}</span>
          <button class="secondary" disabled={!items.data?.more} onClick={() => setPage(page + 1)}>
            Next
          </button>
        </nav>
      </Section>
    </>
  );
}
