/**
 * DeDust pools, detected as toncenter's indexer detects them (ton-index-worker's DedustPoolDetector, which fills its
 * `dex_pools` table): an account is a DeDust pool when
 *   - its code hash (or, for a library cell, the library's) is one of DeDust's pool codes (DEDUST_MAINNET.poolCodeHashes),
 *   - its `get_assets` answers two Asset slices (native$0000, jetton$0001 workchain:int8 address:uint256), and
 *   - DeDust's factory gives its address back from `get_pool_address(int pool_type, slice asset0, slice asset1)`.
 * The pool type (0 volatile, 1 stable) is not read from the pool: both are asked of the factory in one turn, and the
 * one that names the pool is kept. A code hash that is not a pool's, or an answer of the wrong shape, is "not a pool"
 * (NotThatContract, remembered by code hash as every detector's miss); a factory that does not name the pool is data
 * (a copy of the code elsewhere), not cached.
 * The hashes and the factory are mainnet's facts; a network (or a test) can be given others (DedustFacts).
 */
import { Address, beginCell, type Cell, type Slice } from '@ton/core';
import { formatRawUpper } from '../../ton/address.js';
import { NotThatContract, StackReader } from '../../ton/stack-reader.js';
import type { TokenAccountCandidate } from '../tokens/block-tokens.js';
import type { GetMethodRunner } from '../tokens/get-methods.js';
import type { DexPoolRow } from './rows.js';

export interface DedustFacts {
  /** Code hashes of DeDust's pools, hex upper case. */
  poolCodeHashes: ReadonlySet<string>;
  /** The factory's raw address (upper case). */
  factory: string;
}

/** Mainnet's: the three pool codes and the factory toncenter's detector checks against. */
export const DEDUST_MAINNET: DedustFacts = {
  poolCodeHashes: new Set([
    '1275095B6DA3911292406F4F4386F9E780099B854C6DEE9EE2895DDCE70927C1',
    '778F0D3FE6482C50888970DF5E787F40F3A4AB282170C035A5920877058C99D3',
    'C0F9D14FBC8E14F0D72CBA2214165EEE35836AB174130912BAF9DBFA43EAD562',
  ]),
  factory: formatRawUpper(Address.parse('EQBfBWT7X2BHg9tXAxzhz2aKiNTU1tpt5NsiK0uSDW_YAJ67')),
};

/** Pool types the factory knows (DeDust's PoolType: volatile, stable). */
const POOL_TYPES = [0n, 1n] as const;

/** An Asset slice as a jetton master's raw address, null for TON; anything else is not a pool's asset. */
export function readAsset(cs: Slice): string | null {
  const tag = cs.loadUint(4);
  if (tag === 0) return null;
  if (tag !== 1) throw new NotThatContract(`get_assets: asset kind ${tag} is not native or jetton`);
  const workchain = cs.loadInt(8);
  return `${workchain}:${cs.loadBuffer(32).toString('hex').toUpperCase()}`;
}

/** The pool a candidate is; null when the factory does not name it; throws NotThatContract when it is no pool. */
export async function readDedustPool(
  runner: GetMethodRunner,
  c: TokenAccountCandidate,
  seqno: number,
  facts: DedustFacts,
): Promise<DexPoolRow | null> {
  const hashes = [c.codeHash.toString('hex').toUpperCase(), ...(c.libraryHash ? [c.libraryHash] : [])];
  if (!hashes.some((h) => facts.poolCodeHashes.has(h))) throw new NotThatContract('not a DeDust pool code');
  const values = await runner.run(c.account, 'get_assets', [], seqno);
  if (values === null) throw new NotThatContract('get_assets failed');
  const s = new StackReader(values, 'get_assets');
  const slices: Cell[] = [s.cell(0), s.cell(1)];
  let assets: [string | null, string | null];
  try {
    assets = [readAsset(slices[0].beginParse()), readAsset(slices[1].beginParse())];
  } catch (error) {
    if (error instanceof NotThatContract) throw error;
    throw new NotThatContract(`get_assets: ${(error as Error).message}`);
  }
  const named = await Promise.all(
    POOL_TYPES.map(async (type) => {
      const answer = await runner.run(
        facts.factory,
        'get_pool_address',
        [
          { type: 'int', value: type },
          { type: 'slice', cell: slices[0] },
          { type: 'slice', cell: slices[1] },
        ],
        seqno,
      );
      if (!answer || answer.length === 0) return null;
      try {
        const address = new StackReader(answer, 'get_pool_address').address(0);
        return address ? formatRawUpper(address) : null;
      } catch {
        return null;
      }
    }),
  );
  const type = named.findIndex((a) => a === c.account);
  if (type < 0) return null;
  return {
    address: c.account,
    dex: 'dedust',
    assets,
    isStable: type === 1,
    lastTxLt: c.lastTxLt,
    codeHash: c.codeHash,
    dataHash: c.dataHash,
  };
}

/** An Asset slice (for tests and tongate's own contracts): TON, or a jetton master. */
export const assetSlice = (master: Address | null): Cell =>
  master === null
    ? beginCell().storeUint(0, 4).endCell()
    : beginCell().storeUint(1, 4).storeInt(master.workChain, 8).storeBuffer(master.hash).endCell();
