/**
 * The wallets the lite benches load a real network with: fresh v4 wallets, and their transfers to the hub signed
 * before any measured window opens (ed25519 signing would hold the measuring thread and count as tongate's delay).
 * One signature at a time, yielding between them: a thread held for seconds would find its liteserver queries
 * (health checks included) timed out before their answers are read, and drop the connection.
 */
import { randomBytes } from 'node:crypto';
import { beginCell, external, internal, SendMode, storeMessage, toNano, type Address, type Cell } from '@ton/core';
import { keyPairFromSeed, type KeyPair } from '@ton/crypto';
import { WalletContractV4, WalletContractV5R1 } from '@ton/ton';
import { genesisTransfer, type TonNode } from '../../test/support/ton-node.js';
import { waitFor } from './http-json.js';

export interface Sender {
  key: KeyPair;
  wallet: WalletContractV4;
}

export function newSenders(count: number): Sender[] {
  return Array.from({ length: count }, () => {
    const key = keyPairFromSeed(randomBytes(32));
    return { key, wallet: WalletContractV4.create({ workchain: 0, publicKey: key.publicKey }) };
  });
}

/** What funding needs of the tongate under test (each bench calls it its own way: one records its calls). */
export interface FundingCalls {
  sendBoc(boc: string): Promise<unknown>;
  balance(address: Address): Promise<bigint>;
  seqno(address: Address): Promise<number>;
}

/** `count` new senders with 10 TON each, paid in one transfer by a v5 hub wallet that the genesis wallet funds. */
export async function fundedSenders(node: TonNode, globalId: number, count: number, calls: FundingCalls) {
  const hubKey = keyPairFromSeed(randomBytes(32));
  const hub = WalletContractV5R1.create({ publicKey: hubKey.publicKey, walletId: { networkGlobalId: globalId } });
  const genesisSeqno = await calls.seqno(node.genesisAddress);
  await calls.sendBoc(
    genesisTransfer(node, genesisSeqno, internal({ to: hub.address, value: toNano(100_000), bounce: false })).toString('base64'),
  );
  await waitFor('the hub wallet to be funded', async () => (await calls.balance(hub.address)) > 0n);
  const senders = newSenders(count);
  const pay = hub.createTransfer({
    seqno: 0,
    secretKey: hubKey.secretKey,
    sendMode: SendMode.PAY_GAS_SEPARATELY,
    messages: senders.map((s) => internal({ to: s.wallet.address, value: toNano(10), bounce: false })),
  });
  await calls.sendBoc(externalBoc(hub.address, pay, hub.init));
  await waitFor('the senders to be funded', async () =>
    (await Promise.all(senders.map((s) => calls.balance(s.wallet.address)))).every((b) => b > 0n),
  );
  return { hub, senders };
}

/** An external message to `to` as the base64 BoC sendBoc takes. */
export function externalBoc(to: Address, body: Cell, init?: { code: Cell; data: Cell }): string {
  return beginCell()
    .store(storeMessage(external({ to, body, init })))
    .endCell()
    .toBoc()
    .toString('base64');
}

/** `rounds` rounds of one 0.01 TON transfer per sender to `hub` (round 0 also deploys each wallet), as BoCs. */
export async function signedRounds(senders: Sender[], rounds: number, hub: Address, validForSeconds?: number): Promise<string[][]> {
  const timeout = validForSeconds === undefined ? undefined : Math.floor(Date.now() / 1000) + validForSeconds;
  const bocs: string[][] = [];
  for (let round = 0; round < rounds; round++) {
    const signed: string[] = [];
    for (const s of senders) {
      const body = s.wallet.createTransfer({
        seqno: round,
        secretKey: s.key.secretKey,
        sendMode: SendMode.PAY_GAS_SEPARATELY,
        messages: [internal({ to: hub, value: toNano(0.01) })],
        ...(timeout === undefined ? {} : { timeout }),
      });
      signed.push(externalBoc(s.wallet.address, body, round === 0 ? s.wallet.init : undefined));
      await new Promise((resolve) => setImmediate(resolve));
    }
    bocs.push(signed);
  }
  return bocs;
}

/**
 * Sends one round's BoCs at once and waits until every sender's seqno says it landed. Three wallets are polled first
 * (not all: the polls would load the process whose CPU is measured), then all are checked.
 */
export async function sendRound(
  round: number,
  bocs: string[],
  senders: Sender[],
  calls: Pick<FundingCalls, 'seqno'> & { send(boc: string): Promise<{ ok: boolean }> },
): Promise<void> {
  const sent = await Promise.all(bocs.map((boc) => calls.send(boc)));
  const refused = sent.filter((r) => !r.ok);
  if (refused.length > 0)
    throw new Error(`round ${round + 1}: ${refused.length} sends refused, e.g. ${JSON.stringify(refused[0]).slice(0, 300)}`);
  const probes = [senders[0], senders[senders.length >> 1], senders[senders.length - 1]];
  const landed = async (group: Sender[]) =>
    (await Promise.all(group.map((s) => calls.seqno(s.wallet.address)))).every((n) => n === round + 1);
  await waitFor(`round ${round + 1} to land`, async () => (await landed(probes)) && (await landed(senders)));
}
