// While chains open (a lite network proving its key blocks), tongate's ports answer 503 with how far it is; then the
// same sockets are handed to the gateway.
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { test } from 'node:test';
import { loadConfig } from '../../src/config/load.js';
import type { StartingNetwork } from '../../src/http/starting.js';
import { listenerOf, openSockets } from '../../src/http/sockets.js';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { planListeners } from '../../src/http/listeners.js';
import { freePort } from '../support/ports.js';

test('the start-up listener: /healthcheck says the network is proving its key blocks (n of N), other paths 503 in v2 shape, then the port is free', async () => {
  const port = await freePort();
  const config = loadConfig({ flags: { network: [`mainnet=http://127.0.0.1:${port}`], backend: ['mainnet=lite'] }, env: {} });
  let state: StartingNetwork = { network: 'mainnet' };
  const listeners = await openSockets(config, planListeners(config), () => state);
  try {
    let response = await fetch(`http://127.0.0.1:${port}/healthcheck`);
    assert.equal(response.status, 503);
    assert.deepEqual(await response.json(), { status: 'starting', network: 'mainnet' });

    state = {
      network: 'mainnet',
      proving: { from: 43792209, target: 81000000, progress: { job: 'key-block proofs', done: 120, total: 1000, rate: 40, eta_s: 22 } },
    };
    response = await fetch(`http://127.0.0.1:${port}/api/v3/healthcheck`);
    assert.equal(response.status, 503);
    assert.deepEqual(await response.json(), {
      status: 'starting',
      network: 'mainnet',
      proving_key_blocks: { from_seqno: 43792209, target_seqno: 81000000, links_done: 120, links_total: 1000, links_per_s: 40, eta_s: 22 },
    });
    response = await fetch(`http://127.0.0.1:${port}/api/v2/getMasterchainInfo`);
    assert.equal(response.status, 503);
    assert.equal(response.headers.get('retry-after'), '5');
    assert.deepEqual(await response.json(), {
      ok: false,
      error: 'mainnet is not ready yet (proving the chain of key blocks: 120 of 1000 links)',
      code: 503,
    });
  } finally {
    await listeners.close();
  }
  // The port is free again once closed.
  const again = createServer();
  await new Promise<void>((resolve, reject) => again.once('error', reject).listen(port, '127.0.0.1', resolve));
  await new Promise((resolve) => again.close(resolve));
});

test('the same socket is handed over: after serve(), requests go to the handler; a port taken is reported by listen()', async () => {
  const port = await freePort();
  const config = loadConfig({ flags: { network: [`mainnet=http://127.0.0.1:${port}`] }, env: {} });
  const sockets = await openSockets(config, planListeners(config), (network) => ({ network }));
  try {
    const before = await fetch(`http://127.0.0.1:${port}/healthcheck`);
    assert.equal(before.status, 503);
    assert.deepEqual(await before.json(), { status: 'starting', network: 'mainnet' });
    sockets.serve((_request, response) => response.end('served'));
    const after = await fetch(`http://127.0.0.1:${port}/healthcheck`);
    assert.equal(after.status, 200);
    assert.equal(await after.text(), 'served');
    await sockets.listen(); // already bound: nothing to do, no error
  } finally {
    await sockets.close({ force: true });
  }

  const taken = createServer();
  await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
  const takenPort = (taken.address() as { port: number }).port;
  try {
    const other = loadConfig({ flags: { network: [`mainnet=http://127.0.0.1:${takenPort}`] }, env: {} });
    const left = await openSockets(other, planListeners(other), (network) => ({ network }));
    await assert.rejects(left.listen(), /EADDRINUSE/);
    await left.close();
  } finally {
    await new Promise((resolve) => taken.close(resolve));
  }
});

test("an upgrade on any socket reaches the first socket's upgrade listeners, tagged with the socket it came in on", async () => {
  const ports = [await freePort(), await freePort()];
  const config = loadConfig({
    flags: { network: [`mainnet=http://127.0.0.1:${ports[0]}`, `testnet=http://127.0.0.1:${ports[1]}`] },
    env: {},
  });
  const sockets = await openSockets(config, planListeners(config), (network) => ({ network }));
  const seen: Array<number | undefined> = [];
  sockets.primary.on('upgrade', (request: IncomingMessage, socket) => {
    seen.push(listenerOf(request));
    socket.end('HTTP/1.1 400 Bad Request\r\nconnection: close\r\n\r\n');
  });
  sockets.serve((_request, response) => response.end());
  const upgrade = (port: number) =>
    new Promise<void>((resolve) => {
      const req = httpRequest({ port, host: '127.0.0.1', headers: { connection: 'upgrade', upgrade: 'websocket' } });
      req.on('response', (response) => response.resume().on('end', resolve));
      req.on('error', () => resolve());
      req.end();
    });
  try {
    await upgrade(ports[1]);
    await upgrade(ports[0]);
    assert.deepEqual(seen, [1, 0]);
  } finally {
    await sockets.close({ force: true });
  }
});

test('a port already taken is left alone (the gateway reports it when it listens)', async () => {
  const taken = createServer();
  await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
  const port = (taken.address() as { port: number }).port;
  try {
    const config = loadConfig({ flags: { network: [`mainnet=http://127.0.0.1:${port}`], backend: ['mainnet=lite'] }, env: {} });
    const listeners = await openSockets(config, planListeners(config), () => ({ network: 'mainnet' }));
    await listeners.close();
  } finally {
    await new Promise((resolve) => taken.close(resolve));
  }
});
