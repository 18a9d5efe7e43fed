/**
 * EVAA lending (ton-indexer's `EvaaSupplyBlockMatcher`, `EvaaWithdrawBlockMatcher`, `EvaaLiquidateBlockMatcher` in
 * `blocks/evaa.py`, bodies of `messages/evaa.py`), recognised by opcodes alone as toncenter does: it names no EVAA
 * master, so none is checked here either. The master talks to each user's contract with a header before the opcode
 * (user_version:Coins upgrade_info:(Maybe ^Cell) upgrade_exec:uint2), which the user-side steps are read through.
 *
 *   evaa_supply     supply_master#00000001 to the master (TON), or a `jetton_transfer` whose forward payload is one
 *                   (a jetton); the master's supply_user#00000011 to the user contract and its answer:
 *                   supply_success#0000011a (the amount supplied), else supply_fail#0000011f or a jetton transfer
 *                   back (failed); neither yet: no supply
 *   evaa_withdraw   withdraw_master#00000002 to the master, its withdraw_user#00000021 and the user contract's
 *                   withdraw_collateralized#00000211 answered by the payout (a jetton transfer, or TON with
 *                   #0000211a) and withdraw_success#0000211a to the user contract; failed: the master's
 *                   withdraw_fail#0000211f with the excess #00211fe8 (no funds), or the user contract's excess
 *                   #21e6/#21e7/#21e8/#21ec (locked, not collateralized, prices missing, crashed)
 *   evaa_liquidate  liquidate_master#00000003 (TON, or a jetton transfer's payload), the master's
 *                   liquidate_user#00000031 and the user contract's liquidate_satisfied#00000311 (its reward:
 *                   success; or the user contract's liquidate_fail#0000311f: failed, master_not_enough_liquidity)
 *                   or liquidate_unsatisfied#0000031f (failed, its error); the master's immediate refusal (a bounce,
 *                   a jetton transfer back): failed, immediate_rejection
 *
 * Each is failed exactly when toncenter's `is_success` is false (its serializer sets success from it). Not whole
 * types: their parts (the jetton transfers among them) are actions too, as toncenter serializes them.
 */
import { Cell, type Slice } from '@ton/core';
import { folded, isCallContract, TonTransferBlock, type Block, type CallContractBlock } from './blocks.js';
import { afterOpcode, readAddress } from './bodies.js';
import type { JettonTransferData } from './jettons.js';
import { BlockTypeMatcher, ContractMatcher, GenericMatcher, labeled, labelled, Matcher, OrMatcher, unlabelled } from './matcher.js';

export const EVAA_OP = {
  supplyMaster: 0x1,
  withdrawMaster: 0x2,
  liquidateMaster: 0x3,
  supplyUser: 0x11,
  supplySuccess: 0x11a,
  supplyFail: 0x11f,
  withdrawUser: 0x21,
  withdrawCollateralized: 0x211,
  withdrawSuccess: 0x211a,
  withdrawFail: 0x211f,
  withdrawNoFundsExcess: 0x211fe8,
  liquidateUser: 0x31,
  liquidateSatisfied: 0x311,
  liquidateUnsatisfied: 0x31f,
  liquidateSuccess: 0x311a,
  liquidateFail: 0x311f,
  liquidateSuccessReport: 0x311d,
} as const;

/** The user contract's excesses after a refused withdrawal, and the reason each stands for. */
const WITHDRAW_FAIL_EXCESSES: ReadonlyMap<number, string> = new Map([
  [0x21e6, 'withdraw_locked_excess'],
  [0x21e7, 'withdraw_not_collateralized_excess'],
  [0x21e8, 'withdraw_missing_prices_excess'],
  [0x21ec, 'withdraw_execution_crashed'],
]);

/** liquidate_unsatisfied's error codes (EVAA's liquidate-message.fc), as toncenter names them. */
const LIQUIDATION_ERRORS: ReadonlyMap<number, string> = new Map([
  [0xe001, 'master_liquidating_too_much'],
  [0xe002, 'user_withdraw_in_progress'],
  [0xe003, 'not_liquidatable'],
  [0xe004, 'execution_crashed'],
  [0xe005, 'min_collateral_not_satisfied'],
  [0xe006, 'user_not_enough_collateral'],
  [0xe007, 'user_liquidating_too_much'],
  [0xe008, 'master_not_enough_liquidity'],
  [0xe009, 'liquidation_prices_missing'],
]);

