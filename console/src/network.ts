/**
 * What this origin's network offers, asked of its public endpoints (no private side door): its name and mining mode
 * (`/healthcheck`), the other networks of this tongate with their base URLs (`/networks`: each network is its own
 * origin, so the switch in the header goes to another origin's console), whether keys are asked (`RateLimit-Policy` on a v3 answer), whether it is a local chain with
 * controls (`/devnet/time`: 404 elsewhere) and whether the admin API is on (`/admin/keys`: 404 without an admin token
 * configured, 409 with the access layer off).
 */
import { pathWith } from './api';
import { session } from './session';

/** A network of this tongate, as `GET /networks` lists it. */
export interface NetworkEntry {
  name: string;
  base_url: string;
  kind: string;
}

export interface NetworkInfo {
  name: string;
  /** Every network of this tongate (this one included); empty from a tongate without `/networks`. */
  networks: NetworkEntry[];
  mining?: string;
  accessOn: boolean;
  /** 'open' | 'token' (a token is needed and the session's is missing or wrong) | 'absent' */
  devnet: 'open' | 'token' | 'absent';
  admin: 'open' | 'token' | 'absent' | 'no-keys';
}

const status = async (path: string, headers: Record<string, string> = {}): Promise<Response> =>
  fetch(pathWith(path), { headers, credentials: 'omit' });

export async function probeNetwork(): Promise<NetworkInfo> {
  const admin: Record<string, string> = session.adminToken ? { Authorization: `Bearer ${session.adminToken}` } : {};
  const key: Record<string, string> = session.apiKey ? { 'X-API-Key': session.apiKey } : {};
  const [health, list, v3, devnet, keys] = await Promise.all([
    status('/healthcheck'),
    status('/networks'),
    status('/api/v3/masterchainInfo', key),
    status('/devnet/time', admin),
    status('/admin/keys', admin),
  ]);
  const body = (await health.json()) as { network?: string; mining?: string };
  const listed = list.ok ? ((await list.json()) as { networks?: NetworkEntry[] }).networks : undefined;
  return {
    name: body.network ?? 'network',
    // Only web origins: a base URL is configuration, but a link is made of it.
    networks: (listed ?? []).filter((n) => /^https?:\/\/[^/]+$/.test(n.base_url)),
    mining: body.mining,
    accessOn: v3.headers.has('ratelimit-policy') || v3.status === 401 || v3.status === 429,
    devnet: devnet.status === 404 ? 'absent' : devnet.status === 401 ? 'token' : 'open',
    admin: keys.status === 404 ? 'absent' : keys.status === 401 ? 'token' : keys.status === 409 ? 'no-keys' : 'open',
  };
}
