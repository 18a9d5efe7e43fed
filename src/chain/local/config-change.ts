/**
 * `POST /devnet/config`: the next config from the current one and the params a caller sets (pure). Each param is
 * checked before anything changes: its number in int32 range and not one the local chain fixes (0 and 1 name the
 * config contract and the elector, which live at those addresses; 19 is the network's global id), its cell
 * present, and for the params fee experiments change, their TL-B read exactly (20/21 gas limits and prices,
 * 24/25 message forwarding prices; written from block.tlb). The emulator then reads the whole config
 * (chain-config.ts) before the chain switches to it.
 */
import { Cell, Slice } from '@ton/core';
import { configParams, configWith, type NetworkConfig } from './config.js';
import { ChainInputError } from '../errors.js';

/** Params a local chain keeps as its zero state set them. */
const FIXED_PARAMS: ReadonlyMap<number, string> = new Map([
  [0, 'the config contract address'],
  [1, 'the elector address'],
  [19, "the network's global id"],
]);

/** A config change the chain refuses (422). */
export class ConfigChangeRefused extends ChainInputError {
  override name = 'ConfigChangeRefused';
}

/** The config with `changes` set; ConfigChangeRefused naming the first param that cannot be taken. */
export function changedConfig(current: Cell, changes: ReadonlyMap<number, Cell>): NetworkConfig {
  if (changes.size === 0) throw new ConfigChangeRefused('params: give at least one param');
  const params = configParams(current);
  for (const [id, cell] of changes) {
    checkParam(id, cell);
    params.set(id, cell);
  }
  return configWith(params);
}

export function checkParam(id: number, cell: Cell): void {
  if (!Number.isInteger(id) || id < -(2 ** 31) || id >= 2 ** 31)
    throw new ConfigChangeRefused(`params.${id}: a param number is a 32-bit integer`);
  const fixed = FIXED_PARAMS.get(id);
  if (fixed) throw new ConfigChangeRefused(`params.${id}: ${fixed} is fixed on a local chain`);
  const check = TLB_CHECKS.get(id);
  if (!check) return;
  try {
    const slice = cell.beginParse();
    check(slice);
    if (slice.remainingBits !== 0 || slice.remainingRefs !== 0)
      throw new Error(`${slice.remainingBits} bits and ${slice.remainingRefs} refs left over`);
  } catch (err) {
    throw new ConfigChangeRefused(`params.${id}: not a ${TLB_NAMES.get(id)} (${(err as Error).message})`);
  }
}

function expectTag(slice: Slice, tags: number[]): number {
  const tag = slice.loadUint(8);
  if (!tags.includes(tag)) throw new Error(`tag 0x${tag.toString(16)}, expected ${tags.map((t) => `0x${t.toString(16)}`).join(' or ')}`);
  return tag;
}

/**
 * gas_prices#bb gas_price gas_limit gas_credit block_gas_limit freeze_due_limit delete_due_limit (uint64 each)
 * gas_prices_ext#de the same with special_gas_limit after gas_limit
 * gas_flat_pfx#d1 flat_gas_limit:uint64 flat_gas_price:uint64 other:GasLimitsPrices
 */
function gasLimitsPrices(slice: Slice): void {
  const tag = expectTag(slice, [0xbb, 0xde, 0xd1]);
  if (tag === 0xd1) {
    slice.skip(128);
    const inner = slice.preloadUint(8);
    if (inner === 0xd1) throw new Error('a flat prefix inside a flat prefix');
    gasLimitsPrices(slice);
    return;
  }
  const price = slice.loadUintBig(64);
  const limit = slice.loadUintBig(64);
  const special = tag === 0xde ? slice.loadUintBig(64) : limit;
  slice.skip(64 * 4);
  if (price === 0n) throw new Error('gas_price 0');
  if (special < limit) throw new Error('special_gas_limit below gas_limit');
}

/** msg_forward_prices#ea lump_price:uint64 bit_price:uint64 cell_price:uint64 ihr_price_factor:uint32 first_frac:uint16 next_frac:uint16 */
function msgForwardPrices(slice: Slice): void {
  expectTag(slice, [0xea]);
  slice.skip(64 * 3 + 32 + 16 + 16);
}

const TLB_CHECKS = new Map<number, (slice: Slice) => void>([
  [20, gasLimitsPrices],
  [21, gasLimitsPrices],
  [24, msgForwardPrices],
  [25, msgForwardPrices],
]);

const TLB_NAMES = new Map<number, string>([
  [20, 'GasLimitsPrices (masterchain)'],
  [21, 'GasLimitsPrices (basechain)'],
  [24, 'MsgForwardPrices (masterchain)'],
  [25, 'MsgForwardPrices (basechain)'],
]);
