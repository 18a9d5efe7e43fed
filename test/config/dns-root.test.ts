import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadConfig } from '../../src/config/load.js';
import { TON_DNS_ROOTS } from '../../src/config/dns-roots.js';
import { runTongate } from '../support/process.js';
import { configError } from '../support/config.js';

const ROOT_FRIENDLY = 'EQC3dNlesgVD8YbAazcauIrXBPfiVhMMr5YYk2in0Mtsz0Bz';
const LOCAL_ROOT = `0:${'12'.repeat(32)}`;

test("--dns-root: toncenter's .ton roots on lite mainnet/testnet, none on a local chain, any root when given", () => {
  const defaults = loadConfig({ flags: {}, env: {} }).networks;
  assert.deepEqual(
    defaults.map((n) => n.dnsRoots),
    [[], []],
    'local chains have no root unless told',
  );
  const lite = loadConfig({ flags: { backend: ['mainnet=lite', 'testnet=lite'] }, env: {} }).networks;
  assert.deepEqual(
    lite.map((n) => n.dnsRoots),
    [[TON_DNS_ROOTS[-239]], [TON_DNS_ROOTS[-3]]],
  );
  assert.equal(TON_DNS_ROOTS[-239], '0:B774D95EB20543F186C06B371AB88AD704F7E256130CAF96189368A7D0CB6CCF');
  // Any form of address, stored raw uppercase; several roots; none turns the default off.
  const given = loadConfig({
    flags: { dnsRoot: [`testnet=${LOCAL_ROOT.toLowerCase()}`, `testnet=${ROOT_FRIENDLY}`, 'mainnet=none'], backend: ['mainnet=lite'] },
    env: {},
  }).networks;
  assert.deepEqual(given[1].dnsRoots, [LOCAL_ROOT.toUpperCase(), TON_DNS_ROOTS[-239]]);
  assert.deepEqual(given[0].dnsRoots, []);
  assert.deepEqual(loadConfig({ flags: {}, env: { TONGATE_DNS_ROOT: `mainnet=${LOCAL_ROOT}` } }).networks[0].dnsRoots, [
    LOCAL_ROOT.toUpperCase(),
  ]);
});

test('--dns-root: bad values name the option and what is wrong', () => {
  assert.match(
    configError(() => loadConfig({ flags: { dnsRoot: ['testnet=nonsense'] }, env: {} })).message,
    /^--dns-root: testnet: not an address: "nonsense"/,
  );
  assert.match(
    configError(() => loadConfig({ flags: { dnsRoot: ['devnet=none'] }, env: {} })).message,
    /^--dns-root: unknown network "devnet"/,
  );
  assert.match(configError(() => loadConfig({ flags: { dnsRoot: ['testnet'] }, env: {} })).message, /--dns-root.*expected network=value/);
  assert.match(
    configError(() => loadConfig({ flags: { dnsRoot: ['testnet=none', `testnet=${LOCAL_ROOT}`] }, env: {} })).message,
    /none cannot be combined/,
  );
});

test('a bad --dns-root stops tongate start with exit code 2', async () => {
  const result = await runTongate(['start', '--ephemeral', '--dns-root', 'testnet=nowhere']);
  assert.equal(result.code, 2);
  assert.match(result.stderr, /--dns-root: testnet: not an address/);
});