/** EVAA's id of TON among its assets: sha256("TON"). */
export const EVAA_TON_ASSET_ID = 0x1a4219fe5e60d63af2a3cc7dce6fec69b45c6b5718497a6148e7c232ac87bd8an;

export interface EvaaSupplyData {
  sender: string | null;
  recipient: string | null;
  /** The recipient's user contract (supply_user's destination). */
  recipientContract: string | null;
  amount: bigint;
  isSuccess: boolean;
  isTon: boolean;
  assetId: bigint;
  senderJettonWallet: string | null;
  recipientJettonWallet: string | null;
  masterJettonWallet: string | null;
  master: string | null;
  /** The jetton supplied; null for TON. */
  asset: string | null;
}

export interface EvaaWithdrawData {
  owner: string | null;
  ownerContract: string | null;
  recipient: string | null;
  assetId: bigint;
  amount: bigint;
  isSuccess: boolean;
  isTon: boolean;
  recipientJettonWallet: string | null;
  masterJettonWallet: string | null;
  failReason: string | null;
  master: string | null;
  /** The jetton paid out; null for TON and for a failed withdrawal (toncenter sets none there). */
  asset: string | null;
}

export interface EvaaLiquidateData {
  liquidator: string | null;
  borrower: string | null;
  borrowerContract: string | null;
  collateralAssetId: bigint;
  collateralAmount: bigint;
  debtAmount: bigint;
  isSuccess: boolean;
  failReason: string | null;
}

/** The user contract's header, then the opcode: what the user-side steps begin with. */
function afterUserHeader(body: Cell): Slice {
  const cs = body.beginParse();
  cs.loadCoins();
  cs.loadMaybeRef();
  cs.loadUint(2);
  return cs;
}

function userOpcode(body: Cell): number | null {
  try {
    return afterUserHeader(body).loadUint(32) >>> 0;
  } catch {
    return null;
  }
}

/** A contract call whose body is the user header and `opcode` (toncenter's EvaaContractWithHeaderMatcher). */
const withHeader = (opcode: number, options: ConstructorParameters<typeof GenericMatcher>[1] = {}): Matcher =>
  new GenericMatcher((block) => isCallContract(block) && userOpcode(block.message.body()) === opcode, options);

/** The master's comment to the user after an operation (optional: taken along when there). */
const evaaComment = new GenericMatcher(
  (block) => block instanceof TonTransferBlock && ['EVAA liquidation.', 'EVAA supply.', 'EVAA withdraw.'].includes(block.comment ?? ''),
  { optional: true },
);

/** Each jetton transfer's forward payload opcode, read once: the supply and liquidation matchers both test every transfer. */
const payloadOpcodes = new WeakMap<JettonTransferData, number | null>();

/** The opcode a jetton transfer's forward payload starts with, null for none. */
function payloadOpcode(block: Block): number | null {
  if (block.type !== 'jetton_transfer') return null;
  const data = block.data as JettonTransferData;
  let opcode = payloadOpcodes.get(data);
  if (opcode === undefined) {
    try {
      opcode = data.forwardPayload === null ? null : Cell.fromBase64(data.forwardPayload).beginParse().loadUint(32) >>> 0;
    } catch {
      opcode = null;
    }
    payloadOpcodes.set(data, opcode);
  }
  return opcode;
}

const isRequest = (block: Block, opcode: number): boolean => isCallContract(block, opcode) || payloadOpcode(block) === opcode;

/** supply_master#00000001 (TON): query_id include_user_code:int2 supply_amount:uint64 recipient. */
function supplyMaster(body: Cell): { amount: bigint; recipient: string | null } {
  const cs = afterOpcode(body);
  cs.loadUintBig(64);
  cs.loadInt(2);
  const amount = cs.loadUintBig(64);
  return { amount, recipient: readAddress(cs) };
}

/** A jetton supply's forward payload: op include_user_code:int2 recipient (no query id). */
function supplyPayloadRecipient(payload: Cell): string | null {
  const cs = payload.beginParse();
  if (cs.loadUint(32) >>> 0 !== EVAA_OP.supplyMaster) throw new Error('not a supply payload');
  cs.loadInt(2);
  return readAddress(cs);
}

