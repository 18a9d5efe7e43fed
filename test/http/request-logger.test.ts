/**
 * The request's logger made when it first logs (src/http/request-logger.ts): what a request logs still carries the
 * request id and the app logger's bindings and serializers, its level is the app's (or the route's), and a request
 * that logs nothing leaves no line.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import Fastify, { LogController, type FastifyBaseLogger } from 'fastify';
import { pino } from 'pino';
import { lazyRequestLogger } from '../../src/http/request-logger.js';

function appLogging(level: string) {
  const lines: Array<Record<string, unknown>> = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
      callback();
    },
  });
  const logger = pino({ level }, sink).child(
    { listener: 'test' },
    { serializers: { secret: () => '[hidden]' } },
  ) as unknown as FastifyBaseLogger;
  const app = Fastify({
    loggerInstance: logger,
    logController: new LogController({ disableRequestLogging: true }),
    childLoggerFactory: lazyRequestLogger,
  });
  return { app, lines };
}

test('a request that logs: its line has the request id, the parent bindings and serializers; one that does not: no line', async () => {
  const { app, lines } = appLogging('info');
  app.get('/quiet', async () => 'ok');
  app.get('/loud', async (request) => {
    request.log.info({ secret: 'key' }, 'said');
    request.log.debug('not at info');
    return { level: request.log.level, child: typeof request.log.child({ more: 1 }).info };
  });
  assert.equal((await app.inject('/quiet')).statusCode, 200);
  assert.equal(lines.length, 0);
  const loud = await app.inject('/loud');
  assert.deepEqual(loud.json(), { level: 'info', child: 'function' });
  assert.equal(lines.length, 1);
  assert.equal(lines[0].msg, 'said');
  assert.equal(lines[0].listener, 'test');
  assert.equal(lines[0].secret, '[hidden]');
  assert.match(String(lines[0].reqId), /^req-/);
  await app.close();
});

test("a route's own log level is the request logger's level, and it filters as pino's child would", async () => {
  const { app, lines } = appLogging('info');
  app.get('/debugging', { logLevel: 'debug' }, async (request) => {
    request.log.debug('shown at the route level');
    return { level: request.log.level };
  });
  assert.deepEqual((await app.inject('/debugging')).json(), { level: 'debug' });
  assert.deepEqual(
    lines.map((l) => l.msg),
    ['shown at the route level'],
  );
  await app.close();
});
