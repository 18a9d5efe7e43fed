// Builds the browser console (console/src) into dist/console-app/, the folder src/console/routes.ts serves:
// one JavaScript bundle and one stylesheet, each named by its content hash, and index.html naming both (no inline
// script or style, so the page runs under a strict Content-Security-Policy). esbuild, minified, for browsers of the
// last few years. Run by `npm run build` (so by `npm ci`); `node console/build.mjs [outDir]` builds elsewhere.
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));
export const DEFAULT_OUT = fileURLToPath(new URL('../dist/console-app/', import.meta.url));

const hashed = (name, ext, body) => `${name}-${createHash('sha256').update(body).digest('hex').slice(0, 10)}.${ext}`;

/** Builds the console into `outDir` (emptied first); answers the files written with their sizes. */
export async function buildConsole(outDir = DEFAULT_OUT) {
  const result = await build({
    entryPoints: [join(here, 'src/main.tsx')],
    bundle: true,
    minify: true,
    format: 'esm',
    target: ['es2020', 'chrome100', 'firefox100', 'safari15'],
    jsx: 'automatic',
    jsxImportSource: 'preact',
    write: false,
    legalComments: 'none',
    logLevel: 'warning',
  });
  const js = result.outputFiles[0].contents;
  const css = readFileSync(join(here, 'src/style.css'));
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  const jsName = hashed('app', 'js', js);
  const cssName = hashed('app', 'css', css);
  writeFileSync(join(outDir, jsName), js);
  writeFileSync(join(outDir, cssName), css);
  writeFileSync(join(outDir, 'favicon.svg'), readFileSync(join(here, 'src/favicon.svg')));
  const html = readFileSync(join(here, 'src/index.html'), 'utf8').replace('%JS%', jsName).replace('%CSS%', cssName);
  writeFileSync(join(outDir, 'index.html'), html);
  return readdirSync(outDir).map((name) => ({ name, bytes: readFileSync(join(outDir, name)).length }));
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const files = await buildConsole(process.argv[2] ?? DEFAULT_OUT);
  console.log(`console: ${files.map((f) => `${f.name} ${(f.bytes / 1024).toFixed(1)} KiB`).join(', ')}`);
}
