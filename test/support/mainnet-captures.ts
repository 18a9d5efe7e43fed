/**
 * Real TON mainnet getBlockProof answers (../shared/reference/mainnet-captures, SOURCES.md there says where they
 * come from): each file is one liteServer.partialBlockProof as hex, after `#` comment lines. Read with the same
 * decoder the lite connection uses (proof-tl.ts: both signature set forms), so a test or a bench checks exactly what
 * a liteserver would have sent.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readPartialBlockProof, type ForwardLink, type PartialBlockProof } from '../../src/chain/lite/block-proofs/proof-tl.js';

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const CAPTURES_DIR = process.env.TONGATE_MAINNET_CAPTURES ?? join(repoRoot, '..', 'shared', 'reference', 'mainnet-captures');

/** The capture's bytes: hex after the `#` lines, whitespace ignored. Undefined when the file is not there. */
export function captureBytes(name: string): Buffer | undefined {
  const file = join(CAPTURES_DIR, name);
  if (!existsSync(file)) return undefined;
  const hex = readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => !line.startsWith('#'))
    .join('')
    .replace(/\s/g, '');
  return Buffer.from(hex, 'hex');
}

/** The capture decoded; throws when it is not a liteServer.partialBlockProof. */
export function captureProof(name: string): PartialBlockProof | undefined {
  const bytes = captureBytes(name);
  return bytes ? readPartialBlockProof(bytes) : undefined;
}

/** The forward links of the ordinary-form captures (chain.hex's three, one-link-ordinary.hex's one). */
export function ordinaryForwardLinks(): ForwardLink[] {
  return forwardLinks(['chain.hex', 'one-link-ordinary.hex']);
}

/** The forward links of the named captures, in order. */
export function forwardLinks(names: string[]): ForwardLink[] {
  const links: ForwardLink[] = [];
  for (const name of names) {
    for (const step of captureProof(name)?.steps ?? []) if (step.kind === 'liteServer.blockLinkForward') links.push(step);
  }
  return links;
}
