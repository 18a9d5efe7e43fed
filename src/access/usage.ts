/**
 * Requests per minute over the last hour, per key and for the keyless rule, and the refusals (401, 403, 429) per
 * network: what an operator looks at to see who is being limited. Kept in memory only (a restart starts a new hour;
 * nothing here is worth a database), on the injected clock.
 *
 * Each series is two rings of 60 minute slots: a slot is cleared when a request lands in a minute it did not hold,
 * so counting is an array write and a comparison, and a series nobody asks about costs nothing. Series exist only
 * for keys the access layer accepted or limited (their public ids), one per network for keyless clients (not per
 * address, so a crowd of addresses cannot grow the map) and one per network for the refusal counts.
 */
import type { Clock } from '../util/clock.js';

/** Minutes kept. */
export const USAGE_MINUTES = 60;
const MINUTE_MS = 60_000;

/** The statuses counted per network, whoever sent them. */
export const COUNTED_REFUSALS = [401, 403, 429] as const;
export type CountedRefusal = (typeof COUNTED_REFUSALS)[number];

class MinuteRing {
  private readonly minutes = new Float64Array(USAGE_MINUTES).fill(-1);
  private readonly counts = new Uint32Array(USAGE_MINUTES);

  add(minute: number): void {
    const slot = minute % USAGE_MINUTES;
    if (this.minutes[slot] !== minute) {
      this.minutes[slot] = minute;
      this.counts[slot] = 0;
    }
    this.counts[slot] += 1;
  }

  /** The counts of the USAGE_MINUTES minutes ending with `last`, oldest first. */
  window(last: number): number[] {
    const out: number[] = [];
    for (let minute = last - USAGE_MINUTES + 1; minute <= last; minute++) {
      const slot = ((minute % USAGE_MINUTES) + USAGE_MINUTES) % USAGE_MINUTES;
      out.push(this.minutes[slot] === minute ? this.counts[slot] : 0);
    }
    return out;
  }
}

class Series {
  readonly requests = new MinuteRing();
  readonly limited = new MinuteRing();
}

/** One series as the admin API writes it: per minute, oldest first. */
export interface UsageSeries {
  requests: number[];
  limited: number[];
  total_requests: number;
  total_limited: number;
}

export interface NetworkUsage {
  network: string;
  /** Unix time (s) of the first minute of every series. */
  from: number;
  minutes: number;
  keyless: UsageSeries;
  /** By the key's public id. */
  keys: Record<string, UsageSeries>;
  /** Refusals per minute, keyed by status: unknown or revoked keys (401), another network's (403), over a limit (429). */
  refusals: Record<string, number[]>;
}

const KEYLESS = '';

export class RequestUsage {
  private readonly series = new Map<string, Map<string, Series>>();
  private readonly refusals = new Map<string, Map<CountedRefusal, MinuteRing>>();
  /** The series found last, by network and id (the id is never undefined, so the first call misses). */
  private lastNetwork = '';
  private lastId: string | undefined = undefined;
  private lastSeries: Series | undefined = undefined;

  constructor(private readonly clock: Clock) {}

  /**
   * One answered request under the access rules. `keyId`: the key the access layer accepted or limited (undefined
   * for a keyless client, and for a key it did not know: that one counts as its refusal only). `at`: the instant the
   * access layer admitted it at, when it did (the request counts in that minute); otherwise the clock says.
   */
  count(network: string, keyId: string | undefined, status: number, at?: number): void {
    const minute = Math.floor((at ?? this.clock.now()) / MINUTE_MS);
    if (status === 401 || status === 403 || status === 429) this.refusalRing(network, status).add(minute);
    if (keyId === undefined && (status === 401 || status === 403)) return;
    const series = this.seriesOf(network, keyId ?? KEYLESS);
    series.requests.add(minute);
    if (status === 429) series.limited.add(minute);
  }

  /** Every network that counted something (or `network` alone), with the last hour per key. */
  report(network?: string): NetworkUsage[] {
    const last = Math.floor(this.clock.now() / MINUTE_MS);
    const names = new Set([...this.series.keys(), ...this.refusals.keys()]);
    if (network !== undefined) {
      names.clear();
      names.add(network);
    }
    return [...names].sort().map((name) => {
      const keys: Record<string, UsageSeries> = {};
      for (const [id, series] of this.series.get(name) ?? []) if (id !== KEYLESS) keys[id] = seriesJson(series, last);
      const keyless = this.series.get(name)?.get(KEYLESS);
      const refusals: Record<string, number[]> = {};
      for (const status of COUNTED_REFUSALS) {
        const ring = this.refusals.get(name)?.get(status);
        refusals[status] = ring ? ring.window(last) : new Array<number>(USAGE_MINUTES).fill(0);
      }
      return {
        network: name,
        from: (last - USAGE_MINUTES + 1) * 60,
        minutes: USAGE_MINUTES,
        keyless: keyless ? seriesJson(keyless, last) : seriesJson(new Series(), last),
        keys,
        refusals,
      };
    });
  }

  private seriesOf(network: string, id: string): Series {
    // A run of one key's requests (the usual traffic) finds its series without the two Map reads; series are never dropped.
    if (id === this.lastId && network === this.lastNetwork) return this.lastSeries!;
    let byId = this.series.get(network);
    if (!byId) this.series.set(network, (byId = new Map()));
    let series = byId.get(id);
    if (!series) byId.set(id, (series = new Series()));
    this.lastNetwork = network;
    this.lastId = id;
    this.lastSeries = series;
    return series;
  }

  private refusalRing(network: string, status: CountedRefusal): MinuteRing {
    let byStatus = this.refusals.get(network);
    if (!byStatus) this.refusals.set(network, (byStatus = new Map()));
    let ring = byStatus.get(status);
    if (!ring) byStatus.set(status, (ring = new MinuteRing()));
    return ring;
  }
}

function seriesJson(series: Series, last: number): UsageSeries {
  const requests = series.requests.window(last);
  const limited = series.limited.window(last);
  const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
  return { requests, limited, total_requests: sum(requests), total_limited: sum(limited) };
}
