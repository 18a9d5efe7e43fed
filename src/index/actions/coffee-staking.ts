/**
 * swap.coffee staking (ton-indexer's `CoffeeStakingDepositMatcher` in `blocks/staking.py`, bodies of
 * `messages/coffee.py`), one `coffee_staking_deposit`:
 *
 *   a jetton transfer to the staking vault, the vault's staking_deposit#f9471134 to the staking master (the pool, an
 *   NFT collection), which logs the same body and mints the position's NFT item (an `nft_mint`: the item must be one
 *   the index detected, as toncenter's matcher needs the mint built)
 *
 * Kept as toncenter decides it: never failed; only the transfer, the deposit, the mint and the log are folded.
 * Withdrawals and reward claims are not built here.
 */
import { findCallContract, folded, type Block } from './blocks.js';
import type { JettonTransferData } from './jettons.js';
import { BlockTypeMatcher, ContractMatcher, type Matcher } from './matcher.js';
import type { NftMintData } from './nfts.js';

export const COFFEE_STAKING_OP = { deposit: 0xf9471134 } as const;

export interface CoffeeStakingDepositData {
  sender: string | null;
  senderWallet: string | null;
  pool: string | null;
  poolWallet: string | null;
  asset: string | null;
  amount: bigint;
  item: string;
  index: string;
}

class CoffeeStakingDepositMatcher extends BlockTypeMatcher {
  constructor() {
    const log = new ContractMatcher(COFFEE_STAKING_OP.deposit, { optional: true });
    super('jetton_transfer', {
      child: new ContractMatcher(COFFEE_STAKING_OP.deposit, { children: [log, new BlockTypeMatcher('nft_mint')] }),
    });
  }

  override build(block: Block, others: Block[]): Block[] {
    const transfer = block.data as JettonTransferData;
    const deposit = findCallContract(
      block.nextBlocks.filter((b) => others.includes(b)),
      COFFEE_STAKING_OP.deposit,
    );
    if (!deposit) return [];
    const mint = deposit.nextBlocks.find((b) => others.includes(b) && b.type === 'nft_mint');
    if (!mint) return [];
    const log = findCallContract(
      deposit.nextBlocks.filter((b) => others.includes(b)),
      COFFEE_STAKING_OP.deposit,
    );
    const minted = mint.data as NftMintData;
    const data: CoffeeStakingDepositData = {
      sender: transfer.sender,
      senderWallet: transfer.senderWallet,
      pool: deposit.message.destination,
      poolWallet: transfer.receiverWallet,
      asset: transfer.asset,
      amount: transfer.amount,
      item: minted.item,
      index: minted.index,
    };
    return folded('coffee_staking_deposit', data, log ? [block, deposit, mint, log] : [block, deposit, mint], false);
  }
}

export const coffeeStakingDepositMatcher = (): Matcher => new CoffeeStakingDepositMatcher();
