/**
 * A real one-validator TON network (TON's own validator-engine) for the lite backend's tests. Two builds exist, and a
 * follower of mainnet meets both forms in the chain's history, so the lite tests run against each:
 *
 *   ton-node          TON v2025.12: catchain consensus, ordinary block signatures
 *   ton-node-simplex  TON's current release: Simplex consensus, Simplex signature sets, 1 block/s
 *
 * `$TONGATE_TON_NETWORK` picks one (default `ton-node`; scripts/test.mjs runs test/chain/lite once per network). Its folder
 * is `$TONGATE_TON_NODE_DIR` (or `$TONGATE_TON_NODE_SIMPLEX_DIR`), else `<repo>/../shared/<network>` (where CI has
 * it). Without it the tests skip with the reason printed; with CI=true they fail instead. `startTonNode` starts a fresh network on free
 * ports in a temporary directory (~10 s) and `stop()` stops it and removes the directory; with
 * `$TONGATE_TON_NET_DIR` naming the directory of a network already running, that one is reused and left running.
 * The node costs ~80 % of a core: start one per test file, in `before`, and stop it in `after`.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createSocket } from 'node:dgram';
import { keyPairFromSeed, sign, type KeyPair } from '@ton/crypto';
import { Address, beginCell, storeMessageRelaxed, external, storeMessage, type MessageRelaxed } from '@ton/core';
import { freePort } from './ports.js';

const run = promisify(execFile);
const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

export const TON_NETWORKS = ['ton-node', 'ton-node-simplex'] as const;
export type TonNetworkName = (typeof TON_NETWORKS)[number];

/** The network the lite tests run against in this process. */
export const TON_NETWORK = pickNetwork(process.env.TONGATE_TON_NETWORK);

function pickNetwork(name: string | undefined): TonNetworkName {
  if (name === undefined || name === '') return 'ton-node';
  if ((TON_NETWORKS as readonly string[]).includes(name)) return name as TonNetworkName;
  throw new Error(`TONGATE_TON_NETWORK=${name}: expected one of ${TON_NETWORKS.join(', ')}`);
}

const dirVariable = `TONGATE_${TON_NETWORK.replaceAll('-', '_').toUpperCase()}_DIR`;
export const TON_NODE_DIR = process.env[dirVariable] ?? join(repoRoot, '..', 'shared', TON_NETWORK);

/** Why the network cannot run here, or undefined when it can. */
export function tonNodeProblem(): string | undefined {
  if (!existsSync(join(TON_NODE_DIR, 'start-net.sh'))) return `no TON network ${TON_NETWORK} at ${TON_NODE_DIR} (set ${dirVariable})`;
  return undefined;
}

/** true when the network can run; otherwise false after printing why (or throws with CI=true). */
export function requireTonNode(): boolean {
  const problem = tonNodeProblem();
  if (!problem) return true;
  if (process.env.CI === 'true') throw new Error(`${problem} (CI=true: the lite tests must run)`);
  console.log(`# skipping the lite tests: ${problem}`);
  return false;
}

export interface LiteServerInfo {
  host: string;
  port: number;
  publicKeyBase64: string;
  mainWalletAddress: string;
}

export interface TonNode {
  /** Which build runs (TON_NETWORK). */
  network: TonNetworkName;
  dir: string;
  globalConfigFile: string;
  liteserver: LiteServerInfo;
  /** ed25519 key pair of the genesis "simple wallet" at -1:000...0 (~5e9 TON). */
  genesisKey: KeyPair;
  genesisAddress: Address;
  /** The zero state's root hash (hex), from liteserver.json. */
  zeroStateRootHash: string;
  /** Runs bin/lite-client with one command and returns its output (stdout and stderr). */
  liteClient(command: string): Promise<string>;
  /** Stops the validator (SIGTERM, then SIGKILL after 20 s) and starts it again on the same database and ports. */
  restart(): Promise<void>;
  kill(): Promise<void>;
  start(): Promise<void>;
  stop(): Promise<void>;
}

export interface TonNodeOptions {
  /** The basechain splits by itself into 2^split shards in its first minute (TON_SPLIT; a fresh network only). */
  split?: number;
  /** Simplex only: the target interval between blocks of one chain, in ms (default 1000; 400 is mainnet's pace). */
  simplexTargetRateMs?: number;
}

