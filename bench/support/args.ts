/** The benches' command-line options: `--name N` numbers, `--name value` strings and bare `--name` switches (no library: a few lines). */
const argv = process.argv.slice(2);

/** `--name N` as a number, or `fallback` when absent. */
export function numberArg(name: string, fallback: number): number {
  const i = argv.indexOf(`--${name}`);
  return i === -1 ? fallback : Number(argv[i + 1]);
}

/** Whether the bare switch `--name` was given. */
export function hasFlag(name: string): boolean {
  return argv.includes(`--${name}`);
}

/** `--name value` as a string, or undefined when absent. */
export function stringArg(name: string): string | undefined {
  const i = argv.indexOf(`--${name}`);
  return i === -1 ? undefined : argv[i + 1];
}
