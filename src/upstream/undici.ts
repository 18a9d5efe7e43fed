/**
 * undici, loaded when the first upstream target or stream is made: this room is reached by every start through the
 * gateway's hook and the streaming routes, and most deployments have no network of kind upstream. The package is
 * CommonJS, so `createRequire` keeps the constructors synchronous.
 */
import { createRequire } from 'node:module';

type Undici = typeof import('undici');
let loaded: Undici | undefined;

export function undici(): Undici {
  return (loaded ??= createRequire(import.meta.url)('undici') as Undici);
}
