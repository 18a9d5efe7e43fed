/**
 * Starts one of the index's threads (a file next to this one; another room's: next to `beside`, its import.meta.url). The built worker (dist/.../<name>.js)
 * runs as is; from the TypeScript sources (tests, tsx) the worker registers tsx first, which a worker
 * does not inherit from the --import of its parent.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker, type TransferListItem } from 'node:worker_threads';

export function spawnIndexWorker(
  name: string,
  workerData: unknown,
  transferList: TransferListItem[] = [],
  beside: string = import.meta.url,
): Worker {
  const built = new URL(`./${name}.js`, beside);
  if (existsSync(fileURLToPath(built))) return new Worker(built, { workerData, transferList });
  const source = new URL(`./${name}.ts`, beside).href;
  // tsx is resolved from here, not from the process's working directory.
  const tsx = import.meta.resolve('tsx/esm/api');
  const boot = `import(${JSON.stringify(tsx)}).then(({ register }) => { register(); return import(${JSON.stringify(source)}); })`;
  return new Worker(boot, { eval: true, workerData, transferList });
}
