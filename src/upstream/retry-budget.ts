/**
 * How many retries an upstream network may spend: each request deposits a tenth of a retry, each retry
 * withdraws one, with a reserve of ten. When the upstream fails every request, retries stay under ~10 %
 * of the traffic instead of multiplying it (a retry storm); while it is healthy, a failure is retried.
 */
export class RetryBudget {
  private balance: number;

  constructor(
    private readonly ratio = 0.1,
    private readonly reserve = 10,
  ) {
    this.balance = reserve;
  }

  deposit(): void {
    this.balance = Math.min(this.reserve, this.balance + this.ratio);
  }

  withdraw(): boolean {
    if (this.balance < 1) return false;
    this.balance -= 1;
    return true;
  }
}
