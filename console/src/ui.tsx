/**
 * The small pieces every page uses. Values from the chain are only ever put in the page as text (JSX children and
 * attributes, which Preact sets through the DOM, never as HTML), so a jetton named `<script>` shows as those letters.
 */
import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { ApiFailure } from './api';
import { onBlocks } from './live';

/** Raw address (upper case) -> its user-friendly form, from the address books v3 answers carry. */
const friendly = new Map<string, string>();

export function remember(book: Record<string, { user_friendly?: string | null }> | undefined): void {
  for (const [raw, entry] of Object.entries(book ?? {})) if (entry?.user_friendly) friendly.set(raw.toUpperCase(), entry.user_friendly);
}

export const friendlyOf = (address: string): string => friendly.get(address.toUpperCase()) ?? address;

export const href = {
  block: (seqno: number | string) => `#/block/${seqno}`,
  tx: (hash: string) => `#/tx/${encodeURIComponent(hash)}`,
  account: (address: string) => `#/account/${encodeURIComponent(address)}`,
  jetton: (address: string) => `#/jetton/${encodeURIComponent(address)}`,
  collection: (address: string) => `#/collection/${encodeURIComponent(address)}`,
  trace: (id: string) => `#/trace/${encodeURIComponent(id)}`,
};

export function short(text: string, keep = 6): string {
  return text.length <= keep * 2 + 1 ? text : `${text.slice(0, keep)}…${text.slice(-keep)}`;
}

export function CopyButton({ text, label = 'copy' }: { text: string; label?: string }) {
  const [done, setDone] = useState(false);
  return (
    <button
      type="button"
      class="copy"
      title={`copy ${text}`}
      aria-label={`copy ${label}`}
      onClick={() => {
        void navigator.clipboard?.writeText(text).then(() => {
          setDone(true);
          setTimeout(() => setDone(false), 1200);
        });
      }}
    >
      {done ? 'copied' : 'copy'}
    </button>
  );
}

export function Addr({ address, full = false }: { address: string | null | undefined; full?: boolean }) {
  if (!address) return <span class="muted">none</span>;
  const shown = friendlyOf(address);
  return (
    <span class="addr">
      <a href={href.account(shown)} title={address}>
        {full ? shown : short(shown, 8)}
      </a>
      <CopyButton text={shown} label="address" />
    </span>
  );
}

export function TxLink({ hash }: { hash: string }) {
  return (
    <a class="mono" href={href.tx(hash)} title={hash}>
      {short(hash, 6)}
    </a>
  );
}

/** Nanotons as TON, exactly (no float rounding). */
export function ton(nano: string | number | bigint | null | undefined): string {
  if (nano === null || nano === undefined || nano === '') return '0';
  const value = BigInt(nano);
  const sign = value < 0n ? '-' : '';
  const abs = value < 0n ? -value : value;
  const whole = abs / 1_000_000_000n;
  const frac = (abs % 1_000_000_000n).toString().padStart(9, '0').replace(/0+$/, '');
  return `${sign}${whole}${frac ? `.${frac}` : ''}`;
}

export function units(amount: string | null | undefined, decimals: number): string {
  if (!amount) return '0';
  const value = BigInt(amount);
  if (decimals === 0) return value.toString();
  const base = 10n ** BigInt(decimals);
  const frac = (value % base).toString().padStart(decimals, '0').replace(/0+$/, '');
  return `${value / base}${frac ? `.${frac}` : ''}`;
}

export function Time({ utime }: { utime: number | string | null | undefined }) {
  if (utime === null || utime === undefined) return <span class="muted">-</span>;
  const date = new Date(Number(utime) * 1000);
  return <time dateTime={date.toISOString()}>{date.toISOString().replace('T', ' ').slice(0, 19)}</time>;
}

export function Json({ value }: { value: unknown }) {
  return <pre class="json">{JSON.stringify(value, null, 2)}</pre>;
}

export function ErrorBox({ error }: { error: unknown }) {
  if (!error) return null;
  const text = error instanceof ApiFailure ? `${error.status}: ${error.message}` : error instanceof Error ? error.message : String(error);
  return (
    <p class="error" role="alert">
      {text}
    </p>
  );
}

export function Section({ title, children, actions }: { title: string; children: ComponentChildren; actions?: ComponentChildren }) {
  return (
    <section class="card">
      <header>
        <h2>{title}</h2>
        {actions}
      </header>
      {children}
    </section>
  );
}

/** Worth asking again: tongate busy or a remote failing (502/503/504: a v3 query over its time), or no answer at all. */
/** A failure that passes when asked again: tongate's rate limit (429), a remote's (502-504), a dropped connection. */
export const passing = (error: unknown): boolean =>
  error instanceof ApiFailure ? error.status === 429 || error.status >= 502 : error instanceof TypeError;
const RETRIES = 10;
const RETRY_MS = 2000;

/** Loads with `load` whenever a value of `deps` changes (a passing failure is asked again a few times); `reload` asks again. */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[]): { data?: T; error?: unknown; loading: boolean; reload: () => void } {
  const [state, setState] = useState<{ data?: T; error?: unknown; loading: boolean }>({ loading: true });
  const [round, setRound] = useState(0);
  useEffect(() => {
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const attempt = (left: number) => {
      setState((s) => ({ ...s, loading: true }));
      load().then(
        (data) => live && setState({ data, loading: false }),
        (error: unknown) => {
          if (!live) return;
          setState((s) => ({ ...s, error, loading: false }));
          if (left > 0 && passing(error)) timer = setTimeout(() => live && attempt(left - 1), RETRY_MS);
        },
      );
    };
    attempt(RETRIES);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [...deps, round]);
  return { ...state, reload: () => setRound((r) => r + 1) };
}

/**
 * A token contract deployed a moment ago may not be indexed yet, nor detected (the index runs its get-methods after it
 * holds the block): while `found` is false, `reload` with each block the feed tells, and each second for three minutes.
 */
export function useUntilFound(found: boolean, loading: boolean, reload: () => void, deps: unknown[]): void {
  useEffect(() => (found ? undefined : onBlocks((event) => event.type === 'block' && reload())), [found, ...deps]);
  const [tries, setTries] = useState(0);
  useEffect(() => {
    if (found || loading || tries >= 180) return;
    const timer = setTimeout(() => {
      setTries((n) => n + 1);
      reload();
    }, 1000);
    return () => clearTimeout(timer);
  }, [found, loading, tries]);
}

/** Bars per minute (requests, and the limited part of them in another colour): an SVG, no library. */
export function MinuteChart({ requests, limited, label }: { requests: number[]; limited: number[]; label: string }) {
  const max = Math.max(1, ...requests);
  const width = 300;
  const height = 60;
  const bar = width / requests.length;
  return (
    <svg class="chart" viewBox={`0 0 ${width} ${height}`} role="img" aria-label={label} preserveAspectRatio="none">
      {requests.map((count, i) => {
        const h = (count / max) * height;
        const l = ((limited[i] ?? 0) / max) * height;
        return (
          <g key={i}>
            <rect class="bar" x={i * bar} y={height - h} width={Math.max(1, bar - 1)} height={h} />
            {l > 0 ? <rect class="bar limited" x={i * bar} y={height - l} width={Math.max(1, bar - 1)} height={l} /> : null}
          </g>
        );
      })}
    </svg>
  );
}

export const sum = (values: number[]): number => values.reduce((a, b) => a + b, 0);
