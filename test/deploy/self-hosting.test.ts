/**
 * The self-hosting kit, checked without Docker or systemd (no image can be pulled where the tests run): the
 * compose file's and the Dockerfile's settings are options tongate reads and accepts, the Dockerfile's shape
 * (stages, user, health check, entry point, copied paths), the systemd unit's command line, the image's health
 * check script against a running tongate, and LICENSE against package.json.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';
import { buildProgram } from '../../src/cli/main.js';
import { loadConfig } from '../../src/config/load.js';
import { OPTIONS } from '../../src/config/options.js';
import { envName } from '../../src/config/option-spec.js';
import { freePort } from '../support/ports.js';
import { startTestTongate } from '../support/tongate.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const read = (path: string) => readFileSync(join(root, path), 'utf8');
const KNOWN_ENV = new Set(['TONGATE_CONFIG', ...OPTIONS.map((spec) => envName(spec.key))]);

function checkTongateEnv(env: Record<string, string>, where: string): void {
  for (const name of Object.keys(env).filter((n) => n.startsWith('TONGATE_')))
    assert.ok(KNOWN_ENV.has(name), `${where}: ${name} is no option of tongate`);
  // The values parse as tongate parses them at start-up (a bad one throws a ConfigError naming it).
  const config = loadConfig({ flags: {}, env });
  assert.ok(config.networks.length > 0, where);
}

test('deploy/compose.yaml: tongate with PostgreSQL and Redis; every TONGATE_* it sets is an option tongate accepts', () => {
  const compose = parseYaml(read('deploy/compose.yaml')) as any;
  assert.deepEqual(Object.keys(compose.services).sort(), ['postgres', 'redis', 'tongate']);
  const tongate = compose.services.tongate;
  const env: Record<string, string> = { ...tongate.environment, TONGATE_ADMIN_TOKEN: 'from-the-shell' };
  checkTongateEnv(env, 'compose');
  const config = loadConfig({ flags: {}, env });
  const database = new URL(config.databaseUrl!);
  const pg = compose.services.postgres.environment;
  assert.equal(database.hostname, 'postgres', 'the database is the postgres service');
  assert.deepEqual(
    [database.username, database.password, database.pathname.slice(1)],
    [pg.POSTGRES_USER, pg.POSTGRES_PASSWORD, pg.POSTGRES_DB],
  );
  assert.equal(new URL(config.redisUrl!).hostname, 'redis', 'the limiter is the redis service');
  assert.match(
    tongate.environment.TONGATE_ADMIN_TOKEN,
    /^\$\{TONGATE_ADMIN_TOKEN:\?/,
    'the admin token comes from the shell, never the file',
  );
  assert.equal(tongate.build.context, '..');
  assert.ok(existsSync(join(root, 'deploy', tongate.build.context, tongate.build.dockerfile)), 'the Dockerfile it builds');
  for (const service of ['postgres', 'redis']) assert.equal(tongate.depends_on[service].condition, 'service_healthy');
  // Every published port reaches the listener, and each network's base URL port is published.
  const listenPort = config.listen!.port;
  const published = (tongate.ports as string[])
    .map((p) => p.split(':'))
    .map((parts) => ({ host: Number(parts.at(-2)), container: Number(parts.at(-1)) }));
  for (const p of published) assert.equal(p.container, listenPort);
  for (const network of config.networks)
    assert.ok(
      published.some((p) => p.host === Number(network.baseUrl.port)),
      `${network.name}'s port is published`,
    );
  assert.ok(
    tongate.volumes.some((v: string) => v.endsWith(':/data')),
    'the data volume',
  );
});

test('Dockerfile: two stages, an unprivileged user, a health check, `tongate start`, paths that exist, settings tongate accepts', () => {
  const text = read('Dockerfile').replace(/\\\n\s*/g, ' ');
  const lines = text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
  const stages = lines.filter((l) => l.startsWith('FROM '));
  assert.equal(stages.length, 2, 'build and run stages');
  const run = lines.slice(lines.lastIndexOf(stages[1]));
  const user = run.find((l) => l.startsWith('USER '))?.split(/\s+/)[1];
  assert.ok(user && user !== 'root' && user !== '0', `the run stage's user: ${user}`);
  assert.ok(run.indexOf(`USER ${user}`) > run.findIndex((l) => l.startsWith('RUN ')), 'USER comes after the last RUN');
  assert.match(
    run.find((l) => l.startsWith('HEALTHCHECK '))!,
    /CMD \["node", "deploy\/healthcheck\.mjs"\]/,
  );
  assert.equal(
    run.find((l) => l.startsWith('ENTRYPOINT ')),
    'ENTRYPOINT ["node", "bin/tongate.js"]',
  );
  assert.equal(
    run.find((l) => l.startsWith('CMD ')),
    'CMD ["start"]',
  );
  assert.ok(buildProgram().commands.some((c) => c.name() === 'start'));
  // What the build copies from the context exists and is not left out of the context by .dockerignore
  // (COPY --from copies between stages).
  const ignored = read('.dockerignore')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
  for (const line of lines.filter((l) => l.startsWith('COPY ') && !l.includes('--from='))) {
    const parts = line.split(/\s+/).slice(1);
    for (const source of parts.slice(0, -1)) {
      assert.ok(existsSync(join(root, source)), `${line}: ${source}`);
      assert.ok(!ignored.includes(source.split('/')[0]), `${source} is in .dockerignore`);
    }
  }
  // The image's ENV settings are options tongate reads and accepts.
  const env: Record<string, string> = {};
  for (const line of run.filter((l) => l.startsWith('ENV '))) {
    for (const [, name, value] of line.slice(4).matchAll(/(\w+)=(\S+)/g)) env[name] = value;
  }
  assert.equal(env.TONGATE_DATA_DIR, '/data');
  checkTongateEnv(env, 'Dockerfile');
  assert.equal(loadConfig({ flags: {}, env }).listen?.host, '0.0.0.0', 'reachable from outside the container');
});

