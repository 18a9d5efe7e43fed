import { test } from 'node:test';
import assert from 'node:assert/strict';
import { beginCell } from '@ton/core';
import { loadConfig } from '../../src/config/load.js';
import { configError, configFiles } from '../support/config.js';
import { runTongate } from '../support/process.js';
import { TEST_MNEMONIC } from '../chain/local/support/local-chain.js';

const { file } = configFiles('tongate-genesis-');
const CODE = beginCell().storeUint(0xdead, 16).endCell().toBoc().toString('base64');
const ADDRESS = `0:${'4f'.repeat(32)}`;

const load = (path: string) => loadConfig({ flags: { genesis: path }, env: {} });

test('--genesis: YAML and JSON files of accounts and wallets are read into the configuration', () => {
  const yaml = file(
    'g.yaml',
    `accounts:\n  - address: "${ADDRESS}"\n    balance: "5000000000"\n    code: ${CODE}\n  - address: "-1:${'00'.repeat(32)}"\n    balance: 7\n  - wallet: v5r1\n    mnemonic: "${TEST_MNEMONIC.join(' ')}"\n    balance: "1000"\n    workchain: -1\n`,
  );
  const entries = load(yaml).genesis!.entries;
  assert.deepEqual(
    entries.map((e) => [e.kind, e.balance]),
    [
      ['account', 5_000_000_000n],
      ['account', 7n],
      ['wallet', 1000n],
    ],
  );
  const json = file('g.json', JSON.stringify({ accounts: [{ wallet: 'v4r2', mnemonic: TEST_MNEMONIC, balance: '1' }] }));
  assert.equal(load(json).genesis!.entries[0].kind, 'wallet');
  assert.equal(loadConfig({ flags: {}, env: {} }).genesis, undefined, 'no file, no genesis accounts');
});

test('--genesis: a bad file is refused naming the file, the entry and the field', () => {
  const cases: Array<[string, string, RegExp]> = [
    ['missing.yaml', '', /cannot read it/],
    ['list.yaml', '- 1\n', /expected a mapping with an `accounts` list/],
    ['bad.json', '{', /not valid JSON/],
    ['extra.yaml', 'accounts: []\nwallets: []\n', /wallets: unknown key/],
    [
      'code.yaml',
      `accounts:\n  - address: "${ADDRESS}"\n    balance: "1"\n  - address: "${ADDRESS.replace('4f', '50')}"\n    balance: "1"\n    code: "not base64!"\n`,
      /accounts\[1\] \(address 0:50.*\): code/,
    ],
    [
      'balance.yaml',
      `accounts:\n  - address: "${ADDRESS}"\n    balance: "-5"\n`,
      /accounts\[0\] \(address 0:4f.*\): balance: expected nanotons/,
    ],
    ['address.yaml', `accounts:\n  - address: "nowhere"\n    balance: "1"\n`, /accounts\[0\] \(address nowhere\): address: expected a raw/],
    ['workchain.yaml', `accounts:\n  - address: "5:${'4f'.repeat(32)}"\n    balance: "1"\n`, /address: workchain 5/],
    ['data.yaml', `accounts:\n  - address: "${ADDRESS}"\n    balance: "1"\n    data: ${CODE}\n`, /data: given without code/],
    [
      'twice.yaml',
      `accounts:\n  - address: "${ADDRESS}"\n    balance: "1"\n  - address: "${ADDRESS}"\n    balance: "2"\n`,
      /accounts\[1\].*is also accounts\[0\]/,
    ],
    [
      'version.yaml',
      `accounts:\n  - wallet: v9\n    mnemonic: "${TEST_MNEMONIC.join(' ')}"\n    balance: "1"\n`,
      /accounts\[0\] \(wallet v9\): wallet: expected one of v3r2, v4r2, v5r1/,
    ],
    [
      'words.yaml',
      `accounts:\n  - wallet: v4r2\n    mnemonic: "one two"\n    balance: "1"\n`,
      /accounts\[0\] \(wallet v4r2\): mnemonic: expected 24 lowercase words/,
    ],
    ['typo.yaml', `accounts:\n  - address: "${ADDRESS}"\n    balanse: "1"\n`, /balanse: unknown key/],
  ];
  for (const [name, text, words] of cases) {
    const path = name === 'missing.yaml' ? `${file('x', '')}-missing.yaml` : file(name, text);
    const err = configError(() => load(path));
    assert.equal(err.option, '--genesis');
    assert.ok(err.message.includes(path), `${name}: names the file`);
    assert.match(err.message, words, name);
  }
});

test('tongate start --genesis with a bad entry exits 2 naming it; an invalid mnemonic checksum too', async () => {
  const badCode = file('cli-bad.yaml', `accounts:\n  - address: "${ADDRESS}"\n    balance: "1"\n    code: "AAAA"\n`);
  const first = await runTongate(['start', '--ephemeral', '--genesis', badCode]);
  assert.equal(first.code, 2, first.stderr);
  assert.match(first.stderr, /tongate: bad configuration: --genesis: .*cli-bad\.yaml: accounts\[0\] \(address 0:4f.*\): code/);

  const words = [...TEST_MNEMONIC];
  [words[0], words[1]] = [words[1], words[0]]; // the same words in another order: the checksum fails
  const badMnemonic = file('cli-words.yaml', `accounts:\n  - wallet: v4r2\n    mnemonic: "${words.join(' ')}"\n    balance: "1"\n`);
  const second = await runTongate(['start', '--ephemeral', '--genesis', badMnemonic, '--network', 'testnet=http://127.0.0.1:1']);
  assert.equal(second.code, 2, second.stderr);
  assert.match(second.stderr, /--genesis: .*cli-words\.yaml: accounts\[0\] \(wallet v4r2\): mnemonic: not a valid TON mnemonic/);
});
