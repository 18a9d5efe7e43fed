/**
 * Many get-methods in one emulator call. The emulator's only get-method entry (`_run_get_method` in
 * @ton/sandbox's WASM build) sets up a whole VM per call: the config, PREVBLOCKSINFO, the code and the data
 * parsed from BoCs, every cell hashed, c7 built, the answer serialized: ~0.5 ms here, against tens of
 * microseconds for what a token get-method itself executes. The index's token detection asks dozens of
 * get-methods per block, all at that block's state (an NFT collection 33 at one state when it mints 16 items).
 *
 * So the calls of one block go into one TVM run of a small program (tvm-code.ts) that runs each of them in a
 * child VM with RUNVM, TVM's own instruction for "run this code on this stack, data and c7 in a fresh VM"
 * (docs.ton.org, TVM specification, RUNVM): flags +1 c3 = the code, +4 c4 = its data, +8 its own gas limit and
 * gas used, +16 its own c7, +128 isolated gas (its own set of loaded cells, as a fresh run has). A child sees
 * what a standalone run sees: its stack is exactly the arguments and the method id; its c7 is the one the
 * emulator builds for a standalone call (the program copies its own c7 parameters, made by the emulator for the
 * same block, and puts in the child's balance, address and code: the only parameters that differ between
 * accounts); c0/c1/c2 quit as at top level; libraries and the global version are the run's. Its exit code,
 * stack and gas used come back as a tuple per call.
 *
 * Exactness: test/chain/emulator/get-method-batch.test.ts runs every call both ways (jetton, NFT and DNS contracts, a
 * contract answering its whole c7 parameter tuple, RETALT, an exception, running out of gas) and compares the
 * exit code, gas used and stack. A call whose batched exit code is not 0 or 1 is run again alone, so failures
 * answer exactly as before (the error, a missing library); so is a call whose arguments the program cannot
 * push (a tuple, a builder, a continuation, NaN) or that nest deeper than BATCH_MAX_ARGUMENT_DEPTH, and every
 * call of a run that fails as a whole.
 */
import { Address, beginCell, Cell, parseTuple, serializeTuple, type TupleItem } from '@ton/core';
import type { Emulator, GetRunArgs, GetRunResult } from './emulator.js';
import { OP, TvmCode } from './tvm-code.js';

/**
 * One call: its arguments, with its code and data as cells. Their BoCs (what a standalone run takes) are made
 * only if the call runs alone: a stored state read on the worker has its cells, not BoCs.
 */
export interface BatchCall {
  args: Omit<GetRunArgs, 'code' | 'data'> & Partial<Pick<GetRunArgs, 'code' | 'data'>>;
  code: Cell;
  data: Cell;
}

/** The call as the emulator runs it alone. */
export function standaloneArgs(call: BatchCall): GetRunArgs {
  const { args } = call;
  return { ...args, code: args.code ?? boc(call.code), data: args.data ?? boc(call.data) };
}

/**
 * A call given code and data as BoCs (a head state: the main thread made them), with them parsed. The same
 * account is asked again and again (every get-method of a collection at the head): the cells parsed last are
 * kept, by their BoC.
 */
export function callOfArgs(args: GetRunArgs): BatchCall {
  // Parsed only if the call runs in a batch: one that runs alone hands its BoCs to the emulator as they are.
  let code: Cell | undefined;
  let data: Cell | undefined;
  return {
    args,
    get code() {
      return (code ??= parsedCell(args.code));
    },
    get data() {
      return (data ??= parsedCell(args.data));
    },
  };
}

const CELLS_KEPT = 256;
const parsedCells = new Map<string, Cell>();

function parsedCell(boc: string): Cell {
  let cell = parsedCells.get(boc);
  if (!cell) {
    cell = Cell.fromBase64(boc);
    parsedCells.set(boc, cell);
    if (parsedCells.size > CELLS_KEPT) parsedCells.delete(parsedCells.keys().next().value!);
  }
  return cell;
}

