#!/usr/bin/env node
/**
 * The container's health check: GET /healthcheck of the first configured network on the local listener, with
 * that network's Host (tongate tells networks apart by Host). Exit 0 on 200; 1 otherwise (503: its chain makes
 * no blocks; no answer). Reads what the image is configured with: TONGATE_NETWORK and TONGATE_LISTEN.
 */
import { get } from 'node:http';

const first = (process.env.TONGATE_NETWORK || 'mainnet=http://localhost:8080').split(',')[0];
const base = new URL(first.slice(first.indexOf('=') + 1));
const port = Number((process.env.TONGATE_LISTEN || '').split(':').pop()) || Number(base.port) || 80;

get({ host: '127.0.0.1', port, path: '/healthcheck', headers: { host: base.host }, timeout: 4000 }, (response) => {
  response.resume();
  process.exit(response.statusCode === 200 ? 0 : 1);
})
  .on('timeout', () => process.exit(1))
  .on('error', () => process.exit(1));
