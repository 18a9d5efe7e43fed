/** Shared fixtures of the chain tests: a fixed faucet mnemonic, chain openers, wallet helpers. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Address, beginCell, Cell, contractAddress, external, internal, storeMessage, toNano, type MessageRelaxed } from '@ton/core';
import { WalletContractV4 } from '@ton/ton';
import { keyPairFromSeed, mnemonicToPrivateKey, type KeyPair } from '@ton/crypto';
import { LocalChain, type LocalChainOptions } from '../../../../src/chain/local/index.js';
import { ManualClock } from '../../../../src/util/clock.js';

/** A valid TON mnemonic, used only by tests. */
export const TEST_MNEMONIC =
  'region sniff brass cake cave thank still hero chronic father maze leader eagle need surface orchard earn excite gravity forest seed auto polar hurt'.split(
    ' ',
  );

let faucetKeyPair: Promise<KeyPair> | undefined;
export const testFaucetKeys = (): Promise<KeyPair> => (faucetKeyPair ??= mnemonicToPrivateKey(TEST_MNEMONIC));

export function tempDir(t: { after(fn: () => void): void }): string {
  const dir = mkdtempSync(join(tmpdir(), 'tongate-chain-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

export async function openChain(
  t: { after(fn: () => unknown): void },
  options: Partial<LocalChainOptions> = {},
): Promise<{ chain: LocalChain; clock: ManualClock }> {
  const clock = (options.clock as ManualClock | undefined) ?? new ManualClock();
  const chain = await LocalChain.open({
    network: 'testnet',
    globalId: -3,
    faucetMnemonic: TEST_MNEMONIC,
    clock,
    ...options,
  });
  t.after(() => chain.stop());
  return { chain, clock };
}

/** A wallet v4 from a seed byte (instant, unlike a mnemonic). */
export function testWallet(seedByte: number): { wallet: WalletContractV4; keys: KeyPair } {
  const keys = keyPairFromSeed(Buffer.alloc(32, seedByte));
  return { wallet: WalletContractV4.create({ workchain: 0, publicKey: keys.publicKey }), keys };
}

/** An external message BoC carrying a signed v4 transfer (deploying the wallet when `deploy`). */
export function v4Transfer(
  from: { wallet: WalletContractV4; keys: KeyPair },
  seqno: number,
  to: Address,
  value: bigint = toNano('1'),
  options: { deploy?: boolean; bounce?: boolean } = {},
): Buffer {
  const body = from.wallet.createTransfer({
    seqno,
    secretKey: from.keys.secretKey,
    messages: [internal({ to, value, bounce: options.bounce ?? false })],
  });
  const init = options.deploy ? from.wallet.init : undefined;
  return beginCell()
    .store(storeMessage(external({ to: from.wallet.address, body, init })))
    .endCell()
    .toBoc();
}

export const cellOf = (boc: Buffer): Cell => Cell.fromBoc(boc)[0];

/**
 * Hand-assembled TVM code (no compiler needed), valid both as recv_internal and as a get-method:
 *   DROP  PUSHINT 19  CONFIGOPTPARAM  CTOS  LDI 32  DROP
 * leaves config param 19 (global_id) as read by the TVM on top of the stack.
 */
export const GLOBAL_ID_READER_CODE = beginCell()
  .storeBuffer(Buffer.from('30801 3f833d0d21f30'.replace(/ /g, ''), 'hex'))
  .endCell();

/**
 * A message loop: on every internal message, sends a message with the remaining inbound value
 * (mode 64) to itself:
 *   PUSHINT 16  NEWC  STU 6        ; int_msg_info$0 ihr_disabled=1 bounce=0 bounced=0 src=addr_none
 *   MYADDR  SWAP  STSLICE          ; dest = this contract
 *   PUSHINT 0  SWAP  STU 111       ; value 0, no extra currencies, fees 0, lt/at 0, no init, inline empty body
 *   ENDC  PUSHINT 64  SENDRAWMSG
 */
export const LOOPER_CODE = beginCell().storeBuffer(Buffer.from('8010c8cb05f82801ce7001cb6ec98040fb00', 'hex')).endCell();

/**
 * Get-methods loop forever (recv_internal returns at once, so it can be deployed):
 *   IFNOTRET  AGAINEND      ; selector 0 (recv_internal) returns; any method id loops
 */
export const INFINITE_GETTER_CODE = beginCell().storeBuffer(Buffer.from('ddeb', 'hex')).endCell();

/**
 * Accepts any external message, then loops until its gas runs out (1,000,000 gas: a transaction of
 * ~0.5-2 s of emulation, which the chain still records: the message was accepted):
 *   IFNOTRET  ACCEPT  AGAINEND   ; selector 0 (recv_internal) returns
 */
export const SLOW_EXTERNAL_CODE = beginCell().storeBuffer(Buffer.from('ddf800eb', 'hex')).endCell();

export async function testFaucet(): Promise<{ wallet: WalletContractV4; keys: KeyPair }> {
  const keys = await testFaucetKeys();
  return { wallet: WalletContractV4.create({ workchain: 0, publicKey: keys.publicKey }), keys };
}

/** An external from a wallet carrying several messages. */
export function v4Send(from: { wallet: WalletContractV4; keys: KeyPair }, seqno: number, messages: MessageRelaxed[]): Buffer {
  const body = from.wallet.createTransfer({ seqno, secretKey: from.keys.secretKey, messages });
  return beginCell()
    .store(storeMessage(external({ to: from.wallet.address, body })))
    .endCell()
    .toBoc();
}

/** A deploy message for `code` with empty data: its address and the internal message carrying the init. */
export function deployMessage(code: Cell, value: bigint, data: Cell = Cell.EMPTY): { address: Address; message: MessageRelaxed } {
  const init = { code, data };
  const address = contractAddress(0, init);
  return { address, message: internal({ to: address, value, init, bounce: false }) };
}

export { Address, toNano };
