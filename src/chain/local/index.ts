/** The embedded local chain of one network (see local-chain.ts). */
// @ton/core's cell hashing and bit copying, made fast in this thread (see core-speedups.ts).
import '../../ton/core-speedups.js';
export { LocalChain } from './local-chain.js';
export {
  DEFAULT_BLOCK_INTERVAL_MS,
  DEFAULT_GET_METHOD_GAS_LIMIT,
  DEFAULT_MAX_BLOCK_TRANSACTIONS,
  type LocalChainOptions,
} from './options.js';
export { BadMessage, ChainInputError, EmulatorFailed, GetMethodFailed, NotFound } from '../errors.js';
export { ChainDataMismatch, ChainStopped, ExternalMessageRejected, FundFailed, FundRefused } from './errors.js';
export { FAUCET_BALANCE, type ZeroStateAccount } from './genesis.js';
export { genesisAccounts, GenesisRefused, type GenesisEntry } from './genesis-accounts.js';
export { V4R2_WALLET_ID } from './faucet.js';
export { normalizedExternalHash } from '../messages.js';
