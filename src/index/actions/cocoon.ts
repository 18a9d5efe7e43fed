/**
 * Cocoon's actions (ton-indexer's `blocks/cocoon.py`, bodies of `blocks/messages/cocoon.py`), recognised by opcodes
 * alone as toncenter does (no cocoon address or code is checked): a request to one of cocoon's contracts with the
 * answers it must have led to.
 *
 *   cocoon_worker_payout             payout#a040ad28 (last_payout#f5f26a36) to a worker, its worker_proxy_request#4d725d2c
 *                                    and the payout#c59a7cd3 that request led to (return_excesses_back#2565934c taken
 *                                    along): proxy, worker, the request's owner, what the payout carried
 *   cocoon_proxy_payout              ext_proxy_payout_request#7610e6eb answered by a payout and excesses
 *   cocoon_proxy_charge              charge#bb63ff93 answered by excesses and a client_proxy_request#65448ff4
 *   cocoon_client_top_up             ext_client_top_up#f172e6c2, its client_proxy_request and the excesses after it
 *   cocoon_register_proxy            register_proxy#927c7cb5 answered by excesses
 *   cocoon_unregister_proxy          unregister_proxy#6d49eaf2 answered by excesses
 *   cocoon_client_register           owner_client_register#c45f9f3b        } answered by excesses and a
 *   cocoon_client_change_secret_hash owner_client_change_secret_hash#a9357034 } client_proxy_request
 *   cocoon_client_increase_stake     owner_client_increase_stake#6a1f6a60   }
 *   cocoon_client_request_refund     owner_client_request_refund#fafa6cc1 the same way, its owner's
 *                                    owner_wallet_send_message#9c69f376 before it taken along (`via_wallet`)
 *   cocoon_grant_refund              grant_refund#efd711e1, its client_proxy_request answered by a payout and excesses
 *   cocoon_client_withdraw           owner_client_withdraw#da068e78, its client_proxy_request answered by a payout
 *                                    (excesses optional); the amount the request's refund_granted#c68ebc7b payload
 *                                    names, 0 when there is none
 *
 * Failed: when the payout's transaction aborted (worker and proxy payouts, a granted refund), else when the request's
 * did (toncenter's choice per type). A body that does not read as toncenter reads it makes no action.
 */
import type { Slice } from '@ton/core';
import { folded, findCallContract, isCallContract, type Block, type CallContractBlock } from './blocks.js';
import { loadLooseAddress, looseAccount, type LooseAddress } from './bodies.js';
import { ContractMatcher, Matcher } from './matcher.js';

export const COCOON_OP = {
  returnExcessesBack: 0x2565934c,
  payout: 0xc59a7cd3,
  workerProxyRequest: 0x4d725d2c,
  clientProxyRequest: 0x65448ff4,
  clientProxyRefundGranted: 0xc68ebc7b,
  payoutPayload: 0xa040ad28,
  lastPayoutPayload: 0xf5f26a36,
  extProxyPayoutRequest: 0x7610e6eb,
  chargePayload: 0xbb63ff93,
  extClientTopUp: 0xf172e6c2,
  registerProxy: 0x927c7cb5,
  unregisterProxy: 0x6d49eaf2,
  ownerClientRegister: 0xc45f9f3b,
  ownerClientChangeSecretHash: 0xa9357034,
  ownerClientRequestRefund: 0xfafa6cc1,
  ownerWalletSendMessage: 0x9c69f376,
  grantRefundPayload: 0xefd711e1,
  ownerClientIncreaseStake: 0x6a1f6a60,
  ownerClientWithdraw: 0xda068e78,
} as const;

/**
 * One cocoon action's data: toncenter's four ends and the type's own fields, already as ton-index-go's details
 * carry them (only cocoon's details read them).
 */
