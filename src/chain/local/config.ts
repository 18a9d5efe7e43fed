/**
 * The blockchain config the TVM sees: @ton/sandbox's "slim" mainnet config (params 0-2, 4, 5, 7-25,
 * 28, 29, 31; 1.5 KB), with param 19 (global_id) set to the network's own global id.
 *
 * Why slim: the emulator parses the config on every get-method call; with the 115 KB default config a
 * wallet `seqno` get-method took ~7.6 ms here, with slim ~0.75 ms. getConfigParam/getConfigAll serve
 * this same cell, so what clients read and what contracts see agree.
 *
 * The config of a running chain lives in its config contract's data (system-accounts.ts); POST /devnet/config
 * changes params there (config-change.ts).
 */
import { beginCell, Cell, Dictionary } from '@ton/core';
import { slimConfig } from '@ton/sandbox/dist/config/slimConfig.js';

const GLOBAL_ID_PARAM = 19;

export interface NetworkConfig {
  cell: Cell;
  /** BoC, base64: what the emulator takes. */
  base64: string;
}

const cache = new Map<number, NetworkConfig>();

/** The config dictionary (int32 param id -> param cell) of a config root cell. */
export function configParams(config: Cell): Dictionary<number, Cell> {
  return Dictionary.loadDirect(Dictionary.Keys.Int(32), Dictionary.Values.Cell(), config);
}

/**
 * The zero state's config for a network with this global id (-239 mainnet, -3 testnet), built once per id. A
 * chain's config afterwards is what its config contract holds (system-accounts.ts, `POST /devnet/config`).
 */
export function networkConfig(globalId: number): NetworkConfig {
  let config = cache.get(globalId);
  if (!config) {
    const params = configParams(Cell.fromBase64(slimConfig));
    params.set(GLOBAL_ID_PARAM, beginCell().storeInt(globalId, 32).endCell());
    config = configWith(params);
    cache.set(globalId, config);
  }
  return config;
}

export function networkConfigOf(cell: Cell): NetworkConfig {
  return { cell, base64: cell.toBoc().toString('base64') };
}

/** The config root cell of a params dictionary. */
export function configWith(params: Dictionary<number, Cell>): NetworkConfig {
  return networkConfigOf(beginCell().storeDictDirect(params).endCell());
}

/** Param 19 as the TVM would read it: the config's global id. */
export function configGlobalId(config: Cell): number {
  const param = configParams(config).get(GLOBAL_ID_PARAM);
  if (!param) throw new Error('config has no param 19 (global_id)');
  return param.beginParse().loadInt(32);
}
