/**
 * Calls one v2 method every way it is served: GET with a query string (read methods), POST with a JSON
 * body, and JSON-RPC. Tests compare the three and validate each.
 */
import { getJson, postJson } from '../../../support/tongate.js';

export interface Answer {
  status: number;
  body: any;
}

export interface Answers {
  get?: Answer;
  post: Answer;
  rpc: Answer;
}

/** A query string as clients write one: arrays as repeated keys, objects as JSON. */
export function queryString(params: Record<string, unknown>): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) {
      query.append(key, typeof item === 'object' && item !== null ? JSON.stringify(item) : String(item));
    }
  }
  const text = query.toString();
  return text === '' ? '' : `?${text}`;
}

export async function callGet(base: string, method: string, params: Record<string, unknown> = {}): Promise<Answer> {
  const { status, body } = await getJson(`${base}/api/v2/${method}${queryString(params)}`);
  return { status, body };
}

export async function callPost(base: string, method: string, params: Record<string, unknown> = {}): Promise<Answer> {
  const { status, body } = await postJson(`${base}/api/v2/${method}`, params);
  return { status, body };
}

export async function callRpc(
  base: string,
  method: string,
  params: Record<string, unknown> = {},
  id: string | number = '1',
): Promise<Answer> {
  const { status, body } = await postJson(`${base}/api/v2/jsonRPC`, { id, jsonrpc: '2.0', method, params });
  return { status, body };
}

export async function callAll(base: string, method: string, params: Record<string, unknown> = {}, withGet = true): Promise<Answers> {
  const [get, post, rpc] = await Promise.all([
    withGet ? callGet(base, method, params) : Promise.resolve(undefined),
    callPost(base, method, params),
    callRpc(base, method, params),
  ]);
  return { get, post, rpc };
}

/** What must be equal between the ways of calling: status, ok, result or error and code (not @extra, jsonrpc, id). */
export function essence(answer: Answer): unknown {
  const { status, body } = answer;
  return { status, ok: body?.ok, result: body?.result, error: body?.error, code: body?.code };
}
