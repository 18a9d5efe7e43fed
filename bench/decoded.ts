/**
 * `npm run bench:decoded`: what decoding message bodies (message_content.decoded, src/ton/decoded) costs
 * per message, against the comment-only decoding it replaced, measured in the same run.
 *
 * The messages are a mix a jetton-heavy local chain produces: wallet v5 and v4 externals (each with a
 * jetton transfer inside), jetton transfers, internal transfers, notifications, excesses, NFT
 * transfers, comments, empty bodies and unknown binary payloads. For each, in rounds (so load from other
 * processes hits both alike):
 *   comment-only   the old decoding (tonlib's comment rule and the empty cell, nothing else), as JSON text
 *   decoded        decodeMessageBody, as JSON text
 *   v3Message      the message document the index renders and stores at ingestion (JSON text, now
 *                  with decoded)
 * Printed: CPU ns per message (median over rounds, min..max of the rounds), the extra ns per message,
 * the ingestion-side rate ratio new / old for rendering a message document, where the old cost is
 * new - decoded + comment-only (both measured in the same round), and the documents' size.
 *
 * Flags: --rounds R (default 7), --runs N passes over the mix per round (default 200).
 */
import '../src/ton/core-speedups.js';
import { Address, beginCell, Cell, external, internal, SendMode, storeMessage, toNano } from '@ton/core';
import { WalletContractV4, WalletContractV5R1 } from '@ton/ton';
import { decodeMessageBody } from '../src/ton/decoded/decode.js';
import { commentBytes } from '../src/ton/message-body.js';
import { v3Message } from '../src/ton/message-json.js';
import { numberArg } from './support/args.js';

const rounds = numberArg('rounds', 7);
const runs = numberArg('runs', 200);

const A = new Address(0, Buffer.alloc(32, 0xa1));
const B = new Address(0, Buffer.alloc(32, 0xb2));
const KEY = Buffer.alloc(32, 7);
const SECRET = Buffer.alloc(64, 1);

const comment = (text: string) => beginCell().storeUint(0, 32).storeStringTail(text).endCell();
const jettonTransfer = beginCell()
  .storeUint(0x0f8a7ea5, 32)
  .storeUint(1, 64)
  .storeCoins(10n ** 9n)
  .storeAddress(A)
  .storeAddress(B)
  .storeMaybeRef(null)
  .storeCoins(1n)
  .storeBit(1)
  .storeRef(comment('order 42'))
  .endCell();
const internalTransfer = beginCell()
  .storeUint(0x178d4519, 32)
  .storeUint(1, 64)
  .storeCoins(10n ** 9n)
  .storeAddress(A)
  .storeAddress(B)
  .storeCoins(1n)
  .storeBit(0)
  .endCell();
const notify = beginCell()
  .storeUint(0x7362d09c, 32)
  .storeUint(1, 64)
  .storeCoins(10n ** 9n)
  .storeAddress(A)
  .storeBit(0)
  .storeUint(0, 32)
  .storeStringTail('hi')
  .endCell();
const excess = beginCell().storeUint(0xd53276db, 32).storeUint(1, 64).endCell();
const nftTransfer = beginCell()
  .storeUint(0x5fcc3d14, 32)
  .storeUint(1, 64)
  .storeAddress(A)
  .storeAddress(B)
  .storeMaybeRef(null)
  .storeCoins(1n)
  .storeBit(0)
  .endCell();
const binary = beginCell().storeUint(0x12345678, 32).storeBuffer(Buffer.alloc(80, 0x5a)).endCell();
const toJettonWallet = [internal({ to: A, value: toNano('0.1'), body: jettonTransfer })];
const v5 = WalletContractV5R1.create({ workchain: 0, publicKey: KEY }).createTransfer({
  seqno: 1,
  secretKey: SECRET,
  sendMode: SendMode.PAY_GAS_SEPARATELY,
  messages: toJettonWallet,
});
const v4 = WalletContractV4.create({ workchain: 0, publicKey: KEY }).createTransfer({
  seqno: 1,
  secretKey: SECRET,
  messages: toJettonWallet,
});

