/**
 * The standard nominator pool (ton-blockchain/nominator-pool), the contract toncenter names a `NominatorPool` by its
 * code hash. tongate has no source of its own for it: its compiled code is read from the published BoC the tonweb
 * development dependency ships (its `src/test-pool-upd.js`, `POOL_CODE_HEX`) and refused unless it has the standard
 * code hash. Its data is built here from the pool's documented layout, a pool accepting nominators and not staking.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { beginCell, Cell, type Address, type StateInit } from '@ton/core';
import { NOMINATOR_POOL_CODE_HASH } from '../../../src/index/actions/nominator-pools.js';

let code: Cell | undefined;

/** The standard pool's code, as published; throws when the dependency no longer ships it. */
export function nominatorPoolCode(): Cell {
  if (code) return code;
  const file = createRequire(import.meta.url).resolve('tonweb/src/test-pool-upd.js');
  const hex = /POOL_CODE_HEX = '([0-9A-F]+)'/.exec(readFileSync(file, 'utf8'))?.[1];
  if (!hex) throw new Error(`no POOL_CODE_HEX in ${file}`);
  const cell = Cell.fromBoc(Buffer.from(hex, 'hex'))[0];
  if (cell.hash().toString('base64') !== NOMINATOR_POOL_CODE_HASH)
    throw new Error(`the pool code in ${file} is not the standard nominator pool's`);
  return (code = cell);
}

export interface NominatorPoolParams {
  /** The validator's wallet (a masterchain address: the pool keeps its 256-bit hash). */
  validator: Address;
  /** Of the rewards, in hundredths of a percent. */
  validatorRewardShare: number;
  maxNominators: number;
  minValidatorStake: bigint;
  minNominatorStake: bigint;
}

/**
 * state:uint8 nominators_count:uint16 stake_amount_sent:Coins validator_amount:Coins
 * config:^[validator_address:uint256 validator_reward_share:uint16 max_nominators_count:uint16
 *          min_validator_stake:Coins min_nominator_stake:Coins]
 * nominators:(HashmapE 256) withdraw_requests:(HashmapE 256) stake_at:uint32 saved_validator_set_hash:uint256
 * validator_set_changes_count:uint8 validator_set_change_time:uint32 stake_held_for:uint32
 * config_proposal_votings:(HashmapE 256): a new pool, not staking (state 0), no nominators.
 */
export function nominatorPoolData(params: NominatorPoolParams): Cell {
  const config = beginCell()
    .storeBuffer(params.validator.hash)
    .storeUint(params.validatorRewardShare, 16)
    .storeUint(params.maxNominators, 16)
    .storeCoins(params.minValidatorStake)
    .storeCoins(params.minNominatorStake)
    .endCell();
  return beginCell()
    .storeUint(0, 8)
    .storeUint(0, 16)
    .storeCoins(0)
    .storeCoins(0)
    .storeRef(config)
    .storeBit(false)
    .storeBit(false)
    .storeUint(0, 32)
    .storeUint(0, 256)
    .storeUint(0, 8)
    .storeUint(0, 32)
    .storeUint(0, 32)
    .storeBit(false)
    .endCell();
}

export function nominatorPoolInit(params: NominatorPoolParams): StateInit {
  return { code: nominatorPoolCode(), data: nominatorPoolData(params) };
}
