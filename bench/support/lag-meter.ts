/**
 * What bench:lite-lag measures of a lite tongate following a network, live or replayed (bench/lite-lag.ts says
 * what each figure means): the index lag behind the network sampled every 100 ms with an HTTP round trip, each
 * block's time from proven head to indexed (until the index held its feed, then written), the event loop's delay
 * and the head proofs' check time while following alone and under load, and the load itself from the index.
 * The driver says which phase it is in (`idle()`, `load()`, `round`); `report()` prints the figures.
 */
import { cpus, loadavg } from 'node:os';
import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';
import type { LiteChain } from '../../src/chain/lite/index.js';

interface Sample {
  round: number;
  lag: number;
  ownLag: number;
  httpMs: number;
}

/** A block's way to the index: when (ms on Date.now()'s clock, finer) a liteserver named it, it was proven, fed, indexed. */
interface Stage {
  round: number;
  reported?: number;
  head: number;
  fed?: number;
  indexed?: number;
}

const now = () => performance.timeOrigin + performance.now();

interface Window {
  fromSeqno: number;
  toSeqno: number;
  started: number;
  seconds: number;
  loop: IntervalHistogram;
  trust: { queries: number; checkMs: number };
}

/** A phase by the network's masterchain seqnos at its start and end. */
export interface Span {
  from: number;
  to: number;
}

export interface LagMeterOptions {
  chain: LiteChain;
  /** tongate's own index lag (its proven head minus its indexed block). */
  indexLag: () => number;
  /** tongate's v2 base URL. */
  v2: string;
  /** The network's newest masterchain block, asked of its liteserver directly (not through tongate). */
  networkHead: () => Promise<number>;
  /** When the network made block `seqno` (Date.now()'s clock), where known (a replay): its time to a proven head is shown too. */
  madeAt?: (seqno: number) => number;
}

export class LagMeter {
  /** -2 before following alone (not sampled), -1 following alone, then the load's round (rounds: the catch-up after it). */
  round = -2;
  /** The network's head as the newest sample saw it. */
  lastHead = -1;
  private readonly samples: Sample[] = [];
  private readonly stages = new Map<number, Stage>();
  /** Heads not indexed yet, oldest first. */
  private readonly unindexed: number[] = [];
  private sampling = true;
  private readonly sampler: Promise<void>;
  private readonly probe: NodeJS.Timeout;
  private idleWindow?: Window;
  private loadWindow?: Window;
  private readonly loadBefore = loadavg();

  constructor(private readonly o: LagMeterOptions) {
    const { chain } = o;
    this.sampler = (async () => {
      while (this.sampling) {
        const started = performance.now();
        const [head] = await Promise.all([o.networkHead(), fetch(`${o.v2}/getMasterchainInfo`).then((r) => r.json())]);
        const httpMs = performance.now() - started;
        this.lastHead = head;
        if (this.round >= -1)
          this.samples.push({ round: this.round, lag: Math.max(0, head - this.indexedSeqno()), ownLag: o.indexLag(), httpMs });
        await new Promise((r) => setTimeout(r, 100));
      }
    })();
    // Where a block's time goes once tongate has proven it as a head: until it is indexed (checked every 10 ms).
    const reported = new Map<number, number>();
    chain.pool.on('reported', ({ info }: { info: { last: { seqno: number } } }) => {
      if (!reported.has(info.last.seqno)) reported.set(info.last.seqno, now());
    });
    chain.onHead((n) => {
      this.stages.set(n, { round: this.round, reported: reported.get(n), head: now() });
      reported.delete(n);
      this.unindexed.push(n);
    });
    // When the index has a block's feed in hand (the follower's read done, and the index done with the one
    // before), apart from its write.
    const feedBlock = chain.follower.feedBlock.bind(chain.follower);
    chain.follower.feedBlock = (n: number) =>
      feedBlock(n).then((fed) => {
        const st = this.stages.get(n);
        if (st && st.fed === undefined) st.fed = now();
        return fed;
      });
    this.probe = setInterval(() => {
      const last = this.indexedSeqno();
      // Heads come in order; the index writes in order.
      while (this.unindexed.length > 0 && this.unindexed[0] <= last) this.stages.get(this.unindexed.shift()!)!.indexed = now();
    }, 10);
  }

