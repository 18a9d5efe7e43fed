/**
 * `--genesis FILE`: the accounts a new local chain's zero state holds besides its faucets and system contracts.
 * YAML or JSON (by extension: .json is JSON, anything else YAML):
 *
 *   accounts:
 *     - address: "0:4f1c…"        # raw or user-friendly; workchain 0 or -1
 *       balance: "5000000000"     # nanotons
 *       code: "te6cc…"            # optional BoC (base64): without it the account is uninit, holding its balance
 *       data: "te6cc…"            # optional BoC (base64), only with code (empty cell when left out)
 *     - wallet: v4r2              # v3r2, v4r2 or v5r1, deployed with seqno 0
 *       mnemonic: "word1 … word24"
 *       balance: "100000000000"
 *       workchain: 0              # optional (0 or -1; default 0)
 *
 * Read and checked when the configuration loads (a bad entry stops `tongate start` with exit code 2 and a message
 * naming the entry); wallets are derived from their mnemonics when the chains open (chain/local/genesis-accounts.ts).
 * Every local network gets the accounts (a v5r1 wallet's address differs per network: its wallet id holds the
 * network's global id). Applied only when a chain is created: a data dir that already holds a chain keeps its state.
 */
import { readFileSync } from 'node:fs';
import { extname } from 'node:path';
import type { Address, Cell } from '@ton/core';
import { tonCore } from '../ton/core-module.js';
import { parseYaml } from './yaml.js';
import { bocBudget, parseBoc } from '../ton/boc.js';
import { TonInputError } from '../ton/errors.js';
import type { GenesisEntry } from '../chain/local/genesis-accounts.js';
import { ConfigError } from './errors.js';

type GenesisWalletVersion = Extract<GenesisEntry, { kind: 'wallet' }>['version'];
const GENESIS_WALLET_VERSIONS: readonly GenesisWalletVersion[] = ['v3r2', 'v4r2', 'v5r1'];

export interface GenesisSpec {
  file: string;
  entries: GenesisEntry[];
}

const ACCOUNT_KEYS = ['address', 'balance', 'code', 'data'];
const WALLET_KEYS = ['wallet', 'mnemonic', 'balance', 'workchain'];
/** More than a zero state needs; bounds the work a file can ask for (each wallet costs a key derivation). */
const MAX_ENTRIES = 10_000;
/** A billion TON: the most one genesis account may hold. */
const MAX_BALANCE = 1_000_000_000n * 1_000_000_000n;

/** Reads and checks the file; ConfigError('--genesis', '<file>: accounts[i] (...): <what is wrong>') otherwise. */
export function readGenesisFile(file: string): GenesisSpec {
  const fail = (message: string): never => {
    throw new ConfigError('--genesis', `${file}: ${message}`);
  };
  let text = '';
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    fail(`cannot read it (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
  }
  const json = extname(file) === '.json';
  let parsed: unknown;
  try {
    parsed = json ? JSON.parse(text) : parseYaml(text);
  } catch (err) {
    fail(`not valid ${json ? 'JSON' : 'YAML'} (${(err as Error).message.split('\n')[0]})`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return fail('expected a mapping with an `accounts` list');
  const unknown = Object.keys(parsed).filter((key) => key !== 'accounts');
  if (unknown.length > 0) fail(`${unknown[0]}: unknown key (expected accounts)`);
  const accounts = (parsed as { accounts?: unknown }).accounts;
  if (!Array.isArray(accounts)) return fail('accounts: expected a list of accounts');
  if (accounts.length > MAX_ENTRIES) fail(`accounts: at most ${MAX_ENTRIES} entries, got ${accounts.length}`);
  const entries = accounts.map((raw, i) => genesisEntry(raw, `accounts[${i}]`, fail));
  const seen = new Map<string, string>();
  for (const entry of entries) {
    if (entry.kind !== 'account') continue;
    const raw = entry.address.toRawString();
    const earlier = seen.get(raw);
    if (earlier) fail(`${entry.label}: address ${raw} is also ${earlier}`);
    seen.set(raw, entry.label);
  }
  return { file, entries };
}

function genesisEntry(raw: unknown, at: string, fail: (message: string) => never): GenesisEntry {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    return fail(`${at}: expected a mapping (address, balance, code, data) or (wallet, mnemonic, balance)`);
  const entry = raw as Record<string, unknown>;
  const isWallet = entry.wallet !== undefined;
  const label = isWallet ? `${at} (wallet ${String(entry.wallet)})` : `${at} (address ${String(entry.address)})`;
  const known = isWallet ? WALLET_KEYS : ACCOUNT_KEYS;
  const unknown = Object.keys(entry).filter((key) => !known.includes(key));
  if (unknown.length > 0) fail(`${label}: ${unknown[0]}: unknown key (expected ${known.join(', ')})`);
  const balance = nanotons(entry.balance, `${label}: balance`, fail);
  if (isWallet) {
    const version = entry.wallet as GenesisWalletVersion;
    if (!GENESIS_WALLET_VERSIONS.includes(version)) fail(`${label}: wallet: expected one of ${GENESIS_WALLET_VERSIONS.join(', ')}`);
    const words =
      typeof entry.mnemonic === 'string' ? entry.mnemonic.trim().split(/\s+/) : Array.isArray(entry.mnemonic) ? entry.mnemonic : [];
    if (words.length !== 24 || words.some((w) => typeof w !== 'string' || !/^[a-z]+$/.test(w)))
      fail(`${label}: mnemonic: expected 24 lowercase words`);
    const workchain = entry.workchain ?? 0;
    if (workchain !== 0 && workchain !== -1) fail(`${label}: workchain: expected 0 or -1, got ${JSON.stringify(workchain)}`);
    return { kind: 'wallet', label, version, mnemonic: words as string[], balance, workchain: workchain as number };
  }
  let address: Address;
  try {
    if (typeof entry.address !== 'string') throw new Error('missing');
    address = tonCore().Address.parse(entry.address);
  } catch {
    return fail(`${label}: address: expected a raw (0:…) or user-friendly address`);
  }
  if (address.workChain !== 0 && address.workChain !== -1)
    fail(`${label}: address: workchain ${address.workChain}; a local chain holds accounts on 0 and -1`);
  const code = entry.code === undefined ? undefined : cell(entry.code, `${label}: code`, fail);
  const data = entry.data === undefined ? undefined : cell(entry.data, `${label}: data`, fail);
  if (data && !code) fail(`${label}: data: given without code (an account without code is uninit and holds no data)`);
  return { kind: 'account', label, address, balance, code, data };
}

function nanotons(raw: unknown, at: string, fail: (message: string) => never): bigint {
  const text = typeof raw === 'number' && Number.isSafeInteger(raw) ? String(raw) : raw;
  if (typeof text !== 'string' || !/^\d{1,40}$/.test(text)) return fail(`${at}: expected nanotons as a decimal string, e.g. "1000000000"`);
  const value = BigInt(text);
  if (value > MAX_BALANCE) fail(`${at}: at most ${MAX_BALANCE} nanotons`);
  return value;
}

/** A contract's code or data: TON's message limits (8,192 cells, 64 KiB), as POST /devnet/accounts takes them. */
function cell(raw: unknown, at: string, fail: (message: string) => never): Cell {
  try {
    return parseBoc(raw, at, bocBudget(8_192));
  } catch (err) {
    if (err instanceof TonInputError) return fail(`${at}: not a BoC in base64 (${err.reason})`);
    throw err;
  }
}