export interface CocoonData {
  source: string | null;
  sourceSecondary: string | null;
  destination: string | null;
  destinationSecondary: string | null;
  queryId: bigint;
  amount: bigint | null;
  payoutType?: 'regular' | 'last';
  newTokens?: bigint;
  workerState?: number;
  workerTokens?: bigint;
  newTokensUsed?: bigint;
  expectedAddress?: string | null;
  seqno?: number;
  nonce?: bigint;
  newSecretHash?: string;
  viaWallet?: boolean;
  newStake?: bigint;
  withdrawAmount?: bigint;
}

/** A body read after its opcode, which must be `opcode` (the bodies' `assert`). */
function opened(block: CallContractBlock, opcode: number): Slice {
  const cs = block.message.body().beginParse();
  if (cs.loadUint(32) >>> 0 !== opcode) throw new Error(`not a cocoon body of op 0x${opcode.toString(16)}`);
  return cs;
}

/** ton-indexer's `expected_address`: raw uppercase, an external one as "<bits>;<hex without leading zeros>", none null. */
function expectedAddress(address: LooseAddress): string | null {
  if (address.kind === 'none') return null;
  if (address.kind === 'external') return `${address.bits};${address.value.toString(16)}`;
  return address.raw;
}

/** query_id:uint64 new_tokens:uint64 expected_my_address: the payout, charge and grant-refund payloads. */
function signedPayload(block: CallContractBlock, opcode: number): { queryId: bigint; tokens: bigint; expected: string | null } {
  const cs = opened(block, opcode);
  const queryId = cs.loadUintBig(64);
  const tokens = cs.loadUintBig(64);
  return { queryId, tokens, expected: expectedAddress(loadLooseAddress(cs)) };
}

/** query_id:uint64 ... send_excesses_to: an owner's request, `middle` reading what lies between. */
function ownerRequest<T>(
  block: CallContractBlock,
  opcode: number,
  middle: (cs: Slice) => T,
): { queryId: bigint; fields: T; owner: string | null } {
  const cs = opened(block, opcode);
  const queryId = cs.loadUintBig(64);
  const fields = middle(cs);
  return { queryId, fields, owner: looseAccount(loadLooseAddress(cs)) };
}

const aborted = (block: Block): boolean => block.eventNodes[0].tx.aborted;
const excesses = (optional = false) => new ContractMatcher(COCOON_OP.returnExcessesBack, { optional });
const clientRequest = (children?: Matcher[]) => new ContractMatcher(COCOON_OP.clientProxyRequest, children ? { children } : {});

function found(others: Block[], opcode: number): CallContractBlock {
  const block = findCallContract(others, opcode);
  if (!block) throw new Error(`no block of op 0x${opcode.toString(16)}`);
  return block;
}

/** A cocoon matcher: the request's opcode, the answers it needs, and how its data is read. */
class CocoonMatcher extends Matcher {
  constructor(
    readonly type: string,
    private readonly opcodes: readonly number[],
    options: ConstructorParameters<typeof Matcher>[0],
    private readonly read: (block: CallContractBlock, others: Block[]) => { data: CocoonData; failed: boolean },
  ) {
    super(options);
  }

  override test(block: Block): boolean {
    return isCallContract(block) && block.opcode !== null && this.opcodes.includes(block.opcode);
  }

  override build(block: CallContractBlock, others: Block[]): Block[] {
    const { data, failed } = this.read(block, others);
    return folded(this.type, data, [block, ...others], failed);
  }
}

const ends = (
  source: string | null,
  sourceSecondary: string | null,
  destination: string | null,
  destinationSecondary: string | null = null,
) => ({
  source,
  sourceSecondary,
  destination,
  destinationSecondary,
});

