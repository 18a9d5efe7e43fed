/**
 * Real TON mainnet getBlockProof answers (../shared/reference/mainnet-captures, SOURCES.md there says where they
 * come from): each file is one liteServer.partialBlockProof as hex, after `#` comment lines. Read with the same
 * TL codecs the lite connection uses, so a test or a bench checks exactly what a liteserver would have sent.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { TLReadBuffer } from 'ton-tl';
import { Codecs } from 'ton-lite-client/dist/schema.js';
import type { liteServer_blockLinkForward, liteServer_partialBlockProof } from 'ton-lite-client/dist/schema.js';

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const CAPTURES_DIR = process.env.TONGATE_MAINNET_CAPTURES ?? join(repoRoot, '..', 'shared', 'reference', 'mainnet-captures');

/** liteServer.partialBlockProof's constructor id, as the answer starts (little-endian). */
const PARTIAL_BLOCK_PROOF = 0x8ed0d2c1;

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

/** The capture decoded; throws when this TL schema cannot read it (a signature form it does not know). */
export function captureProof(name: string): liteServer_partialBlockProof | undefined {
  const bytes = captureBytes(name);
  if (!bytes) return undefined;
  if (bytes.readUInt32LE(0) !== PARTIAL_BLOCK_PROOF) throw new Error(`${name}: not a liteServer.partialBlockProof`);
  return Codecs.liteServer_partialBlockProof.decode(new TLReadBuffer(bytes.subarray(4))) as liteServer_partialBlockProof;
}

/** The forward links of the ordinary-form captures (chain.hex's three, one-link-ordinary.hex's one). */
export function ordinaryForwardLinks(): liteServer_blockLinkForward[] {
  const links: liteServer_blockLinkForward[] = [];
  for (const name of ['chain.hex', 'one-link-ordinary.hex']) {
    for (const step of captureProof(name)?.steps ?? []) if (step.kind === 'liteServer.blockLinkForward') links.push(step);
  }
  return links;
}
