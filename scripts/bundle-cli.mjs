// Bundles the compiled command (dist/cli/entry.js and every module of ours it reaches) into dist/cli-bundle/, what
// bin/tongate.js runs: Node's module loader then reads a few files instead of the ~330 modules of ours that
// `tongate start` reads before it serves (src/cli/README.md, "Where `tongate start`'s time goes").
//   - The input is tsc's output (dist/), not the sources: the bundle runs the code tsc emitted, and each input file
//     has the path it has at run time.
//   - Packages stay external (Node loads them from node_modules as before): bundling them broke CommonJS named
//     imports.
//   - A dynamic `import()` stays lazy: each becomes a chunk of its own (`splitting`), loaded when the code runs it,
//     so a command still loads only what it uses.
//   - A module's `import.meta.url` still names its own file under dist/ (rewritten below, relative to the chunk that
//     holds it), so the paths found from it (the shipped global configs, the console's files, the worker threads'
//     entry files, `createRequire`) stay where they were. The worker threads run their own files under dist/,
//     unbundled: they are started after serving.
//   - Names are kept (`keepNames`): an error class names itself by `new.target.name`.
// Run by `npm run build` (so by `npm ci`), after tsc. Usage: node scripts/bundle-cli.mjs
import { build } from 'esbuild';
import { readFile, rm } from 'node:fs/promises';
import { relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const dist = fileURLToPath(new URL('../dist/', import.meta.url));
export const BUNDLE_DIR = resolve(dist, 'cli-bundle');

/** Each module's `import.meta.url` becomes its own file's URL, found from the chunk's (every chunk is in BUNDLE_DIR). */
const ownImportMetaUrl = {
  name: 'own-import-meta-url',
  setup(builder) {
    builder.onLoad({ filter: /\.js$/ }, async ({ path }) => {
      const source = await readFile(path, 'utf8');
      if (!source.includes('import.meta.url')) return { contents: source, loader: 'js' };
      const own = relative(BUNDLE_DIR, path).split('\\').join('/');
      const expression = `new URL(${JSON.stringify(own)}, import.meta.url).href`;
      return { contents: source.replace(/\bimport\.meta\.url\b/g, expression), loader: 'js' };
    });
  },
};

await rm(BUNDLE_DIR, { recursive: true, force: true });
await build({
  entryPoints: { entry: resolve(dist, 'cli/entry.js') },
  absWorkingDir: dist,
  outdir: BUNDLE_DIR,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  keepNames: true,
  sourcemap: 'linked',
  chunkNames: 'chunk-[hash]',
  plugins: [ownImportMetaUrl],
  logLevel: 'warning',
});
