/**
 * The session: the admin token and the API key, kept for this tab only. With the admin token and no key, the
 * console makes itself a key through the admin API (`POST /admin/keys`, labelled `console session`, expiring in
 * 12 hours), so an operator gives one secret; a developer without the token pastes a key instead.
 */
import { useState } from 'preact/hooks';
import { control } from '../api';
import type { NetworkInfo } from '../network';
import { session } from '../session';
import { ErrorBox, Section } from '../ui';

const SESSION_KEY_HOURS = 12;
/**
 * The session key's own limit: one page asks several endpoints at once and again on each block, more than a
 * client's default 10 requests/s; the operator who holds the admin token is its only user.
 */
const SESSION_KEY_RPS = 50;

export async function createSessionKey(network: string): Promise<string> {
  const expires = new Date(Date.now() + SESSION_KEY_HOURS * 3600_000).toISOString();
  const created = await control<{ key: string }>('POST', '/admin/keys', {
    network,
    label: 'console session',
    expires,
    rps: SESSION_KEY_RPS,
  });
  return created.key;
}

export function ConnectPage({ network, onChange }: { network?: NetworkInfo; onChange: () => void }) {
  const [token, setToken] = useState(session.adminToken);
  const [key, setKey] = useState(session.apiKey);
  const [error, setError] = useState<unknown>();
  const [said, setSaid] = useState('');
  const save = async () => {
    setError(undefined);
    setSaid('');
    try {
      session.set({ adminToken: token.trim(), apiKey: key.trim() });
      if (token.trim() && !key.trim() && network?.accessOn) {
        const made = await createSessionKey(network.name);
        session.set({ apiKey: made });
        setKey(made);
        setSaid('Connected: a session key was made for this tab (it expires in 12 hours).');
      } else {
        setSaid('Saved for this tab.');
      }
      onChange();
    } catch (e) {
      setError(e);
    }
  };
  return (
    <Section title="Session">
      <p>
        Kept in this tab only (sessionStorage) and sent only to this tongate. The admin token opens the devnet controls and the keys; an API
        key is what the explorer reads with{network && !network.accessOn ? ' (this tongate asks for none)' : ''}.
      </p>
      <form
        class="form"
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        <label>
          Admin token
          <input
            type="password"
            name="admin-token"
            autocomplete="off"
            value={token}
            onInput={(e) => setToken((e.target as HTMLInputElement).value)}
          />
        </label>
        <label>
          API key
          <input
            type="password"
            name="api-key"
            autocomplete="off"
            value={key}
            onInput={(e) => setKey((e.target as HTMLInputElement).value)}
          />
        </label>
        <div class="row">
          <button type="submit">Connect</button>
          <button
            type="button"
            class="secondary"
            onClick={() => {
              session.set({ adminToken: '', apiKey: '' });
              setToken('');
              setKey('');
              setSaid('Forgotten.');
              onChange();
            }}
          >
            Forget
          </button>
        </div>
      </form>
      {said ? (
        <p class="ok" role="status">
          {said}
        </p>
      ) : null}
      <ErrorBox error={error} />
    </Section>
  );
}
