/** Every v3 endpoint tongate serves, in the order the docs list them. */
import type { AnyV3Endpoint, AnyV3PostEndpoint } from '../endpoint.js';
import { accountStates, addressBookEndpoint, metadata, topAccountsByBalance, walletStates } from './accounts.js';
import { blocks, masterchainBlockShards, masterchainBlockShardState } from './blocks.js';
import { jettonBurns, jettonMasters, jettonTransfers, jettonWallets } from './jettons.js';
import { masterchainInfo } from './masterchain-info.js';
import { nftCollections, nftItems, nftSales, nftTransfers } from './nfts.js';
import { dnsRecords } from './dns.js';
import { multisigOrders, multisigWallets, vestingContracts } from './multisig.js';
import { messages } from './messages.js';
import { traces } from './traces.js';
import { actions } from './actions.js';
import { events } from './events.js';
import { balanceChangesEndpoint } from './balance-changes.js';
import { adjacentTransactions, transactions, transactionsByMasterchainBlock, transactionsByMessage } from './transactions.js';
import { addressInformation, estimateFee, message, runGetMethod, walletInformation } from './v2-shared.js';
import { pendingActions, pendingTraces, pendingTransactions } from '../../../pending/endpoints.js';
import { decodeGet, decodePost } from './decode.js';

export const V3_ENDPOINTS: AnyV3Endpoint[] = [
  masterchainInfo,
  blocks,
  masterchainBlockShardState,
  masterchainBlockShards,
  transactions,
  transactionsByMasterchainBlock,
  transactionsByMessage,
  adjacentTransactions,
  pendingTransactions,
  messages,
  traces,
  actions,
  events,
  balanceChangesEndpoint,
  pendingTraces,
  pendingActions,
  jettonMasters,
  jettonWallets,
  jettonTransfers,
  jettonBurns,
  nftCollections,
  nftItems,
  nftTransfers,
  nftSales,
  dnsRecords,
  multisigWallets,
  multisigOrders,
  vestingContracts,
  addressBookEndpoint,
  metadata,
  accountStates,
  walletStates,
  addressInformation,
  walletInformation,
  topAccountsByBalance,
  decodeGet,
];

/** The POST endpoints, which take v2's JSON bodies. */
export const V3_POST_ENDPOINTS: AnyV3PostEndpoint[] = [message, runGetMethod, estimateFee, decodePost];