class EvaaSupplyMatcher extends Matcher {
  constructor() {
    const success = labeled('supply_success', new ContractMatcher(EVAA_OP.supplySuccess, { child: evaaComment }));
    const fail = labeled('supply_fail', new ContractMatcher(EVAA_OP.supplyFail));
    const refund = labeled('jetton_return', new BlockTypeMatcher('jetton_transfer'));
    super({ child: labeled('supply_user', withHeader(EVAA_OP.supplyUser, { child: new OrMatcher([success, fail, refund]) })) });
  }

  override test(block: Block): boolean {
    return isRequest(block, EVAA_OP.supplyMaster);
  }

  override build(block: Block, others: Block[]): Block[] {
    const isTon = isCallContract(block);
    let data: Omit<EvaaSupplyData, 'recipientContract' | 'assetId' | 'isSuccess'>;
    if (isCallContract(block)) {
      const m = block.message;
      const request = supplyMaster(m.body());
      data = {
        sender: m.source,
        recipient: request.recipient,
        amount: request.amount,
        isTon,
        senderJettonWallet: null,
        recipientJettonWallet: null,
        masterJettonWallet: null,
        master: m.destination,
        asset: null,
      };
    } else {
      const t = block.data as JettonTransferData;
      const recipient = supplyPayloadRecipient(Cell.fromBase64(t.forwardPayload!));
      // Supplied for another: the recipient's wallet is where a transfer from the master's wallet went.
      const onward = others.find((b) => b.type === 'jetton_transfer' && (b.data as JettonTransferData).senderWallet === t.receiverWallet);
      data = {
        sender: t.sender,
        recipient,
        amount: t.amount,
        isTon,
        senderJettonWallet: t.senderWallet,
        recipientJettonWallet: recipient === t.sender ? t.senderWallet : onward ? (onward.data as JettonTransferData).receiverWallet : null,
        masterJettonWallet: t.receiverWallet,
        master: t.receiver,
        asset: t.asset,
      };
    }
    const user = labelled(others, 'supply_user') as CallContractBlock | undefined;
    if (!user) return [];
    const cs = afterUserHeader(user.message.body());
    cs.skip(32 + 64);
    const assetId = cs.loadUintBig(256);
    const common = { ...data, recipientContract: user.message.destination, assetId };
    const success = labelled(others, 'supply_success') as CallContractBlock | undefined;
    const blocks = unlabelled([block, ...others]);
    if (success) {
      const body = afterOpcode(success.message.body());
      body.loadUintBig(64);
      readAddress(body);
      body.loadUintBig(256);
      const supplied: EvaaSupplyData = { ...common, amount: body.loadUintBig(64), isSuccess: true };
      return folded('evaa_supply', supplied, blocks, false);
    }
    if (!labelled(others, 'supply_fail') && !labelled(others, 'jetton_return')) return [];
    return folded('evaa_supply', { ...common, isSuccess: false } satisfies EvaaSupplyData, blocks, true);
  }
}

class EvaaWithdrawMatcher extends ContractMatcher {
  constructor() {
    const jettonPayout = labeled('jetton_payout', new BlockTypeMatcher('jetton_transfer'));
    const tonPayout = labeled('ton_payout', new ContractMatcher(EVAA_OP.withdrawSuccess, { child: evaaComment }));
    // One opcode for the TON payout and the user contract's update: the update carries the header.
    const updated = labeled('withdraw_success', withHeader(EVAA_OP.withdrawSuccess, { child: new BlockTypeMatcher('ton_transfer') }));
    const collateralized = labeled(
      'withdraw_collateralized_success',
      new ContractMatcher(EVAA_OP.withdrawCollateralized, { children: [new OrMatcher([jettonPayout, tonPayout]), updated] }),
    );
    const noFunds = labeled(
      'withdraw_fail_no_funds',
      withHeader(EVAA_OP.withdrawFail, {
        child: labeled('withdraw_no_funds_excess', new ContractMatcher(EVAA_OP.withdrawNoFundsExcess)),
      }),
    );
    const notCollateralized = labeled(
      'withdraw_collateralized_fail',
      new ContractMatcher(EVAA_OP.withdrawCollateralized, { child: noFunds }),
    );
    const refusedByUser = labeled(
      'withdraw_fail_on_user_excesses',
      new GenericMatcher((b) => isCallContract(b) && b.opcode !== null && WITHDRAW_FAIL_EXCESSES.has(b.opcode)),
    );
    const user = labeled(
      'withdraw_on_user',
      withHeader(EVAA_OP.withdrawUser, { child: new OrMatcher([collateralized, notCollateralized, refusedByUser]) }),
    );
    super(EVAA_OP.withdrawMaster, { child: user });
  }