  indexedSeqno(): number {
    return this.o.chain.masterchainInfo().last.id.seqno - this.o.indexLag();
  }

  /** Following alone from now until the returned function is called. */
  async idle(): Promise<() => Promise<Span>> {
    this.round = -1;
    const window = await this.open();
    this.idleWindow = window;
    return () => this.close(window);
  }

  /** The load from now (its first round is 0: set `round` as rounds begin) until the returned function is called. */
  async load(): Promise<() => Promise<Span>> {
    const window = await this.open();
    this.loadWindow = window;
    return () => this.close(window);
  }

  private async open(): Promise<Window> {
    const loop = monitorEventLoopDelay({ resolution: 10 });
    loop.enable();
    const { queries, checkMs } = this.o.chain.trust.stats;
    return {
      fromSeqno: await this.o.networkHead(),
      toSeqno: -1,
      started: performance.now(),
      seconds: 0,
      loop,
      trust: { queries, checkMs },
    };
  }

  private async close(window: Window): Promise<Span> {
    window.loop.disable();
    window.toSeqno = await this.o.networkHead();
    window.seconds = (performance.now() - window.started) / 1000;
    const { queries, checkMs } = this.o.chain.trust.stats;
    window.trust = { queries: queries - window.trust.queries, checkMs: checkMs - window.trust.checkMs };
    return { from: window.fromSeqno, to: window.toSeqno };
  }

  async stop(): Promise<void> {
    this.sampling = false;
    await this.sampler;
    clearInterval(this.probe);
  }

