/**
 * The console's only way out: requests to tongate's public APIs on this page's own origin. A URL is always built
 * from a path here, so the admin token and the API key can never reach another origin.
 */
import { session } from './session';
import { sseFrames } from './sse';

export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

type Query = Record<string, string | number | boolean | undefined>;

export function pathWith(path: string, query: Query = {}): string {
  if (!path.startsWith('/') || path.startsWith('//')) throw new Error(`not a path of this origin: ${path}`);
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== undefined && value !== '') params.set(name, String(value));
  const search = params.toString();
  return search ? `${path}?${search}` : path;
}

async function call<T>(path: string, init: RequestInit, headers: Record<string, string>): Promise<T> {
  const response = await fetch(path, {
    ...init,
    headers: { ...headers, ...(init.headers as Record<string, string>) },
    credentials: 'omit',
  });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    /* not JSON: said as text below */
  }
  if (!response.ok) {
    const error = (body as { error?: unknown })?.error;
    throw new ApiFailure(response.status, typeof error === 'string' ? error : `${response.status} ${text.slice(0, 200)}`);
  }
  return body as T;
}

const keyHeaders = (): Record<string, string> => (session.apiKey ? { 'X-API-Key': session.apiKey } : {});
const adminHeaders = (): Record<string, string> => (session.adminToken ? { Authorization: `Bearer ${session.adminToken}` } : {});

/** GET /api/v3/... with the session's key. */
export function v3<T = any>(endpoint: string, query: Query = {}): Promise<T> {
  return call<T>(pathWith(`/api/v3/${endpoint}`, query), {}, keyHeaders());
}

interface Envelope<T> {
  ok: boolean;
  result: T;
}

/** The /devnet controls and the admin API: v2's envelope, the admin token. */
export async function control<T = any>(method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', path: string, body?: unknown): Promise<T> {
  const init: RequestInit = { method };
  const headers = adminHeaders();
  if (body !== undefined) {
    init.body = JSON.stringify(body);
    headers['content-type'] = 'application/json';
  }
  const answer = await call<Envelope<T>>(pathWith(path), init, headers);
  return answer.result;
}

/** A file from a control (a snapshot's export), as a Blob. */
export async function controlFile(path: string): Promise<Blob> {
  const response = await fetch(pathWith(path), { headers: adminHeaders(), credentials: 'omit' });
  if (!response.ok) throw new ApiFailure(response.status, `${response.status} ${(await response.text()).slice(0, 200)}`);
  return response.blob();
}

/** A request that streams Server-Sent Events; each frame goes to `onEvent` until `signal` aborts or the stream ends. */
export async function streamEvents(
  path: string,
  init: RequestInit,
  signal: AbortSignal,
  onEvent: (event: string, data: string) => void,
): Promise<void> {
  const response = await fetch(pathWith(path), {
    ...init,
    headers: { ...keyHeaders(), ...(init.headers as Record<string, string>) },
    signal,
    credentials: 'omit',
  });
  if (!response.ok || !response.body) {
    const text = await response.text();
    let error = text;
    try {
      error = JSON.parse(text).error ?? text;
    } catch {
      /* text */
    }
    throw new ApiFailure(response.status, error);
  }
  for await (const frame of sseFrames(response.body)) onEvent(frame.event, frame.data);
}
