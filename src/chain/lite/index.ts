/** A network served by TON liteservers (see README.md). */
import '../../ton/core-speedups.js';
export { LiteChain, type LiteChainOptions } from './lite-chain.js';
export { LitePool, type LitePoolOptions, type ServerStatus } from './pool.js';
export { LiteDataError, LiteSendRefused, LiteServerError, LiteTimeout, LiteTransportError, LiteUnavailable } from './errors.js';
