/**
 * Answers of reads that only change with a new block (or never, once they exist), kept for a while and
 * bounded in memory: entries expire by the injected clock and the least recently used go first when the
 * total of kept bodies passes `maxBytes`. Only complete 200 answers are kept.
 */
import type { Clock } from '../util/clock.js';

export interface CachedAnswer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

interface Entry {
  answer: CachedAnswer;
  expiresAt: number;
  bytes: number;
}

export class ReadCache {
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;

  constructor(
    private readonly clock: Clock,
    private readonly maxBytes: number,
  ) {}

  get(key: string): CachedAnswer | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    this.entries.delete(key);
    if (entry.expiresAt <= this.clock.now()) {
      this.bytes -= entry.bytes;
      return undefined;
    }
    this.entries.set(key, entry); // most recently used goes last
    return entry.answer;
  }

  set(key: string, answer: CachedAnswer, ttlMs: number): void {
    const bytes = answer.body.length + key.length + 256;
    if (ttlMs <= 0 || bytes > this.maxBytes / 8) return;
    const old = this.entries.get(key);
    if (old) {
      this.entries.delete(key);
      this.bytes -= old.bytes;
    }
    this.entries.set(key, { answer, expiresAt: this.clock.now() + ttlMs, bytes });
    this.bytes += bytes;
    for (const [oldest, entry] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(oldest);
      this.bytes -= entry.bytes;
    }
  }

  get size(): { entries: number; bytes: number } {
    return { entries: this.entries.size, bytes: this.bytes };
  }
}
