/** One masterchain block: its header, the shard blocks it commits and its transactions (v3 reads). */
import { v3 } from '../api';
import { ErrorBox, href, Json, remember, Section, Time, useLoad } from '../ui';
import { TxTable, type TxRow } from './home';

export function BlockPage({ seqno }: { seqno: number }) {
  const { data, error } = useLoad(async () => {
    const [blocks, shards, txs] = await Promise.all([
      v3<{ blocks: any[] }>('blocks', { workchain: -1, seqno, limit: 1 }),
      v3<{ blocks: any[] }>('masterchainBlockShardState', { seqno }).catch(() => ({ blocks: [] })),
      v3<{ transactions: TxRow[]; address_book: any }>('transactions', { mc_seqno: seqno, limit: 100, sort: 'asc' }),
    ]);
    remember(txs.address_book);
    return { block: blocks.blocks[0], shards: shards.blocks, transactions: txs.transactions };
  }, [seqno]);
  return (
    <>
      <Section
        title={`Block #${seqno}`}
        actions={
          <span class="row">
            {seqno > 0 ? <a href={href.block(seqno - 1)}>previous</a> : null}
            <a href={href.block(seqno + 1)}>next</a>
          </span>
        }
      >
        <ErrorBox error={error} />
        {data && !data.block ? <p class="muted">No masterchain block {seqno} here (yet).</p> : null}
        {data?.block ? (
          <dl class="facts">
            <dt>time</dt>
            <dd>
              <Time utime={data.block.gen_utime} />
            </dd>
            <dt>root hash</dt>
            <dd class="mono">{data.block.root_hash}</dd>
            <dt>file hash</dt>
            <dd class="mono">{data.block.file_hash}</dd>
            <dt>lt</dt>
            <dd>
              {data.block.start_lt} - {data.block.end_lt}
            </dd>
            <dt>shard blocks</dt>
            <dd>{data.shards.map((s: any) => `${s.workchain}:${s.shard}:${s.seqno}`).join(', ') || 'none'}</dd>
          </dl>
        ) : null}
      </Section>
      {data?.block ? (
        <Section title={`Transactions (${data.transactions.length})`}>
          <TxTable transactions={data.transactions} />
        </Section>
      ) : null}
      {data?.block ? (
        <details class="card">
          <summary>Raw block</summary>
          <Json value={data.block} />
        </details>
      ) : null}
    </>
  );
}
