/**
 * `npm run bench:lite-trust`: what believing a masterchain head only once it is proven costs (chain/lite/block-proofs).
 *
 * 1. On a real one-validator TON network (../shared/ton-node, as the tests start it; or TONGATE_TON_NET_DIR): for
 *    each new head, in turn, the proof tongate asks for (getBlockProof from the last proven key block, checked:
 *    header, validator set, signatures) and, for scale, what adopting a head costs anyway (getBlock of it, checked
 *    against its hashes). Wall time and this process's CPU of each, their ratio, and the extra liteserver queries
 *    per head. The first proof (from the config's init block: here the zero state) is shown apart.
 * 2. Mainnet-sized checks without a network (the local network has one validator): a config of 400 validators,
 *    100 of them (shuffled) for the masterchain, 100 signatures (what a mainnet head carries): CPU to compute the
 *    set from a key block's config (once per key block and catchain) and to check a head's signatures (every head).
 *
 * Flags: --heads N (new heads measured, default 8), --rounds N (synthetic repetitions, default 30).
 */
import { generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { beginCell, Dictionary, type Builder, type Cell, type Slice } from '@ton/core';
import { Functions } from 'ton-lite-client/dist/schema.js';
import type { liteServer_masterchainInfo } from 'ton-lite-client/dist/schema.js';
import { requireTonNode, startTonNode } from '../test/support/ton-node.js';
import { LitePool } from '../src/chain/lite/pool.js';
import { MasterchainTrust } from '../src/chain/lite/block-proofs/masterchain-trust.js';
import { fromTlBlockId, toTlBlockId } from '../src/chain/lite/blocks.js';
import { checkSignatures } from '../src/chain/lite/block-proofs/signatures.js';
import { configValidators, masterchainValidators, nodeIdShort } from '../src/chain/lite/block-proofs/validator-set.js';
import { parseGlobalConfig } from '../src/ton/global-config.js';
import { systemClock } from '../src/util/clock.js';
import { numberArg } from './support/args.js';

const heads = numberArg('heads', 8);
const rounds = numberArg('rounds', 30);

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const range = (xs: number[]) => `${Math.min(...xs).toFixed(2)}-${Math.max(...xs).toFixed(2)}`;
const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
async function timed(f: () => Promise<unknown>): Promise<{ wall: number; cpu: number }> {
  const c = cpuMs();
  const w = performance.now();
  await f();
  return { wall: performance.now() - w, cpu: cpuMs() - c };
}

// --- 2. mainnet-sized, synthetic --------------------------------------------------------------------------------
function syntheticMainnet() {
  const total = 400;
  const main = 100;
  const keys = Array.from({ length: total }, () => {
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    const spki = publicKey.export({ format: 'der', type: 'spki' });
    return { privateKey, publicKey: spki.subarray(spki.length - 32) };
  });
  const validator = { serialize: (v: Cell, b: Builder) => b.storeSlice(v.beginParse()), parse: (s: Slice) => s.asCell() };
  const list = Dictionary.empty(Dictionary.Keys.Uint(16), validator);
  keys.forEach((k, i) => list.set(i, beginCell().storeUint(0x73, 8).storeUint(0x8e81278a, 32).storeBuffer(k.publicKey).storeUint(1_000_000 + i, 64).storeBuffer(randomBytes(32)).endCell()));
  const p34 = beginCell().storeUint(0x12, 8).storeUint(0, 32).storeUint(0xffffffff, 32).storeUint(total, 16).storeUint(main, 16).storeUint(0, 64).storeDict(list).endCell();
  const p28 = beginCell().storeUint(0xc2, 8).storeUint(0, 7).storeBit(true).storeUint(65536, 32).storeUint(65536, 32).storeUint(65536, 32).storeUint(23, 32).endCell();
  const config = Dictionary.empty(Dictionary.Keys.Uint(32), Dictionary.Values.Cell());
  config.set(34, p34);
  config.set(28, p28);
  const configCell = beginCell().storeDictDirect(config).endCell();
  const block = { rootHash: randomBytes(32), fileHash: randomBytes(32), seqno: 1 };
  const signed = Buffer.concat([Buffer.from('706e0bc5', 'hex'), block.rootHash, block.fileHash]);
  const byId = new Map(keys.map((k) => [nodeIdShort(k.publicKey).toString('hex'), k]));

  const setMs: number[] = [];
  const sigMs: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const ccSeqno = 1000 + r;
    let t = performance.now();
    const validators = masterchainValidators(configValidators(configCell), ccSeqno);
    setMs.push(performance.now() - t);
    const signatures = [...validators.byNodeId.keys()].map((id) => ({ nodeIdShort: Buffer.from(id, 'hex'), signature: sign(null, signed, byId.get(id)!.privateKey) }));
    t = performance.now();
    checkSignatures({ validatorSetHash: validators.hashShort, catchainSeqno: ccSeqno, signatures }, validators, block);
    sigMs.push(performance.now() - t);
  }
  return { setMs, sigMs, main };
}