  override build(block: CallContractBlock, others: Block[]): Block[] {
    const m = block.message;
    const cs = afterOpcode(m.body());
    cs.loadUintBig(64);
    const assetId = cs.loadUintBig(256);
    const desired = cs.loadUintBig(64);
    const recipient = readAddress(cs);
    const isTon = assetId === EVAA_TON_ASSET_ID;
    const user = labelled(others, 'withdraw_on_user') as CallContractBlock | undefined;
    if (!user) return [];
    const common = {
      owner: m.source,
      ownerContract: user.message.destination,
      recipient,
      assetId,
      isTon,
      master: m.destination,
      recipientJettonWallet: null,
      masterJettonWallet: null,
      asset: null,
    };
    const blocks = unlabelled([block, ...others]);
    const collateralized = labelled(others, 'withdraw_collateralized_success') as CallContractBlock | undefined;
    if (collateralized) {
      const body = afterOpcode(collateralized.message.body());
      body.loadUintBig(64);
      readAddress(body);
      body.loadUintBig(256);
      const amount = body.loadUintBig(64);
      let paid: Pick<EvaaWithdrawData, 'asset' | 'recipientJettonWallet' | 'masterJettonWallet'>;
      if (isTon) {
        if (!labelled(others, 'ton_payout')) return [];
        paid = { asset: null, recipientJettonWallet: null, masterJettonWallet: null };
      } else {
        const payout = labelled(others, 'jetton_payout');
        if (!payout) return [];
        const t = payout.data as JettonTransferData;
        paid = { asset: t.asset, recipientJettonWallet: t.receiverWallet, masterJettonWallet: t.senderWallet };
      }
      const data: EvaaWithdrawData = { ...common, ...paid, amount, isSuccess: true, failReason: null };
      return folded('evaa_withdraw', data, blocks, false);
    }
    let failReason: string;
    if (labelled(others, 'withdraw_collateralized_fail')) failReason = 'withdraw_no_funds_excess';
    else {
      const excess = labelled(others, 'withdraw_fail_on_user_excesses') as CallContractBlock | undefined;
      if (!excess) return [];
      failReason = WITHDRAW_FAIL_EXCESSES.get(excess.opcode!)!;
    }
    const data: EvaaWithdrawData = { ...common, amount: desired, isSuccess: false, failReason };
    return folded('evaa_withdraw', data, blocks, true);
  }
}

/** liquidate_master's fields (the TON request's body, and a jetton's payload, read alike as toncenter reads them). */
function liquidateMaster(cs: Slice): { borrower: string | null; collateralAssetId: bigint; amount: bigint } {
  cs.skip(32);
  cs.loadUintBig(64);
  const borrower = readAddress(cs);
  readAddress(cs);
  const collateralAssetId = cs.loadUintBig(256);
  cs.loadUintBig(64);
  cs.loadInt(2);
  return { borrower, collateralAssetId, amount: cs.loadUintBig(64) };
}

/** liquidate_unsatisfied's error, after its fields in the ref (toncenter: "parse_error" when there is none, "unknown" for another code). */
function liquidationError(body: Cell): string {
  const cs = afterOpcode(body);
  cs.loadUintBig(64);
  readAddress(cs);
  readAddress(cs);
  cs.loadUintBig(256);
  const ref = cs.loadRef().beginParse();
  ref.loadUintBig(64);
  ref.loadUintBig(256);
  ref.loadUintBig(64);
  ref.loadUintBig(64);
  ref.loadRef();
  if (ref.remainingBits < 32) return 'parse_error';
  return LIQUIDATION_ERRORS.get(ref.loadUint(32)) ?? 'unknown';
}