test('deploy/tongate.service: ExecStart is a `tongate start` command line with options start has; not run as root', () => {
  const unit = read('deploy/tongate.service');
  for (const section of ['[Unit]', '[Service]', '[Install]']) assert.ok(unit.includes(section), section);
  const user = /^User=(\S+)$/m.exec(unit)?.[1];
  assert.ok(user && user !== 'root');
  const execStart = /^ExecStart=(.+)$/m.exec(unit)![1].split(/\s+/);
  assert.match(execStart[0], /\/tongate$/);
  assert.equal(execStart[1], 'start');
  const start = buildProgram().commands.find((c) => c.name() === 'start')!;
  const { operands, unknown } = start.parseOptions(execStart.slice(2));
  assert.deepEqual(unknown, [], 'every flag is an option of start');
  assert.deepEqual(operands, []);
  const dataDir = execStart[execStart.indexOf('--data-dir') + 1];
  assert.ok(unit.includes(`ReadWritePaths=${dataDir}`) && unit.includes(`WorkingDirectory=${dataDir}`), 'the data dir is writable');
  // Exit code 2 is a bad configuration (src/cli/main.ts): not restarted.
  assert.match(unit, /^RestartPreventExitStatus=2$/m);
  assert.match(read('src/cli/main.ts'), /bad configuration[^]*process\.exit\(2\)/);
});

test("deploy/tongate.service passes systemd's own check (where systemd-analyze is installed)", (t) => {
  const verify = spawnSync('systemd-analyze', ['verify', join(root, 'deploy', 'tongate.service')], { encoding: 'utf8' });
  if (verify.error) return t.skip(`systemd-analyze is not installed: ${verify.error.message}`);
  // tongate itself is not installed here: the one complaint allowed is that ExecStart's binary is missing.
  const complaints = verify.stderr
    .split('\n')
    .filter((line) => line.trim() !== '' && !/Command \/usr\/local\/bin\/tongate is not executable/.test(line));
  assert.deepEqual(complaints, []);
});

test("deploy/healthcheck.mjs: 0 while the first network's /healthcheck answers 200 on the listener; 1 when nothing answers", async () => {
  const port = await freePort();
  const env = {
    TONGATE_NETWORK: `mainnet=http://localhost:${port},testnet=http://testnet.localhost:${port}`,
    TONGATE_LISTEN: `127.0.0.1:${port}`,
  };
  const check = () =>
    new Promise<number | null>((resolve) => {
      const child = spawn(process.execPath, [join(root, 'deploy', 'healthcheck.mjs')], {
        env: { ...process.env, ...env },
        stdio: 'ignore',
      });
      child.on('close', resolve);
    });
  const tongate = await startTestTongate({ network: env.TONGATE_NETWORK.split(','), listen: env.TONGATE_LISTEN });
  try {
    assert.equal(await check(), 0);
  } finally {
    await tongate.stop();
  }
  assert.equal(await check(), 1, 'nothing listens any more');
});

test('LICENSE is the MIT licence package.json names; CHANGELOG has an Unreleased section', () => {
  const pkg = JSON.parse(read('package.json'));
  assert.equal(pkg.license, 'MIT');
  const license = read('LICENSE');
  assert.match(license, /^MIT License\n\nCopyright \(c\) \d{4} tongate contributors\n/);
  assert.match(license, /THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND/);
  assert.match(read('CHANGELOG.md'), /^## \[Unreleased\]$/m);
});
