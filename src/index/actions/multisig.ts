/**
 * Multisig v2 actions (ton-indexer's `blocks/multisig.py`, bodies of `blocks/messages/multisig.py`):
 *   multisig_create_order  new_order#f718510f to a wallet, with the init#9c73fba2 it sent its order; the order must
 *                          be one the index detected (its signers become the action's accounts)
 *   multisig_approve       approve#a762230f (or the comment "approve") to a detected order, with its answer:
 *                          approve_accepted#82609bf6 (success) or approve_rejected#afaf283e (failed, its exit code);
 *                          signer_index -1 for an approval by comment
 *   multisig_execute       execute#75097f5d from a detected order to its wallet; failed when the wallet refused it
 */
import { folded, findCallContract, isCallContract, TonTransferBlock, type Block, type CallContractBlock } from './blocks.js';
import { afterOpcode, plainBocBase64 } from './bodies.js';
import { ContractMatcher, Matcher, OrMatcher } from './matcher.js';
import type { KnownContracts } from './trace-input.js';
import { str, type ActionParts } from './details-common.js';

export const MULTISIG_OP = {
  newOrder: 0xf718510f,
  init: 0x9c73fba2,
  approve: 0xa762230f,
  approveAccepted: 0x82609bf6,
  approveRejected: 0xafaf283e,
  execute: 0x75097f5d,
} as const;

export interface MultisigCreateOrderData {
  queryId: bigint;
  orderSeqno: bigint;
  createdBy: string | null;
  multisig: string | null;
  order: string | null;
  isCreatedBySigner: boolean;
  creatorIndex: number;
  creatorApproved: boolean;
  expirationDate: number;
  orderBoc: string;
  signers: string[];
}

export interface MultisigApproveData {
  signer: string | null;
  order: string | null;
  signerIndex: number;
  exitCode: number;
  signers: string[];
}

export interface MultisigExecuteData {
  queryId: bigint;
  order: string | null;
  multisig: string | null;
  orderSeqno: bigint;
  expirationDate: number;
  approvalsNum: number;
  signersHash: string;
  orderBoc: string;
  signers: string[];
}

class CreateOrderMatcher extends ContractMatcher {
  constructor(private readonly contracts: KnownContracts) {
    super(MULTISIG_OP.newOrder, { child: new ContractMatcher(MULTISIG_OP.init) });
  }

  override build(block: CallContractBlock, others: Block[]): Block[] {
    const body = afterOpcode(block.message.body());
    const queryId = body.loadUintBig(64);
    const orderSeqno = body.loadUintBig(256);
    const isCreatedBySigner = body.loadBit();
    const creatorIndex = body.loadUint(8);
    const expirationDate = Number(body.loadUintBig(48));
    body.loadRef();
    const deploy = findCallContract(others, MULTISIG_OP.init)!;
    const init = afterOpcode(deploy.message.body());
    init.skip(64 + 8);
    init.loadRef(); // signers
    init.skip(48);
    const order = init.loadRef();
    const creatorApproved = init.loadBit();
    const known = deploy.message.destination === null ? undefined : this.contracts.multisigOrders.get(deploy.message.destination);
    if (!known) return [];
    const data: MultisigCreateOrderData = {
      queryId,
      // As the body says, as toncenter writes it: 2^256-1 when the creator asked for "the next seqno".
      orderSeqno,
      createdBy: block.message.source,
      multisig: block.message.destination,
      order: deploy.message.destination,
      isCreatedBySigner,
      creatorIndex,
      creatorApproved,
      expirationDate,
      orderBoc: plainBocBase64(order),
      signers: known.signers,
    };
    return folded('multisig_create_order', data, [block, deploy], block.failed || deploy.failed);
  }
}

/** approve#a762230f, or a TON transfer whose comment is "approve". */
class ApproveRequestMatcher extends Matcher {
  override test(block: Block): boolean {
    return isCallContract(block, MULTISIG_OP.approve) || (block instanceof TonTransferBlock && block.comment === 'approve');
  }
}

class ApproveMatcher extends ApproveRequestMatcher {
  constructor(private readonly contracts: KnownContracts) {
    super({
      child: new OrMatcher([new ContractMatcher(MULTISIG_OP.approveAccepted), new ContractMatcher(MULTISIG_OP.approveRejected)]),
    });
  }

