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
 * 3. Real mainnet key-block links (../shared/reference/mainnet-captures: four in the ordinary signature form, one
 *    in the simplex form): CPU to check each as a first start does (its validator set new), against the
 *    floor: node's ed25519 verifying the same signatures alone, keys made beforehand. Per round, ratio link / floor.
 * 4. A first start far behind: a synthetic chain of --links key blocks (default 1,000) of the captures' validator
 *    set's shape (bench/support/key-block-chain.ts), served 16 links per answer through the TL codec as a liteserver
 *    sends them, proven by MasterchainTrust with its links checked on their own thread as LiteChain does: time to
 *    the first proven head (goal <= 60 s), CPU of this process, and the worst event-loop delay of this thread
 *    meanwhile (what an HTTP request would have waited).
 *
 * Flags: --heads N (new heads measured, default 8), --rounds N (synthetic repetitions, default 30), --links N,
 * --real-rounds N (rounds over the captures, default 20), --no-node (sections 3 and 4 only).
 */
import '../src/ton/core-speedups.js';
import { createPublicKey, generateKeyPairSync, randomBytes, sign, verify, type KeyObject } from 'node:crypto';
import { availableParallelism, loadavg } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { TLReadBuffer, TLWriteBuffer } from 'ton-tl';
import { Codecs } from 'ton-lite-client/dist/schema.js';
import type { liteServer_partialBlockProof } from 'ton-lite-client/dist/schema.js';
import { checkForwardLink, provenBoc, ValidatorSetCache } from '../src/chain/lite/block-proofs/links.js';
import { keyBlockConfig } from '../src/chain/lite/block-proofs/proven-cells.js';
import { readProvenHeader } from '../src/chain/lite/block-cell.js';
import { defaultLinkThreads, ThreadLinkChecker } from '../src/chain/lite/block-proofs/link-checker.js';
import type { LitePool as LitePoolType } from '../src/chain/lite/pool.js';
import { forwardLinks, ordinaryForwardLinks } from '../test/support/mainnet-captures.js';
import { simplexSignedBytes } from '../src/chain/lite/block-proofs/simplex-signatures.js';
import type { ForwardLink } from '../src/chain/lite/block-proofs/proof-tl.js';
import { buildKeyBlockChain, setShape } from './support/key-block-chain.js';
import { threadCpu } from './support/thread-cpu.js';
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
import { hasFlag, numberArg } from './support/args.js';

const heads = numberArg('heads', 8);
const rounds = numberArg('rounds', 30);
const linkCount = numberArg('links', 1000);
const realRounds = numberArg('real-rounds', 20);
const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');

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
  keys.forEach((k, i) =>
    list.set(
      i,
      beginCell()
        .storeUint(0x73, 8)
        .storeUint(0x8e81278a, 32)
        .storeBuffer(k.publicKey)
        .storeUint(1_000_000 + i, 64)
        .storeBuffer(randomBytes(32))
        .endCell(),
    ),
  );
  const p34 = beginCell()
    .storeUint(0x12, 8)
    .storeUint(0, 32)
    .storeUint(0xffffffff, 32)
    .storeUint(total, 16)
    .storeUint(main, 16)
    .storeUint(0, 64)
    .storeDict(list)
    .endCell();
  const p28 = beginCell()
    .storeUint(0xc2, 8)
    .storeUint(0, 7)
    .storeBit(true)
    .storeUint(65536, 32)
    .storeUint(65536, 32)
    .storeUint(65536, 32)
    .storeUint(23, 32)
    .endCell();
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
    const signatures = [...validators.byNodeId.keys()].map((id) => ({
      nodeIdShort: Buffer.from(id, 'hex'),
      signature: sign(null, signed, byId.get(id)!.privateKey),
    }));
    t = performance.now();
    checkSignatures({ validatorSetHash: validators.hashShort, catchainSeqno: ccSeqno, signatures }, validators, block);
    sigMs.push(performance.now() - t);
  }
  return { setMs, sigMs, main };
}

// --- 3. real mainnet key-block links -----------------------------------------------------------------------------
/** The masterchain validators a real link's signatures are checked against (computed outside any timing). */
function linkValidators(link: ForwardLink) {
  const to = fromTlBlockId(link.to);
  const from = fromTlBlockId(link.from);
  const header = readProvenHeader(provenBoc(link.destProof, to.rootHash, 'dest'));
  return masterchainValidators(
    configValidators(keyBlockConfig(provenBoc(link.configProof, from.rootHash, 'config'))),
    header.catchainSeqno,
  );
}

