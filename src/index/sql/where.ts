/** A WHERE clause built condition by condition, with its parameters in order. */
import type { SqlValue } from './driver.js';

export class Where {
  private readonly conditions: string[] = [];
  readonly params: SqlValue[] = [];

  /** Adds `condition` (with `?` for each value) when `values` hold no undefined. */
  add(condition: string, ...values: (SqlValue | undefined)[]): this {
    if (values.some((v) => v === undefined)) return this;
    this.conditions.push(condition);
    this.params.push(...(values as SqlValue[]));
    return this;
  }

  /** `column >= from` and `column <= to`, each when its bound is given (toncenter's inclusive windows). */
  between(column: string, from: SqlValue | undefined, to: SqlValue | undefined): this {
    return this.add(`${column} >= ?`, from).add(`${column} <= ?`, to);
  }

  /** `column IN (?, ?, ...)`, or `NOT IN`; nothing when the list is absent or empty. */
  in(column: string, values: readonly SqlValue[] | undefined, negate = false): this {
    if (!values || values.length === 0) return this;
    this.conditions.push(`${column} ${negate ? 'NOT IN' : 'IN'} (${placeholders(values)})`);
    this.params.push(...values);
    return this;
  }

  /** Adds every condition of `other` (and its parameters). */
  append(other: Where): this {
    this.conditions.push(...other.conditions);
    this.params.push(...other.params);
    return this;
  }

  get empty(): boolean {
    return this.conditions.length === 0;
  }

  toString(): string {
    return this.conditions.length === 0 ? '' : `WHERE ${this.conditions.join(' AND ')}`;
  }
}

/** `?, ?, ...`: one placeholder per value, for an IN list written by hand. */
export function placeholders(values: readonly unknown[]): string {
  return values.map(() => '?').join(', ');
}

/** A sort order as SQL (a fixed word, never client text). */
export function orderSql(sort: 'asc' | 'desc'): 'ASC' | 'DESC' {
  return sort === 'asc' ? 'ASC' : 'DESC';
}

/** A page as SQL (numbers only, never client text: they come parsed and bounded). */
export function pageSql(page: { limit: number; offset: number }): string {
  return `LIMIT ${Math.trunc(page.limit)} OFFSET ${Math.trunc(page.offset)}`;
}
