// The lint, one tool after the other, each printed as the tool prints it; exits non-zero when any of them failed:
//   ESLint      eslint.config.js: the recommended rules of ESLint and typescript-eslint
//   Prettier    .prettierrc.json: the one format (a check here; `npm run format` writes it)
//   layers      .dependency-cruiser.cjs: which folder of src/ may import which, and no import circle
// Usage: node scripts/lint.mjs (npm run lint); scripts/test.mjs runs it before the tests.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = (name) => fileURLToPath(new URL(`../node_modules/.bin/${name}`, import.meta.url));
const steps = [
  {
    name: 'ESLint',
    command: bin('eslint'),
    args: ['.', '--cache', '--cache-location', 'node_modules/.cache/eslint/'],
    fix: 'fix by hand (npx eslint --fix . does some)',
  },
  {
    name: 'Prettier',
    command: bin('prettier'),
    args: ['--check', '.', '--cache', '--log-level', 'warn'],
    fix: 'npm run format writes the format',
  },
  {
    name: 'layers',
    command: bin('depcruise'),
    args: ['src', '--config', '.dependency-cruiser.cjs'],
    fix: 'each rule in .dependency-cruiser.cjs says why it holds',
  },
];

const failed = [];
for (const step of steps) {
  const started = performance.now();
  const run = spawnSync(step.command, step.args, { cwd: root, encoding: 'utf8', maxBuffer: 64 * 2 ** 20 });
  const output = `${run.stdout ?? ''}${run.stderr ?? ''}${run.error ? `${run.error.message}\n` : ''}`.trimEnd();
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  const ok = run.status === 0;
  console.log(`lint: ${step.name} ${ok ? 'passed' : 'FAILED'} (${seconds} s)${ok ? '' : `: ${step.fix}`}`);
  if (output !== '' && !ok) console.log(output);
  if (!ok) failed.push(step.name);
}
console.log(failed.length === 0 ? 'lint: passed' : `lint: FAILED (${failed.join(', ')})`);
process.exit(failed.length === 0 ? 0 : 1);