function realLinks() {
  const links = ordinaryForwardLinks();
  if (links.length === 0) {
    console.log('real mainnet links: skipped (no captures; see test/support/mainnet-captures.ts)');
    return;
  }
  links.push(...forwardLinks(['one-link-simplex.hex']));
  // The floor's inputs: each signature with its signer's key as a KeyObject, made before any timing.
  const floors = links.map((link) => {
    const set = linkValidators(link);
    const signed =
      link.signatures.kind === 'liteServer.signatureSet.simplex'
        ? simplexSignedBytes(link.signatures)
        : Buffer.concat([Buffer.from('706e0bc5', 'hex'), link.to.rootHash, link.to.fileHash]);
    return link.signatures.signatures.map((s) => {
      const v = set.byNodeId.get(s.nodeIdShort.toString('hex'))!;
      return {
        key: createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: v.publicKey.toString('base64url') }, format: 'jwk' }) as KeyObject,
        signed,
        signature: s.signature,
      };
    });
  });
  for (const link of links) checkForwardLink(link, new ValidatorSetCache()); // warm-up
  const linkCpu: number[] = [];
  const floorCpu: number[] = [];
  const ratios: number[] = [];
  for (let r = 0; r < realRounds; r++) {
    let c = cpuMs();
    for (const link of links) checkForwardLink(link, new ValidatorSetCache());
    const l = (cpuMs() - c) / links.length;
    c = cpuMs();
    for (const sigs of floors)
      for (const s of sigs) if (!verify(null, s.signed, s.key, s.signature)) throw new Error('floor: a signature does not verify');
    const f = (cpuMs() - c) / links.length;
    linkCpu.push(l);
    floorCpu.push(f);
    ratios.push(l / f);
  }
  const sigs = links.reduce((n, l) => n + l.signatures.signatures.length, 0) / links.length;
  console.log(
    `\nreal mainnet key-block links (${links.length}, ~${sigs.toFixed(0)} signatures each, every one from a new key block; ${realRounds} rounds; load ${load()}):`,
  );
  console.log(`  CPU per link checked: p50 ${median(linkCpu).toFixed(2)} ms (${range(linkCpu)})`);
  console.log(`  floor, node's ed25519 on the same signatures alone: p50 ${median(floorCpu).toFixed(2)} ms (${range(floorCpu)})`);
  console.log(`  ratio link / floor: p50 ${median(ratios).toFixed(2)} (${range(ratios)})`);
}

// --- 4. a first start far behind ----------------------------------------------------------------------------------
async function firstStart() {
  const real = ordinaryForwardLinks()[0];
  const shape = real
    ? setShape(configValidators(keyBlockConfig(provenBoc(real.configProof, real.from.rootHash, 'config'))))
    : { total: 400, main: 100, weights: [1_000_000n] };
  let t = performance.now();
  const chain = buildKeyBlockChain(linkCount, shape);
  console.log(
    `\nfirst start: ${linkCount} key-block links of a ${shape.total}-validator set (${shape.main} for the masterchain${real ? ", the captures' weights" : ''}) built in ${((performance.now() - t) / 1000).toFixed(1)} s`,
  );
  // A liteserver's answers: 16 links each, as bytes on the wire, decoded as the connection decodes them.
  const answers = new Map<number, Buffer>();
  for (let i = 0; i < chain.links.length; i += 16) {
    const steps = chain.links.slice(i, i + 16);
    const answer: liteServer_partialBlockProof = {
      kind: 'liteServer.partialBlockProof',
      complete: i + 16 >= chain.links.length,
      from: steps[0].from,
      to: steps[steps.length - 1].to,
      steps,
    };
    const w = new TLWriteBuffer();
    Codecs.liteServer_partialBlockProof.encode(answer, w);
    answers.set(steps[0].from.seqno, w.build());
  }
  const pool = {
    async query(_f: unknown, request: { knownBlock: { seqno: number } }, options: { check?: (answer: unknown) => unknown }) {
      await new Promise((resolve) => setImmediate(resolve));
      const answer = Codecs.liteServer_partialBlockProof.decode(new TLReadBuffer(answers.get(request.knownBlock.seqno)!));
      await options.check?.(answer);
      return answer;
    },
  } as unknown as LitePoolType;
  const checker = new ThreadLinkChecker();
  const records: string[] = [];
  const trust = new MasterchainTrust(pool, fromTlBlockId(chain.init), undefined, {
    linkChecker: checker,
    logger: { info: (_f, message) => records.push(message) },
  });
  // The same thread's event-loop delay with nothing to do, just before: what the machine's load alone costs.
  const idle = monitorEventLoopDelay({ resolution: 5 });
  idle.enable();
  await new Promise((resolve) => setTimeout(resolve, 10_000));
  idle.disable();
  const delay = monitorEventLoopDelay({ resolution: 5 });
  delay.enable();
  const c = cpuMs();
  const mainBefore = mainThreadCpu();
  t = performance.now();
  await trust.verify(fromTlBlockId(chain.head));
  const wall = performance.now() - t;
  const cpu = cpuMs() - c;
  const mainCpu = mainBefore === null ? null : mainThreadCpu()! - mainBefore;
  delay.disable();
  await checker.close();
  console.log(
    `  first proven head after ${trust.stats.links} links, ${trust.stats.queries} answers: ${(wall / 1000).toFixed(1)} s wall (goal <= 60 s), ${(wall / trust.stats.links).toFixed(1)} ms per link; CPU of the process ${(cpu / 1000).toFixed(1)} s (both threads; load ${load()})`,
  );
  const cores = Math.min(availableParallelism(), defaultLinkThreads() + 1);
  if (mainCpu !== null)
    console.log(
      `  CPU of this (the HTTP) thread meanwhile: ${(mainCpu / 1000).toFixed(1)} s, ${(mainCpu / trust.stats.links).toFixed(1)} ms per link (TL decoding, sending links to the checking threads, ${defaultLinkThreads()} here); on ${cores} idle cores the first head would come after about ${(cpu / cores / 1000).toFixed(1)} s (CPU / cores)`,
    );
  console.log(
    `  this thread's event loop meanwhile: worst delay ${(delay.max / 1e6).toFixed(1)} ms, p99 ${(delay.percentile(99) / 1e6).toFixed(1)} ms; with nothing to do, 10 s before: worst ${(idle.max / 1e6).toFixed(1)} ms, p99 ${(idle.percentile(99) / 1e6).toFixed(1)} ms (ratio of p99s ${(delay.percentile(99) / idle.percentile(99)).toFixed(2)})`,
  );
  console.log(`  progress records logged: ${records.length} (last: ${records.at(-1)})`);
}

