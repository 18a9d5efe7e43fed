/**
 * The faucet wallets of a local chain: a wallet v4r2 (wallet id 698983191) and a wallet v5r1 (wallet
 * id derived from the network's global id, as @ton/ton derives it for `networkGlobalId`), both from
 * one 24-word mnemonic, both active at genesis; and the transfers the v4r2 one sends (`fund`, the jetton
 * faucet's messages), signed with that key and executed on the producer's lane.
 */
import { createPrivateKey, createPublicKey, sign, type KeyObject } from 'node:crypto';
import { beginCell, external, internal, SendMode, storeMessage, type Address, type Cell } from '@ton/core';
import { mnemonicToSeed, type KeyPair } from '@ton/crypto';
import { WalletContractV4 } from '@ton/ton/dist/wallets/v4/WalletContractV4.js';
import { WalletContractV5R1 } from '@ton/ton/dist/wallets/v5r1/WalletContractV5R1.js';
import { BASECHAIN, MASTERCHAIN } from '../../ton/workchain.js';
import type { FaucetInfo, FaucetMessage } from '../devnet-chain.js';
import { AccountView } from '../account-view.js';
import { ChainInputError } from '../errors.js';
import { ChainStopped, FundFailed, FundRefused } from './errors.js';
import { parseExternal } from '../messages.js';
import type { Mining } from './mining.js';
import type { BlockProducer } from './producer.js';

export const V4R2_WALLET_ID = 698983191;

export interface FaucetWallet {
  kind: 'v4r2' | 'v5r1';
  address: Address;
  /** The wallet_id stored in the contract data (uint32). */
  walletId: number;
  code: Cell;
  data: Cell;
}

export interface FaucetKeys {
  keyPair: KeyPair;
  /** ed25519 signature of a cell's hash, through node:crypto (tweetnacl takes ~10 ms per signature). */
  signCell(cell: Cell): Buffer;
}

// The mnemonic's seed takes 100,000 PBKDF2 rounds (on libuv's threads): once per mnemonic per process, shared by networks.
const keyCache = new Map<string, Promise<FaucetKeys>>();

export function faucetKeys(mnemonic: string[]): Promise<FaucetKeys> {
  if (mnemonic.length !== 24 || mnemonic.some((w) => typeof w !== 'string' || !/^[a-z]+$/.test(w))) {
    throw new Error('faucet mnemonic: expected 24 lowercase words');
  }
  const key = mnemonic.join(' ');
  let keys = keyCache.get(key);
  if (!keys) {
    // @ton/crypto's mnemonicToPrivateKey, with the key pair derived by node:crypto: tweetnacl's pure-JS derivation
    // took ~75 ms of the main thread at start-up, before the code was optimized.
    keys = mnemonicToSeed(mnemonic, 'TON default seed').then((seed) => {
      const keyPair = ed25519KeyPair(seed.subarray(0, 32));
      return { keyPair, signCell: cellSigner(keyPair.secretKey) };
    });
    keyCache.set(key, keys);
  }
  return keys;
}

/** Signs cell hashes with a 64-byte @ton/crypto secret key, through node:crypto (~0.1 ms a signature). */
export function cellSigner(secretKey: Buffer): (cell: Cell) => Buffer {
  const privateKey = ed25519PrivateKey(secretKey.subarray(0, 32));
  return (cell: Cell) => sign(null, cell.hash(), privateKey);
}

/** The key pair of a 32-byte ed25519 seed in tweetnacl's (and @ton/crypto's) form: the secret key is seed + public key. */
export function ed25519KeyPair(seed: Buffer): KeyPair {
  // SPKI DER of an ed25519 key: a fixed 12-byte prefix, then the 32-byte public key.
  const publicKey = createPublicKey(ed25519PrivateKey(seed)).export({ format: 'der', type: 'spki' }).subarray(12);
  return { publicKey: Buffer.from(publicKey), secretKey: Buffer.concat([seed, publicKey]) };
}

/** A node:crypto key from a 32-byte ed25519 seed (PKCS#8 DER: fixed prefix + seed). */
function ed25519PrivateKey(seed: Buffer): KeyObject {
  const pkcs8Prefix = Buffer.from('302e020100300506032b657004220420', 'hex');
  return createPrivateKey({ key: Buffer.concat([pkcs8Prefix, seed]), format: 'der', type: 'pkcs8' });
}

export function faucetContracts(publicKey: Buffer, globalId: number): { v4: WalletContractV4; v5: WalletContractV5R1 } {
  return {
    v4: WalletContractV4.create({ workchain: 0, publicKey, walletId: V4R2_WALLET_ID }),
    v5: WalletContractV5R1.create({ publicKey, walletId: { networkGlobalId: globalId } }),
  };
}

