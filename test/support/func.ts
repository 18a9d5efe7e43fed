/**
 * Compiles a FunC contract of the tests (or of src/contracts) with func-js, the FunC compiler @ton/sandbox
 * ships with, after tongate's own declarations (src/contracts/stdlib.ts). Each source is compiled once per
 * test process, and once per installed compiler across processes: the code is kept in node_modules/.cache/
 * (which `npm ci` empties), under the hash of the compiler's version and every source file it was given, so a
 * changed source or compiler compiles anew. A compile takes seconds of CPU (func-js builds its WebAssembly
 * compiler each time), and some thirty test files compile the same contracts.
 */
import { compileFunc } from '@ton-community/func-js';
import { Cell } from '@ton/core';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FUNC_STDLIB } from '../../src/contracts/stdlib.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const CACHE_DIR = join(root, 'node_modules', '.cache', 'tongate-func');
/** The compiler as installed: func-js and the WebAssembly build of FunC it runs. */
const COMPILER = ['func-js', 'func-js-bin']
  .map((name) => {
    const manifest = JSON.parse(readFileSync(join(root, 'node_modules', '@ton-community', name, 'package.json'), 'utf8'));
    return `${name}@${manifest.version}`;
  })
  .join(' ');

const compiled = new Map<string, Promise<Cell>>();

/** `name` labels the file in compiler errors. */
export function compileFuncContract(name: string, source: string): Promise<Cell> {
  const file = `${name}.fc`;
  return compileFuncSources(['stdlib.fc', file], { 'stdlib.fc': FUNC_STDLIB, [file]: source });
}

/** Compiles `targets` (in that order) from `sources`, a file name -> text map; a failed compile throws its message. */
export function compileFuncSources(targets: string[], sources: Record<string, string>): Promise<Cell> {
  // Every file it was given (an #include reaches past the targets), names included: they reach the error messages.
  const key = createHash('sha256')
    .update(JSON.stringify([COMPILER, targets, Object.entries(sources).sort(([a], [b]) => (a < b ? -1 : 1))]))
    .digest('hex');
  let code = compiled.get(key);
  if (code === undefined) {
    code = fromCache(key) ?? compileAndKeep(key, targets, sources);
    compiled.set(key, code);
  }
  return code;
}

function fromCache(key: string): Promise<Cell> | undefined {
  let boc: string;
  try {
    boc = readFileSync(join(CACHE_DIR, `${key}.boc64`), 'utf8');
  } catch {
    return undefined;
  }
  return Promise.resolve(Cell.fromBase64(boc));
}

async function compileAndKeep(key: string, targets: string[], sources: Record<string, string>): Promise<Cell> {
  const result = await compileFunc({ targets, sources });
  if (result.status !== 'ok') throw new Error(`FunC (${targets.at(-1)}): ${result.message}`);
  // Written whole under a name of its own, then renamed: a process reading at the same time sees all of it or none.
  mkdirSync(CACHE_DIR, { recursive: true });
  const partial = join(CACHE_DIR, `${key}.${process.pid}.partial`);
  writeFileSync(partial, result.codeBoc);
  renameSync(partial, join(CACHE_DIR, `${key}.boc64`));
  return Cell.fromBase64(result.codeBoc);
}