/**
 * How deep a call's argument cells may nest for it to join a batch. Inside the program they sit under its chain
 * of code cells, and the WASM emulator walks cells recursively on a small native stack (emulator-limits.ts):
 * two calls with arguments 290 deep, each fine alone, crashed it together. Detection's arguments are 1-2 deep.
 */
export const BATCH_MAX_ARGUMENT_DEPTH = 16;

/** Calls per emulator run, at most: the program grows with them, and one slow call holds the others. */
export const MAX_BATCH = 64;

/** RUNVM flags: c3 = code, c4 given and returned, gas limit given and gas used returned, c7 given, isolated gas. */
const RUNVM_FLAGS = 1 + 4 + 8 + 16 + 128;
/** c7 parameters a child gets of its own (the emulator's order: balance, my address, my code). */
const C7_BALANCE = 7;
const C7_MY_ADDRESS = 8;
const C7_MY_CODE = 10;
/** Globals of the program: its own c7 parameters, and the current account's c7. */
const GLOBAL_PARAMS = 1;
const GLOBAL_CHILD_C7 = 2;

const EMPTY_DATA_BASE64 = new Cell().toBoc().toString('base64');
const EMPTY_STACK_BASE64 = serializeTuple([]).toBoc().toString('base64');

/**
 * Answers `calls` (all at one block: the same time, seed, gas limit, PREVBLOCKSINFO and libraries), in order,
 * each as `emulator.runGetMethod(call.args)` would.
 */
export function runGetMethodBatch(emulator: Emulator, calls: BatchCall[]): GetRunResult[] {
  const results: Array<GetRunResult | undefined> = new Array(calls.length);
  const batched: number[] = [];
  const pushes: TupleItem[][] = [];
  for (let i = 0; i < calls.length; i++) {
    const items = pushableArguments(calls[i].args.stack);
    if (items) {
      batched.push(i);
      pushes.push(items);
    }
  }
  if (batched.length > 1) {
    const answers = runTogether(
      emulator,
      batched.map((i) => calls[i]),
      pushes,
    );
    if (answers) batched.forEach((call, k) => (results[call] = answers[k]));
  }
  // Whatever the batch did not answer (or answered with a failure) runs alone, as it always did.
  return calls.map((call, i) => results[i] ?? emulator.runGetMethod(standaloneArgs(call)));
}

/** The batched answers (undefined where a call must run alone), or undefined if the run failed as a whole. */
function runTogether(emulator: Emulator, calls: BatchCall[], pushes: TupleItem[][]): Array<GetRunResult | undefined> | undefined {
  const shared = calls[0].args;
  const program = batchProgram(calls, pushes);
  const run = emulator.runGetMethod({
    ...shared,
    code: boc(program),
    data: EMPTY_DATA_BASE64,
    balance: 0n,
    methodId: 0,
    stack: EMPTY_STACK_BASE64,
    gasLimit: shared.gasLimit * BigInt(calls.length + 1),
  });
  if (!run.success || run.exitCode !== 0) return undefined;
  let answers: TupleItem[];
  try {
    answers = parseTuple(Cell.fromBase64(run.stack));
  } catch {
    return undefined;
  }
  if (answers.length !== calls.length) return undefined;
  return answers.map(childResult);
}

/** One child's tuple: its stack, then its exit code and gas used. */
function childResult(answer: TupleItem): GetRunResult | undefined {
  if (answer.type !== 'tuple' || answer.items.length < 2) return undefined;
  const exit = answer.items[answer.items.length - 2];
  const gas = answer.items[answer.items.length - 1];
  if (exit.type !== 'int' || gas.type !== 'int') return undefined;
  if (exit.value !== 0n && exit.value !== 1n) return undefined;
  try {
    const stack = boc(serializeTuple(answer.items.slice(0, -2)));
    return { success: true, stack, gasUsed: gas.value, exitCode: Number(exit.value), missingLibrary: null };
  } catch {
    return undefined; // a value @ton/core cannot write back (a continuation): the call runs alone
  }
}

