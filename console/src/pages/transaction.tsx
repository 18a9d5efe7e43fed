/** One transaction: what came in and went out (values, opcodes, decoded bodies), fees, the phases' exit codes. */
import { v3 } from '../api';
import { Addr, ErrorBox, href, Json, remember, Section, Time, ton, useLoad } from '../ui';
import { exitOf } from './home';

function Message({ message, title }: { message: any; title: string }) {
  const decoded = message.message_content?.decoded;
  return (
    <div class="message">
      <h3>{title}</h3>
      <dl class="facts">
        <dt>from</dt>
        <dd>{message.source ? <Addr address={message.source} /> : <span class="muted">external</span>}</dd>
        <dt>to</dt>
        <dd>{message.destination ? <Addr address={message.destination} /> : <span class="muted">external</span>}</dd>
        <dt>value</dt>
        <dd>{message.value ? `${ton(message.value)} TON` : '-'}</dd>
        <dt>opcode</dt>
        <dd class="mono">
          {message.opcode ?? '-'}
          {message.decoded_opcode ? ` (${message.decoded_opcode})` : ''}
        </dd>
        {message.bounced ? (
          <>
            <dt>bounced</dt>
            <dd>yes</dd>
          </>
        ) : null}
        <dt>hash</dt>
        <dd class="mono">{message.hash}</dd>
      </dl>
      {decoded ? <Json value={decoded} /> : null}
    </div>
  );
}

export function TransactionPage({ hash }: { hash: string }) {
  const {
    data: tx,
    error,
    loading,
  } = useLoad(async () => {
    const found = await v3<{ transactions: any[]; address_book: any }>('transactions', { hash, limit: 1 });
    remember(found.address_book);
    return found.transactions[0];
  }, [hash]);
  const d = tx?.description;
  return (
    <>
      <Section title="Transaction">
        <ErrorBox error={error} />
        {loading ? <p class="muted">Loading…</p> : null}
        {!loading && !error && !tx ? <p class="muted">No transaction with this hash.</p> : null}
        {tx ? (
          <dl class="facts" data-testid="transaction">
            <dt>hash</dt>
            <dd class="mono">{tx.hash}</dd>
            <dt>account</dt>
            <dd>
              <Addr address={tx.account} full />
            </dd>
            <dt>block</dt>
            <dd>
              <a href={href.block(tx.mc_block_seqno)}>#{tx.mc_block_seqno}</a> ({tx.block_ref?.workchain}:{tx.block_ref?.shard}:
              {tx.block_ref?.seqno})
            </dd>
            <dt>time</dt>
            <dd>
              <Time utime={tx.now} /> (lt {tx.lt})
            </dd>
            <dt>status</dt>
            <dd>
              {tx.orig_status} → {tx.end_status}
              {d?.aborted ? ' (aborted)' : ''}
            </dd>
            <dt>compute exit code</dt>
            <dd>{exitOf(tx)}</dd>
            <dt>action result code</dt>
            <dd>{d?.action?.result_code ?? '-'}</dd>
            <dt>fees</dt>
            <dd>{ton(tx.total_fees)} TON</dd>
            <dt>balance after</dt>
            <dd>{tx.account_state_after?.balance ? `${ton(tx.account_state_after.balance)} TON` : '-'}</dd>
            <dt>trace</dt>
            <dd>
              <a href={href.trace(tx.trace_id)}>open the trace</a>
            </dd>
          </dl>
        ) : null}
      </Section>
      {tx?.in_msg ? (
        <Section title="In message">
          <Message message={tx.in_msg} title="" />
        </Section>
      ) : null}
      {tx?.out_msgs?.length ? (
        <Section title={`Out messages (${tx.out_msgs.length})`}>
          {tx.out_msgs.map((m: any, i: number) => (
            <Message key={m.hash} message={m} title={`#${i + 1}`} />
          ))}
        </Section>
      ) : null}
      {tx ? (
        <details class="card">
          <summary>Raw transaction</summary>
          <Json value={tx} />
        </details>
      ) : null}
    </>
  );
}
