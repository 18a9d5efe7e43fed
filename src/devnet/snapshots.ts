/**
 * Snapshots: POST /devnet/snapshots {"name"} saves the network's state (chain, pending messages, clock; the index
 * follows the chain); POST /devnet/snapshots/:name/restore puts it back (later blocks dropped, the index with
 * them, later snapshots too); GET /devnet/snapshots lists them, DELETE /devnet/snapshots/:name forgets one.
 * GET /devnet/snapshots/:name/export answers the snapshot as a file; POST /devnet/snapshots/:name/import takes
 * such a file (application/octet-stream), replaces the chain by it and saves it as `name`.
 *
 * How they are kept, and why saving and restoring cost little: src/chain/local/snapshot-store.ts.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Snapshot, SnapshotRestored } from '../chain/devnet-chain.js';
import { devnetRoute, type DevnetOptions } from './guard.js';
import { onlyFields } from './input.js';
import { ApiError } from '../http/api-error.js';
import { HASH, object } from './schemas.js';

const NAME = { type: 'string', pattern: '^[A-Za-z0-9._-]{1,64}$', description: '1 to 64 letters, digits, ".", "_" or "-"' };
const SNAPSHOT = {
  name: NAME,
  seqno: { type: 'integer', description: 'the masterchain block it was taken at' },
  root_hash: HASH,
  created_at: { type: 'integer', description: "unix time (the chain's clock), seconds" },
  pending_messages: { type: 'integer', description: 'internal messages waiting for delivery then' },
};

export function registerSnapshots(app: FastifyInstance, options: DevnetOptions): void {
  const snapshotResult = object({ '@type': { const: 'devnet.snapshot' }, ...SNAPSHOT });
  devnetRoute(
    app,
    options,
    {
      method: 'GET',
      path: '/devnet/snapshots',
      summary: 'The snapshots, oldest block first',
      result: object({ '@type': { const: 'devnet.snapshots' }, snapshots: { type: 'array', items: object(SNAPSHOT) } }),
    },
    (chain) => ({ '@type': 'devnet.snapshots', snapshots: chain.snapshots().map(snapshotFields) }),
  );
  devnetRoute(
    app,
    options,
    {
      method: 'POST',
      path: '/devnet/snapshots',
      summary:
        'Saves the network as snapshot `name` (the block in progress sealed first if it holds anything): chain, pending messages, clock; 409 if the name is taken',
      body: object({ name: NAME }, ['name']),
      result: snapshotResult,
    },
    async (chain, body) => {
      onlyFields(body, ['name']);
      if (body.name === undefined) throw new ApiError(422, 'name: missing (1 to 64 letters, digits, ".", "_" or "-")');
      if (typeof body.name !== 'string') throw new ApiError(422, 'name: expected a string');
      return snapshotJson(await chain.saveSnapshot(body.name));
    },
  );
  devnetRoute(
    app,
    options,
    {
      method: 'POST',
      path: '/devnet/snapshots/:name/restore',
      summary:
        'Puts the network back to snapshot `name`: later blocks dropped (their seqnos produced again), the index with them, later snapshots dropped; the snapshot stays',
      result: object({ '@type': { const: 'devnet.snapshotRestored' }, ...SNAPSHOT, dropped_snapshots: { type: 'array', items: NAME } }),
    },
    async (chain, body, request) => {
      onlyFields(body, []);
      return restoredJson(await chain.restoreSnapshot(nameOf(request)));
    },
  );
  devnetRoute(
    app,
    options,
    {
      method: 'DELETE',
      path: '/devnet/snapshots/:name',
      summary: 'Forgets snapshot `name` (the chain is unchanged)',
      result: object({ '@type': { const: 'devnet.snapshotDeleted' }, ...SNAPSHOT }),
    },
    (chain, body, request) => {
      onlyFields(body, []);
      return { '@type': 'devnet.snapshotDeleted', ...snapshotFields(chain.deleteSnapshot(nameOf(request))) };
    },
  );
  devnetRoute(
    app,
    options,
    {
      method: 'GET',
      path: '/devnet/snapshots/:name/export',
      summary: 'Snapshot `name` as a file (a chain store as of it), for import here or on another tongate',
      result: {},
      file: 'download',
    },
    (chain, _body, request) => chain.exportSnapshot(nameOf(request)),
  );
  // Files travel as they are: this scope alone parses application/octet-stream (as a Buffer).
  app.register(async (scope) => {
    scope.addContentTypeParser('application/octet-stream', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
    devnetRoute(
      scope,
      options,
      {
        method: 'POST',
        path: '/devnet/snapshots/:name/import',
        summary:
          'Replaces the network by an exported file (same network and faucet) and saves it as snapshot `name`; other snapshots are dropped; answers once v3 has indexed it',
        result: snapshotResult,
        file: 'upload',
      },
      async (chain, _body, request) => snapshotJson(await chain.importSnapshot(nameOf(request), request.body as Buffer)),
    );
  });
}

function nameOf(request: FastifyRequest): string {
  return (request.params as { name: string }).name;
}

function snapshotFields(s: Snapshot) {
  return {
    name: s.name,
    seqno: s.seqno,
    root_hash: s.rootHash.toString('base64'),
    created_at: Math.floor(s.createdAtMs / 1000),
    pending_messages: s.pendingMessages,
  };
}

function snapshotJson(s: Snapshot) {
  return { '@type': 'devnet.snapshot', ...snapshotFields(s) };
}

function restoredJson(s: SnapshotRestored) {
  return { '@type': 'devnet.snapshotRestored', ...snapshotFields(s), dropped_snapshots: s.droppedSnapshots };
}