// --- 1. the local network ---------------------------------------------------------------------------------------
if (!requireTonNode()) process.exit(0);
const node = await startTonNode();
try {
  const globalConfig = parseGlobalConfig(JSON.parse(readFileSync(node.globalConfigFile, 'utf8')));
  const pool = new LitePool({ servers: globalConfig.liteservers, clock: systemClock });
  const trust = new MasterchainTrust(pool, globalConfig.initBlock);
  const first = await pool.waitHead(30_000);
  const initial = await timed(() => trust.verify(fromTlBlockId(first.info.last)));
  console.log(`first head ${first.info.last.seqno}, proven from the init block (seqno ${globalConfig.initBlock.seqno}): ${initial.wall.toFixed(1)} ms wall, ${initial.cpu.toFixed(1)} ms CPU, ${trust.stats.queries} quer${trust.stats.queries === 1 ? 'y' : 'ies'}, ${trust.stats.links} link(s)`);

  const proof: { wall: number; cpu: number }[] = [];
  const fetch: { wall: number; cpu: number }[] = [];
  const queries: number[] = [];
  let last = first.info.last.seqno;
  while (proof.length < heads) {
    const info = await new Promise<liteServer_masterchainInfo>((resolve) => pool.once('head', ({ info }: { info: liteServer_masterchainInfo }) => resolve(info)));
    if (info.last.seqno <= last) continue;
    last = info.last.seqno;
    const id = fromTlBlockId(info.last);
    const before = trust.stats.queries;
    proof.push(await timed(() => trust.verify(id)));
    queries.push(trust.stats.queries - before);
    fetch.push(await timed(() => pool.query(Functions.liteServer_getBlock, { kind: 'liteServer.getBlock', id: toTlBlockId(id) })));
  }
  pool.close();
  const pw = proof.map((p) => p.wall);
  const pc = proof.map((p) => p.cpu);
  const fw = fetch.map((p) => p.wall);
  const fc = fetch.map((p) => p.cpu);
  console.log(`\nper new head (${heads} heads, one validator):`);
  console.log(`  proof (getBlockProof + checks)  wall p50 ${median(pw).toFixed(2)} ms (${range(pw)}), CPU p50 ${median(pc).toFixed(2)} ms (${range(pc)})`);
  console.log(`  getBlock of the head (for scale) wall p50 ${median(fw).toFixed(2)} ms (${range(fw)}), CPU p50 ${median(fc).toFixed(2)} ms (${range(fc)})`);
  console.log(`  ratio proof / getBlock: wall ${(median(pw) / median(fw)).toFixed(2)}, CPU ${(median(pc) / median(fc)).toFixed(2)}`);
  console.log(`  extra liteserver queries per head: ${median(queries)} (max ${Math.max(...queries)}); check time on this thread ${(trust.stats.checkMs / trust.stats.queries).toFixed(2)} ms per proof on average`);
} finally {
  await node.stop();
}

const synthetic = syntheticMainnet();
console.log(`\nmainnet-sized, synthetic (400 validators, ${synthetic.main} for the masterchain, shuffled; ${rounds} rounds):`);
console.log(`  validator set from a key block's config (once per key block and catchain): p50 ${median(synthetic.setMs).toFixed(2)} ms (${range(synthetic.setMs)})`);
console.log(`  ${synthetic.main} signatures of a head checked (every head): p50 ${median(synthetic.sigMs).toFixed(2)} ms (${range(synthetic.sigMs)})`);
