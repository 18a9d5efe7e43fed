/**
 * Wallet v4 plugin subscriptions (ton-indexer's `blocks/subscriptions.py`, bodies of `messages/subscriptions.py`), on
 * any contract (toncenter asks for no detected wallet or plugin):
 *   subscribe    the wallet's answer #f06c7567 to its plugin (it paid what the plugin asked), with the plugin's
 *                payment #73756273 to the beneficiary (required) and the plugin's request #706c7567 before it
 *                (taken along when there): `amount` the request's coins, else the answer's value; failed when the
 *                request failed (toncenter's rule: the wallet's transaction aborted)
 *   unsubscribe  destruct#64737472 to the plugin (from the wallet, or from the beneficiary), with the plugin's own
 *                destruct sent on (to the wallet) taken along when there: its receiver is the `beneficiary`, as
 *                toncenter names it; never failed
 * The subscriber is the sender of the matched message in both, the subscription its receiver (toncenter's reading:
 * for a destruct the beneficiary sent, the beneficiary is the "subscriber").
 */
import { findCallContract, folded, type Block, type CallContractBlock } from './blocks.js';
import { afterOpcode } from './bodies.js';
import { ContractMatcher, type Matcher } from './matcher.js';

export const SUBSCRIPTION_OP = {
  paymentRequest: 0x706c7567,
  paymentRequestResponse: 0xf06c7567,
  payment: 0x73756273,
  destruct: 0x64737472,
} as const;

export interface SubscriptionData {
  subscriber: string | null;
  subscription: string | null;
  /** The payment's receiver (subscribe), the receiver of the plugin's destruct (unsubscribe), else null. */
  beneficiary: string | null;
  /** null for an unsubscribe (toncenter writes none). */
  amount: bigint | null;
}

/** payment_request#706c7567 query_id:uint64 grams: the amount asked for. */
function requestedGrams(block: CallContractBlock): bigint {
  const cs = afterOpcode(block.message.body());
  cs.loadUintBig(64);
  return cs.loadCoins();
}

class SubscribeMatcher extends ContractMatcher {
  constructor() {
    super(SUBSCRIPTION_OP.paymentRequestResponse, {
      child: new ContractMatcher(SUBSCRIPTION_OP.payment),
      parent: new ContractMatcher(SUBSCRIPTION_OP.paymentRequest, { optional: true }),
    });
  }

  override build(block: CallContractBlock, others: Block[]): Block[] {
    const payment = findCallContract(others, SUBSCRIPTION_OP.payment)!;
    const request = findCallContract(others, SUBSCRIPTION_OP.paymentRequest);
    const data: SubscriptionData = {
      subscriber: block.message.source,
      subscription: block.message.destination,
      beneficiary: payment.message.destination,
      amount: request ? requestedGrams(request) : block.message.value,
    };
    return folded('subscribe', data, [block, ...others], request?.failed ?? false);
  }
}

class UnsubscribeMatcher extends ContractMatcher {
  constructor() {
    super(SUBSCRIPTION_OP.destruct, { child: new ContractMatcher(SUBSCRIPTION_OP.destruct, { optional: true }) });
  }

  override build(block: CallContractBlock, others: Block[]): Block[] {
    const passedOn = findCallContract(others, SUBSCRIPTION_OP.destruct);
    const data: SubscriptionData = {
      subscriber: block.message.source,
      subscription: block.message.destination,
      beneficiary: passedOn?.message.destination ?? null,
      amount: null,
    };
    // toncenter leaves an unsubscribe's `failed` at its default, even when the plugin refused.
    return folded('unsubscribe', data, [block, ...others], false);
  }
}

export const subscribeMatcher = (): Matcher => new SubscribeMatcher();
export const unsubscribeMatcher = (): Matcher => new UnsubscribeMatcher();
