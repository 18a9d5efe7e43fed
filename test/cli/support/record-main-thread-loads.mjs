// Preloaded (`--import`) into a process under test: every module URL its main thread loads is appended, one a line,
// to the file named by TONGATE_RECORD_LOADS (a worker thread's own loads are not). Uses record-loads.mjs's hook.
import { appendFileSync } from 'node:fs';
import { register } from 'node:module';
import { MessageChannel, isMainThread } from 'node:worker_threads';

const file = process.env.TONGATE_RECORD_LOADS;
if (isMainThread && file) {
  const { port1, port2 } = new MessageChannel();
  port1.on('message', (url) => appendFileSync(file, `${url}\n`));
  port1.unref();
  register('./record-loads.mjs', import.meta.url, { data: { port: port2 }, transferList: [port2] });
}
