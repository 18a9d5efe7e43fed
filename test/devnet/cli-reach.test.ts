import { test } from 'node:test';
import assert from 'node:assert/strict';
import { freePort } from '../support/ports.js';
import { runTongate } from '../support/process.js';
import { startTestTongate } from '../support/tongate.js';

test('a devnet command with no tongate to answer names the URL it called and what to check, not a bare "fetch failed"', async () => {
  const port = await freePort();
  const env = { TONGATE_NETWORK: `testnet=http://127.0.0.1:${port}` };
  for (const args of [
    ['mine', '--network', 'testnet'],
    ['fund', '0:' + '0'.repeat(64), '1', '--network', 'testnet'],
    ['snapshot', 'list', '--network', 'testnet'],
  ]) {
    const run = await runTongate(args, env);
    assert.equal(run.code, 1, run.stderr);
    assert.doesNotMatch(run.stderr, /^tongate: fetch failed$/m);
    assert.match(
      run.stderr,
      new RegExp(
        `no answer from http://127\\.0\\.0\\.1:${port} \\(ECONNREFUSED\\): is tongate running, serving testnet at this base URL\\?`,
      ),
    );
    assert.match(run.stderr, /give --listen \[host:\]port/);
  }
});

test("with --listen the devnet commands call the listening address, with the base URL's host, not the public base URL", async (t) => {
  // The base URL names a host this machine cannot reach (as a proxy's would be); tongate listens on loopback.
  const listen = `127.0.0.1:${await freePort()}`;
  const network = ['testnet=http://api.tongate.invalid:8443'];
  const gate = await startTestTongate({ network, listen, mining: 'manual' });
  t.after(() => gate.stop());
  const before = gate.chain('testnet').masterchainInfo().last.id.seqno;
  const env = { TONGATE_NETWORK: network[0], TONGATE_LISTEN: listen };
  const mined = await runTongate(['mine', '--network', 'testnet', '--blocks', '2'], env);
  assert.equal(mined.code, 0, mined.stderr);
  assert.match(mined.stdout, new RegExp(`testnet: mined 2 blocks, last seqno ${before + 2}`));
  const saved = await runTongate(['snapshot', 'save', 'here', '--network', 'testnet'], env);
  assert.equal(saved.code, 0, saved.stderr);
  assert.match(saved.stdout, /testnet: saved snapshot here at seqno/);

  await gate.stop();
  const down = await runTongate(['mine', '--network', 'testnet'], env);
  assert.equal(down.code, 1);
  assert.match(
    down.stderr,
    new RegExp(
      `mine: no answer from http://${listen.replace(/\./g, '\\.')} \\(--listen, Host api\\.tongate\\.invalid:8443\\) \\(ECONNREFUSED\\): is tongate running and listening there`,
    ),
  );
});
