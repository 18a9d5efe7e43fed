/** Every v3 endpoint tongate serves, in the order the docs list them. */
import type { V3Endpoint } from '../endpoint.js';
import { accountStates, addressBookEndpoint, metadata, topAccountsByBalance, walletStates } from './accounts.js';
import { blocks, masterchainBlockShards, masterchainBlockShardState } from './blocks.js';
import { masterchainInfo } from './masterchain-info.js';
import { messages } from './messages.js';
import { adjacentTransactions, transactions, transactionsByMasterchainBlock, transactionsByMessage } from './transactions.js';

export const V3_ENDPOINTS: V3Endpoint<any>[] = [
  masterchainInfo,
  blocks,
  masterchainBlockShardState,
  masterchainBlockShards,
  transactions,
  transactionsByMasterchainBlock,
  transactionsByMessage,
  adjacentTransactions,
  messages,
  addressBookEndpoint,
  metadata,
  accountStates,
  walletStates,
  topAccountsByBalance,
];
