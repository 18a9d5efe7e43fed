/**
 * The explorer's front page: the newest masterchain blocks and transactions, arriving with the block feed (a block
 * with transactions brings them in with one v3 read, `transactions?mc_seqno=`); a snapshot restore (`rewind`) reloads
 * both lists as the chain now is.
 */
import { useEffect, useState } from 'preact/hooks';
import { v3 } from '../api';
import { onBlocks } from '../live';
import type { NetworkInfo } from '../network';
import { session } from '../session';
import { Addr, ErrorBox, href, passing, remember, Section, Time, ton, TxLink } from '../ui';

const SHOWN = 15;

interface BlockRow {
  seqno: number;
  root_hash: string;
  gen_utime: number;
  transactions?: number;
}

export interface TxRow {
  hash: string;
  account: string;
  lt: string;
  now: number;
  mc_block_seqno: number;
  total_fees: string;
  description?: { aborted?: boolean; compute_ph?: { exit_code?: number; skipped?: boolean } };
  in_msg?: { value?: string | null; source?: string | null } | null;
}

async function newest(): Promise<{ blocks: BlockRow[]; transactions: TxRow[] }> {
  const [blocks, txs] = await Promise.all([
    v3<{ blocks: any[] }>('blocks', { workchain: -1, limit: SHOWN, sort: 'desc' }),
    v3<{ transactions: TxRow[]; address_book: any }>('transactions', { limit: SHOWN, sort: 'desc' }),
  ]);
  remember(txs.address_book);
  return {
    blocks: blocks.blocks.map((b) => ({ seqno: b.seqno, root_hash: b.root_hash, gen_utime: Number(b.gen_utime) })),
    transactions: txs.transactions,
  };
}

export function TxTable({ transactions }: { transactions: TxRow[] }) {
  if (transactions.length === 0) return <p class="muted">No transactions.</p>;
  return (
    <div class="table-wrap">
      <table data-testid="transactions">
        <thead>
          <tr>
            <th>hash</th>
            <th>account</th>
            <th>value in</th>
            <th>exit</th>
            <th>block</th>
            <th>time</th>
          </tr>
        </thead>
        <tbody>
          {transactions.map((tx) => (
            <tr key={tx.hash}>
              <td>
                <TxLink hash={tx.hash} />
              </td>
              <td>
                <Addr address={tx.account} />
              </td>
              <td>{tx.in_msg?.value ? `${ton(tx.in_msg.value)} TON` : '-'}</td>
              <td>{exitOf(tx)}</td>
              <td>
                <a href={href.block(tx.mc_block_seqno)}>{tx.mc_block_seqno}</a>
              </td>
              <td>
                <Time utime={tx.now} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function exitOf(tx: TxRow): string {
  const compute = tx.description?.compute_ph;
  if (!compute || compute.skipped) return tx.description?.aborted ? 'aborted' : 'skipped';
  return String(compute.exit_code ?? '-');
}

export function HomePage({ network }: { network?: NetworkInfo }) {
  const [blocks, setBlocks] = useState<BlockRow[]>([]);
  const [transactions, setTransactions] = useState<TxRow[]>([]);
  const [error, setError] = useState<unknown>();
  const [round, setRound] = useState(0);
  const canRead = !network?.accessOn || session.apiKey !== '';

  useEffect(() => {
    if (!network || !canRead) return;
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    // Only the newest reload applies: one started before a rewind must not bring the rewound blocks back.
    let generation = 0;
    const reload = (left = 10) => {
      const mine = ++generation;
      return newest().then(
        (found) => {
          if (!live || mine !== generation) return;
          // A block the feed told while this read was on its way is newer than what the read saw: kept, not lost.
          const seen = found.blocks[0]?.seqno ?? -1;
          setBlocks((list) => [...list.filter((b) => b.seqno > seen), ...found.blocks].slice(0, SHOWN));
          setTransactions((list) => [...list.filter((t) => t.mc_block_seqno > seen), ...found.transactions].slice(0, SHOWN));
          setError(undefined);
        },
        (e: unknown) => {
          if (!live || mine !== generation) return;
          setError(e);
          if (left > 0 && passing(e)) timer = setTimeout(() => live && void reload(left - 1), 2000);
        },
      );
    };
    void reload();
    const off = onBlocks((event) => {
      if (event.type === 'rewind') {
        setBlocks((list) => list.filter((b) => b.seqno <= event.seqno));
        setTransactions((list) => list.filter((t) => t.mc_block_seqno <= event.seqno));
        return void reload();
      }
      if (event.type !== 'block') return;
      setBlocks((list) => [event as BlockRow, ...list.filter((b) => b.seqno < event.seqno)].slice(0, SHOWN));
      if (event.transactions)
        v3<{ transactions: TxRow[]; address_book: any }>('transactions', { mc_seqno: event.seqno, limit: SHOWN, sort: 'desc' }).then(
          (found) => {
            if (!live) return;
            remember(found.address_book);
            setTransactions((list) => [...found.transactions, ...list.filter((t) => t.mc_block_seqno < event.seqno)].slice(0, SHOWN));
          },
          (e: unknown) => live && setError(e),
        );
    });
    return () => {
      live = false;
      clearTimeout(timer);
      off();
    };
  }, [network, canRead, round]);

  return (
    <div class="grid">
      <Section
        title="Blocks"
        actions={
          <button class="secondary" onClick={() => setRound((r) => r + 1)}>
            Reload
          </button>
        }
      >
        <ErrorBox error={error} />
        <ul class="blocks" data-testid="blocks" aria-live="polite">
          {blocks.map((b) => (
            <li key={b.seqno}>
              <a href={href.block(b.seqno)} class="seqno">
                #{b.seqno}
              </a>
              <Time utime={b.gen_utime} />
              {b.transactions !== undefined ? <span class="muted">{b.transactions} tx</span> : null}
            </li>
          ))}
        </ul>
      </Section>
      <Section title="Transactions">
        <TxTable transactions={transactions} />
      </Section>
    </div>
  );
}
