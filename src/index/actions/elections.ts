/**
 * Validator stakes sent to the elector (ton-indexer's `blocks/elections.py`): a contract call to the elector's
 * address (config param 1, -1:3333...3333 on TON and on every local chain) with
 *   election_deposit  new_stake#4e73744b, with the elector's confirmation#f374484c when it took the stake;
 *                     the amount is the request's value
 *   election_recover  recover_stake#47657424, with recover_stake_ok#f96f7324; the amount is what came back
 * Without the elector's answer the action failed (a stake it returned, nothing to recover); toncenter's rule, so
 * an answer that never came (a bounced request) fails it too. Excesses are not taken along.
 */
import { folded, findCallContract, isCallContract, type Block, type CallContractBlock } from './blocks.js';
import { ContractMatcher, Matcher } from './matcher.js';

export const ELECTOR_ADDRESS = `-1:${'3'.repeat(64)}`;

export const ELECTION_OP = {
  newStake: 0x4e73744b,
  newStakeConfirmation: 0xf374484c,
  recoverStake: 0x47657424,
  recoverStakeOk: 0xf96f7324,
} as const;

export interface ElectionData {
  stakeHolder: string | null;
  /** The stake sent (deposit) or returned (recover); null for a recover the elector refused. */
  amount: bigint | null;
}

class ElectionMatcher extends Matcher {
  constructor(
    readonly type: 'election_deposit' | 'election_recover',
    readonly request: number,
    readonly answer: number,
  ) {
    super({ child: new ContractMatcher(answer, { optional: true, includeExcess: false }), includeExcess: false });
  }

  override test(block: Block): boolean {
    return isCallContract(block, this.request) && block.message.destination === ELECTOR_ADDRESS;
  }

  override build(block: CallContractBlock, others: Block[]): Block[] {
    const answer = findCallContract(others, this.answer);
    const amount = this.type === 'election_deposit' ? block.message.value : (answer?.message.value ?? null);
    const data: ElectionData = { stakeHolder: block.message.source, amount };
    return folded(this.type, data, [block, ...others], answer === undefined);
  }
}

export const electionDepositMatcher = (): Matcher =>
  new ElectionMatcher('election_deposit', ELECTION_OP.newStake, ELECTION_OP.newStakeConfirmation);
export const electionRecoverMatcher = (): Matcher =>
  new ElectionMatcher('election_recover', ELECTION_OP.recoverStake, ELECTION_OP.recoverStakeOk);
