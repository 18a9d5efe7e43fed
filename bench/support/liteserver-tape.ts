/**
 * A liteserver's answers on tape, for `bench:lite-lag --replay`: recorded from a real network while a lite tongate
 * follows it, then served at a chosen pace by a stand-in liteserver, so the follower meets the same blocks, proofs
 * and signatures (the real network's, checked as ever) without the validator competing for the CPU.
 *
 *   record <dir> <host> <port> <publicKeyBase64>
 *       An ADNL server (test/support/adnl-server.ts) that relays every query to the real liteserver (through
 *       tongate's own LiteConnection) and keeps each answer by its query's bytes. The masterchain info of each head
 *       is kept by seqno, from the queries relayed and from a next-head watch of its own (next-head.ts), so every
 *       head is on tape. On `{ type: 'save', start, end, pinned }`: what a replayed tongate may ask that the
 *       recorded one did not (the proof of each head in start..end from the key blocks it proved from, the config
 *       at each head, the backward proofs of the blocks the load's get-methods were `pinned` to) is asked now, then
 *       all is written to dir.
 *   replay <dir> <start> <end>
 *       Serves the tape: the head is `start` until `{ type: 'go', paceMs, v2, calls }` (it answers `{ type:
 *       'started', at }`, Date.now() then), then one masterchain block more every paceMs by the clock up to `end`.
 *       getMasterchainInfo answers the newest head on tape at or below it; a query behind the waitMasterchainSeqno
 *       prefix waits for its block (or answers liteServer.error 652 after its timeout, as a liteserver does); any
 *       other query gets its recorded answer, or liteServer.error 651 when the tape has none (counted). The
 *       clients' HTTP calls of the recorded load are made to tongate again as the head they were made at comes out:
 *       from here, not from the process measured, as clients are elsewhere. `{ type: 'stats' }`: what was served,
 *       missed, called.
 *
 * Run as a child process (bench/lite-lag.ts starts it), so its CPU is its own, as a liteserver's is; it says
 * `{ type: 'ready', port, publicKey }` on its IPC channel.
 *
 * Files in dir: answers.bin (query, answer; query, answer; ... each as a uint32 LE length and the bytes: the
 * query is the data of liteServer.query, the answer the bytes the liteserver answered), heads.bin (each head's
 * liteServer.masterchainInfo, length-prefixed the same way).
 */
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TLReadBuffer, TLWriteBuffer, type TLFunction } from 'ton-tl';
import { Codecs, Functions, type liteServer_masterchainInfo, type tonNode_blockIdExt } from 'ton-lite-client/dist/schema.js';
import { LiteConnection } from '../../src/chain/lite/connection.js';
import { LiteServerError } from '../../src/chain/lite/errors.js';
import { nextHead } from '../../src/chain/lite/next-head.js';
import { getBlockProof } from '../../src/chain/lite/block-proofs/proof-tl.js';
import { TARGET_FROM_DB } from '../../src/chain/lite/block-proofs/masterchain-trust.js';
import { startAdnlServer, type OnAdnlConnection } from '../../test/support/adnl-server.js';
import { json } from './http-json.js';

/** A query as bytes, its answer as bytes: the relay neither reads nor rewrites what it carries. */
const raw: TLFunction<Buffer, Buffer> = {
  encodeRequest(bytes, encoder) {
    for (const byte of bytes) encoder.writeUInt8(byte);
  },
  decodeResponse: (decoder) => decoder.readObject(),
};

function encoded<REQ>(f: TLFunction<REQ, unknown>, request: REQ): Buffer {
  const w = new TLWriteBuffer();
  f.encodeRequest(request, w);
  return w.build();
}

const GET_MASTERCHAIN_INFO = encoded(Functions.liteServer_getMasterchainInfo, { kind: 'liteServer.getMasterchainInfo' });
/** waitMasterchainSeqno's constructor, then seqno and timeout (12 bytes), then the query it holds. */
const WAIT_PREFIX = encoded(Functions.liteServer_waitMasterchainSeqno, {
  kind: 'liteServer.waitMasterchainSeqno',
  seqno: 0,
  timeoutMs: 0,
}).subarray(0, 4);
const GET_BLOCK_PROOF = encoded(getBlockProof, {
  kind: 'liteServer.getBlockProof',
  mode: 0,
  knownBlock: zeroId(),
  targetBlock: null,
}).subarray(0, 4);

