/**
 * The actions of one complete trace, as toncenter's classifier finds them (`event_processing.py`,
 * `trace_processor.py`, `block_tree_serializer.py`): the tree's basic blocks, every matcher in toncenter's order
 * over the blocks not yet folded, then the blocks reachable from the root, and the deployments inside them,
 * each one action. Pure: what the index knows of token contracts comes in `contracts`.
 *
 *   - `action_id` = base64(sha256(hash of the action's earliest message + its type)) (a tick-tock: its
 *     transaction's hash), so the same trace gives the same ids wherever it is classified;
 *   - `transactions` = the transactions of the action's events and the one that started it (the wallet that sent
 *     the jetton transfer), by lt; `accounts` = their accounts and the action's ends;
 *   - `success` is false when a step failed (an aborted transaction, a bounced transfer);
 *   - skipped: the external message into a wallet (it is the trace's cause, not an action) and logs;
 *   - a trace of one tick-tock transaction has no actions; a trace nothing describes gets one `unknown`
 *     action (id = the trace id, every transaction and account);
 *   - a classification that throws is `failed` and falls back to the basic actions alone.
 */
import { createHash } from 'node:crypto';
import { eventTree, initialBlock } from './basic.js';
import { Block } from './blocks.js';
import { actionParts, unsupportedDetails, type ActionParts } from './details.js';
import { jettonBurnMatcher, jettonMintMatcher, jettonTransferMatcher, requestedJettonTransferMatcher } from './jettons.js';
import { electionDepositMatcher, electionRecoverMatcher } from './elections.js';
import { addGhostEvents } from './ghosts.js';
import type { Matcher } from './matcher.js';
import { changeDnsMatcher, nftDiscoveryMatcher, nftMintMatcher, nftTransferMatcher } from './nfts.js';
import { getgemsPurchaseMatcher, nftCancelSaleMatcher, nftPutOnSaleMatcher, nftUpdateSaleMatcher } from './nft-sales.js';
import {
  dnsPurchaseMatcher,
  dnsReleaseMatcher,
  telegramPurchaseMatcher,
  teleitemCancelAuctionMatcher,
  teleitemStartAuctionMatcher,
} from './telemint.js';
import { subscribeMatcher, unsubscribeMatcher } from './subscriptions.js';
import { auctionBidMatcher, auctionOutbidMatcher, nftCancelAuctionMatcher, nftFinishAuctionMatcher } from './nft-auctions.js';
import { multisigApproveMatcher, multisigCreateOrderMatcher, multisigExecuteMatcher } from './multisig.js';
import { stonfiSwapMatcher } from './swaps.js';
import { dedustSwapMatcher } from './dedust-swaps.js';
import { stonfiV2SwapMatcher } from './stonfi-v2-swaps.js';
import { toncoSwapMatcher } from './tonco-swaps.js';
import { ptonTransferMatcher } from './pton.js';
import { dedustDepositFirstSideMatcher, dedustDepositMatcher, dedustWithdrawMatcher, joinDedustDeposits } from './dedust-liquidity.js';
import { stonfiV2ProvideLiquidityMatcher, stonfiV2WithdrawLiquidityMatcher } from './liquidity.js';
import { toncoDepositMatcher, toncoWithdrawMatcher } from './tonco-liquidity.js';
import { toncoDeployPoolMatcher } from './tonco-deploy-pool.js';
import { coffeeSwapMatcher } from './coffee-swaps.js';
import { coffeeDepositLiquidityMatcher, coffeeWithdrawLiquidityMatcher } from './coffee-liquidity.js';
import { coffeeCreateVaultMatcher } from './coffee-create-vault.js';
import { coffeeStakingClaimRewardsMatcher, coffeeStakingDepositMatcher, coffeeStakingWithdrawMatcher } from './coffee-staking.js';
import { coffeeMevFailedSwapMatcher, coffeeMevHoldFundsMatcher } from './coffee-mev-protect.js';
import { coffeeCreatePoolMatcher, coffeePoolCreatorMatcher } from './coffee-create-pool.js';
import { tonstakersDelayedWithdrawalMatcher, tonstakersDepositMatcher, tonstakersWithdrawMatcher } from './tonstakers.js';
import { nominatorPoolDepositMatcher, nominatorPoolWithdrawMatcher, nominatorPoolWithdrawRequestMatcher } from './nominator-pools.js';
import { ethenaDepositMatcher, ethenaWithdrawalRequestMatcher } from './ethena-staking.js';
import { evaaLiquidateMatcher, evaaSupplyMatcher, evaaWithdrawMatcher } from './evaa.js';
import { jvaultClaimMatcher, jvaultStakeMatcher, jvaultUnstakeMatcher, jvaultUnstakeRequestMatcher } from './jvault.js';
import { vestingAddWhitelistMatcher, vestingSendMessageMatcher } from './vesting.js';
import { layerZeroMatchers } from './layerzero.js';
import { dedustV2ClaimMatchers } from './dedust-v2-claims.js';
import { dedustV2SwapMatchers } from './dedust-v2-swaps.js';
import { cocoonMatchers } from './cocoon.js';
import { tgbtcMatchers } from './tgbtc.js';
import { dedustV2LiquidityMatchers, joinDedustV2Deposits } from './dedust-v2-liquidity.js';
import { NO_CONTRACTS, type ActionTransaction, type KnownContracts, type TraceInput } from './trace-input.js';
import { WHOLE_TYPES } from './action-types.js';

