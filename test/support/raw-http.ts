/**
 * One HTTP/1.1 request with the request target sent exactly as given (fetch and URL normalize `//`, `/./`, `..`
 * and %-escapes away; node:http sends `path` verbatim), on a fresh connection. The connection says keep-alive,
 * as real clients do, so a server that answers before reading a large body (a 429 from the access layer) reads
 * and drops the rest instead of closing under the client's writes (EPIPE).
 */
import { Agent, request } from 'node:http';

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  /** The body as JSON, or undefined when it is not JSON. */
  json: any;
}

export interface RawRequest {
  port: number;
  target: string;
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  timeoutMs?: number;
}

export function rawRequest({ port, target, method = 'GET', headers = {}, body, timeoutMs = 30_000 }: RawRequest): Promise<RawResponse> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  return new Promise<RawResponse>((resolve, reject) => {
    let answered = false;
    const req = request({ host: '127.0.0.1', port, method, path: target, headers, agent, timeout: timeoutMs }, (res) => {
      answered = true;
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let json: unknown;
        try {
          json = JSON.parse(text);
        } catch {
          json = undefined;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
      });
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`no answer to ${method} ${target.slice(0, 120)} within ${timeoutMs} ms`)));
    // A server may answer before it has read the body (413 for a body over the limit) and close: the answer
    // counts, and the client's failing writes after it do not.
    req.on('error', (error) => {
      if (!answered) reject(error);
    });
    req.end(body);
  }).finally(() => agent.destroy());
}
