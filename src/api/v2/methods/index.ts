/** Every v2 method, in one list: the routes and the OpenAPI document are built from it. */
import type { AnyV2Method } from '../method.js';
import {
  getAddressBalance,
  getAddressInformation,
  getAddressState,
  getExtendedAddressInformation,
  getShardAccountCell,
  getWalletInformation,
} from './accounts.js';
import { detectAddressMethod, detectHashMethod, packAddressMethod, unpackAddressMethod } from './address-utils.js';
import { getBlockHeader, getConsensusBlock, getShards, lookupBlock } from './block-lookup.js';
import { getBlockTransactions, getBlockTransactionsExt } from './block-transactions.js';
import { getConfigAll, getConfigParam, getLibraries } from './config.js';
import { dnsResolve } from './dns-resolve.js';
import { estimateFee } from './estimate-fee.js';
import { getMasterchainInfo } from './get-masterchain-info.js';
import { getOutMsgQueueSize } from './out-msg-queue.js';
import { runGetMethod, runGetMethodStd } from './run-get-method.js';
import { sendBoc, sendBocReturnHash } from './send.js';
import { getTokenData } from './token-data.js';
import { getTransactions, getTransactionsStd } from './transactions.js';
import { tryLocateResultTx, tryLocateSourceTx, tryLocateTx } from './try-locate.js';
import { getMasterchainBlockSignatures, getShardBlockProof } from './block-proofs.js';

export const V2_METHODS: AnyV2Method[] = [
  // accounts
  getAddressInformation,
  getExtendedAddressInformation,
  getWalletInformation,
  getAddressBalance,
  getAddressState,
  getShardAccountCell,
  getTokenData,
  dnsResolve,
  // transactions
  getTransactions,
  getTransactionsStd,
  tryLocateTx,
  tryLocateResultTx,
  tryLocateSourceTx,
  // blocks
  getMasterchainInfo,
  getMasterchainBlockSignatures,
  getShardBlockProof,
  getConsensusBlock,
  lookupBlock,
  getShards,
  getBlockHeader,
  getBlockTransactions,
  getBlockTransactionsExt,
  getOutMsgQueueSize,
  // config
  getConfigParam,
  getConfigAll,
  getLibraries,
  // utilities
  detectAddressMethod,
  detectHashMethod,
  packAddressMethod,
  unpackAddressMethod,
  // get-methods, sending, fees
  runGetMethod,
  runGetMethodStd,
  sendBoc,
  sendBocReturnHash,
  estimateFee,
];