function workerPayout(): Matcher {
  const request = new ContractMatcher(COCOON_OP.workerProxyRequest, {
    children: [new ContractMatcher(COCOON_OP.payout), excesses(true)],
  });
  return new CocoonMatcher(
    'cocoon_worker_payout',
    [COCOON_OP.payoutPayload, COCOON_OP.lastPayoutPayload],
    { child: request },
    (block, others) => {
      const last = block.opcode === COCOON_OP.lastPayoutPayload;
      const payload = signedPayload(block, block.opcode!);
      // The worker's request as toncenter finds it: among the blocks right after the payload.
      const requestBlock = found(block.nextBlocks, COCOON_OP.workerProxyRequest);
      const cs = opened(requestBlock, COCOON_OP.workerProxyRequest);
      cs.loadUintBig(64);
      const owner = looseAccount(loadLooseAddress(cs));
      const workerState = cs.loadUint(2);
      const workerTokens = cs.loadUintBig(64);
      cs.loadMaybeRef();
      const payout = found(others, COCOON_OP.payout);
      const m = block.message;
      return {
        data: {
          ...ends(m.source, m.destination, owner),
          queryId: payload.queryId,
          amount: payout.message.value ?? 0n,
          payoutType: last ? 'last' : 'regular',
          newTokens: payload.tokens,
          expectedAddress: payload.expected,
          workerState,
          workerTokens,
        },
        failed: aborted(payout),
      };
    },
  );
}

function proxyPayout(): Matcher {
  return new CocoonMatcher(
    'cocoon_proxy_payout',
    [COCOON_OP.extProxyPayoutRequest],
    { children: [new ContractMatcher(COCOON_OP.payout), excesses()] },
    (block, others) => {
      const { queryId, owner: excessesTo } = ownerRequest(block, COCOON_OP.extProxyPayoutRequest, () => null);
      const payout = found(others, COCOON_OP.payout);
      return {
        data: { ...ends(block.message.destination, null, payout.message.destination, excessesTo), queryId, amount: null },
        failed: aborted(payout),
      };
    },
  );
}

function proxyCharge(): Matcher {
  return new CocoonMatcher(
    'cocoon_proxy_charge',
    [COCOON_OP.chargePayload],
    { children: [excesses(), clientRequest()] },
    (block, others) => {
      const payload = signedPayload(block, COCOON_OP.chargePayload);
      const client = found(others, COCOON_OP.clientProxyRequest).message.destination;
      return {
        data: {
          ...ends(block.message.destination, null, client),
          queryId: payload.queryId,
          // toncenter writes 0: nothing is transferred.
          amount: 0n,
          newTokensUsed: payload.tokens,
          expectedAddress: payload.expected,
        },
        failed: aborted(block),
      };
    },
  );
}

function clientTopUp(): Matcher {
  return new CocoonMatcher('cocoon_client_top_up', [COCOON_OP.extClientTopUp], { child: clientRequest([excesses()]) }, (block, others) => {
    const { queryId, fields: topUp, owner: sender } = ownerRequest(block, COCOON_OP.extClientTopUp, (cs) => cs.loadCoins());
    const proxy = found(others, COCOON_OP.clientProxyRequest).message.destination;
    return { data: { ...ends(sender, null, block.message.destination, proxy), queryId, amount: topUp }, failed: aborted(block) };
  });
}

function proxyRegistration(type: string, opcode: number, withSeqno: boolean): Matcher {
  return new CocoonMatcher(type, [opcode], { child: excesses() }, (block) => {
    const cs = opened(block, opcode);
    const queryId = cs.loadUintBig(64);
    const seqno = withSeqno ? { seqno: cs.loadUint(32) } : {};
    return { data: { ...ends(null, null, block.message.destination), queryId, amount: null, ...seqno }, failed: aborted(block) };
  });
}

/** An owner's request to its client contract answered by excesses and a client_proxy_request. */
function clientOwnerRequest(type: string, opcode: number, read: (cs: Slice) => Partial<CocoonData>, parent?: Matcher): Matcher {
  return new CocoonMatcher(
    type,
    parent ? [opcode, COCOON_OP.ownerWalletSendMessage] : [opcode],
    { children: [excesses(), clientRequest()], ...(parent ? { parent } : {}) },
    (block, others) => {
      const { queryId, fields, owner } = ownerRequest(block, opcode, read);
      const viaWallet = parent ? { viaWallet: others.some((b) => isCallContract(b, COCOON_OP.ownerWalletSendMessage)) } : {};
      return {
        data: { ...ends(owner, null, block.message.destination), queryId, amount: null, ...fields, ...viaWallet },
        failed: aborted(block),
      };
    },
  );
}

