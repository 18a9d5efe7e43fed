/** What the console's tests share: a built console, a keyed tongate with an admin token, an SSE reader. */
import { buildConsole } from '../../console/build.mjs';
import { sseFrames } from '../../console/src/sse.js';
import { freePort } from '../support/ports.js';
import { postJson, startTestTongate, type TestTongate } from '../support/tongate.js';

export const ADMIN_TOKEN = 'console-test-admin-token';
export const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };

let built: Promise<unknown> | undefined;

/** The console built from console/src into dist/console-app (what `npm run build` writes), once per process. */
export function builtConsole(): Promise<unknown> {
  built ??= buildConsole();
  return built;
}

/**
 * Local networks (mainnet, and the others named: each its own origin), keys and limits on, the admin API on; blocks
 * only when a test mines them. `base` is mainnet's.
 */
export async function startConsoleTongate({ others = [] as string[] } = {}): Promise<TestTongate & { base: string }> {
  await builtConsole();
  const network = [`mainnet=http://127.0.0.1:${await freePort()}`];
  for (const name of others) network.push(`${name}=http://127.0.0.1:${await freePort()}`);
  const tongate = await startTestTongate({
    network,
    access: 'on',
    adminToken: ADMIN_TOKEN,
    mining: 'manual',
  });
  return Object.assign(tongate, { base: tongate.url('mainnet') });
}

export async function createKey(base: string, body: Record<string, unknown> = {}): Promise<{ id: string; key: string }> {
  const created = await postJson(`${base}/admin/keys`, { network: 'mainnet', ...body }, admin);
  if (created.status !== 201) throw new Error(`key not created: ${created.status} ${JSON.stringify(created.body)}`);
  return created.body.result;
}

export async function devnet(base: string, path: string, body: unknown = {}): Promise<any> {
  const answer = await postJson(`${base}${path}`, body, admin);
  if (answer.status !== 200) throw new Error(`${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body.result;
}

/** Server-Sent Events of a response, one `{event, data}` at a time (data parsed as JSON), by the console's own reader. */
export async function* sseEvents(response: Response): AsyncGenerator<{ event: string; data: any }> {
  for await (const frame of sseFrames(response.body!)) yield { event: frame.event, data: JSON.parse(frame.data) };
}
