/** The shell: the header (network, navigation, search, the feed's state), and the page the location's hash names. */
import { useEffect, useState } from 'preact/hooks';
import { onFeedState, type FeedState } from './live';
import { probeNetwork, type NetworkInfo } from './network';
import { searchTarget } from './search';
import { session } from './session';
import { AccountPage } from './pages/account';
import { BlockPage } from './pages/block';
import { CollectionPage } from './pages/collection';
import { ConnectPage } from './pages/connect';
import { DevnetPage } from './pages/devnet';
import { HomePage } from './pages/home';
import { JettonPage } from './pages/jetton';
import { KeysPage } from './pages/keys';
import { TracePage } from './pages/trace';
import { TransactionPage } from './pages/transaction';

function useHash(): string {
  const [hash, setHash] = useState(location.hash);
  useEffect(() => {
    const update = () => {
      setHash(location.hash);
      window.scrollTo(0, 0);
    };
    addEventListener('hashchange', update);
    return () => removeEventListener('hashchange', update);
  }, []);
  return hash;
}

function Page({ hash, network, onNetworkChange }: { hash: string; network?: NetworkInfo; onNetworkChange: () => void }) {
  const [, page, param = ''] = hash.replace(/^#/, '').split('/');
  const value = decodeURIComponent(param);
  switch (page) {
    case 'block':
      return <BlockPage seqno={Number(value)} />;
    case 'tx':
      return <TransactionPage hash={value} />;
    case 'account':
      return <AccountPage address={value} network={network} />;
    case 'jetton':
      return <JettonPage address={value} />;
    case 'collection':
      return <CollectionPage address={value} />;
    case 'trace':
      return <TracePage id={value} />;
    case 'devnet':
      return <DevnetPage network={network} />;
    case 'keys':
      return <KeysPage network={network} />;
    case 'connect':
      return <ConnectPage network={network} onChange={onNetworkChange} />;
    default:
      return <HomePage network={network} />;
  }
}

/**
 * The current network's name; with other networks on this tongate, a list of their consoles. Each network is its own
 * origin, so going there is a plain link: the session (token, key) stays with this origin, and the other's console
 * asks for its own.
 */
function NetworkSwitch({ network }: { network?: NetworkInfo }) {
  const name = network?.name ?? '…';
  const others = network?.networks.filter((n) => n.name !== network.name) ?? [];
  if (others.length === 0)
    return (
      <span class="network" data-testid="network">
        {name}
      </span>
    );
  return (
    <details class="switch">
      <summary class="network" data-testid="network" aria-label={`network ${name}: switch`}>
        {name}
      </summary>
      <ul data-testid="networks">
        {others.map((n) => (
          <li key={n.name}>
            <a href={`${n.base_url}/console/`}>
              {n.name} <span class="muted">({n.kind})</span>
            </a>
          </li>
        ))}
      </ul>
    </details>
  );
}

function Search() {
  const [text, setText] = useState('');
  const [error, setError] = useState('');
  return (
    <form
      class="search"
      role="search"
      onSubmit={(event) => {
        event.preventDefault();
        setError('');
        searchTarget(text).then(
          (target) => {
            location.hash = target;
            setText('');
          },
          (e: unknown) => setError(e instanceof Error ? e.message : String(e)),
        );
      }}
    >
      <input
        type="search"
        name="q"
        aria-label="search"
        placeholder="address, block seqno, transaction, message or trace hash"
        value={text}
        onInput={(e) => setText((e.target as HTMLInputElement).value)}
      />
      <button type="submit">Search</button>
      {error ? (
        <p class="error" role="alert">
          {error}
        </p>
      ) : null}
    </form>
  );
}

export function App() {
  const hash = useHash();
  const [network, setNetwork] = useState<NetworkInfo>();
  const [feed, setFeed] = useState<FeedState>({ connected: false });
  const [round, setRound] = useState(0);
  useEffect(() => {
    probeNetwork().then(setNetwork, () => undefined);
  }, [round]);
  useEffect(() => session.onChange(() => setRound((r) => r + 1)), []);
  useEffect(() => onFeedState(setFeed), []);
  const current = hash.split('/')[1] ?? '';
  const nav = (target: string, label: string, page: string) => (
    <a href={target} aria-current={current === page ? 'page' : undefined}>
      {label}
    </a>
  );
  const needsKey = network?.accessOn && !session.apiKey;
  return (
    <>
      <header class="top">
        <div class="brand">
          <a href="#/">tongate</a>
          <NetworkSwitch network={network} />
          <span class={feed.connected ? 'live on' : 'live'} title={feed.error ?? (feed.connected ? 'live' : 'not connected')}>
            {feed.connected ? 'live' : 'offline'}
          </span>
        </div>
        <nav>
          {nav('#/', 'Explorer', '')}
          {network?.devnet !== 'absent' ? nav('#/devnet', 'Devnet', 'devnet') : null}
          {network?.admin !== 'absent' ? nav('#/keys', 'Keys', 'keys') : null}
          {nav('#/connect', needsKey ? 'Connect' : 'Session', 'connect')}
        </nav>
        <Search />
      </header>
      {needsKey && current !== 'connect' ? (
        <p class="notice">
          This network asks for an API key: <a href="#/connect">give an API key or the admin token</a> to see it live.
        </p>
      ) : null}
      <main>
        <Page hash={hash} network={network} onNetworkChange={() => setRound((r) => r + 1)} />
      </main>
    </>
  );
}
