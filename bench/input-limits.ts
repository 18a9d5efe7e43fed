/**
 * `npm run bench:input`: what the largest inputs the work limits allow (docs/api.md "Limits") cost the thread
 * that serves HTTP, relative to a one-entry get-method, measured in the same run (issue 10).
 *
 * Each case runs, in this process and without HTTP, exactly the synchronous steps a request takes on the
 * HTTP thread: parsing the JSON body (fastify's step), the parameters (stack and BoCs), serializing the
 * stack for the emulator, and for get-methods decoding a result as large as the arguments and writing it
 * out in the legacy form. The emulator itself runs in a worker and is not part of it. Cases:
 *   baseline                 runGetMethod with [["num",1]]
 *   255 numbers              the most entries at the top
 *   999 257-bit numbers      the most entries in all (three tuples of 255 and 231 more)
 *   64 cells of 8 cells      the most cell entries, 512 cells (a stack's cell budget)
 *   64 levels of tuples      the deepest nesting
 *   one BoC of 512 cells     a cell argument at a stack's cell budget
 *   100,000 entries          refused: the 1 MB body of issue 10 (JSON parse + the count check)
 *   sendBoc, 1,024 cells     an external message at the cell budget (parameter + the chain's parse)
 * Rounds are interleaved, so load from other processes hits every case alike; each case's median over
 * all rounds is printed with its spread (min..max of the round medians) and as a ratio to the baseline.
 *
 * Flags: --rounds R (default 5), --runs N per case per round (default 15).
 */
import '../src/ton/core-speedups.js';
import { Address, beginCell, Cell, external, serializeTuple, storeMessage } from '@ton/core';
import { runGetMethod } from '../src/api/v2/methods/run-get-method.js';
import { sendBoc } from '../src/api/v2/methods/send.js';
import { parseParams } from '../src/api/v2/params.js';
import { parseExternal } from '../src/chain/messages.js';
import { bocBytes } from '../src/ton/boc.js';
import { legacyStack } from '../src/ton/stack-output.js';
import { parseVmStack } from '../src/ton/vm-stack.js';
import { numberArg } from './support/args.js';

const rounds = numberArg('rounds', 5);
const runs = numberArg('runs', 15);

const address = new Address(0, Buffer.alloc(32, 1)).toString();
let seq = 0;
const chainCell = (cells: number) => {
  let cell = beginCell().storeUint(seq++, 32).endCell();
  for (let i = 1; i < cells; i++) cell = beginCell().storeUint(seq++, 32).storeRef(cell).endCell();
  return cell;
};
const wideCell = (cells: number) => {
  let level = Array.from({ length: Math.ceil((cells * 3) / 4) }, () => beginCell().storeUint(seq++, 32).endCell());
  while (level.length > 1) {
    const next: Cell[] = [];
    for (let i = 0; i < level.length; i += 4) {
      const b = beginCell();
      for (const c of level.slice(i, i + 4)) b.storeRef(c);
      next.push(b.endCell());
    }
    level = next;
  }
  return level[0];
};
const b64 = (cell: Cell) => cell.toBoc().toString('base64');
const num = ['num', 1];
const big = ['num', `0x${'f'.repeat(64)}`];
const tuple = (items: unknown[]) => ['tuple', { elements: items }];

/** A get-method request: everything the HTTP thread does for it, the emulation aside. */
function getMethodWork(body: string): void {
  const params = parseParams(runGetMethod.params, JSON.parse(body));
  const stackBoc = serializeTuple(params.stack).toBoc();
  // The result holds the arguments (seqno leaves them and adds one): decoded and written out.
  JSON.stringify(legacyStack(parseVmStack(Cell.fromBoc(stackBoc)[0])));
}

function refusedWork(body: string): void {
  try {
    parseParams(runGetMethod.params, JSON.parse(body));
  } catch {
    return;
  }
  throw new Error('expected a refusal');
}

function sendWork(body: string): void {
  const params = parseParams(sendBoc.params, JSON.parse(body));
  parseExternal(bocBytes(params.boc));
}

const request = (stack: unknown[]) => JSON.stringify({ address, method: 'seqno', stack });
const message = beginCell()
  .store(storeMessage(external({ to: Address.parse(address), body: wideCell(1_000) })))
  .endCell();
const cases: [string, (body: string) => void, string][] = [
  ['baseline [["num",1]]', getMethodWork, request([num])],
  ['255 numbers', getMethodWork, request(Array.from({ length: 255 }, () => num))],
  [
    '999 257-bit numbers',
    getMethodWork,
    request([tuple(Array(255).fill(big)), tuple(Array(255).fill(big)), tuple(Array(255).fill(big)), ...Array(231).fill(big)]),
  ],
  ['64 cells of 8 cells', getMethodWork, request(Array.from({ length: 64 }, () => ['tvm.Cell', b64(chainCell(8))]))],
  ['64 levels of tuples', getMethodWork, request([Array.from({ length: 64 }).reduce((inner) => tuple([inner]), num)])],
  ['one BoC of 512 cells', getMethodWork, request([['tvm.Cell', b64(wideCell(508))]])],
  ['100,000 entries (refused)', refusedWork, request(Array(100_000).fill(num))],
  ['sendBoc, 1,024 cells', sendWork, JSON.stringify({ boc: b64(message) })],
];

const medians = new Map<string, number[]>(cases.map(([name]) => [name, []]));
for (let round = 0; round < rounds; round++) {
  for (const [name, work, body] of cases) {
    const times: number[] = [];
    for (let i = 0; i < runs; i++) {
      const start = performance.now();
      work(body);
      times.push(performance.now() - start);
    }
    times.sort((a, b) => a - b);
    medians.get(name)!.push(times[Math.floor(times.length / 2)]);
  }
}
const middle = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const baseline = middle(medians.get(cases[0][0])!);
console.log(`HTTP-thread work per request (ms), ${rounds} interleaved rounds x ${runs} runs; ratio to the baseline`);
for (const [name, , body] of cases) {
  const values = medians.get(name)!;
  const m = middle(values);
  console.log(
    `${name.padEnd(28)} body ${String(body.length).padStart(8)} B  median ${m.toFixed(2).padStart(7)}  spread ${Math.min(...values).toFixed(2)}..${Math.max(...values).toFixed(2)}  x${(m / baseline).toFixed(0)}`,
  );
}
