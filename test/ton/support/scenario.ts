/**
 * Real transactions for the codec tests, produced by @ton/sandbox's Blockchain (tests only: the
 * product runs chain/local). One run covers every message and description shape the codecs handle.
 */
import { Blockchain, type BlockchainTransaction, type SmartContract } from '@ton/sandbox';
import { WalletContractV4, internal } from '@ton/ton';
import { keyPairFromSeed } from '@ton/crypto';
import { Address, beginCell, contractAddress, toNano, type Cell } from '@ton/core';

export const NOWHERE = new Address(0, Buffer.alloc(32, 9));
export const LONG_COMMENT = `long comment ${'é€😀'.repeat(60)} end`;

/** A contract that answers any message with one external-out message (an "event log"). */
export function loggerCode(): { code: Cell; data: Cell } {
  // ext_out_msg_info$11 src:addr_none dest:addr_none created_lt:0 created_at:0, no init, inline body op 0xdeadbeef
  const message = beginCell()
    .storeUint(0b1100, 4)
    .storeUint(0, 2)
    .storeUint(0, 64 + 32 + 2)
    .storeUint(0xdeadbeef, 32)
    .endCell();
  // PUSHREF <message>; PUSHINT 0; SENDRAWMSG
  const code = beginCell().storeBuffer(Buffer.from('8870FB00', 'hex')).storeRef(message).endCell();
  return { code, data: beginCell().endCell() };
}

export interface Scenario {
  wallet: Address;
  treasury: Address;
  logger: Address;
  /** treasury -> uninitialized wallet, non-bounceable: compute phase skipped (no_state). */
  deposit: BlockchainTransaction;
  /** The wallet's first external message (with StateInit): a comment to the treasury and a raw body to NOWHERE. */
  deploy: BlockchainTransaction;
  /** The treasury receiving the "hello" comment. */
  commentReceived: BlockchainTransaction;
  /** NOWHERE refusing the raw-body message: aborted, bounce phase ok, a bounced message out. */
  bounce: BlockchainTransaction;
  /** The wallet receiving the bounced message. */
  bouncedBack: BlockchainTransaction;
  /** Second wallet transfer: a long UTF-8 comment (a snake string over several cells). */
  longComment: BlockchainTransaction;
  longCommentReceived: BlockchainTransaction;
  /** Logger deployed by an internal message carrying StateInit; its transaction emits an external-out message. */
  loggerDeploy: BlockchainTransaction;
  /** A tick transaction of the logger: no inbound message. */
  tick: BlockchainTransaction;
  walletContract: SmartContract;
  all: BlockchainTransaction[];
}

let cached: Promise<Scenario> | undefined;

export function scenario(): Promise<Scenario> {
  cached ??= build();
  return cached;
}

async function build(): Promise<Scenario> {
  const chain = await Blockchain.create();
  chain.now = 1_700_000_000;
  const keys = keyPairFromSeed(Buffer.alloc(32, 1));
  const wallet = chain.openContract(WalletContractV4.create({ workchain: 0, publicKey: keys.publicKey }));
  const treasury = await chain.treasury('treasury');

  const funded = await treasury.send({ to: wallet.address, value: toNano('10'), bounce: false });
  const deposit = funded.transactions[1];

  const first = await wallet.sendTransfer({
    seqno: 0,
    secretKey: keys.secretKey,
    messages: [
      internal({ to: treasury.address, value: toNano('1'), body: 'hello' }),
      internal({ to: NOWHERE, value: toNano('0.5'), bounce: true, body: beginCell().storeUint(0x12345678, 32).storeUint(7, 8).endCell() }),
    ],
  });
  const [deploy, commentReceived, bounce, bouncedBack] = first.transactions;

  const second = await wallet.sendTransfer({
    seqno: 1,
    secretKey: keys.secretKey,
    messages: [internal({ to: treasury.address, value: toNano('0.1'), body: LONG_COMMENT })],
  });
  const [longComment, longCommentReceived] = second.transactions;

  const { code, data } = loggerCode();
  const logger = contractAddress(0, { code, data });
  const deployed = await treasury.send({ to: logger, value: toNano('1'), init: { code, data } });
  const loggerDeploy = deployed.transactions[1];
  const tick = (await chain.runTickTock(logger, 'tick')).transactions[0];

  const all = [deposit, deploy, commentReceived, bounce, bouncedBack, longComment, longCommentReceived, loggerDeploy, tick];
  return {
    wallet: wallet.address,
    treasury: treasury.address,
    logger,
    deposit,
    deploy,
    commentReceived,
    bounce,
    bouncedBack,
    longComment,
    longCommentReceived,
    loggerDeploy,
    tick,
    walletContract: await chain.getContract(wallet.address),
    all,
  };
}