function grantRefund(): Matcher {
  const request = clientRequest([new ContractMatcher(COCOON_OP.payout), excesses()]);
  return new CocoonMatcher('cocoon_grant_refund', [COCOON_OP.grantRefundPayload], { child: request }, (block, others) => {
    const payload = signedPayload(block, COCOON_OP.grantRefundPayload);
    const requestBlock = found(others, COCOON_OP.clientProxyRequest);
    const payout = found(others, COCOON_OP.payout);
    return {
      data: {
        // toncenter's ends: the payload's receiver, the receiver of its request, who the payout paid.
        ...ends(block.message.destination, requestBlock.message.destination, payout.message.destination),
        queryId: payload.queryId,
        amount: payout.message.value ?? 0n,
        newTokensUsed: payload.tokens,
        expectedAddress: payload.expected,
      },
      failed: aborted(payout),
    };
  });
}

/** The coins a client_proxy_request's refund_granted#c68ebc7b payload names; null when it has none or another. */
function refundGranted(request: CallContractBlock): bigint | null {
  try {
    const cs = opened(request, COCOON_OP.clientProxyRequest);
    cs.loadUintBig(64);
    loadLooseAddress(cs);
    cs.loadRef();
    const payload = cs.loadMaybeRef();
    if (!payload) return null;
    const p = payload.beginParse();
    if (p.loadUint(32) >>> 0 !== COCOON_OP.clientProxyRefundGranted) return null;
    const coins = p.loadCoins();
    loadLooseAddress(p);
    return coins;
  } catch {
    return null;
  }
}

function clientWithdraw(): Matcher {
  const request = clientRequest([excesses(true), new ContractMatcher(COCOON_OP.payout)]);
  return new CocoonMatcher('cocoon_client_withdraw', [COCOON_OP.ownerClientWithdraw], { child: request }, (block, others) => {
    const { queryId, owner } = ownerRequest(block, COCOON_OP.ownerClientWithdraw, () => null);
    const requestBlock = findCallContract(others, COCOON_OP.clientProxyRequest);
    const withdrawAmount = (requestBlock && refundGranted(requestBlock)) ?? 0n;
    return {
      data: { ...ends(owner, null, block.message.destination), queryId, amount: withdrawAmount, withdrawAmount },
      failed: aborted(block),
    };
  });
}

const hex = (value: bigint): string => value.toString(16);

/** toncenter's cocoon matchers, in its order (after LayerZero's, the last of its list). */
export function cocoonMatchers(): Matcher[] {
  return [
    workerPayout(),
    proxyPayout(),
    proxyCharge(),
    clientTopUp(),
    proxyRegistration('cocoon_register_proxy', COCOON_OP.registerProxy, false),
    proxyRegistration('cocoon_unregister_proxy', COCOON_OP.unregisterProxy, true),
    clientOwnerRequest('cocoon_client_register', COCOON_OP.ownerClientRegister, (cs) => ({ nonce: cs.loadUintBig(64) })),
    clientOwnerRequest('cocoon_client_change_secret_hash', COCOON_OP.ownerClientChangeSecretHash, (cs) => ({
      newSecretHash: hex(cs.loadUintBig(256)),
    })),
    clientOwnerRequest(
      'cocoon_client_request_refund',
      COCOON_OP.ownerClientRequestRefund,
      () => ({}),
      new ContractMatcher(COCOON_OP.ownerWalletSendMessage, { optional: true }),
    ),
    grantRefund(),
    clientOwnerRequest('cocoon_client_increase_stake', COCOON_OP.ownerClientIncreaseStake, (cs) => {
      const newStake = cs.loadCoins();
      return { newStake, amount: newStake };
    }),
    clientWithdraw(),
  ];
}
