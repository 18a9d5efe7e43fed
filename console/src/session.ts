/**
 * What the console knows of the person using it, for this browser tab only (sessionStorage: gone when the tab
 * closes; never localStorage, never a cookie): the admin token and the API key. Both are sent only with requests to
 * this page's own origin (api.ts builds every URL from a path), as headers, so no other site can make the browser
 * send them (nothing here is cookie auth, so there is nothing to forge across sites).
 */
const ADMIN = 'tongate.console.admin-token';
const KEY = 'tongate.console.api-key';

type Listener = () => void;
const listeners = new Set<Listener>();

export const session = {
  get adminToken(): string {
    return sessionStorage.getItem(ADMIN) ?? '';
  },
  get apiKey(): string {
    return sessionStorage.getItem(KEY) ?? '';
  },
  set(values: { adminToken?: string; apiKey?: string }): void {
    if (values.adminToken !== undefined) store(ADMIN, values.adminToken);
    if (values.apiKey !== undefined) store(KEY, values.apiKey);
    for (const listener of listeners) listener();
  },
  onChange(listener: Listener): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};

function store(name: string, value: string): void {
  if (value === '') sessionStorage.removeItem(name);
  else sessionStorage.setItem(name, value);
}