function zeroId(): tonNode_blockIdExt {
  return {
    kind: 'tonNode.blockIdExt',
    workchain: -1,
    shard: '-9223372036854775808',
    seqno: 0,
    rootHash: Buffer.alloc(32),
    fileHash: Buffer.alloc(32),
  };
}

/** A reader of a copy: ton-tl reverses an int64's bytes where they lie, and the bytes read are relayed or kept as they came. */
const reader = (bytes: Buffer) => new TLReadBuffer(Buffer.from(bytes));

function errorAnswer(code: number, message: string): Buffer {
  const w = new TLWriteBuffer();
  Codecs.liteServer_Error.encode({ kind: 'liteServer.error', code, message }, w);
  return w.build();
}

function answerMessage(queryId: Buffer, answer: Buffer): Buffer {
  const w = new TLWriteBuffer();
  Codecs.adnl_Message.encode({ kind: 'adnl.message.answer', queryId, answer }, w);
  return w.build();
}

/** The liteServer.query in an ADNL payload: its id and data, or undefined (another message). */
function liteQuery(payload: Buffer): { queryId: Buffer; data: Buffer } | undefined {
  let message;
  try {
    message = Codecs.adnl_Message.decode(reader(payload));
  } catch {
    return undefined;
  }
  if (message.kind !== 'adnl.message.query') return undefined;
  const r = reader(message.query);
  r.readInt32(); // liteServer.query
  return { queryId: message.queryId, data: r.readBuffer() };
}

/** The held query of a waitMasterchainSeqno prefix, with its seqno and timeout; undefined without the prefix. */
function waitPrefix(data: Buffer): { seqno: number; timeoutMs: number; rest: Buffer } | undefined {
  if (data.length < 12 || !data.subarray(0, 4).equals(WAIT_PREFIX)) return undefined;
  return { seqno: data.readInt32LE(4), timeoutMs: data.readInt32LE(8), rest: data.subarray(12) };
}

const masterchainInfo = (bytes: Buffer) => Codecs.liteServer_MasterchainInfo.decode(reader(bytes)) as liteServer_masterchainInfo;
const seqnoOf = (info: Buffer) => masterchainInfo(info).last.seqno;

function lengthPrefixed(parts: Buffer[]): Buffer {
  const out: Buffer[] = [];
  for (const part of parts) {
    const size = Buffer.alloc(4);
    size.writeUInt32LE(part.length);
    out.push(size, part);
  }
  return Buffer.concat(out);
}

function* readLengthPrefixed(bytes: Buffer): Generator<Buffer> {
  for (let at = 0; at < bytes.length;) {
    const size = bytes.readUInt32LE(at);
    yield bytes.subarray(at + 4, at + 4 + size);
    at += 4 + size;
  }
}

const send = (message: object) => process.send!(message);

