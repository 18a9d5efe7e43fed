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
export {
  BadMessage,
  ChainDataMismatch,
  ChainInputError,
  ChainStopped,
  EmulatorFailed,
  ExternalMessageRejected,
  FundFailed,
  FundRefused,
  GetMethodFailed,
  NotFound,
} from './errors.js';
export { EmulatorPool, DEFAULT_READ_WORKERS, DEFAULT_TX_WORKERS, type EmulatorLane, type EmulatorPoolOptions, type WorkerStats } from './emulator-pool.js';
export { FAUCET_BALANCE, type ZeroStateAccount } from './genesis.js';
export { genesisAccounts, GenesisRefused, type GenesisEntry } from './genesis-accounts.js';
export { V4R2_WALLET_ID } from './faucet.js';
export { normalizedExternalHash } from './messages.js';