/**
 * The program: for each call, its arguments and method id pushed, RUNVM, then its results (stack, exit code,
 * gas used) packed into one tuple left on the stack, so the program's answer is one tuple per call, in order.
 */
function batchProgram(calls: BatchCall[], pushes: TupleItem[][]): Cell {
  const code = new TvmCode();
  // The method id the emulator pushes for the program itself; then its c7 parameters, kept for every child.
  code.op(OP.DROP).op(OP.PUSHC7).index(0).setGlob(GLOBAL_PARAMS);
  let previous: BatchCall | undefined;
  calls.forEach((call, i) => {
    const { args } = call;
    if (!previous || !sameAccount(previous, call)) {
      code.getGlob(GLOBAL_PARAMS);
      code.pushInt(args.balance).op(OP.PUSHNULL).op(OP.PAIR).setIndex(C7_BALANCE);
      code.pushRefSlice(addressCell(args.address)).setIndex(C7_MY_ADDRESS);
      code.pushRef(call.code).setIndex(C7_MY_CODE);
      code.op(OP.SINGLE).setGlob(GLOBAL_CHILD_C7);
    }
    previous = call;
    for (const item of pushes[i]) push(code, item);
    code.pushInt(BigInt(args.methodId)).pushInt(BigInt(pushes[i].length + 1));
    code.pushRefSlice(call.code).pushRef(call.data).getGlob(GLOBAL_CHILD_C7).pushInt(args.gasLimit);
    code.runVm(RUNVM_FLAGS);
    // x'_1..x'_m exit c4' gas: drop c4', then pack everything above the i earlier answers.
    code.op(OP.NIP).op(OP.DEPTH).pushInt(BigInt(i)).op(OP.SUB).op(OP.TUPLEVAR);
  });
  return code.endCell();
}

function sameAccount(a: BatchCall, b: BatchCall): boolean {
  return a.args.address === b.args.address && a.args.balance === b.args.balance && (a.code === b.code || a.code.equals(b.code));
}

/** The address as the emulator writes it into c7 (addr_std, no anycast); the last ones made are kept. */
function addressCell(address: string): Cell {
  let cell = addressCells.get(address);
  if (!cell) {
    cell = beginCell().storeAddress(Address.parse(address)).endCell();
    addressCells.set(address, cell);
    if (addressCells.size > CELLS_KEPT) addressCells.delete(addressCells.keys().next().value!);
  }
  return cell;
}

const addressCells = new Map<string, Cell>();

/** A BoC for the emulator: no index, no checksum (it does not need them; @ton/core's CRC32-C is slow). */
function boc(cell: Cell): string {
  return cell.toBoc({ idx: false, crc32: false }).toString('base64');
}

/** The call's stack items if the program can push each of them, else undefined. */
function pushableArguments(stackBase64: string): TupleItem[] | undefined {
  if (stackBase64 === EMPTY_STACK_BASE64) return [];
  let items: TupleItem[];
  try {
    items = parseTuple(Cell.fromBase64(stackBase64));
  } catch {
    return undefined;
  }
  const pushable = (item: TupleItem) =>
    item.type === 'int' ||
    item.type === 'null' ||
    ((item.type === 'cell' || item.type === 'slice') && item.cell.depth() <= BATCH_MAX_ARGUMENT_DEPTH);
  return items.every(pushable) ? items : undefined;
}

function push(code: TvmCode, item: TupleItem): void {
  switch (item.type) {
    case 'int':
      code.pushInt(item.value);
      return;
    case 'null':
      code.op(OP.PUSHNULL);
      return;
    case 'cell':
      code.pushRef(item.cell);
      return;
    case 'slice':
      // @ton/core reads a stack slice as a cell of exactly its bits and references: the same slice.
      code.pushRefSlice(item.cell);
      return;
    default:
      throw new Error(`not pushable: ${item.type}`);
  }
}
