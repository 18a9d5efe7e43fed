import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { OPTIONS, envName, flagName } from '../../src/config/options.js';

test('the README documents every option: flag, file key and environment variable', () => {
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
  for (const spec of OPTIONS) {
    assert.ok(readme.includes(`\`${flagName(spec)}`), `README lacks ${flagName(spec)}`);
    assert.ok(readme.includes(`\`${spec.key}\``), `README lacks the file key ${spec.key}`);
    assert.ok(readme.includes(envName(spec.key)), `README lacks ${envName(spec.key)}`);
  }
});
