/**
 * Pre-signed wallet v4 transfers for the benches: `walletCount` wallets (keys from seeds `seedBase` + i), each sending
 * `perWallet` transfers of 0.01 TON to a destination of its own (its first one also deploys it), interleaved round-robin
 * over the wallets, as a burst of clients would send them. Signing happens here, before any clock starts.
 */
import { beginCell, external, internal, storeMessage, toNano, type Address, type Cell } from '@ton/core';
import { keyPairFromSeed } from '@ton/crypto';
import { WalletContractV4 } from '@ton/ton/dist/wallets/v4/WalletContractV4.js';
import { cellSigner } from '../../src/chain/local/faucet.js';

export interface Transfer {
  wallet: Address;
  boc: Buffer;
}

export interface BenchWallet {
  contract: WalletContractV4;
  dest: Address;
}

/** Wallets and their pre-signed transfers, interleaved (round-robin over wallets). */
export async function prepare(
  walletCount: number,
  perWallet: number,
  seedBase: number,
): Promise<{ wallets: BenchWallet[]; transfers: Transfer[] }> {
  const validUntil = Math.floor(Date.now() / 1000) + 24 * 3600;
  const wallets: BenchWallet[] = [];
  const perWalletBocs: Buffer[][] = [];
  for (let w = 0; w < walletCount; w++) {
    const seed = Buffer.alloc(32);
    seed.writeUInt32BE(seedBase + w);
    const keys = keyPairFromSeed(seed);
    const contract = WalletContractV4.create({ workchain: 0, publicKey: keys.publicKey });
    const destSeed = Buffer.alloc(32, 0xdd);
    destSeed.writeUInt32BE(seedBase + w);
    const dest = WalletContractV4.create({ workchain: 0, publicKey: keyPairFromSeed(destSeed).publicKey }).address;
    const sign = cellSigner(keys.secretKey);
    const bocs: Buffer[] = [];
    for (let seqno = 0; seqno < perWallet; seqno++) {
      const body = await contract.createTransfer({
        seqno,
        signer: async (c: Cell) => sign(c),
        messages: [internal({ to: dest, value: toNano('0.01'), bounce: false })],
        timeout: validUntil,
      });
      bocs.push(
        beginCell()
          .store(storeMessage(external({ to: contract.address, body, init: seqno === 0 ? contract.init : undefined })))
          .endCell()
          .toBoc(),
      );
    }
    wallets.push({ contract, dest });
    perWalletBocs.push(bocs);
  }
  const transfers: Transfer[] = [];
  for (let seqno = 0; seqno < perWallet; seqno++) {
    for (let w = 0; w < walletCount; w++) transfers.push({ wallet: wallets[w].contract.address, boc: perWalletBocs[w][seqno] });
  }
  return { wallets, transfers };
}