  /** The figures, after `stop()`; `title` is the first line. */
  async report(title: string, rounds: number): Promise<void> {
    const load = this.loadWindow!;
    const idle = this.idleWindow!;
    // What the load was: masterchain blocks, shard blocks and transactions in the window (from the index).
    const v3 = this.o.v2.replace('/api/v2', '/api/v3');
    let shardBlocks = 0;
    let transactions = 0;
    for (let seqno = load.fromSeqno + 1; seqno <= load.toSeqno; seqno++) {
      const blocks = ((await (await fetch(`${v3}/masterchainBlockShards?seqno=${seqno}&limit=256`)).json()).blocks ?? []) as {
        workchain: number;
        tx_count: number;
      }[];
      shardBlocks += blocks.filter((b) => b.workchain === 0).length;
      transactions += blocks.reduce((n, b) => n + b.tx_count, 0);
    }
    const loadAfter = loadavg();
    const mcBlocks = load.toSeqno - load.fromSeqno;
    console.log(title);
    console.log(
      `load: ${load.seconds.toFixed(1)} s, masterchain ${load.fromSeqno + 1}..${load.toSeqno} (${(mcBlocks / load.seconds).toFixed(2)} blocks/s), ` +
        `${shardBlocks} shard blocks (${(shardBlocks / Math.max(1, mcBlocks)).toFixed(1)} per masterchain block), ${transactions} transactions`,
    );
    console.log('round   samples   lag p50 p99 max   own lag p99   HTTP p50 / p99 ms');
    for (let r = 0; r < rounds; r++) {
      const s = this.samples.filter((x) => x.round === r);
      if (s.length === 0) continue;
      const lags = s.map((x) => x.lag);
      console.log(
        `${String(r + 1).padStart(5)}${String(s.length).padStart(10)}   ${String(pct(lags, 50)).padStart(7)}${String(pct(lags, 99)).padStart(4)}${String(Math.max(...lags)).padStart(4)}` +
          `${String(
            pct(
              s.map((x) => x.ownLag),
              99,
            ),
          ).padStart(14)}   ${pct(
            s.map((x) => x.httpMs),
            50,
          )
            .toFixed(1)
            .padStart(8)} / ${pct(
            s.map((x) => x.httpMs),
            99,
          ).toFixed(1)}`,
      );
    }
    const during = this.samples.filter((x) => x.round >= 0); // the catch-up after the last round included
    const lags = during.map((x) => x.lag);
    const perRound = Array.from({ length: rounds }, (_, r) => during.filter((x) => x.round === r).map((x) => x.lag))
      .filter((l) => l.length > 0)
      .map((l) => pct(l, 99));
    console.log(
      `index lag behind the network (masterchain blocks, every 100 ms): p50 ${pct(lags, 50)}, p99 ${pct(lags, 99)} (rounds ${Math.min(...perRound)}..${Math.max(...perRound)}), max ${Math.max(...lags)} (goal: p99 <= 2)`,
    );
    for (const [what, inLoad] of [
      ['following alone', false],
      ['under load', true],
    ] as const) {
      const st = [...this.stages.entries()].filter(
        ([, x]) => x.indexed !== undefined && x.fed !== undefined && x.round >= -1 && x.round >= 0 === inLoad,
      );
      if (st.length === 0) continue;
      const line = (values: number[]) => `p50 ${pct(values, 50).toFixed(0)} / p99 ${pct(values, 99).toFixed(0)} ms`;
      const madeAt = this.o.madeAt;
      const made = madeAt
        ? ` made to indexed ${line(st.map(([n, x]) => x.indexed! - madeAt(n)))}; made to reported by the liteserver ${line(st.map(([n, x]) => (x.reported ?? x.head) - madeAt(n)))};`
        : '';
      console.log(
        `a block's way to the index, ${what} (${st.length} blocks):${made} reported to proven (its proof checked, its block read) ${line(st.map(([, x]) => x.head - (x.reported ?? x.head)))}; ` +
          `proven to indexed ${line(st.map(([, x]) => x.indexed! - x.head))}, of which until the index held its feed (read by the follower, or the index busy before) ` +
          `${line(st.map(([, x]) => x.fed! - x.head))}, then written ${line(st.map(([, x]) => x.indexed! - x.fed!))}`,
      );
      if (inLoad) {
        // The tail: where the slowest blocks' time went.
        const from = (n: number, x: Stage) => (madeAt ? madeAt(n) : (x.reported ?? x.head));
        const slowest = [...st].sort(([n, a], [m, b]) => b.indexed! - from(m, b) - (a.indexed! - from(n, a))).slice(0, 3);
        const ms = (v: number) => v.toFixed(0);
        console.log(
          `  slowest: ${slowest
            .map(
              ([n, x]) =>
                `${n} ${ms(x.indexed! - from(n, x))} ms (${madeAt ? `made to reported ${ms((x.reported ?? x.head) - madeAt(n))}, ` : ''}to proven ${ms(x.head - (x.reported ?? x.head))}, to fed ${ms(x.fed! - x.head)}, to indexed ${ms(x.indexed! - x.fed!)})`,
            )
            .join('; ')}`,
        );
      }
    }
    console.log(
      `event loop delay over the load: p50 ${ms(load.loop.percentile(50))} ms, p99 ${ms(load.loop.percentile(99))} ms, max ${ms(load.loop.max)} ms`,
    );
    console.log(
      `head proofs under load: ${load.trust.queries}, ${(load.trust.checkMs / Math.max(1, load.trust.queries)).toFixed(2)} ms each from answer to verdict (mean; ` +
        `the links checked on their own thread), ${this.o.chain.trust.stats.refused} refused`,
    );
    const idleLags = this.samples.filter((x) => x.round === -1).map((x) => x.lag);
    console.log(
      `following alone (${idle.seconds.toFixed(0)} s before the load): ${((idle.toSeqno - idle.fromSeqno) / idle.seconds).toFixed(2)} masterchain blocks/s, ${idle.trust.queries} head proofs, ` +
        `${(idle.trust.checkMs / Math.max(1, idle.trust.queries)).toFixed(2)} ms each (mean); index lag p50 ${pct(idleLags, 50)}, p99 ${pct(idleLags, 99)}, max ${Math.max(...idleLags)}; ` +
        `event loop delay p50 ${ms(idle.loop.percentile(50))} ms, p99 ${ms(idle.loop.percentile(99))} ms, max ${ms(idle.loop.max)} ms`,
    );
    console.log(
      `machine: ${cpus().length} cores, load average ${this.loadBefore.map((l) => l.toFixed(1)).join(' ')} before, ${loadAfter.map((l) => l.toFixed(1)).join(' ')} after`,
    );
  }
}

function pct(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

const ms = (ns: number) => (ns / 1e6).toFixed(1);