function mainThreadCpu(): number | null {
  const threads = threadCpu();
  if (!threads) return null;
  return [...threads.values()].filter((t) => t.group === 'main').reduce((n, t) => n + t.ms, 0);
}

realLinks();
await firstStart();

// --- 1. the local network ---------------------------------------------------------------------------------------
if (hasFlag('no-node') || !requireTonNode()) process.exit(0);
const node = await startTonNode();
try {
  const globalConfig = parseGlobalConfig(JSON.parse(readFileSync(node.globalConfigFile, 'utf8')));
  const pool = new LitePool({ servers: globalConfig.liteservers, clock: systemClock });
  const trust = new MasterchainTrust(pool, globalConfig.initBlock);
  const first = await pool.waitHead(30_000);
  const initial = await timed(() => trust.verify(fromTlBlockId(first.info.last)));
  console.log(
    `first head ${first.info.last.seqno}, proven from the init block (seqno ${globalConfig.initBlock.seqno}): ${initial.wall.toFixed(1)} ms wall, ${initial.cpu.toFixed(1)} ms CPU, ${trust.stats.queries} quer${trust.stats.queries === 1 ? 'y' : 'ies'}, ${trust.stats.links} link(s)`,
  );

  const proof: { wall: number; cpu: number }[] = [];
  const fetch: { wall: number; cpu: number }[] = [];
  const queries: number[] = [];
  let last = first.info.last.seqno;
  while (proof.length < heads) {
    const info = await new Promise<liteServer_masterchainInfo>((resolve) =>
      pool.once('head', ({ info }: { info: liteServer_masterchainInfo }) => resolve(info)),
    );
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
  console.log(
    `  proof (getBlockProof + checks)  wall p50 ${median(pw).toFixed(2)} ms (${range(pw)}), CPU p50 ${median(pc).toFixed(2)} ms (${range(pc)})`,
  );
  console.log(
    `  getBlock of the head (for scale) wall p50 ${median(fw).toFixed(2)} ms (${range(fw)}), CPU p50 ${median(fc).toFixed(2)} ms (${range(fc)})`,
  );
  console.log(`  ratio proof / getBlock: wall ${(median(pw) / median(fw)).toFixed(2)}, CPU ${(median(pc) / median(fc)).toFixed(2)}`);
  console.log(
    `  extra liteserver queries per head: ${median(queries)} (max ${Math.max(...queries)}); check time on this thread ${(trust.stats.checkMs / trust.stats.queries).toFixed(2)} ms per proof on average`,
  );
} finally {
  await node.stop();
}

const synthetic = syntheticMainnet();
console.log(`\nmainnet-sized, synthetic (400 validators, ${synthetic.main} for the masterchain, shuffled; ${rounds} rounds):`);
console.log(
  `  validator set from a key block's config (once per key block and catchain): p50 ${median(synthetic.setMs).toFixed(2)} ms (${range(synthetic.setMs)})`,
);
console.log(
  `  ${synthetic.main} signatures of a head checked (every head): p50 ${median(synthetic.sigMs).toFixed(2)} ms (${range(synthetic.sigMs)})`,
);
