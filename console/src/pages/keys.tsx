/**
 * Keys and limits (the admin API, behind the admin token): every key with its network, plan (account) and rate,
 * its requests and 429s per minute over the last hour (`GET /admin/usage`); create (the key shown once), change its
 * limit (`PATCH /admin/keys/:id`), revoke; the
 * accounts' shared limits, changed in place; the keyless rule's traffic and the 401/403/429 answers per network.
 */
import { useEffect, useState } from 'preact/hooks';
import { control } from '../api';
import type { NetworkInfo } from '../network';
// The admin API's shapes, from the server's own declarations (types only: nothing of the server is bundled).
import type { KeyInfo as Key, AccountLimit } from '../../../src/access/keys/key-store';
import type { NetworkUsage as Usage } from '../../../src/access/usage';
import { CopyButton, ErrorBox, MinuteChart, Section, sum, useLoad } from '../ui';

/**
 * One key's own rps, changed in place. What was typed goes to the server as it is (a number when it is digits), so a
 * bad value comes back as the API's 422 naming the field. A key of an account with a limit meets the account's.
 */
function KeyLimit({ id, rps, onDone, onError }: { id: string; rps: number; onDone: () => void; onError: (e: unknown) => void }) {
  const [text, setText] = useState(String(rps));
  useEffect(() => setText(String(rps)), [rps]);
  return (
    <form
      class="limit-form"
      onSubmit={(e) => {
        e.preventDefault();
        onError(undefined);
        const value = /^\d+$/.test(text.trim()) ? Number(text.trim()) : text;
        control('PATCH', `/admin/keys/${encodeURIComponent(id)}`, { rps: value }).then(onDone, onError);
      }}
    >
      <input
        name="rps"
        inputMode="numeric"
        aria-label={`requests per second of key ${id}`}
        value={text}
        onInput={(e) => setText((e.target as HTMLInputElement).value)}
      />
      <button type="submit" class="secondary">
        Set
      </button>
    </form>
  );
}

