/**
 * Nominator pools (ton-indexer's `NominatorPoolDepositMatcher`, `NominatorPoolWithdrawRequestMatcher` and
 * `NominatorPoolWithdrawMatcher` in `blocks/staking.py`): TON sent with a text comment to a contract toncenter knows as
 * a `NominatorPool`, that is an account whose latest state has the standard nominator pool's code (code hash
 * `mj7BS8CY9rRAZMMFIiyuooAPF92oXuaoGYpwle3hDc8=`, `interface_repository.py`); here `KnownContracts.nominatorPools`,
 * which `trace-source.ts` fills from `latest_account_states` by the same rule.
 *
 *   nominator_pool_deposit           the comment "d": the amount is the value sent; a bounce taken along, failed when
 *                                    the transfer bounced
 *   nominator_pool_withdraw_request  the comment "w": one TON transfer back worth more than the request is an immediate
 *                                    withdrawal (its value the payout), two are one too (the earlier by lt is the
 *                                    payout); else the request is registered (no amount). The transfers back are taken
 *                                    along either way
 *   (the same block type)            a process_withdraw_requests#00000002 to the pool: each TON transfer it sends is
 *                                    a withdrawal of its receiver (the call itself stays a contract call)
 *
 * toncenter answers the deposit as `stake_deposit` and the other two as `stake_withdrawal` when a payout is known,
 * else `stake_withdrawal_request` (provider `nominator`); the block types are hashed into the action id. Bounces and
 * excesses after the request are part of it (toncenter appends them before building).
 */
import { folded, isCallContract, TonTransferBlock, type Block, type CallContractBlock } from './blocks.js';
import { OP } from './bodies.js';
import { Matcher } from './matcher.js';
import type { KnownContracts } from './trace-input.js';

/** The standard nominator pool's code hash (base64), as toncenter's interface repository names it. */
export const NOMINATOR_POOL_CODE_HASH = 'mj7BS8CY9rRAZMMFIiyuooAPF92oXuaoGYpwle3hDc8=';

export const NOMINATOR_POOL_OP = { processWithdrawRequests: 0x00000002 } as const;

export const NOMINATOR_POOL_DEPOSIT = 'nominator_pool_deposit';
export const NOMINATOR_POOL_WITHDRAW_REQUEST = 'nominator_pool_withdraw_request';

export interface NominatorPoolDepositData {
  stakeHolder: string | null;
  pool: string | null;
  amount: bigint;
}

export interface NominatorPoolWithdrawData {
  stakeHolder: string | null;
  pool: string | null;
  /** The payout (a `stake_withdrawal`), or null: a request registered (`stake_withdrawal_request`). */
  payout: bigint | null;
}

const isPool = (contracts: KnownContracts, address: string | null): boolean =>
  address !== null && (contracts.nominatorPools?.has(address) ?? false);

/** The excesses and bounces right after `block` (toncenter's `pre_build_auto_append`: merged into the action). */
const excessesAndBounces = (block: Block): Block[] =>
  block.nextBlocks.filter((b) => isCallContract(b) && (b.opcode === OP.excess || b.opcode === OP.bounced));

/** A TON transfer with this text comment to a nominator pool. */
class PoolCommentMatcher extends Matcher {
  constructor(
    protected readonly contracts: KnownContracts,
    private readonly comment: string,
  ) {
    super({ includeBounces: true });
  }

  override test(block: Block): boolean {
    return block instanceof TonTransferBlock && block.comment === this.comment && isPool(this.contracts, block.message.destination);
  }
}

class NominatorPoolDepositMatcher extends PoolCommentMatcher {
  constructor(contracts: KnownContracts) {
    super(contracts, 'd');
  }

  override build(block: TonTransferBlock, others: Block[]): Block[] {
    const m = block.message;
    const data: NominatorPoolDepositData = { stakeHolder: m.source, pool: m.destination, amount: m.value ?? 0n };
    return folded(NOMINATOR_POOL_DEPOSIT, data, [block, ...others, ...excessesAndBounces(block)], block.failed);
  }
}

class NominatorPoolWithdrawRequestMatcher extends PoolCommentMatcher {
  constructor(contracts: KnownContracts) {
    super(contracts, 'w');
  }

  override build(block: TonTransferBlock, others: Block[]): Block[] {
    const m = block.message;
    const back = block.nextBlocks.filter((b): b is TonTransferBlock => b instanceof TonTransferBlock);
    let payout: bigint | null = null;
    if (back.length === 1 && (back[0].message.value ?? 0n) > (m.value ?? 0n)) payout = back[0].message.value;
    else if (back.length === 2) {
      const [first, second] = back;
      payout = ((first.message.createdLt ?? 0n) <= (second.message.createdLt ?? 0n) ? first : second).message.value;
    }
    const data: NominatorPoolWithdrawData = { stakeHolder: m.source, pool: m.destination, payout };
    const taken = back.length <= 2 ? back : [];
    return folded(NOMINATOR_POOL_WITHDRAW_REQUEST, data, [block, ...others, ...excessesAndBounces(block), ...taken], block.failed);
  }
}

/** The pool's owner asking it to pay the withdrawals it registered: each payout its own action. */
class NominatorPoolWithdrawMatcher extends Matcher {
  constructor(private readonly contracts: KnownContracts) {
    super({ includeBounces: true });
  }

  override test(block: Block): boolean {
    return isCallContract(block, NOMINATOR_POOL_OP.processWithdrawRequests) && isPool(this.contracts, block.message.destination);
  }

  override build(block: CallContractBlock, _others: Block[]): Block[] {
    const pool = block.message.destination;
    return block.nextBlocks
      .filter((b): b is TonTransferBlock => b instanceof TonTransferBlock)
      .flatMap((transfer) => {
        const data: NominatorPoolWithdrawData = { stakeHolder: transfer.message.destination, pool, payout: transfer.message.value };
        return folded(NOMINATOR_POOL_WITHDRAW_REQUEST, data, [transfer], false);
      });
  }
}

export const nominatorPoolDepositMatcher = (contracts: KnownContracts): Matcher => new NominatorPoolDepositMatcher(contracts);
export const nominatorPoolWithdrawRequestMatcher = (contracts: KnownContracts): Matcher =>
  new NominatorPoolWithdrawRequestMatcher(contracts);
export const nominatorPoolWithdrawMatcher = (contracts: KnownContracts): Matcher => new NominatorPoolWithdrawMatcher(contracts);