async function record(dir: string, host: string, port: number, publicKey: Buffer): Promise<void> {
  const upstream = new LiteConnection({ host, port, publicKey });
  await upstream.waitReady(30_000);
  const answers = new Map<string, { query: Buffer; answer: Buffer }>();
  const heads = new Map<number, Buffer>();
  const keep = (query: Buffer, answer: Buffer) => answers.set(query.toString('base64'), { query, answer });
  const keepHead = (info: Buffer) => heads.set(seqnoOf(info), info);

  /** The real server's answer to `data` (a liteServer.error as its bytes), kept on tape. */
  const ask = async (data: Buffer): Promise<Buffer> => {
    let answer: Buffer;
    try {
      answer = await upstream.query(raw, data, 30_000);
    } catch (err) {
      if (!(err instanceof LiteServerError)) throw err;
      answer = errorAnswer(err.code, err.text);
    }
    const held = waitPrefix(data);
    const inner = held ? held.rest : data;
    if (inner.equals(GET_MASTERCHAIN_INFO)) {
      if (!isError(answer)) keepHead(answer);
    } else if (!held) keep(data, answer);
    return answer;
  };

  const onConnection: OnAdnlConnection = (peer) => (payload) => {
    const query = liteQuery(payload);
    if (!query) return;
    // A relay that fails (the real server gone) answers nothing: the client's own timeout says so.
    ask(query.data).then(
      (answer) => peer.send(answerMessage(query.queryId, answer)),
      () => undefined,
    );
  };
  const server = await startAdnlServer(onConnection);

  // Every head, as soon as the real server has it (the follower may learn of one the relayed queries skipped).
  let watching = true;
  const watch = (async () => {
    let last = seqnoOf(await ask(GET_MASTERCHAIN_INFO));
    while (watching) {
      const answer = await ask(encoded(nextHead, { seqno: last + 1, timeoutMs: 3000 })).catch(() => undefined);
      if (answer && !isError(answer)) last = seqnoOf(answer);
    }
  })();

  process.on('message', (message: { type: string; start: number; end: number; pinned: number[] }) => {
    if (message.type !== 'save') return;
    void (async () => {
      watching = false;
      await watch;
      const extra = besides(answers, heads, message);
      for (const query of extra) await ask(query);
      const kept = [...heads.entries()].filter(([seqno]) => seqno <= message.end).sort((a, b) => a[0] - b[0]);
      writeFileSync(join(dir, 'heads.bin'), lengthPrefixed(kept.map(([, info]) => info)));
      const file = join(dir, 'answers.bin');
      writeFileSync(file, '');
      let bytes = 0;
      for (const { query, answer } of answers.values()) {
        appendFileSync(file, lengthPrefixed([query, answer]));
        bytes += query.length + answer.length;
      }
      upstream.close();
      await server.close();
      send({
        type: 'saved',
        answers: answers.size,
        heads: kept.length,
        missingHeads: message.end - message.start + 1 - kept.filter(([seqno]) => seqno >= message.start).length,
        asked: extra.length,
        bytes,
      });
    })();
  });
  send({ type: 'ready', port: server.port, publicKey: server.publicKey.toString('base64') });
}

const ERROR_ID = errorAnswer(0, '').readInt32LE(0);
const isError = (answer: Buffer) => answer.length >= 4 && answer.readInt32LE(0) === ERROR_ID;

/**
 * What a replayed tongate may ask that the recorded one did not (not on the tape yet):
 * - the proof of each head in start..end from the key blocks the recorded one proved from (the newest below it,
 *   and the one before: a key block passed between two heads): a replayed follower may learn of a head the
 *   recorded one skipped (it learnt of two at once);
 * - the config at each head: tongate reads a key block's config once, at the first block that needs it (a
 *   get-method's emulation), and a replay's first get-method may run at another block; likewise each head's id
 *   by seqno (lookupBlock: a get-method's 16 previous blocks);
 * - a backward proof of each block a get-method was `pinned` to, from each of the 8 heads after it: a block that
 *   was never the replayed tongate's head is proven back from its head.
 */
function besides(
  answers: Map<string, { query: Buffer }>,
  heads: Map<number, Buffer>,
  range: { start: number; end: number; pinned: number[] },
): Buffer[] {
  const keyBlocks = new Map<number, tonNode_blockIdExt>();
  for (const { query } of answers.values()) {
    if (!query.subarray(0, 4).equals(GET_BLOCK_PROOF)) continue;
    const r = reader(query);
    r.readInt32();
    const mode = r.readInt32();
    const from = Codecs.tonNode_blockIdExt.decode(r);
    if (mode === 1) keyBlocks.set(from.seqno, from);
  }
  const keys = [...keyBlocks.values()].sort((a, b) => a.seqno - b.seqno);
  const idOf = (seqno: number) => {
    const info = heads.get(seqno);
    return info && masterchainInfo(info).last;
  };
  const queries: Buffer[] = [];
  for (let seqno = range.start; seqno <= range.end; seqno++) {
    const target = idOf(seqno);
    if (!target) continue;
    for (const knownBlock of keys.filter((k) => k.seqno < seqno).slice(-2)) {
      queries.push(encoded(getBlockProof, { kind: 'liteServer.getBlockProof', mode: 1, knownBlock, targetBlock: target }));
    }
    queries.push(encoded(Functions.liteServer_getConfigAll, { kind: 'liteServer.getConfigAll', id: target, mode: 0 }));
    queries.push(
      encoded(Functions.liteServer_lookupBlock, {
        kind: 'liteServer.lookupBlock',
        mode: 1,
        id: { kind: 'tonNode.blockId', workchain: -1, shard: target.shard, seqno },
        lt: null,
        utime: null,
      }),
    );
  }
  for (const seqno of new Set(range.pinned)) {
    const target = idOf(seqno);
    for (let after = seqno + 1; after <= seqno + 8 && target; after++) {
      const knownBlock = idOf(after);
      if (knownBlock)
        queries.push(encoded(getBlockProof, { kind: 'liteServer.getBlockProof', mode: TARGET_FROM_DB, knownBlock, targetBlock: target }));
    }
  }
  return queries.filter((q) => !answers.has(q.toString('base64')));
}

