/**
 * The faucet wallets of a local chain: a wallet v4r2 (wallet id 698983191) and a wallet v5r1 (wallet
 * id derived from the network's global id, as @ton/ton derives it for `networkGlobalId`), both from
 * one 24-word mnemonic, both active at genesis.
 */
import { createPrivateKey, sign, type KeyObject } from 'node:crypto';
import type { Address, Cell } from '@ton/core';
import { mnemonicToPrivateKey, type KeyPair } from '@ton/crypto';
import { WalletContractV4 } from '@ton/ton/dist/wallets/v4/WalletContractV4.js';
import { WalletContractV5R1 } from '@ton/ton/dist/wallets/v5r1/WalletContractV5R1.js';

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

// mnemonicToPrivateKey runs 100,000 PBKDF2 rounds: once per mnemonic per process, shared by networks.
const keyCache = new Map<string, Promise<FaucetKeys>>();

export function faucetKeys(mnemonic: string[]): Promise<FaucetKeys> {
  if (mnemonic.length !== 24 || mnemonic.some((w) => typeof w !== 'string' || !/^[a-z]+$/.test(w))) {
    throw new Error('faucet mnemonic: expected 24 lowercase words');
  }
  const key = mnemonic.join(' ');
  let keys = keyCache.get(key);
  if (!keys) {
    keys = mnemonicToPrivateKey(mnemonic).then((keyPair) => ({ keyPair, signCell: cellSigner(keyPair.secretKey) }));
    keyCache.set(key, keys);
  }
  return keys;
}

/** Signs cell hashes with a 64-byte @ton/crypto secret key, through node:crypto (~0.1 ms a signature). */
export function cellSigner(secretKey: Buffer): (cell: Cell) => Buffer {
  const privateKey = ed25519PrivateKey(secretKey.subarray(0, 32));
  return (cell: Cell) => sign(null, cell.hash(), privateKey);
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
