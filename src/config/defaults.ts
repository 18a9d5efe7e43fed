/**
 * Defaults of a zero-configuration start: two local networks on loopback.
 * The faucet mnemonic is public (printed in docs/local-chains.md): it guards play money on local chains only.
 */
export const DEFAULT_NETWORKS: Record<string, string> = {
  mainnet: 'http://127.0.0.1:8080',
  testnet: 'http://127.0.0.1:8081',
};

/** global_id by network name; any other name is a test network (-3). */
export const KNOWN_GLOBAL_IDS: Record<string, number> = { mainnet: -239, testnet: -3 };
export const TEST_NETWORK_GLOBAL_ID = -3;

export const DEFAULT_FAUCET_MNEMONIC =
  'total chair often taste salad glide fade invest portion unlock problem bean odor palm silent trip wedding inherit lamp clap vital under destroy loud';
