/**
 * A local chain with the traffic wallets make, for bench:actions: `owners` v4 wallets holding a jetton of tongate's
 * own TEP-74 master and wallet (src/contracts/jetton, minted to each owner by a minter wallet), and every round each
 * owner sends, in one external message, a jetton transfer of 1 to the next owner (forward 1 nanoton: a
 * notification; the response back: an excess) and a TON transfer with a comment to the same owner. A round is one
 * trace per owner of six transactions: wallet, TON receiver, jetton wallet, jetton wallet, notified owner, excess.
 *
 * Signing is apart from sending (`signRound`), as token-chain.ts does it: each wallet's seqno is known in advance.
 */
import { beginCell, contractAddress, internal, toNano, type Address } from '@ton/core';
import { LocalChain } from '../../src/chain/local/index.js';
import { onchainContent } from '../../src/contracts/content.js';
import { jettonMasterInit, jettonTransferBody, jettonWalletAddress, mintBody } from '../../src/contracts/jetton/jetton.js';
import { ManualClock } from '../../src/util/clock.js';
import { FAUCET_MNEMONIC, signedExternal, signer } from './token-chain.js';

/** The most messages a v4 wallet sends in one external. */
const PER_EXTERNAL = 4;

export interface ActionChain {
  chain: LocalChain;
  clock: ManualClock;
  master: Address;
  owners: Address[];
  /** Round `round`'s external messages, signed (rounds from 0, each sent once, in order). */
  signRound(round: number, validUntil: number): Buffer[];
  send(messages: Buffer[]): Promise<void>;
}

/** The chain with the master deployed and every owner minted 1000, sealed. */
export async function openActionChain(count: number): Promise<ActionChain> {
  const clock = new ManualClock();
  const chain = await LocalChain.open({ network: 'testnet', globalId: -3, faucetMnemonic: FAUCET_MNEMONIC, clock });
  const validUntil = () => Math.floor(clock.now() / 1000) + 60;
  const send = async (messages: Buffer[]) => {
    for (const boc of messages) await chain.sendExternal(boc);
  };
  const minter = signer(149);
  const owners = Array.from({ length: count }, (_, i) => signer(150 + i));
  const init = jettonMasterInit({ admin: minter.wallet.address, content: onchainContent({ name: 'Bench', symbol: 'BNC', decimals: '9' }) });
  const master = contractAddress(0, init);
  // A faucet transfer settles when a block seals it.
  await Promise.all([...[...owners, minter].map((s) => chain.fund(s.wallet.address, toNano('100'))), chain.produceBlock()]);

  // The minter deploys the master with its first mint, then mints to the others, four per external.
  const mints = owners.map((o, i) =>
    internal({
      to: master,
      value: toNano('0.2'),
      init: i === 0 ? init : undefined,
      body: mintBody({ to: o.wallet.address, amount: 1000n, tonAmount: toNano('0.05'), response: minter.wallet.address }),
    }),
  );
  for (let k = 0; k * PER_EXTERNAL < mints.length; k++)
    await send([signedExternal(minter, k, validUntil(), mints.slice(k * PER_EXTERNAL, (k + 1) * PER_EXTERNAL))]);
  await chain.produceBlock();
  await chain.produceBlock();

  const signRound = (round: number, until: number): Buffer[] =>
    owners.map((o, i) => {
      const next = owners[(i + 1) % count].wallet.address;
      const transfer = jettonTransferBody({
        to: next,
        amount: 1n,
        response: o.wallet.address,
        forwardTonAmount: 1n,
        queryId: BigInt(round),
      });
      const comment = beginCell().storeUint(0, 32).storeStringTail(`round ${round}`).endCell();
      return signedExternal(o, round, until, [
        internal({ to: jettonWalletAddress(o.wallet.address, master), value: toNano('0.1'), body: transfer }),
        internal({ to: next, value: toNano('0.01'), bounce: false, body: comment }),
      ]);
    });
  return { chain, clock, master, owners: owners.map((o) => o.wallet.address), signRound, send };
}