export type ClassificationState = 'ok' | 'broken' | 'failed';

export interface ActionRecord {
  traceId: string;
  actionId: string;
  /** The stored type (what `action_type` filters on). */
  type: string;
  /** The type the answer shows (`extra_currency_transfer` for a transfer carrying extra currencies). */
  shownType: string;
  startLt: bigint;
  endLt: bigint;
  startUtime: number;
  endUtime: number;
  traceEndLt: bigint;
  traceEndUtime: number;
  traceMcSeqnoEnd: number;
  traceExternalHash: string | null;
  /** Absent on an `unknown` action (toncenter leaves it out there). */
  traceExternalHashNorm: string | null;
  /** base64 hashes, by lt */
  transactions: string[];
  success: boolean;
  details: Record<string, unknown>;
  accounts: string[];
  /** Types of the actions this one is part of (a child of a newer action type: hidden from clients that know the parent). */
  ancestors: string[];
}

export interface Classification {
  state: ClassificationState;
  actions: ActionRecord[];
}

/**
 * The token contracts of the trace being classified. The matchers are stateless, so they are built once per thread
 * (building ~26 matcher trees for every trace was about a sixth of the index writer's CPU, in a CPU profile of a
 * local chain at full speed); they read the contracts through this view, which `withContracts` points at each trace's
 * own for the time of its (synchronous) classification, serialization included.
 */
let currentContracts: KnownContracts = NO_CONTRACTS;
const contractsView: KnownContracts = {
  get jettonWallets() {
    return currentContracts.jettonWallets;
  },
  get nftItems() {
    return currentContracts.nftItems;
  },
  get multisigOrders() {
    return currentContracts.multisigOrders;
  },
  get nftSales() {
    return currentContracts.nftSales;
  },
  get nftAuctions() {
    return currentContracts.nftAuctions;
  },
  get dexPools() {
    return currentContracts.dexPools;
  },
  get nominatorPools() {
    return currentContracts.nominatorPools;
  },
  get jvaultStakeWallets() {
    return currentContracts.jvaultStakeWallets;
  },
};

function withContracts<T>(contracts: KnownContracts, classify: () => T): T {
  const outer = currentContracts;
  currentContracts = contracts;
  try {
    return classify();
  } finally {
    currentContracts = outer;
  }
}

/** toncenter's matcher order, the families built here. */
const MATCHERS: readonly Matcher[] = matchers(contractsView);
/** What a wallet's request asked for, when nothing else matched (requestedActions). */
const REQUESTED_TRANSFER = requestedJettonTransferMatcher(contractsView);

