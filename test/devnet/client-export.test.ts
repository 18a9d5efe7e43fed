import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { startManualTongate } from './support/manual-tongate.js';

// The package's own name resolves through package.json "exports" to the built client (npm run build).
test('tongate/devnet: the package export a test suite imports, with its types, drives a running tongate', async (t) => {
  assert.ok(existsSync(new URL('../../dist/devnet/client.d.ts', import.meta.url)), 'the build emits the client types');
  const { DevnetClient, DevnetError } = await import('tongate/devnet');
  const { url, gate } = await startManualTongate(t);
  const devnet = new DevnetClient({ endpoint: url, adminToken: 'devnet-test-admin-token' });
  const before = gate.chain('testnet').masterchainInfo().last.id.seqno;
  assert.equal((await devnet.mine(2)).seqno, before + 2);
  await assert.rejects(
    new DevnetClient({ endpoint: url }).mine(),
    (e: unknown) => e instanceof DevnetError && (e as InstanceType<typeof DevnetError>).status === 401,
  );
});
