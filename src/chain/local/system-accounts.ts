/**
 * The masterchain's system contracts a zero state holds: the config contract (config param 0's address), whose
 * data carries the config dictionary, and the elector (param 1's address). Tools read the config from the config
 * contract's data (blueprint's `getConfig()`), so the chain's config lives there: the chain reads it back from
 * that account when it opens, and `POST /devnet/config` changes it by rewriting that account's data.
 *
 * Their code is tongate's own (src/contracts/system); neither runs tick-tock transactions here.
 */
import { Address, beginCell, Cell } from '@ton/core';
import { configContractCode, electorCode } from '../../contracts/system/code.js';
import { configParams } from './config.js';

const CONFIG_ADDRESS_PARAM = 0;
const ELECTOR_ADDRESS_PARAM = 1;

/** A masterchain address named by a config param (`addr:bits256`). */
function masterAddressParam(config: Cell, param: number): Address {
  const cell = configParams(config).get(param);
  if (!cell) throw new Error(`config has no param ${param}`);
  return new Address(-1, cell.beginParse().loadBuffer(32));
}

export const configContractAddress = (config: Cell): Address => masterAddressParam(config, CONFIG_ADDRESS_PARAM);
export const electorAddress = (config: Cell): Address => masterAddressParam(config, ELECTOR_ADDRESS_PARAM);

/**
 * The config contract's data: `cfg_dict:^Cell seqno:uint32 public_key:uint256 vote_dict:(HashmapE 256 ...)`.
 * Public key 0: nobody can sign a config change (the devnet control makes them).
 */
export function configContractData(config: Cell, seqno: number): Cell {
  return beginCell().storeRef(config).storeUint(seqno, 32).storeUint(0n, 256).storeBit(false).endCell();
}

/** The config dictionary and seqno held by a config contract's data. */
export function readConfigContractData(data: Cell): { config: Cell; seqno: number } {
  const slice = data.beginParse();
  const config = slice.loadRef();
  return { config, seqno: slice.loadUint(32) };
}

/** The elector's data, empty: no election, no credits, no past elections, no grams, active id 0. */
const ELECTOR_DATA = beginCell()
  .storeBit(false)
  .storeBit(false)
  .storeBit(false)
  .storeCoins(0n)
  .storeUint(0, 32)
  .storeUint(0n, 256)
  .endCell();

export interface SystemContract {
  address: Address;
  code: Cell;
  data: Cell;
}

/** The config contract and the elector of a zero state with this config. */
export function systemContracts(config: Cell): SystemContract[] {
  return [
    { address: configContractAddress(config), code: configContractCode(), data: configContractData(config, 0) },
    { address: electorAddress(config), code: electorCode(), data: ELECTOR_DATA },
  ];
}