const info = {
  type: 'internal' as const,
  src: A,
  dest: B,
  value: { coins: toNano('0.05') },
  bounce: true,
  bounced: false,
  ihrDisabled: true,
  ihrFee: 0n,
  forwardFee: 1000n,
  createdLt: 7n,
  createdAt: 1,
};
const internalMessage = (body: Cell) => beginCell().store(storeMessage({ info, body })).endCell();
const externalMessage = (body: Cell) =>
  beginCell()
    .store(storeMessage(external({ to: A, body })))
    .endCell();

const mix: { body: Cell; message: Cell }[] = [
  { body: v5, message: externalMessage(v5) },
  { body: v4, message: externalMessage(v4) },
  ...[jettonTransfer, internalTransfer, notify, excess, nftTransfer, comment('thanks'), beginCell().endCell(), binary].map((body) => ({
    body,
    message: internalMessage(body),
  })),
];

/** The decoding before src/ton/decoded: comments and the empty cell only. */
function commentOnly(body: Cell): unknown {
  const text = commentBytes(body);
  if (text !== null) return { '@type': 'text_comment', comment: text.toString('utf8'), type: 'text_comment' };
  if (body.bits.length === 0 && body.refs.length === 0) return { '@type': 'empty_cell' };
  return null;
}

let sink = 0;
function cpuNsPerMessage(work: (m: { body: Cell; message: Cell }) => unknown): number {
  const start = process.cpuUsage();
  for (let r = 0; r < runs; r++) for (const m of mix) if (work(m) !== undefined) sink++;
  const used = process.cpuUsage(start);
  return ((used.user + used.system) * 1000) / (runs * mix.length);
}

const cases = {
  'comment-only': (m: { body: Cell }) => JSON.stringify(commentOnly(m.body)),
  decoded: (m: { body: Cell }) => JSON.stringify(decodeMessageBody(m.body)),
  v3Message: (m: { message: Cell }) => JSON.stringify(v3Message(m.message)),
};
const samples: Record<string, number[]> = { 'comment-only': [], decoded: [], v3Message: [] };
for (const work of Object.values(cases)) cpuNsPerMessage(work as never); // warm-up
for (let round = 0; round < rounds; round++) {
  for (const [name, work] of Object.entries(cases)) samples[name].push(cpuNsPerMessage(work as never));
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const spread = (xs: number[]) => `${Math.round(Math.min(...xs))}..${Math.round(Math.max(...xs))}`;
console.log(
  `bench:decoded, ${mix.length} kinds of message x ${runs} runs x ${rounds} rounds, load ${
    process.platform === 'linux'
      ? (await import('node:os'))
          .loadavg()
          .map((x) => x.toFixed(2))
          .join(' ')
      : '?'
  }`,
);
for (const [name, xs] of Object.entries(samples))
  console.log(`  ${name.padEnd(13)} ${Math.round(median(xs)).toString().padStart(7)} ns/message CPU (rounds ${spread(xs)})`);
const extra = samples.decoded.map((d, i) => d - samples['comment-only'][i]);
console.log(`  extra for decoded: ${Math.round(median(extra))} ns/message (rounds ${spread(extra)})`);
const ratios = samples.v3Message.map((v, i) => (v - samples.decoded[i] + samples['comment-only'][i]) / v);
console.log(
  `  message documents rendered per second, new / old: ${median(ratios).toFixed(2)} (rounds ${Math.min(...ratios).toFixed(2)}..${Math.max(...ratios).toFixed(2)})`,
);
// What the index stores: the message documents with their decoding, against comment-only decoding.
const stored = (decode: (body: Cell) => unknown) =>
  mix.reduce((sum, m) => {
    const json = v3Message(m.message);
    return sum + JSON.stringify({ ...json, message_content: { ...json.message_content, decoded: decode(m.body) } }).length;
  }, 0) / mix.length;
const before = stored(commentOnly);
const after = stored(decodeMessageBody);
console.log(
  `  stored message document: ${Math.round(after)} bytes on average (${Math.round(before)} with comment-only decoding, x${(after / before).toFixed(2)})`,
);
if (sink < 0) console.log(sink);
