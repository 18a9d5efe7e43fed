/** A trace as a tree: each transaction under the one whose message it received, with its account, opcode and exit code; then its actions. */
import { v3 } from '../api';
import { Addr, ErrorBox, remember, Section, ton, TxLink, useLoad } from '../ui';
import { exitOf } from './home';

interface Node {
  tx_hash: string;
  children: Node[];
}

function TraceNode({ node, transactions }: { node: Node; transactions: Record<string, any> }) {
  const tx = transactions[node.tx_hash];
  return (
    <li>
      <div class="trace-node">
        <TxLink hash={node.tx_hash} />
        {tx ? (
          <>
            <Addr address={tx.account} />
            <span class="mono">{tx.in_msg?.decoded_opcode ?? tx.in_msg?.opcode ?? 'no op'}</span>
            {tx.in_msg?.value ? <span>{ton(tx.in_msg.value)} TON</span> : null}
            <span class={exitOf(tx) === '0' ? 'ok' : 'muted'}>exit {exitOf(tx)}</span>
          </>
        ) : null}
      </div>
      {node.children.length ? (
        <ul>
          {node.children.map((child) => (
            <TraceNode key={child.tx_hash} node={child} transactions={transactions} />
          ))}
        </ul>
      ) : null}
    </li>
  );
}

export function TracePage({ id }: { id: string }) {
  const { data, error, loading } = useLoad(async () => {
    const [traces, actions] = await Promise.all([
      v3<{ traces: any[]; address_book: any }>('traces', { trace_id: id, limit: 1 }),
      v3<{ actions: any[]; address_book: any }>('actions', { trace_id: id, limit: 100 }).catch(() => ({ actions: [], address_book: {} })),
    ]);
    remember(traces.address_book);
    remember(actions.address_book);
    return { trace: traces.traces[0], actions: actions.actions };
  }, [id]);
  const trace = data?.trace;
  return (
    <>
      <Section title="Trace">
        <ErrorBox error={error} />
        {!loading && !error && !trace ? <p class="muted">No trace with this id.</p> : null}
        {trace ? (
          <>
            <p class="muted">
              {trace.trace_info?.transactions} transactions, {trace.trace_info?.messages} messages, {trace.trace_info?.trace_state}
            </p>
            <ul class="tree" data-testid="trace-tree">
              <TraceNode node={trace.trace} transactions={trace.transactions} />
            </ul>
          </>
        ) : null}
      </Section>
      {data?.actions.length ? (
        <Section title="Actions">
          <ul class="plain">
            {data.actions.map((a: any) => (
              <li key={a.action_id}>
                <b>{a.type}</b> {a.success === false ? '(failed)' : ''}
              </li>
            ))}
          </ul>
        </Section>
      ) : null}
    </>
  );
}
