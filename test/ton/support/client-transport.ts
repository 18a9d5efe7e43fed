/**
 * Runs the real @ton/ton TonClient against a fixed JSON-RPC `result`: the HTTP hop is replaced by
 * TonClient's own axios adapter hook, everything after it (envelope check, zod schemas, stack and
 * transaction parsing) is the client's own code. Used to prove our JSON is what the client accepts.
 */
import { TonClient } from '@ton/ton';

export interface RecordedCall {
  method: string;
  params: Record<string, unknown>;
}

export function clientAnswering(result: unknown): { client: TonClient; calls: RecordedCall[] } {
  const calls: RecordedCall[] = [];
  const client = new TonClient({
    endpoint: 'http://tongate.invalid/api/v2/jsonRPC',
    httpAdapter: async (config: any) => {
      const body = JSON.parse(config.data);
      calls.push({ method: body.method, params: body.params });
      // Through JSON, exactly as it would travel.
      const data = JSON.parse(JSON.stringify({ ok: true, result, jsonrpc: '2.0', id: body.id }));
      return { data, status: 200, statusText: 'OK', headers: {}, config, request: {} };
    },
  });
  return { client, calls };
}
