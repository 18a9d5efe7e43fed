/**
 * The search box: an address (raw or user-friendly), a block seqno, or a hash (hex or base64) that is looked up as a
 * transaction, then a message (the transaction it started or ended in), then a trace id. Answers the page to open: an
 * address opens as what its interfaces say it is (an NFT collection, a jetton master), else as an account.
 */
import { v3 } from './api';
import { href } from './ui';

const RAW_ADDRESS = /^-?\d+:[0-9a-fA-F]{64}$/;
const FRIENDLY_ADDRESS = /^[A-Za-z0-9_-]{48}$|^[A-Za-z0-9+/]{46}[A-Za-z0-9+/=]{2}$/;
const HASH = /^[0-9a-fA-F]{64}$|^[A-Za-z0-9+/_-]{43}=?$/;

export async function searchTarget(input: string): Promise<string> {
  const text = input.trim();
  if (/^\d{1,10}$/.test(text)) return href.block(Number(text));
  if (RAW_ADDRESS.test(text)) return addressPage(text);
  if (HASH.test(text)) {
    const tx = await v3<{ transactions: { hash: string }[] }>('transactions', { hash: text, limit: 1 });
    if (tx.transactions[0]) return href.tx(tx.transactions[0].hash);
    const byMessage = await v3<{ transactions: { hash: string }[] }>('transactionsByMessage', { msg_hash: text, limit: 1 });
    if (byMessage.transactions[0]) return href.tx(byMessage.transactions[0].hash);
    const traces = await v3<{ traces: { trace_id: string }[] }>('traces', { trace_id: text, limit: 1 });
    if (traces.traces[0]) return href.trace(traces.traces[0].trace_id);
  }
  if (FRIENDLY_ADDRESS.test(text)) return addressPage(text);
  throw new Error(`nothing found for ${text.slice(0, 80)}: give an address, a block seqno, or a transaction, message or trace hash`);
}

/** The page of an address, from its interfaces in v3's address book; the account page when they cannot be read. */
async function addressPage(address: string): Promise<string> {
  const book = await v3<Record<string, { interfaces?: string[] }>>('addressBook', { address }).catch(() => undefined);
  const interfaces = book?.[address]?.interfaces ?? [];
  if (interfaces.includes('nft_collection')) return href.collection(address);
  if (interfaces.includes('jetton_master')) return href.jetton(address);
  return href.account(address);
}