class EvaaLiquidateMatcher extends Matcher {
  constructor() {
    const refund = labeled(
      'immediate_fail_refund',
      new OrMatcher([new GenericMatcher((b) => isCallContract(b) && b.message.bounced === true), new BlockTypeMatcher('jetton_transfer')]),
    );
    // Its children are not looked at: toncenter labels the either-or, which tests the block alone.
    const finish = () =>
      labeled(
        'finish_with_tokens_and_report',
        new GenericMatcher(
          (b) =>
            isCallContract(b, EVAA_OP.liquidateSuccessReport) || isCallContract(b, EVAA_OP.liquidateFail) || b.type === 'jetton_transfer',
        ),
      );
    const satisfied = labeled(
      'liquidate_satisfied_and_success',
      new ContractMatcher(EVAA_OP.liquidateSatisfied, {
        children: [withHeader(EVAA_OP.liquidateSuccess, { child: evaaComment }), finish()],
      }),
    );
    const satisfiedFailed = labeled(
      'liquidate_satisfied_and_fail',
      new ContractMatcher(EVAA_OP.liquidateSatisfied, { children: [new ContractMatcher(EVAA_OP.liquidateFail), finish()] }),
    );
    const unsatisfied = labeled('liquidate_unsatisfied', new ContractMatcher(EVAA_OP.liquidateUnsatisfied, { child: finish() }));
    const user = labeled(
      'liquidate_user',
      withHeader(EVAA_OP.liquidateUser, { child: new OrMatcher([satisfied, satisfiedFailed, unsatisfied]) }),
    );
    super({ child: new OrMatcher([user, refund]) });
  }

  override test(block: Block): boolean {
    return isRequest(block, EVAA_OP.liquidateMaster);
  }

  override build(block: Block, others: Block[]): Block[] {
    let liquidator: string | null;
    let request: ReturnType<typeof liquidateMaster>;
    if (isCallContract(block)) {
      liquidator = block.message.source;
      request = liquidateMaster(block.message.body().beginParse());
    } else {
      const t = block.data as JettonTransferData;
      liquidator = t.sender;
      request = liquidateMaster(Cell.fromBase64(t.forwardPayload!).beginParse());
    }
    const refused = {
      liquidator,
      borrower: request.borrower,
      collateralAssetId: request.collateralAssetId,
      collateralAmount: 0n,
      debtAmount: request.amount,
      isSuccess: false,
    };
    const blocks = unlabelled([block, ...others]);
    const user = labelled(others, 'liquidate_user') as CallContractBlock | undefined;
    if (!user) {
      if (!labelled(others, 'immediate_fail_refund')) return [];
      const data: EvaaLiquidateData = { ...refused, borrowerContract: null, failReason: 'immediate_rejection' };
      return folded('evaa_liquidate', data, blocks, true);
    }
    const borrowerContract = user.message.destination;
    const satisfied = labelled(others, 'liquidate_satisfied_and_success') as CallContractBlock | undefined;
    if (satisfied) {
      const cs = afterOpcode(satisfied.message.body());
      cs.loadUintBig(64);
      const borrower = readAddress(cs);
      readAddress(cs);
      cs.loadUintBig(256);
      const ref = cs.loadRef().beginParse();
      ref.loadIntBig(64);
      const liquidatable = ref.loadUintBig(64);
      ref.loadUintBig(64);
      ref.loadIntBig(64);
      const collateralAssetId = ref.loadUintBig(256);
      ref.loadIntBig(64);
      const reward = ref.loadUintBig(64);
      const data: EvaaLiquidateData = {
        liquidator,
        borrower,
        borrowerContract,
        collateralAssetId,
        collateralAmount: reward,
        debtAmount: liquidatable,
        isSuccess: true,
        failReason: null,
      };
      return folded('evaa_liquidate', data, blocks, false);
    }
    const unsatisfied = labelled(others, 'liquidate_unsatisfied') as CallContractBlock | undefined;
    if (unsatisfied) {
      const data: EvaaLiquidateData = { ...refused, borrowerContract, failReason: liquidationError(unsatisfied.message.body()) };
      return folded('evaa_liquidate', data, blocks, true);
    }
    if (!labelled(others, 'liquidate_satisfied_and_fail')) return [];
    const data: EvaaLiquidateData = { ...refused, borrowerContract, failReason: 'master_not_enough_liquidity' };
    return folded('evaa_liquidate', data, blocks, true);
  }
}

export const evaaSupplyMatcher = (): Matcher => new EvaaSupplyMatcher();
export const evaaWithdrawMatcher = (): Matcher => new EvaaWithdrawMatcher();
export const evaaLiquidateMatcher = (): Matcher => new EvaaLiquidateMatcher();

/**
 * ton-index-go's mainnet table of EVAA asset ids (hex, as toncenter writes them) and their jetton masters: what it
 * answers as a liquidation's `asset` (TON: null), `is_known_asset` telling whether the id was in it.
 */
