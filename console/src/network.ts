/**
 * What this origin's network offers, asked of its public endpoints (no private side door): its name and mining mode
 * (`/healthcheck`), whether keys are asked (`RateLimit-Policy` on a v3 answer), whether it is a local chain with
 * controls (`/devnet/time`: 404 elsewhere) and whether the admin API is on (`/admin/keys`: 404 without an admin token
 * configured, 409 with the access layer off).
 */
import { pathWith } from './api';
import { session } from './session';

export interface NetworkInfo {
  name: string;
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
  const [health, v3, devnet, keys] = await Promise.all([
    status('/healthcheck'),
    status('/api/v3/masterchainInfo', key),
    status('/devnet/time', admin),
    status('/admin/keys', admin),
  ]);
  const body = (await health.json()) as { network?: string; mining?: string };
  return {
    name: body.network ?? 'network',
    mining: body.mining,
    accessOn: v3.headers.has('ratelimit-policy') || v3.status === 401 || v3.status === 429,
    devnet: devnet.status === 404 ? 'absent' : devnet.status === 401 ? 'token' : 'open',
    admin: keys.status === 404 ? 'absent' : keys.status === 401 ? 'token' : keys.status === 409 ? 'no-keys' : 'open',
  };
}
