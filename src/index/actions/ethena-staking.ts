/**
 * Ethena's staking on TON (ton-indexer's `EthenaWithdrawalRequestBlockMatcher` and `EthenaDepositBlockMatcher`,
 * `blocks/ethena_staking.py`):
 *
 *   ethena_deposit             a `jetton_transfer` of USDe followed by a `jetton_mint` of tsUSDe (the two masters
 *                              toncenter names, mainnet's, below): the pool is the transfer's receiver, the amount
 *                              the USDe sent, the tokens minted the mint's
 *   ethena_withdrawal_request  a jetton transfer#0f8a7ea5 that stayed a contract call (its internal transfer goes to
 *                              tsUSDe's master, no wallet), the master's notification#7362d09c to the pool, the pool's
 *                              mint#642b7d07 back to the master and the master's #b2583ed5 to the holder's wallet
 *                              (the time-locked tokens, read as an internal transfer). Both wallets must be ones the
 *                              index detected, of the sender, the first of the master the internal transfer went to,
 *                              the second of the master that sent #b2583ed5; else it is no request
 *
 * toncenter answers them as `stake_deposit` and `stake_withdrawal_request` (provider `ethena`); the block types are
 * hashed into the action id. Never failed (toncenter sets no failure on either).
 */
import { folded, findCallContract, type Block, type CallContractBlock } from './blocks.js';
import { afterOpcode, jettonInternalTransfer, OP, readAddress } from './bodies.js';
import type { JettonMintData, JettonTransferData } from './jettons.js';
import { BlockTypeMatcher, ContractMatcher, type Matcher } from './matcher.js';
import type { KnownContracts } from './trace-input.js';
import type { Cell } from '@ton/core';

/** Mainnet's USDe master, as toncenter names it. */
export const ETHENA_USDE = '0:086FA2A675F74347B08DD4606A549B8FDB98829CB282BC1949D3B12FBAED9DCC';
/** Mainnet's tsUSDe master (staked USDe), as toncenter names it. */
export const ETHENA_TSUSDE = '0:D0E545323C7ACB7102653C073377F7E3C67F122EB94D430A250739F109D4A57D';

export const ETHENA_OP = { timelockedTransfer: 0xb2583ed5 } as const;

export const ETHENA_DEPOSIT = 'ethena_deposit';
export const ETHENA_WITHDRAWAL_REQUEST = 'ethena_withdrawal_request';

export interface EthenaDepositData {
  stakeHolder: string | null;
  holderWallet: string | null;
  pool: string | null;
  amount: bigint;
  tokensMinted: bigint | null;
  /** tsUSDe (the mint's asset). */
  asset: string | null;
  /** USDe (the transfer's asset). */
  sourceAsset: string | null;
}

export interface EthenaWithdrawalRequestData {
  stakeHolder: string | null;
  holderWallet: string | null;
  pool: string | null;
  asset: string;
  /** The tokens sent (the internal transfer's amount). */
  amount: bigint;
  /** What #b2583ed5 carried back. */
  tokensMinted: bigint;
}

/** #b2583ed5 read as toncenter reads it: an internal transfer's layout (query_id amount from response forward). */
function timelockedAmount(body: Cell): bigint {
  const cs = afterOpcode(body);
  cs.loadUintBig(64);
  const amount = cs.loadCoins();
  readAddress(cs);
  readAddress(cs);
  cs.loadCoins();
  return amount;
}

class EthenaWithdrawalRequestMatcher extends ContractMatcher {
  constructor(private readonly contracts: KnownContracts) {
    const back = new ContractMatcher(ETHENA_OP.timelockedTransfer);
    const mint = new ContractMatcher(OP.jettonMint, { child: back });
    super(OP.jettonTransfer, {
      child: new ContractMatcher(OP.jettonInternalTransfer, { child: new ContractMatcher(OP.jettonNotify, { child: mint }) }),
    });
  }

  override build(block: CallContractBlock, others: Block[]): Block[] {
    const internal = findCallContract(others, OP.jettonInternalTransfer)!;
    const mint = findCallContract(others, OP.jettonMint)!;
    const back = findCallContract(others, ETHENA_OP.timelockedTransfer)!;
    const source = block.message.source;
    const sourceWallet = block.message.destination;
    const receiverWallet = back.message.destination;
    const sent = sourceWallet === null ? undefined : this.contracts.jettonWallets.get(sourceWallet);
    const received = receiverWallet === null ? undefined : this.contracts.jettonWallets.get(receiverWallet);
    // toncenter reads both wallets' owner and jetton: an unknown one throws there, so no request.
    if (!sent || !received) return [];
    if (sent.owner !== source || received.owner !== source) return [];
    if (sent.jetton !== internal.message.destination || received.jetton !== back.message.source) return [];
    const data: EthenaWithdrawalRequestData = {
      stakeHolder: source,
      holderWallet: sourceWallet,
      pool: mint.message.source,
      asset: sent.jetton,
      amount: jettonInternalTransfer(internal.message.body()).amount,
      tokensMinted: timelockedAmount(back.message.body()),
    };
    return folded(ETHENA_WITHDRAWAL_REQUEST, data, [block, ...others], false);
  }
}

class EthenaDepositMatcher extends BlockTypeMatcher {
  constructor() {
    super('jetton_transfer', { child: new BlockTypeMatcher('jetton_mint') });
  }

  override build(block: Block, others: Block[]): Block[] {
    const mint = others.find((b) => b.type === 'jetton_mint');
    if (!mint) return [];
    const transfer = block.data as JettonTransferData;
    const minted = mint.data as JettonMintData;
    if (transfer.asset !== ETHENA_USDE || minted.asset !== ETHENA_TSUSDE) return [];
    const data: EthenaDepositData = {
      stakeHolder: transfer.sender,
      holderWallet: transfer.senderWallet,
      pool: transfer.receiver,
      amount: transfer.amount,
      tokensMinted: minted.amount,
      asset: minted.asset,
      sourceAsset: transfer.asset,
    };
    return folded(ETHENA_DEPOSIT, data, [block, mint], false);
  }
}

export const ethenaWithdrawalRequestMatcher = (contracts: KnownContracts): Matcher => new EthenaWithdrawalRequestMatcher(contracts);
export const ethenaDepositMatcher = (): Matcher => new EthenaDepositMatcher();
