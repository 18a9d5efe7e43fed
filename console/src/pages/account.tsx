/**
 * One account: balance, state, interfaces, jetton wallets, NFTs and transactions (v3), kept current by toncenter's
 * streaming API for this address (each notification reloads it) and by the block feed's rewinds. On a local network
 * with its controls open, a "fund" form sends it TON from the faucet (`POST /devnet/fund`).
 */
import { useEffect, useState } from 'preact/hooks';
import { control, v3 } from '../api';
import { followAccount, onBlocks } from '../live';
import type { NetworkInfo } from '../network';
import { session } from '../session';
import { Addr, CopyButton, ErrorBox, friendlyOf, href, remember, Section, ton, units, useLoad } from '../ui';
import { TxTable, type TxRow } from './home';

async function loadAccount(address: string) {
  const [states, txs, jettons, nfts] = await Promise.all([
    v3<{ accounts: any[]; address_book: any }>('accountStates', { address, include_boc: false }),
    v3<{ transactions: TxRow[]; address_book: any }>('transactions', { account: address, limit: 20, sort: 'desc' }),
    v3<{ jetton_wallets: any[]; address_book: any; metadata: any }>('jetton/wallets', { owner_address: address, limit: 50 }),
    v3<{ nft_items: any[]; address_book: any; metadata: any }>('nft/items', { owner_address: address, limit: 50 }),
  ]);
  for (const answer of [states, txs, jettons, nfts]) remember(answer.address_book);
  return {
    state: states.accounts[0],
    transactions: txs.transactions,
    jettons: jettons.jetton_wallets,
    jettonMeta: jettons.metadata,
    nfts: nfts.nft_items,
  };
}

function FundForm({ address, onDone }: { address: string; onDone: () => void }) {
  const [amount, setAmount] = useState('5');
  const [answer, setAnswer] = useState<unknown>();
  const [error, setError] = useState<unknown>();
  return (
    <form
      class="form inline"
      onSubmit={(e) => {
        e.preventDefault();
        setError(undefined);
        const nano = toNano(amount);
        if (nano === undefined) return setError(new Error('amount: a number of TON, e.g. 5 or 0.25'));
        control('POST', '/devnet/fund', { address, amount: nano }).then((r) => {
          setAnswer(r);
          onDone();
        }, setError);
      }}
    >
      <label>
        Fund with TON
        <input name="fund-amount" inputMode="decimal" value={amount} onInput={(e) => setAmount((e.target as HTMLInputElement).value)} />
      </label>
      <button type="submit">Fund</button>
      {answer ? (
        <span class="ok" role="status">
          funded in block #{(answer as any).block_seqno}
        </span>
      ) : null}
      <ErrorBox error={error} />
    </form>
  );
}

/** An NFT item's collection name, from the collection the v3 answer embeds (its TEP-64 content), as text. */
function collectionName(item: any): string | undefined {
  const name = item.collection?.collection_content?.name;
  return typeof name === 'string' && name !== '' ? name : undefined;
}

/** For an NFT item's account: its index, owner and collection (one more v3 read, only for items). */
function ItemOf({ address }: { address: string }) {
  const { data } = useLoad(async () => {
    const answer = await v3<{ nft_items: any[]; address_book: any }>('nft/items', { address, limit: 1 });
    remember(answer.address_book);
    return answer.nft_items[0];
  }, [address]);
  if (!data) return null;
  return (
    <p data-testid="nft-item">
      NFT #{String(data.index)}
      {data.collection_address ? (
        <>
          {' of '}
          <a href={href.collection(data.collection_address)} data-testid="item-collection">
            {collectionName(data) ?? friendlyOf(data.collection_address)}
          </a>
        </>
      ) : null}
      , owned by <Addr address={data.owner_address} />
    </p>
  );
}

export function toNano(amount: string): string | undefined {
  const match = /^(\d{1,12})(?:\.(\d{1,9}))?$/.exec(amount.trim());
  if (!match) return undefined;
  return (BigInt(match[1]) * 1_000_000_000n + BigInt((match[2] ?? '').padEnd(9, '0') || '0')).toString();
}

export function AccountPage({ address, network }: { address: string; network?: NetworkInfo }) {
  const { data, error, reload } = useLoad(() => loadAccount(address), [address]);
  const [streamError, setStreamError] = useState('');
  const canStream = !!network && (!network.accessOn || session.apiKey !== '');
  useEffect(() => {
    if (!canStream) return;
    const stopFollowing = followAccount(address, () => reload(), setStreamError);
    // Also each block that holds transactions (told once indexed): a change the stream told before v3 held it shows then.
    const stopRewinds = onBlocks((event) => (event.type === 'rewind' || (event.type === 'block' && !!event.transactions)) && reload());
    return () => {
      stopFollowing();
      stopRewinds();
    };
  }, [address, canStream]);
  const state = data?.state;
  const interfaces: string[] = state?.interfaces ?? [];
  const shown = friendlyOf(address);
  return (
    <>
      <Section title="Account">
        <p class="addr-title">
          <span class="mono">{shown}</span> <CopyButton text={shown} label="address" />
        </p>
        <ErrorBox error={error} />
        {streamError ? <p class="muted">live updates: {streamError}</p> : null}
        <dl class="facts">
          <dt>balance</dt>
          <dd data-testid="balance">{state ? `${ton(state.balance)} TON` : data ? '0 TON' : '…'}</dd>
          <dt>state</dt>
          <dd>{state?.status ?? (data ? 'nonexist' : '…')}</dd>
          <dt>interfaces</dt>
          <dd>{interfaces.length ? interfaces.join(', ') : 'none detected'}</dd>
          {state?.address && state.address !== shown ? (
            <>
              <dt>raw</dt>
              <dd class="mono">{state.address}</dd>
            </>
          ) : null}
        </dl>
        {interfaces.includes('jetton_master') ? <a href={href.jetton(address)}>open as a jetton master</a> : null}
        {interfaces.includes('nft_collection') ? (
          <a href={href.collection(address)} data-testid="open-collection">
            open as an NFT collection
          </a>
        ) : null}
        {interfaces.includes('nft_item') ? <ItemOf address={address} /> : null}
        {network?.devnet === 'open' ? <FundForm address={address} onDone={reload} /> : null}
      </Section>
      {data?.jettons.length ? (
        <Section title="Jettons">
          <ul class="plain">
            {data.jettons.map((w: any) => {
              const info = data.jettonMeta?.[w.jetton]?.token_info?.[0];
              return (
                <li key={w.address}>
                  {units(w.balance, Number(info?.extra?.decimals ?? 9))} {info?.symbol ?? ''} of{' '}
                  <a href={href.jetton(w.jetton)}>{info?.name ?? friendlyOf(w.jetton)}</a> (wallet <Addr address={w.address} />)
                </li>
              );
            })}
          </ul>
        </Section>
      ) : null}
      {data?.nfts.length ? (
        <Section title="NFTs">
          <ul class="plain">
            {data.nfts.map((n: any) => (
              <li key={n.address}>
                <Addr address={n.address} /> #{n.index}
                {n.collection_address ? (
                  <>
                    {' of '}
                    <a href={href.collection(n.collection_address)}>{collectionName(n) ?? friendlyOf(n.collection_address)}</a>
                  </>
                ) : null}
              </li>
            ))}
          </ul>
        </Section>
      ) : null}
      <Section title="Transactions">{data ? <TxTable transactions={data.transactions} /> : <p class="muted">…</p>}</Section>
    </>
  );
}
