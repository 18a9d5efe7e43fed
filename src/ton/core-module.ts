/**
 * @ton/core, loaded on first use by the codecs the configuration's checks reach (address.ts, boc.ts): every
 * `tongate` command loads the option table, whose --genesis and --dns-root checks parse addresses and BoCs, yet
 * a command given neither (`tongate keys create`) never needs the package, a noticeable part of its start. The
 * package is CommonJS, so `createRequire` keeps the callers synchronous, and it is the same module instance an
 * `import` of it gets (core-speedups.ts patches that one instance).
 */
import { createRequire } from 'node:module';

type TonCore = typeof import('@ton/core');
let core: TonCore | undefined;

export function tonCore(): TonCore {
  return (core ??= createRequire(import.meta.url)('@ton/core') as TonCore);
}
