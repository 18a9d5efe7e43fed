/**
 * How many retries an upstream network may spend: each request deposits a tenth of a retry, each retry
 * withdraws one, with a reserve of ten. When the upstream fails every request, retries stay under ~10 %
 * of the traffic instead of multiplying it (a retry storm); while it is healthy, a failure is retried.
 * Counted in thousandths of a retry, so ten deposits make exactly one.
 */
const UNIT = 1000;

export class RetryBudget {
  private balance: number;
  private readonly perRequest: number;
  private readonly cap: number;

  constructor(ratio = 0.1, reserve = 10) {
    this.perRequest = Math.round(ratio * UNIT);
    this.cap = reserve * UNIT;
    this.balance = this.cap;
  }

  deposit(): void {
    this.balance = Math.min(this.cap, this.balance + this.perRequest);
  }

  withdraw(): boolean {
    if (this.balance < UNIT) return false;
    this.balance -= UNIT;
    return true;
  }
}