/** A query's function and the masterchain block it names, if any (for the misses' count). */
function describeQuery(data: Buffer): string {
  const id = data.readUInt32LE(0);
  const name = Object.entries(Functions).find(([, f]) => encodedId(f) === id)?.[0] ?? `0x${id.toString(16)}`;
  // Most queries name a masterchain block (workchain -1, shard, seqno) first, or after a mode.
  for (const at of [4, 8]) if (data.length >= at + 16 && data.readInt32LE(at) === -1) return `${name} at ${data.readInt32LE(at + 12)}`;
  return name;
}

const ids = new Map<unknown, number | undefined>();
function encodedId(f: TLFunction<any, unknown>): number | undefined {
  if (!ids.has(f)) {
    // The constructor is written first; the empty request fails after it.
    const w = new TLWriteBuffer();
    try {
      f.encodeRequest({} as never, w);
    } catch {
      // expected
    }
    const bytes = w.build();
    ids.set(f, bytes.length >= 4 ? bytes.readUInt32LE(0) : undefined);
  }
  return ids.get(f);
}

/**
 * Starts the replay: the pace, and the HTTP calls of the load to make again (`v2`: the tongate under test). Calls
 * of one batch were made together once the network had reached `head`, after the batch before was answered; a
 * get-method's `seqno` is the block its recorded answer was read at.
 */
export interface GoMessage {
  type: 'go';
  paceMs: number;
  v2: string;
  calls: { head: number; batch: number; path: string; body?: Record<string, unknown> }[];
}

/**
 * The calls, batch after batch: each made at once when the head it was made at is out (and the block after any
 * block a call is pinned to, so tongate has learned of that one as it had), the next when all are answered.
 */
async function makeCalls(v2: string, calls: GoMessage['calls'], untilHead: (seqno: number) => Promise<void>): Promise<string[]> {
  /** Per call, '' or what went wrong. */
  const results: string[] = [];
  for (let i = 0; i < calls.length;) {
    let j = i;
    while (j < calls.length && calls[j].batch === calls[i].batch) j++;
    const batch = calls.slice(i, j);
    const due = Math.max(...batch.map((c) => Math.max(c.head, typeof c.body?.seqno === 'number' ? c.body.seqno + 1 : 0)));
    await untilHead(due);
    const answers = batch.map((c) =>
      json(`${v2}/${c.path}`, c.body).then(
        (a) => (a.ok === true ? '' : `${c.path}: ${a.code} ${a.error}`),
        (err: Error) => `${c.path}: ${err.message}`,
      ),
    );
    results.push(...(await Promise.all(answers)));
    i = j;
  }
  return results;
}

