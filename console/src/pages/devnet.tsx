/**
 * The local chain's controls (`/devnet`, behind the admin token): mining, time, snapshots, the TON and jetton faucet,
 * a jetton deployed. Each answer is shown as the API gave it; the explorer follows on its own (the block feed).
 */
import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { control, controlFile } from '../api';
import type { NetworkInfo } from '../network';
import { ErrorBox, href, Json, Section, Time, useLoad } from '../ui';
import { toNano } from './account';

type Run = (label: string, act: () => Promise<unknown>) => void;

function Field({
  label,
  name,
  value,
  set,
  placeholder,
}: {
  label: string;
  name: string;
  value: string;
  set: (v: string) => void;
  placeholder?: string;
}) {
  return (
    <label>
      {label}
      <input name={name} value={value} placeholder={placeholder} onInput={(e) => set((e.target as HTMLInputElement).value)} />
    </label>
  );
}

function Form({ children, onSubmit, submit }: { children: ComponentChildren; onSubmit: () => void; submit: string }) {
  return (
    <form
      class="form"
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit();
      }}
    >
      {children}
      <button type="submit">{submit}</button>
    </form>
  );
}

export function DevnetPage({ network }: { network?: NetworkInfo }) {
  const [answer, setAnswer] = useState<{ label: string; value?: unknown; error?: unknown }>();
  const status = useLoad(async () => {
    const [mining, time, snapshots] = await Promise.all([
      control<{ mode: string; interval_ms?: number }>('GET', '/devnet/mining'),
      control<{ utime: number; ahead_seconds: number; last_block_utime: number }>('GET', '/devnet/time'),
      control<{ snapshots: { name: string; seqno: number; created_at: number }[] }>('GET', '/devnet/snapshots'),
    ]);
    return { mining, time, snapshots: snapshots.snapshots };
  }, [network?.devnet]);
  const run: Run = (label, act) => {
    setAnswer({ label });
    act().then(
      (value) => {
        setAnswer({ label, value });
        status.reload();
      },
      (error: unknown) => setAnswer({ label, error }),
    );
  };
  const [blocks, setBlocks] = useState('1');
  const [utime, setUtime] = useState('');
  const [snapshot, setSnapshot] = useState('');
  const [fundTo, setFundTo] = useState('');
  const [fundAmount, setFundAmount] = useState('10');
  const [jetton, setJetton] = useState({ name: '', symbol: '', decimals: '9', description: '' });
  const [mint, setMint] = useState({ master: '', to: '', amount: '1000' });

  if (network?.devnet === 'absent') return <Section title="Devnet">{'This network is not a local chain: it has no controls.'}</Section>;
  if (network?.devnet === 'token')
    return (
      <Section title="Devnet">
        <p>
          The controls need the admin token: <a href="#/connect">give it for this tab</a>.
        </p>
      </Section>
    );
  const s = status.data;
  const deployed = (answer?.value as { master?: string } | undefined)?.master;
  return (
    <div class="grid">
      <Section
        title="Mining"
        actions={
          <span data-testid="mining-mode">
            {s ? `${s.mining.mode}${s.mining.interval_ms ? `, every ${s.mining.interval_ms} ms` : ''}` : '…'}
          </span>
        }
      >
        <ErrorBox error={status.error} />
        <div class="row">
          <button onClick={() => run('mining: auto', () => control('POST', '/devnet/mining', { mode: 'auto' }))}>Auto</button>
          <button onClick={() => run('mining: manual', () => control('POST', '/devnet/mining', { mode: 'manual' }))}>Manual</button>
        </div>
        <Form submit="Mine" onSubmit={() => run(`mine ${blocks}`, () => control('POST', '/devnet/mine', { blocks: Number(blocks) }))}>
          <Field label="Blocks" name="mine-blocks" value={blocks} set={setBlocks} />
        </Form>
      </Section>
      <Section title="Time">
        <p>
          Chain time: {s ? <Time utime={s.time.utime} /> : '…'}
          {s?.time.ahead_seconds ? ` (${s.time.ahead_seconds} s ahead of this machine)` : ''}
        </p>
        <div class="row">
          <button onClick={() => run('+1 hour', () => control('POST', '/devnet/time/increase', { seconds: 3600 }))}>+1 hour</button>
          <button onClick={() => run('+1 day', () => control('POST', '/devnet/time/increase', { seconds: 86400 }))}>+1 day</button>
        </div>
        <Form submit="Set" onSubmit={() => run('set time', () => control('POST', '/devnet/time/set', { utime: Number(utime) }))}>
          <Field label="Unix time" name="utime" value={utime} set={setUtime} placeholder={s ? String(s.time.utime + 3600) : ''} />
        </Form>
      </Section>
      <Section title="Snapshots">
        <Form submit="Save" onSubmit={() => run(`save ${snapshot}`, () => control('POST', '/devnet/snapshots', { name: snapshot }))}>
          <Field label="Name" name="snapshot-name" value={snapshot} set={setSnapshot} placeholder="before-test" />
        </Form>
        <ul class="plain" data-testid="snapshots">
          {s?.snapshots.map((snap) => (
            <li key={snap.name}>
              <b>{snap.name}</b> at block <a href={href.block(snap.seqno)}>#{snap.seqno}</a>{' '}
              <button
                onClick={() =>
                  run(`restore ${snap.name}`, () => control('POST', `/devnet/snapshots/${encodeURIComponent(snap.name)}/restore`, {}))
                }
              >
                Restore
              </button>{' '}
              <button
                class="secondary"
                onClick={() =>
                  run(`export ${snap.name}`, async () => {
                    const file = await controlFile(`/devnet/snapshots/${encodeURIComponent(snap.name)}/export`);
                    const link = document.createElement('a');
                    link.href = URL.createObjectURL(file);
                    link.download = `${snap.name}.sqlite`;
                    link.click();
                    setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
                    return { exported: snap.name, bytes: file.size };
                  })
                }
              >
                Export
              </button>{' '}
              <button
                class="secondary"
                onClick={() =>
                  run(`delete ${snap.name}`, () => control('DELETE', `/devnet/snapshots/${encodeURIComponent(snap.name)}`, {}))
                }
              >
                Delete
              </button>
            </li>
          ))}
          {s && s.snapshots.length === 0 ? <li class="muted">none yet</li> : null}
        </ul>
      </Section>
      <Section title="Fund with TON">
        <Form
          submit="Fund"
          onSubmit={() => {
            const amount = toNano(fundAmount);
            if (amount === undefined) return setAnswer({ label: 'fund', error: new Error('amount: a number of TON, e.g. 10 or 0.5') });
            run(`fund ${fundTo}`, () => control('POST', '/devnet/fund', { address: fundTo.trim(), amount }));
          }}
        >
          <Field label="Address" name="fund-address" value={fundTo} set={setFundTo} />
          <Field label="TON" name="fund-ton" value={fundAmount} set={setFundAmount} />
        </Form>
        {fundTo.trim() ? <a href={href.account(fundTo.trim())}>open this account</a> : null}
      </Section>
      <Section title="Deploy a jetton">
        <Form
          submit="Deploy"
          onSubmit={() =>
            run('deploy jetton', () =>
              control('POST', '/devnet/deploy-jetton', {
                name: jetton.name || undefined,
                symbol: jetton.symbol || undefined,
                decimals: jetton.decimals ? Number(jetton.decimals) : undefined,
                description: jetton.description || undefined,
              }),
            )
          }
        >
          <Field label="Name" name="jetton-name" value={jetton.name} set={(name) => setJetton({ ...jetton, name })} />
          <Field label="Symbol" name="jetton-symbol" value={jetton.symbol} set={(symbol) => setJetton({ ...jetton, symbol })} />
          <Field label="Decimals" name="jetton-decimals" value={jetton.decimals} set={(decimals) => setJetton({ ...jetton, decimals })} />
          <Field
            label="Description"
            name="jetton-description"
            value={jetton.description}
            set={(description) => setJetton({ ...jetton, description })}
          />
        </Form>
      </Section>
      <Section title="Fund with a jetton">
        <Form
          submit="Mint"
          onSubmit={() =>
            run('fund jetton', () => control('POST', '/devnet/fund-jetton', { ...mint, master: mint.master.trim(), to: mint.to.trim() }))
          }
        >
          <Field label="Master" name="mint-master" value={mint.master} set={(master) => setMint({ ...mint, master })} />
          <Field label="To" name="mint-to" value={mint.to} set={(to) => setMint({ ...mint, to })} />
          <Field label="Units" name="mint-amount" value={mint.amount} set={(amount) => setMint({ ...mint, amount })} />
        </Form>
      </Section>
      {answer ? (
        <section class="card answer" role="status" data-testid="answer">
          <header>
            <h2>{answer.label}</h2>
            {deployed ? (
              <a href={href.jetton(deployed)} data-testid="open-jetton">
                open the jetton
              </a>
            ) : null}
          </header>
          {answer.value === undefined && !answer.error ? <p class="muted">…</p> : null}
          <ErrorBox error={answer.error} />
          {answer.value !== undefined ? <Json value={answer.value} /> : null}
        </section>
      ) : null}
    </div>
  );
}