function matchers(contracts: KnownContracts): Matcher[] {
  return [
    nftMintMatcher(contracts),
    tonstakersDelayedWithdrawalMatcher(),
    dedustDepositMatcher(contracts),
    dedustDepositFirstSideMatcher(contracts),
    tonstakersDepositMatcher(),
    tonstakersWithdrawMatcher(),
    multisigCreateOrderMatcher(contracts),
    multisigApproveMatcher(contracts),
    multisigExecuteMatcher(contracts),
    vestingSendMessageMatcher(),
    vestingAddWhitelistMatcher(),
    nominatorPoolDepositMatcher(contracts),
    nominatorPoolWithdrawRequestMatcher(contracts),
    nominatorPoolWithdrawMatcher(contracts),
    jettonTransferMatcher(contracts),
    ptonTransferMatcher(contracts),
    dedustWithdrawMatcher(contracts),
    jettonBurnMatcher(contracts),
    dedustSwapMatcher(contracts),
    ...dedustV2SwapMatchers(contracts),
    ...dedustV2LiquidityMatchers(),
    ...dedustV2ClaimMatchers(),
    stonfiSwapMatcher(contracts),
    stonfiV2SwapMatcher(contracts),
    toncoSwapMatcher(contracts),
    dnsReleaseMatcher(contracts),
    dnsPurchaseMatcher(contracts),
    nftUpdateSaleMatcher(contracts),
    nftTransferMatcher(contracts),
    telegramPurchaseMatcher(contracts),
    getgemsPurchaseMatcher(),
    nftPutOnSaleMatcher(contracts),
    teleitemStartAuctionMatcher(contracts),
    teleitemCancelAuctionMatcher(contracts),
    nftDiscoveryMatcher(),
    changeDnsMatcher(contracts),
    electionDepositMatcher(),
    electionRecoverMatcher(),
    subscribeMatcher(),
    unsubscribeMatcher(),
    auctionBidMatcher(contracts),
    auctionOutbidMatcher(),
    nftCancelSaleMatcher(contracts),
    nftFinishAuctionMatcher(contracts),
    nftCancelAuctionMatcher(contracts),
    ethenaWithdrawalRequestMatcher(contracts),
    jettonMintMatcher(contracts),
    ethenaDepositMatcher(),
    stonfiV2ProvideLiquidityMatcher(),
    stonfiV2WithdrawLiquidityMatcher(),
    jvaultStakeMatcher(),
    jvaultUnstakeMatcher(contracts),
    jvaultClaimMatcher(),
    jvaultUnstakeRequestMatcher(contracts),
    evaaSupplyMatcher(),
    evaaWithdrawMatcher(),
    evaaLiquidateMatcher(),
    ...tgbtcMatchers(),
    toncoDepositMatcher(contracts),
    toncoDeployPoolMatcher(),
    toncoWithdrawMatcher(contracts),
    coffeeDepositLiquidityMatcher(),
    coffeeSwapMatcher(),
    coffeeWithdrawLiquidityMatcher(),
    coffeeCreateVaultMatcher(),
    coffeePoolCreatorMatcher(),
    coffeeCreatePoolMatcher(),
    coffeeMevHoldFundsMatcher(),
    coffeeMevFailedSwapMatcher(),
    coffeeStakingDepositMatcher(),
    coffeeStakingWithdrawMatcher(),
    coffeeStakingClaimRewardsMatcher(),
    ...layerZeroMatchers(),
    ...cocoonMatchers(),
  ];
}

const actionId = (key: string): string => createHash('sha256').update(key).digest('base64');

/**
 * The blocks in the order toncenter serializes them: breadth first from the root, after its post-processing (the
 * sides of a DeDust deposit joined, v1's then v2's), then the deployments inside them.
 */
function orderedBlocks(root: Block): Block[] {
  const blocks = joinDedustV2Deposits(joinDedustDeposits([...new Set(root.bfs())]));
  const seen = new Set<Block>();
  for (let i = 0; i < blocks.length; i++) {
    const queue = [...blocks[i].childrenBlocks];
    while (queue.length > 0) {
      const child = queue.shift()!;
      if (child.type === 'contract_deploy' && !seen.has(child)) blocks.push(child);
      else queue.push(...child.childrenBlocks);
      seen.add(child);
    }
  }
  return blocks;
}

function byLt(txs: Iterable<ActionTransaction>): string[] {
  return [...new Set(txs)].sort((a, b) => (a.lt === b.lt ? a.account.localeCompare(b.account) : a.lt < b.lt ? -1 : 1)).map((tx) => tx.hash);
}

function record(trace: TraceInput, block: Block, parts: ActionParts): ActionRecord {
  const earliest = block.eventNodes.reduce((min, node) => (node.lt() < min.lt() ? node : min));
  const accounts = block.eventNodes.map((n) => n.tx.account);
  const [source, sourceSecondary, destination, destinationSecondary] = parts.ends;
  accounts.push(...[source, sourceSecondary].filter((a): a is string => a !== null));
  if (!block.isGhostBlock) accounts.push(...[destination, destinationSecondary].filter((a): a is string => a !== null));
  accounts.push(...(parts.accounts ?? []));
  const txs = block.eventNodes.map((n) => n.tx);
  const initiating = block.initiatingEventNode;
  if (initiating) {
    txs.push(initiating.tx);
    accounts.push(initiating.tx.account);
  }
  return {
    traceId: trace.traceId,
    actionId: actionId(earliest.message.hash + block.type),
    type: parts.type ?? block.type,
    shownType: parts.shownType ?? parts.type ?? block.type,
    startLt: block.minLt,
    endLt: block.maxLt,
    startUtime: block.minUtime,
    endUtime: block.maxUtime,
    traceEndLt: trace.endLt,
    traceEndUtime: trace.endUtime,
    traceMcSeqnoEnd: trace.mcSeqnoEnd,
    traceExternalHash: trace.externalHash,
    traceExternalHashNorm: trace.externalHashNorm,
    transactions: byLt(txs),
    success: !block.failed,
    details: parts.details,
    accounts: [...new Set(accounts)],
    ancestors: [],
  };
}

