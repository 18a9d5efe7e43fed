/**
 * How deep the cells handed to the embedded emulator may nest. The WASM emulator (@ton/sandbox 0.41)
 * walks cell trees recursively on a small native stack: past a certain depth it fails with "memory
 * access out of bounds" (a 503, and the worker is replaced), where a real node, whose limit is TON's
 * (cell depth 1024, external messages 512), would answer. Measured here:
 *   - get-method argument stacks (the VmStack cell): depth 326 runs, 327 fails;
 *   - external messages (estimateFee, sendBoc): depth 434 runs, 435 fails.
 * What is deeper is refused as the caller's input (a 422 naming the parameter), with a margin below
 * the measured ceilings (a get-method's result holds its arguments plus what it adds).
 */
export const GET_METHOD_MAX_STACK_DEPTH = 300;
export const EMULATOR_MAX_MESSAGE_DEPTH = 400;
