/** What an API handler knows of the network a request addressed: its identity and its chain. */
import type { Chain } from '../chain/types.js';

export interface NetworkContext {
  name: string;
  baseUrl: URL;
  globalId: number;
  /** Friendly addresses carry the test-only flag on every network but mainnet, as toncenter's testnet does. */
  testOnly: boolean;
  chain: Chain;
}