export async function startTonNode(options: TonNodeOptions = {}): Promise<TonNode> {
  const reuse = process.env.TONGATE_TON_NET_DIR;
  const dir = reuse ?? mkdtempSync(join(tmpdir(), 'tongate-ton-net-'));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    TON_NET_DIR: dir,
    TON_PORT_ADNL: String(await freeAdnlPort()),
    TON_PORT_LS: String(await freePort()),
    TON_PORT_CONSOLE: String(await freePort()),
    TON_INITIAL_SYNC_DELAY: '1',
  };
  if (options.split !== undefined) env.TON_SPLIT = String(options.split);
  if (options.simplexTargetRateMs !== undefined) env.TON_SIMPLEX_TARGET_RATE_MS = String(options.simplexTargetRateMs);
  const start = async (fresh: boolean) => {
    await run(join(TON_NODE_DIR, 'start-net.sh'), fresh ? ['--fresh'] : [], { env, timeout: 180_000 });
  };
  const stopNet = async () => {
    await run(join(TON_NODE_DIR, 'stop-net.sh'), [], { env, timeout: 60_000 }).catch(() => undefined);
  };
  if (!reuse) await start(true);
  const liteserver = JSON.parse(readFileSync(join(dir, 'liteserver.json'), 'utf8')) as LiteServerInfo;
  const seed = readFileSync(join(dir, 'state', 'main-wallet.pk'));
  const genesisKey = keyPairFromSeed(seed.subarray(seed.length - 32));
  const globalConfigFile = join(dir, 'global.config.json');
  return {
    network: TON_NETWORK,
    dir,
    globalConfigFile,
    liteserver,
    genesisKey,
    genesisAddress: Address.parse(liteserver.mainWalletAddress),
    zeroStateRootHash: (liteserver as unknown as { zeroState: { rootHash: string } }).zeroState.rootHash,
    async liteClient(command) {
      const { stdout, stderr } = await run(
        join(TON_NODE_DIR, 'bin', 'lite-client'),
        ['-C', globalConfigFile, '-v', '0', '-t', '5', '-c', command],
        {
          timeout: 30_000,
        },
      ).catch((err: { stdout?: string; stderr?: string }) => ({ stdout: err.stdout ?? '', stderr: err.stderr ?? '' }));
      return stdout + stderr;
    },
    async kill() {
      const pid = Number(readFileSync(join(dir, 'validator-engine.pid'), 'utf8'));
      process.kill(pid, 'SIGKILL');
      for (let i = 0; i < 100; i++) {
        try {
          process.kill(pid, 0);
        } catch {
          return;
        }
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    start: () => start(false),
    async restart() {
      await stopNet();
      await start(false);
    },
    async stop() {
      if (reuse) return;
      await stopNet();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * A UDP port for the validator's ADNL that was free a moment ago, with port + 1000 free too: the Simplex build also
 * opens a QUIC socket there (even with QUIC off).
 */
async function freeAdnlPort(): Promise<number> {
  for (;;) {
    const port = await freeUdpPort(0);
    if (
      port + 1000 <= 65535 &&
      (await freeUdpPort(port + 1000).then(
        () => true,
        () => false,
      ))
    )
      return port;
  }
}

/** Binds `port` (0: any) on UDP and closes it again: the port that was free. */
function freeUdpPort(port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = createSocket('udp4');
    socket.once('error', reject);
    socket.bind(port, '127.0.0.1', () => {
      const bound = socket.address().port;
      socket.close(() => resolve(bound));
    });
  });
}

/**
 * An external message from the genesis "simple wallet": body = ed25519 signature (512 bits) of the hash of
 * (seqno:uint32 mode:uint8 ^internal message), followed by that remainder.
 */
export function genesisTransfer(node: TonNode, seqno: number, message: MessageRelaxed, mode = 3): Buffer {
  const payload = beginCell()
    .storeUint(seqno, 32)
    .storeUint(mode, 8)
    .storeRef(beginCell().store(storeMessageRelaxed(message)).endCell())
    .endCell();
  const signature = sign(payload.hash(), node.genesisKey.secretKey);
  const body = beginCell().storeBuffer(signature).storeSlice(payload.beginParse()).endCell();
  return beginCell()
    .store(storeMessage(external({ to: node.genesisAddress, body })))
    .endCell()
    .toBoc();
}
