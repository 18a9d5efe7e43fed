/**
 * A local chain with one jetton master and `wallets` owner wallets, each with its jetton wallet minted 1000
 * (test/v2/support/contracts.ts's fixtures), and a round of transfers: every owner sends a jetton `transfer`
 * body to its own jetton wallet, to the next owner. Shared by bench:tokens (detection on vs off) and
 * bench:token-relay (what each detection get-method costs the chain's main thread).
 */
import { beginCell, external, internal, SendMode, storeMessage, toNano, type Address } from '@ton/core';
import { WalletContractV4 } from '@ton/ton';
import { keyPairFromSeed } from '@ton/crypto';
import { LocalChain } from '../../src/chain/local/index.js';
import { ManualClock } from '../../src/util/clock.js';
import { addressOf, compileContracts } from '../../test/v2/support/contracts.js';

const FAUCET_MNEMONIC =
  'region sniff brass cake cave thank still hero chronic father maze leader eagle need surface orchard earn excite gravity forest seed auto polar hurt'.split(' ');

export interface JettonChain {
  chain: LocalChain;
  clock: ManualClock;
  master: Address;
  /** The owners' wallet addresses, in order. */
  owners: Address[];
  /** Each owner's jetton wallet, in order. */
  jettonWallets: Address[];
  /** Every owner sends one jetton transfer (query id `round`) to the next owner; not sealed yet. */
  sendRound(round: number): Promise<void>;
}

function transferBody(queryId: number, to: Address) {
  return beginCell().storeUint(0x0f8a7ea5, 32).storeUint(queryId, 64).storeCoins(1n).storeAddress(to).storeAddress(to).storeBit(false).storeCoins(0n).storeBit(false).endCell();
}

/** The chain with the master and every jetton wallet deployed and sealed (two blocks after the deploys). */
export async function openJettonChain(wallets: number): Promise<JettonChain> {
  const code = await compileContracts();
  const clock = new ManualClock();
  const chain = await LocalChain.open({ network: 'testnet', globalId: -3, faucetMnemonic: FAUCET_MNEMONIC, clock });
  const owners = Array.from({ length: wallets }, (_, i) => {
    const keys = keyPairFromSeed(Buffer.alloc(32, 100 + i));
    return { wallet: WalletContractV4.create({ workchain: 0, publicKey: keys.publicKey }), keys, seqno: 0 };
  });
  const masterInit = {
    code: code.jettonMaster,
    data: beginCell().storeCoins(1_000_000n).storeAddress(owners[0].wallet.address).storeRef(beginCell().storeUint(1, 8).storeStringTail('https://x/j.json').endCell()).storeRef(code.jettonWallet).endCell(),
  };
  const master = addressOf(masterInit);
  const jettonWallets = owners.map((o) => {
    const init = { code: code.jettonWallet, data: beginCell().storeCoins(0).storeAddress(o.wallet.address).storeAddress(master).endCell() };
    return { init, address: addressOf(init) };
  });
  await Promise.all([...owners.map((o) => chain.fund(o.wallet.address, toNano('100'))), chain.produceBlock()]);
  const send = async (i: number, messages: ReturnType<typeof internal>[]) => {
    const o = owners[i];
    const body = o.wallet.createTransfer({ seqno: o.seqno, secretKey: o.keys.secretKey, sendMode: SendMode.PAY_GAS_SEPARATELY, messages });
    const boc = beginCell().store(storeMessage(external({ to: o.wallet.address, body, init: o.seqno === 0 ? o.wallet.init : undefined }))).endCell().toBoc();
    o.seqno++;
    await chain.sendExternal(boc);
  };
  // Deploys: the master (by the first owner) and each owner's jetton wallet, minted 1000.
  for (let i = 0; i < wallets; i++) {
    const deploys = [internal({ to: jettonWallets[i].address, value: toNano('0.5'), bounce: false, init: jettonWallets[i].init, body: beginCell().storeCoins(1000n).endCell() })];
    if (i === 0) deploys.push(internal({ to: master, value: toNano('0.5'), bounce: false, init: masterInit }));
    await send(i, deploys);
  }
  await chain.produceBlock();
  await chain.produceBlock();
  return {
    chain,
    clock,
    master,
    owners: owners.map((o) => o.wallet.address),
    jettonWallets: jettonWallets.map((w) => w.address),
    async sendRound(round) {
      for (let i = 0; i < wallets; i++) {
        await send(i, [internal({ to: jettonWallets[i].address, value: toNano('0.05'), body: transferBody(round, owners[(i + 1) % wallets].wallet.address) })]);
      }
    },
  };
}
