import { test } from 'node:test';
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../support/ports.js';
import { startTestTongate } from '../support/tongate.js';

/** A GET with a chosen Host header (fetch does not let us set Host). */
function getWithHost(
  url: string,
  host: string,
  extra: { ca?: Buffer; headers?: Record<string, string> } = {},
): Promise<{ status: number; body: any }> {
  const target = new URL(url);
  const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = send(
      {
        hostname: target.hostname,
        port: target.port,
        path: target.pathname + target.search,
        headers: { host, ...extra.headers },
        ca: extra.ca,
        servername: host.split(':')[0],
      },
      (res) => {
        let text = '';
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

test('two networks on one shared port are told apart by Host; an unknown host gets a 404 naming the base URLs', async () => {
  const port = await freePort();
  const tongate = await startTestTongate({
    network: [`mainnet=http://api.tongate.test:${port}`, `testnet=http://testnet.api.tongate.test:${port}`],
    listen: `127.0.0.1:${port}`,
  });
  try {
    assert.equal(tongate.gateway.addresses().length, 1, 'one listener');
    const local = `http://127.0.0.1:${port}/api/v3/masterchainInfo`;
    const mainnet = await getWithHost(local, `api.tongate.test:${port}`);
    const testnet = await getWithHost(local, `testnet.api.tongate.test:${port}`);
    assert.equal(mainnet.status, 200);
    assert.equal(mainnet.body.last.global_id, -239);
    assert.equal(testnet.status, 200);
    assert.equal(testnet.body.last.global_id, -3);
    const stranger = await getWithHost(`http://127.0.0.1:${port}/api/v2/getMasterchainInfo`, `elsewhere.test:${port}`);
    assert.equal(stranger.status, 404);
    assert.equal(stranger.body.ok, false);
    assert.equal(stranger.body.code, 404);
    assert.match(stranger.body.error, new RegExp(`mainnet http://api\\.tongate\\.test:${port}`));
    assert.match(stranger.body.error, new RegExp(`testnet http://testnet\\.api\\.tongate\\.test:${port}`));
    const strangerV3 = await getWithHost(local, `elsewhere.test:${port}`);
    assert.equal(strangerV3.status, 404);
    assert.match(strangerV3.body.error, /this address serves/);
  } finally {
    await tongate.stop();
  }
});

test('behind a trusted TLS proxy: plain HTTP, network from X-Forwarded-Host/Proto', async () => {
  const port = await freePort();
  const tongate = await startTestTongate({
    network: ['mainnet=https://api.tongate.test', 'testnet=https://testnet.api.tongate.test'],
    listen: `127.0.0.1:${port}`,
    trustProxy: '127.0.0.1',
  });
  try {
    const url = `http://127.0.0.1:${port}/api/v3/masterchainInfo`;
    const viaProxy = await getWithHost(url, `127.0.0.1:${port}`, {
      headers: { 'x-forwarded-host': 'testnet.api.tongate.test', 'x-forwarded-proto': 'https', 'x-forwarded-for': '203.0.113.7' },
    });
    assert.equal(viaProxy.status, 200);
    assert.equal(viaProxy.body.last.global_id, -3);
  } finally {
    await tongate.stop();
  }
});

test('TLS: an https base URL is served with the given certificate', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tongate-tls-'));
  const cert = join(dir, 'cert.pem');
  const key = join(dir, 'key.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=localhost',
      '-addext',
      'subjectAltName=DNS:localhost,IP:127.0.0.1',
      '-keyout',
      key,
      '-out',
      cert,
    ],
    { stdio: 'ignore' },
  );
  const mainPort = await freePort();
  const testPort = await freePort();
  const tongate = await startTestTongate({
    network: [`mainnet=https://localhost:${mainPort}`, `testnet=http://127.0.0.1:${testPort}`],
    tlsCert: cert,
    tlsKey: key,
  });
  try {
    const { readFileSync } = await import('node:fs');
    const secure = await getWithHost(`https://127.0.0.1:${mainPort}/api/v2/getMasterchainInfo`, `localhost:${mainPort}`, {
      ca: readFileSync(cert),
    });
    assert.equal(secure.status, 200);
    assert.equal(secure.body.ok, true);
    const plain = await getWithHost(`http://127.0.0.1:${testPort}/api/v2/getMasterchainInfo`, `127.0.0.1:${testPort}`);
    assert.equal(plain.status, 200);
  } finally {
    await tongate.stop();
  }
});