/** A block that is no action: the root, an empty one, the external into a wallet, a log. */
function skipped(block: Block): boolean {
  if (block.type === 'root' || block.type === 'empty') return true;
  const message = block.eventNodes[0]?.message;
  return block.type === 'call_contract' && (message.destination === null || message.source === null);
}

/** The actions of `blocks`; the children of a type that is not whole become actions too, marked with their ancestors. */
function serialize(
  trace: TraceInput,
  blocks: Block[],
  parentId: string | null,
  out: { state: ClassificationState; ids: Set<string> },
): ActionRecord[] {
  const actions: ActionRecord[] = [];
  for (const block of blocks) {
    if (skipped(block)) continue;
    if (block.broken) out.state = 'broken';
    const action = record(trace, block, actionParts(block));
    if (action.actionId === parentId || out.ids.has(action.actionId)) continue;
    out.ids.add(action.actionId);
    actions.push(action);
    if (WHOLE_TYPES.has(block.type)) continue;
    for (const child of serialize(trace, block.childrenBlocks, action.actionId, out)) {
      if (child.type === 'contract_deploy') continue;
      if (!child.ancestors.includes(block.type)) child.ancestors.push(block.type);
      actions.push(child);
    }
  }
  return actions;
}

/** The one action of a trace nothing else describes. */
export function unknownAction(trace: TraceInput): ActionRecord {
  return {
    traceId: trace.traceId,
    actionId: trace.traceId,
    type: 'unknown',
    shownType: 'unknown',
    startLt: trace.startLt,
    endLt: trace.endLt,
    startUtime: trace.startUtime,
    endUtime: trace.endUtime,
    traceEndLt: trace.endLt,
    traceEndUtime: trace.endUtime,
    traceMcSeqnoEnd: trace.mcSeqnoEnd,
    traceExternalHash: trace.externalHash,
    traceExternalHashNorm: null,
    transactions: trace.transactions.map((tx) => tx.hash),
    success: !trace.transactions.some((tx) => tx.aborted),
    details: unsupportedDetails('unknown'),
    accounts: [...new Set(trace.transactions.map((tx) => tx.account))],
    ancestors: [],
  };
}

function rootBlock(trace: TraceInput): Block {
  const root = new Block('root', []);
  root.connect(initialBlock(eventTree(trace.transactions)));
  return root;
}

/**
 * A trace of one external into a wallet that sent nothing: the messages its request carried, as failed actions
 * (toncenter's fallback for failed externals; ghosts.ts), else the one `unknown` action.
 */
function requestedActions(trace: TraceInput): ActionRecord[] {
  try {
    const node = eventTree(trace.transactions);
    if (node.children.length > 0 || node.isTickTock || node.message.source !== null) return [unknownAction(trace)];
    addGhostEvents(node);
    const root = new Block('root', []);
    const first = initialBlock(node);
    root.connect(first);
    if (first.nextBlocks.length === 0) return [unknownAction(trace)];
    for (const block of [...root.bfs()]) if (block.parent === null) REQUESTED_TRANSFER.tryBuild(block);
    const actions = orderedBlocks(root)
      .filter((b) => !skipped(b))
      .map((b) => record(trace, b, actionParts(b)));
    return actions.length > 0 ? actions : [unknownAction(trace)];
  } catch {
    return [unknownAction(trace)];
  }
}

/** The basic actions alone (a classification that threw): transfers, calls, deployments. */
function basicActions(trace: TraceInput): ActionRecord[] {
  try {
    const root = rootBlock(trace);
    if (root.nextBlocks[0].eventNodes[0].children.length === 0) return [unknownAction(trace)];
    return serialize(trace, orderedBlocks(root), null, { state: 'ok', ids: new Set() });
  } catch {
    return [];
  }
}

export function classifyTrace(trace: TraceInput, contracts: KnownContracts): Classification {
  return withContracts(contracts, () => classifyWithCurrentContracts(trace));
}

function classifyWithCurrentContracts(trace: TraceInput): Classification {
  const [first] = trace.transactions;
  if (trace.transactions.length === 1 && first.tickTock) return { state: 'ok', actions: [] };
  try {
    const root = rootBlock(trace);
    for (const matcher of MATCHERS) {
      for (const block of [...root.bfs()]) if (block.parent === null) matcher.tryBuild(block);
    }
    const out = { state: 'ok' as ClassificationState, ids: new Set<string>() };
    const actions = serialize(trace, orderedBlocks(root), null, out);
    if (actions.length === 0 && trace.transactions.length > 0) actions.push(...requestedActions(trace));
    return { state: out.state, actions };
  } catch {
    return { state: 'failed', actions: basicActions(trace) };
  }
}
