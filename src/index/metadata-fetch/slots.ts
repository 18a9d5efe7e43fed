/**
 * Fetches in flight: at most `total` at once and at most `perHost` to any one host, so one token's slow or huge
 * host neither takes every slot nor gets hammered by a collection of 10,000 items that all live there. Waiters
 * are served in arrival order among those whose host has room.
 */
export class FetchSlots {
  private running = 0;
  private readonly perHostRunning = new Map<string, number>();
  private readonly waiting: Array<{ host: string; grant: () => void }> = [];

  constructor(
    private readonly total: number,
    private readonly perHost: number,
  ) {}

  async run<T>(host: string, job: () => Promise<T>): Promise<T> {
    // A waiter is granted its slot already taken (in release), so nobody slips in between grant and resume.
    if (this.hasRoom(host)) this.take(host);
    else await new Promise<void>((grant) => this.waiting.push({ host, grant }));
    try {
      return await job();
    } finally {
      this.release(host);
    }
  }

  private hasRoom(host: string): boolean {
    return this.running < this.total && (this.perHostRunning.get(host) ?? 0) < this.perHost;
  }

  private take(host: string): void {
    this.running++;
    this.perHostRunning.set(host, (this.perHostRunning.get(host) ?? 0) + 1);
  }

  private release(host: string): void {
    this.running--;
    const left = (this.perHostRunning.get(host) ?? 1) - 1;
    if (left === 0) this.perHostRunning.delete(host);
    else this.perHostRunning.set(host, left);
    const next = this.waiting.findIndex((waiter) => this.hasRoom(waiter.host));
    if (next === -1) return;
    const [waiter] = this.waiting.splice(next, 1);
    this.take(waiter.host);
    waiter.grant();
  }
}