export function faucetWallets(publicKey: Buffer, globalId: number): FaucetWallet[] {
  const { v4, v5 } = faucetContracts(publicKey, globalId);
  // v5r1 data: is_signature_allowed:1 seqno:32 wallet_id:32 ...
  const v5Data = v5.init.data.beginParse();
  v5Data.skip(1 + 32);
  return [
    { kind: 'v4r2', address: v4.address, walletId: V4R2_WALLET_ID, code: v4.init.code, data: v4.init.data },
    { kind: 'v5r1', address: v5.address, walletId: v5Data.loadUint(32), code: v5.init.code, data: v5.init.data },
  ];
}

/** What a fund leaves in the faucet for its own fees (a transfer costs ~0.005 TON; 1 TON is ample). */
const FAUCET_FEE_RESERVE = 1_000_000_000n;

export interface FaucetDeps {
  /** The network's name, for ChainStopped. */
  name: string;
  globalId: number;
  keys: FaucetKeys;
  wallets: FaucetWallet[];
  producer: BlockProducer;
  /** In manual mining a transfer asks for the block that seals it. */
  mining: Pick<Mining, 'manual' | 'produceBlock'>;
  /** Whether the chain is stopping: it sends nothing then. */
  stopping(): boolean;
}

/** The faucets of a chain: what they are, and transfers from the v4r2 one. */
export class Faucet {
  constructor(private readonly d: FaucetDeps) {}

  info(): FaucetInfo[] {
    return this.d.wallets.map(({ kind, address, walletId }) => ({ kind, address, walletId }));
  }

  /**
   * A real transfer from the v4r2 faucet: non-bounceable (so it can fund an address that has no
   * contract yet), signed with the faucet key. Funds run one at a time on the producer's lane, each
   * reading the faucet's seqno from the current state, so concurrent calls never reuse a seqno.
   */
  async fund(address: Address, amount: bigint): Promise<{ txHash: Buffer; lt: bigint; seqno: number }> {
    if (amount <= 0n) throw new ChainInputError('amount: must be positive');
    const { txHash, lt, seqno } = await this.send({ to: address, value: amount, bounce: false }, 'address');
    return { txHash, lt, seqno };
  }

  /**
   * One message from the v4r2 faucet (a signed transfer, mode pay-fees-separately + ignore-errors); resolves once
   * the faucet's transaction is in a sealed block, with the hash of the message it sent. `fund` is this with no
   * body; the jetton faucet sends a mint through it.
   */
  async send(message: FaucetMessage, addressField = 'to'): Promise<{ txHash: Buffer; lt: bigint; seqno: number; messageHash: Buffer }> {
    if (this.d.stopping()) throw new ChainStopped(this.d.name);
    const { to, value } = message;
    // A transfer to a workchain that does not exist would be dropped by the faucet's action phase.
    if (to.workChain !== BASECHAIN && to.workChain !== MASTERCHAIN) {
      throw new FundRefused(`${addressField}: workchain ${to.workChain} does not exist on this chain (${BASECHAIN} and ${MASTERCHAIN} do)`);
    }
    const faucet = faucetContracts(this.d.keys.keyPair.publicKey, this.d.globalId).v4;
    const { tx, sealed } = await this.d.producer.exclusive(async ({ execute, working, chainTime, whenSealed }) => {
      const view = new AccountView(faucet.address, Buffer.from(working.get(faucet.address), 'base64'));
      if (value > view.balance - FAUCET_FEE_RESERVE) {
        throw new FundRefused(
          `amount: the faucet ${faucet.address.toString()} holds ${view.balance} nanotons and keeps ${FAUCET_FEE_RESERVE} for fees; ask for at most ${view.balance - FAUCET_FEE_RESERVE}`,
        );
      }
      const seqno = view.data ? view.data.beginParse().loadUint(32) : 0;
      const body = await faucet.createTransfer({
        seqno,
        signer: async (cell: Cell) => this.d.keys.signCell(cell),
        messages: [internal({ to, value, bounce: message.bounce ?? true, body: message.body, init: message.init })],
        sendMode: SendMode.PAY_GAS_SEPARATELY | SendMode.IGNORE_ERRORS,
        timeout: chainTime() + 600,
      });
      const external_ = beginCell()
        .store(storeMessage(external({ to: faucet.address, body })))
        .endCell();
      const tx = await execute(parseExternal(external_.toBoc()));
      if (tx.outMsgs.length !== 1) {
        throw new FundFailed(`the faucet ${faucet.address.toString()} could not send ${value} nanotons (is its balance too low?)`);
      }
      return { tx, sealed: whenSealed(tx) };
    });
    // Manual mining: nobody else would seal it, and a fund answers once its transaction is in a block.
    if (this.d.mining.manual) this.d.mining.produceBlock().catch(() => undefined);
    return { txHash: tx.hash, lt: tx.lt, seqno: await sealed, messageHash: tx.outMsgs[0].hash };
  }
}