  override build(block: Block, others: Block[]): Block[] {
    const request = block as CallContractBlock | TonTransferBlock;
    const accepted = findCallContract(others, MULTISIG_OP.approveAccepted);
    const rejected = accepted ? undefined : findCallContract(others, MULTISIG_OP.approveRejected);
    const answer = accepted ?? rejected;
    if (!answer) return [];
    let exitCode = 0;
    if (rejected) {
      const cs = afterOpcode(rejected.message.body());
      cs.skip(64);
      exitCode = cs.loadUint(32);
    }
    let signerIndex = -1;
    if (isCallContract(request, MULTISIG_OP.approve)) {
      const cs = afterOpcode(request.message.body());
      cs.skip(64);
      signerIndex = cs.loadUint(8);
    }
    const order = request.message.destination;
    const known = order === null ? undefined : this.contracts.multisigOrders.get(order);
    if (!known) return [];
    const data: MultisigApproveData = { signer: request.message.source, order, signerIndex, exitCode, signers: known.signers };
    return folded('multisig_approve', data, [request, answer], accepted === undefined);
  }
}

class ExecuteMatcher extends ContractMatcher {
  constructor(private readonly contracts: KnownContracts) {
    super(MULTISIG_OP.execute, { includeExcess: false, includeBounces: false });
  }

  override build(block: CallContractBlock, _others: Block[]): Block[] {
    const body = afterOpcode(block.message.body());
    const queryId = body.loadUintBig(64);
    const orderSeqno = body.loadUintBig(256);
    const expirationDate = Number(body.loadUintBig(48));
    const approvalsNum = body.loadUint(8);
    const signersHash = body.loadBuffer(32).toString('base64');
    const order = body.loadRef();
    const known = block.message.source === null ? undefined : this.contracts.multisigOrders.get(block.message.source);
    if (!known) return [];
    const data: MultisigExecuteData = {
      queryId,
      order: block.message.source,
      multisig: block.message.destination,
      orderSeqno,
      expirationDate,
      approvalsNum,
      signersHash,
      orderBoc: plainBocBase64(order),
      signers: known.signers,
    };
    return folded('multisig_execute', data, [block], block.failed);
  }
}

export const multisigCreateOrderMatcher = (contracts: KnownContracts): Matcher => new CreateOrderMatcher(contracts);
export const multisigApproveMatcher = (contracts: KnownContracts): Matcher => new ApproveMatcher(contracts);
export const multisigExecuteMatcher = (contracts: KnownContracts): Matcher => new ExecuteMatcher(contracts);

/** A multisig action's details (ton-index-go's ActionDetailsMultisig*): the order's signers among its accounts. */
export function multisigParts(block: Block): ActionParts {
  switch (block.type) {
    case 'multisig_create_order': {
      const d = block.data as MultisigCreateOrderData;
      return {
        details: {
          query_id: str(d.queryId),
          order_seqno: str(d.orderSeqno),
          is_created_by_signer: d.isCreatedBySigner,
          is_signed_by_creator: d.creatorApproved,
          creator_index: d.creatorIndex,
          expiration_date: d.expirationDate,
          order_boc: d.orderBoc,
          source: d.createdBy,
          destination: d.multisig,
          destination_order: d.order,
        },
        ends: [d.createdBy, null, d.multisig, d.order],
        accounts: d.signers,
      };
    }
    case 'multisig_approve': {
      const d = block.data as MultisigApproveData;
      return {
        details: { signer_index: d.signerIndex, exit_code: d.exitCode, source: d.signer, destination: d.order },
        ends: [d.signer, null, d.order, null],
        accounts: d.signers,
      };
    }
    case 'multisig_execute': {
      const d = block.data as MultisigExecuteData;
      return {
        details: {
          query_id: str(d.queryId),
          order_seqno: str(d.orderSeqno),
          expiration_date: d.expirationDate,
          approvals_num: d.approvalsNum,
          signers_hash: d.signersHash,
          order_boc: d.orderBoc,
          source: d.order,
          destination: d.multisig,
        },
        ends: [d.order, null, d.multisig, null],
        accounts: d.signers,
      };
    }
    default:
      throw new Error(`no multisig details for ${block.type}`);
  }
}