export function KeysPage({ network }: { network?: NetworkInfo }) {
  const { data, error, reload } = useLoad(async () => {
    const [keys, accounts, usage] = await Promise.all([
      control<Key[]>('GET', '/admin/keys'),
      control<AccountLimit[]>('GET', '/admin/accounts'),
      control<Usage[]>('GET', '/admin/usage'),
    ]);
    return { keys, accounts, usage };
  }, [network?.admin]);
  const [form, setForm] = useState({ network: '', label: '', rps: '', account: '' });
  const [created, setCreated] = useState<{ key: string; id: string }>();
  const [limit, setLimit] = useState({ name: '', network: '', rps: '' });
  const [actionError, setActionError] = useState<unknown>();
  const [limitError, setLimitError] = useState<unknown>();
  const act = (promise: Promise<unknown>) => {
    setActionError(undefined);
    promise.then(reload, setActionError);
  };

  if (network?.admin === 'absent')
    return <Section title="Keys">{'The admin API is off on this tongate (start it with --admin-token to manage keys here).'}</Section>;
  if (network?.admin === 'token')
    return (
      <Section title="Keys">
        <p>
          Keys need the admin token: <a href="#/connect">give it for this tab</a>.
        </p>
      </Section>
    );
  if (network?.admin === 'no-keys')
    return <Section title="Keys">{'This tongate runs without its access layer (--access off): there are no keys.'}</Section>;

  const usageOf = (net: string) => data?.usage.find((u) => u.network === net);
  const networks = [...new Set([network?.name, ...(data?.keys.map((k) => k.network) ?? [])].filter(Boolean) as string[])];
  const newNetwork = form.network || network?.name || '';
  return (
    <>
      <Section title="Create a key">
        <form
          class="form"
          onSubmit={(e) => {
            e.preventDefault();
            setCreated(undefined);
            setActionError(undefined);
            control<{ key: string; id: string }>('POST', '/admin/keys', {
              network: newNetwork,
              label: form.label || undefined,
              rps: form.rps ? Number(form.rps) : undefined,
              account: form.account || undefined,
            }).then((key) => {
              setCreated(key);
              reload();
            }, setActionError);
          }}
        >
          <label>
            Network
            <input
              name="key-network"
              value={newNetwork}
              onInput={(e) => setForm({ ...form, network: (e.target as HTMLInputElement).value })}
            />
          </label>
          <label>
            Label
            <input name="key-label" value={form.label} onInput={(e) => setForm({ ...form, label: (e.target as HTMLInputElement).value })} />
          </label>
          <label>
            Requests/s
            <input
              name="key-rps"
              inputMode="numeric"
              placeholder="10"
              value={form.rps}
              onInput={(e) => setForm({ ...form, rps: (e.target as HTMLInputElement).value })}
            />
          </label>
          <label>
            Account (plan)
            <input
              name="key-account"
              value={form.account}
              onInput={(e) => setForm({ ...form, account: (e.target as HTMLInputElement).value })}
            />
          </label>
          <button type="submit">Create</button>
        </form>
        {created ? (
          <div class="created" role="status">
            <p>The new key, shown this once (only its hash is stored):</p>
            <p>
              <code data-testid="created-key">{created.key}</code> <CopyButton text={created.key} label="key" />
            </p>
          </div>
        ) : null}
        <ErrorBox error={actionError} />
      </Section>
      <Section
        title="Keys"
        actions={
          <button class="secondary" onClick={reload}>
            Reload
          </button>
        }
      >
        <ErrorBox error={error} />
        <ErrorBox error={limitError} />
        <div class="table-wrap">
          <table data-testid="keys">
            <thead>
              <tr>
                <th>id</th>
                <th>key</th>
                <th>network</th>
                <th>label</th>
                <th>plan</th>
                <th>rps</th>
                <th>last hour</th>
                <th>429</th>
                <th>per minute</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {data?.keys.map((key) => {
                const series = usageOf(key.network)?.keys[key.id];
                return (
                  <tr key={key.id} data-key-id={key.id} class={key.revokedAt ? 'revoked' : ''}>
                    <td class="mono">{key.id}</td>
                    <td class="mono">{key.display}…</td>
                    <td>{key.network}</td>
                    <td>{key.label ?? ''}</td>
                    <td>{key.account ?? ''}</td>
                    <td data-testid="rps">
                      {key.revokedAt ? key.rps : <KeyLimit id={key.id} rps={key.rps} onDone={reload} onError={setLimitError} />}
                    </td>
                    <td data-testid="requests">{series?.total_requests ?? 0}</td>
                    <td data-testid="limited">{series?.total_limited ?? 0}</td>
                    <td>
                      {series ? (
                        <MinuteChart requests={series.requests} limited={series.limited} label={`requests per minute of key ${key.id}`} />
                      ) : null}
                    </td>
                    <td>
                      {key.revokedAt ? (
                        'revoked'
                      ) : (
                        <button class="danger" onClick={() => act(control('DELETE', `/admin/keys/${encodeURIComponent(key.id)}`))}>
                          Revoke
                        </button>
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      </Section>
      <Section title="Accounts (shared limits)">
        <ul class="plain">
          {data?.accounts.map((a) => (
            <li key={`${a.name}/${a.network}`}>
              <b>{a.name}</b> on {a.network}: {a.rps} requests/s
            </li>
          ))}
          {data && data.accounts.length === 0 ? <li class="muted">none</li> : null}
        </ul>
        <form
          class="form"
          onSubmit={(e) => {
            e.preventDefault();
            act(
              control('PUT', `/admin/accounts/${encodeURIComponent(limit.name)}`, {
                network: limit.network || network?.name,
                rps: Number(limit.rps),
              }),
            );
          }}
        >
          <label>
            Account
            <input
              name="account-name"
              value={limit.name}
              onInput={(e) => setLimit({ ...limit, name: (e.target as HTMLInputElement).value })}
            />
          </label>
          <label>
            Network
            <input
              name="account-network"
              placeholder={network?.name}
              value={limit.network}
              onInput={(e) => setLimit({ ...limit, network: (e.target as HTMLInputElement).value })}
            />
          </label>
          <label>
            Requests/s
            <input
              name="account-rps"
              inputMode="numeric"
              value={limit.rps}
              onInput={(e) => setLimit({ ...limit, rps: (e.target as HTMLInputElement).value })}
            />
          </label>
          <button type="submit">Set limit</button>
        </form>
      </Section>
      {networks.map((net) => {
        const usage = usageOf(net);
        return (
          <Section key={net} title={`Without a key, and refusals: ${net}`}>
            {usage ? (
              <>
                <p>
                  Keyless clients: {usage.keyless.total_requests} requests, {usage.keyless.total_limited} limited (429) in the last hour.
                </p>
                <MinuteChart
                  requests={usage.keyless.requests}
                  limited={usage.keyless.limited}
                  label={`keyless requests per minute on ${net}`}
                />
                <p data-testid={`refusals-${net}`}>
                  401: {sum(usage.refusals['401'] ?? [])}, 403: {sum(usage.refusals['403'] ?? [])}, 429: {sum(usage.refusals['429'] ?? [])}{' '}
                  in the last hour
                </p>
              </>
            ) : (
              <p class="muted">No requests counted yet.</p>
            )}
          </Section>
        );
      })}
    </>
  );
}
