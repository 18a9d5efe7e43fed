/** Helpers of the configuration tests: files in a temporary folder, and the ConfigError a load must throw. */
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '../../src/config/errors.js';

/** Writes files into one temporary folder of its own and answers their paths. */
export function configFiles(prefix: string): { dir: string; file(name: string, text: string): string } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return {
    dir,
    file(name, text) {
      const path = join(dir, name);
      writeFileSync(path, text);
      return path;
    },
  };
}

/** The ConfigError `fn` throws (the test fails if it throws anything else, or nothing). */
export function configError(fn: () => unknown): ConfigError {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof ConfigError, `expected a ConfigError, got ${String(err)}`);
    return err;
  }
  assert.fail('expected a ConfigError');
}