async function replay(dir: string, start: number, end: number): Promise<void> {
  const answers = new Map<string, Buffer>();
  const pairs = [...readLengthPrefixed(readFileSync(join(dir, 'answers.bin')))];
  for (let i = 0; i < pairs.length; i += 2) answers.set(pairs[i].toString('base64'), pairs[i + 1]);
  const heads: { seqno: number; info: Buffer }[] = [...readLengthPrefixed(readFileSync(join(dir, 'heads.bin')))].map((info) => ({
    seqno: seqnoOf(info),
    info,
  }));
  let released = start;
  const waiting = new Set<() => void>();
  /** Told of the next head out (the calls wait on it). */
  const releases = new Set<() => void>();
  const stats = {
    released: start,
    served: 0,
    misses: 0,
    missed: {} as Record<string, number>,
    lateMs: 0,
    cpuMs: 0,
    calls: 0,
    failedCalls: 0,
    failed: [] as string[],
  };
  const head = () => {
    let best = heads[0];
    for (const h of heads) if (h.seqno <= released && h.seqno >= best.seqno) best = h;
    return best.info;
  };
  const answer = async (data: Buffer): Promise<Buffer> => {
    const held = waitPrefix(data);
    if (held) {
      if (released < held.seqno) {
        const came = await new Promise<boolean>((resolve) => {
          const timer = setTimeout(() => {
            waiting.delete(wake);
            resolve(false);
          }, held.timeoutMs);
          const wake = () => {
            if (released < held.seqno) return;
            clearTimeout(timer);
            waiting.delete(wake);
            resolve(true);
          };
          waiting.add(wake);
        });
        if (!came) return errorAnswer(652, 'timeout');
      }
      return answer(held.rest);
    }
    if (data.equals(GET_MASTERCHAIN_INFO)) return head();
    const recorded = answers.get(data.toString('base64'));
    if (recorded) {
      stats.served++;
      return recorded;
    }
    stats.misses++;
    const what = describeQuery(data);
    stats.missed[what] = (stats.missed[what] ?? 0) + 1;
    return errorAnswer(651, 'not on the tape');
  };
  const server = await startAdnlServer((peer) => (payload) => {
    const query = liteQuery(payload);
    if (query) void answer(query.data).then((a) => peer.send(answerMessage(query.queryId, a)));
  });
  let calls: Promise<string[]> = Promise.resolve([]);
  process.on('message', async (message: GoMessage | { type: 'stats' | 'stop' }) => {
    if (message.type === 'go') {
      // By the clock: block k is out paceMs * k after the start, however late this process is woken.
      const t0 = Date.now();
      const { paceMs: pace, v2 } = message;
      calls = makeCalls(v2, message.calls, async (seqno) => {
        while (released < Math.min(seqno, end)) await new Promise<void>((resolve) => releases.add(resolve));
      });
      const tick = () => {
        const now = Date.now();
        const due = Math.min(end, start + Math.floor((now - t0) / pace));
        // How long after its time the block that was next came out (this process woken late).
        stats.lateMs = Math.max(stats.lateMs, now - (t0 + (released + 1 - start) * pace));
        if (due > released) {
          released = due;
          stats.released = released;
          for (const wake of [...waiting]) wake();
          for (const resolve of releases) resolve();
          releases.clear();
        }
        if (released < end) setTimeout(tick, Math.max(0, t0 + (released - start + 1) * pace - Date.now()));
      };
      setTimeout(tick, pace);
      send({ type: 'started', at: t0 });
    } else if (message.type === 'stats') {
      const made = await calls;
      stats.calls = made.length;
      const failed = made.filter((why) => why !== '');
      stats.failedCalls = failed.length;
      stats.failed = [...new Set(failed)].slice(0, 3);
      const cpu = process.cpuUsage();
      send({ type: 'stats', ...stats, cpuMs: (cpu.user + cpu.system) / 1000 });
    } else if (message.type === 'stop') {
      void server.close().then(() => process.exit(0));
    }
  });
  send({ type: 'ready', port: server.port, publicKey: server.publicKey.toString('base64') });
}

const [mode, dir, ...args] = process.argv.slice(2);
if (mode === 'record') await record(dir, args[0], Number(args[1]), Buffer.from(args[2], 'base64'));
else if (mode === 'replay') await replay(dir, Number(args[0]), Number(args[1]));
else throw new Error(`liteserver-tape: expected record or replay, got ${mode}`);
// The parent gone, this process has nothing to serve.
process.on('disconnect', () => process.exit(0));
