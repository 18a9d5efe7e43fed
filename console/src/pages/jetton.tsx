/** A jetton master: its metadata (shown as text, whatever it holds), supply, admin and holders. */
import { v3 } from '../api';
import { Addr, ErrorBox, remember, Section, units, useLoad, useUntilFound } from '../ui';

export function JettonPage({ address }: { address: string }) {
  const { data, error, loading, reload } = useLoad(async () => {
    const [masters, wallets] = await Promise.all([
      v3<{ jetton_masters: any[]; address_book: any; metadata: any }>('jetton/masters', { address, limit: 1 }),
      v3<{ jetton_wallets: any[]; address_book: any }>('jetton/wallets', { jetton_address: address, limit: 50 }),
    ]);
    remember(masters.address_book);
    remember(wallets.address_book);
    const master = masters.jetton_masters[0];
    return { master, info: master ? masters.metadata?.[master.address]?.token_info?.[0] : undefined, wallets: wallets.jetton_wallets };
  }, [address]);
  const master = data?.master;
  useUntilFound(!!master, loading, reload, [address]);
  const content = master?.jetton_content ?? {};
  const decimals = Number(content.decimals ?? data?.info?.extra?.decimals ?? 9);
  return (
    <>
      <Section title="Jetton">
        <ErrorBox error={error} />
        {!loading && !error && !master ? <p class="muted">No jetton master at this address (yet).</p> : null}
        {master ? (
          <dl class="facts" data-testid="jetton">
            <dt>name</dt>
            <dd data-testid="jetton-name">{String(content.name ?? data?.info?.name ?? '')}</dd>
            <dt>symbol</dt>
            <dd>{String(content.symbol ?? data?.info?.symbol ?? '')}</dd>
            <dt>description</dt>
            <dd>{String(content.description ?? '')}</dd>
            <dt>address</dt>
            <dd>
              <Addr address={master.address} full />
            </dd>
            <dt>total supply</dt>
            <dd>{units(master.total_supply, decimals)}</dd>
            <dt>decimals</dt>
            <dd>{decimals}</dd>
            <dt>admin</dt>
            <dd>
              <Addr address={master.admin_address} />
            </dd>
            <dt>mintable</dt>
            <dd>{master.mintable ? 'yes' : 'no'}</dd>
          </dl>
        ) : null}
      </Section>
      {data?.wallets.length ? (
        <Section title="Holders">
          <ul class="plain">
            {data.wallets.map((w: any) => (
              <li key={w.address}>
                <Addr address={w.owner} />: {units(w.balance, decimals)}
              </li>
            ))}
          </ul>
        </Section>
      ) : null}
    </>
  );
}