export const EVAA_MAINNET_ASSETS: ReadonlyMap<string, string> = new Map([
  [
    '0xb387968236197958ca4ac55e9b5be38e688c7631af84c86756431f49a878ef33',
    '0:729C13B6DF2C07CBF0A06AB63D34AF454F3D320EC1BCD8FB5C6D24D0806A17C2',
  ],
  [
    '0x83d916c68510802104d1f75aa6ce30eb1e477aede0d380eee2188e0e56581fc6',
    '0:7E30FC2B7751BA58A3642F3FD59D5E96A810DDD78D8A310BFE8353BEF10500DF',
  ],
  [
    '0x495668e908644f30322b997de8faaafc21f05aa52f8982f042dac1fe0b4d09d0',
    '0:CD872FA7C5816052ACDF5332260443FAEC9AACC8C21CCA4D92E7F47034D11892',
  ],
  [
    '0x3313e2f57ba870af34480350c789b0987d15b43a53172bfce294de21e7d724e7',
    '0:BDF3FA8098D129B54B4F73B5BAC5D1E1FD91EB054169C3916DFC8CCD536D1000',
  ],
  [
    '0xca9006bd3fb03d355daeeff93b24be90afaa6e3ca0073ff5720f8a852c933278',
    '0:B113A994B5024A16719F69139328EB759596C38A25F59028B146FECDC3621DFE',
  ],
  [
    '0xe025e6a575f174da6d62577c1fe204ccaa5d1e47c55c6b20c67daee56c357b60',
    '0:3E5FFCA8DDFCF36C36C9FF46F31562AAB51B9914845AD6C26CBDE649D58A5588',
  ],
  [
    '0x9c77a4d798a8f500dcfb877a07227c4ca9d6782504cdc7ce2ad0051e5641c032',
    '0:8D636010DD90D8C0902AC7F9F397D8BD5E177F131EE2CCA24CE894F15D19CEEA',
  ],
  [
    '0x6bfa124cc1343d14ba57ded299f6f514f5f26777099e3c378922ce4081ecbf91',
    '0:AEA78C710AE94270DC263A870CF47B4360F53CC5ED38E3DB502E9E9AFB904B11',
  ],
  [
    '0xe08b1f092e7240fb61bf8249d71aa635102acdd50122138105c35dd2896b5331',
    '0:FE72F474373E97032441BDB873F9A6D3AD10BAB08E6DBC7BEFA5E42B695F5400',
  ],
  [
    '0x70930360b81e5f4ef2e06d2bf64978b44d4b87fb85d78788e001cdf8812d13d1',
    '0:AFC49CB8786F21C87045B19EDE78FC6B46C51048513F8E9A6D44060199C1BF0C',
  ],
  [
    '0x8be3365cabaa6a0f90d2e64f03fa78268c135fe0b0758b576b447e9b2068d75d',
    '0:2F956143C461769579BAEF2E32CC2D7BC18283F40D20BB03E432CD603AC33FFC',
  ],
  [
    '0xb372eaca5210612d285f3fdd30e87a0c3a443f1bb7578e16da72563241997ca1',
    '0:1F1798F724C2296652E6002BFB51BED11FB5A689532E5788AF7203581EF367A8',
  ],
  [
    '0xb8a51f42ccbb912d973e58a22dda26decc7dfc83718c325c24432045ad78dc5a',
    '0:E8CB571401B1AADB9DEFC1FA0F72A4A5A0E0D5016903067891D763C91541E72B',
  ],
  [
    '0xc585bac25948a5feea8f2a9e052eb45995882b15dfb784b37cd271cc163f3aea',
    '0:5EE20B5240CC4CE51A4C60BAF8C9D358EF617C26463E89C6571B534972C8EEF1',
  ],
  [
    '0xd9496f9b279a4e26c49eb65d5c47c79b6dfdea16c9baefa9158a7dfbbbcac04a',
    '0:086FA2A675F74347B08DD4606A549B8FDB98829CB282BC1949D3B12FBAED9DCC',
  ],
  [
    '0x4a4bae807cc87355de2ead44b21a739d9d35e9bba9a217f5cc9c0108197ad137',
    '0:D0E545323C7ACB7102653C073377F7E3C67F122EB94D430A250739F109D4A57D',
  ],
]);

/** An asset id as toncenter writes it (Python's `hex`: lowercase, no leading zeros). */
export const evaaAssetIdHex = (id: bigint): string => `0x${id.toString(16)}`;
