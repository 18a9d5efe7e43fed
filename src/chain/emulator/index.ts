/** The TON emulator off the main thread, shared by every chain of the process (see README.md). */
export {
  EmulatorPool,
  DEFAULT_READ_WORKERS,
  DEFAULT_TX_WORKERS,
  type EmulatorLane,
  type EmulatorPoolOptions,
  type WorkerStats,
} from './emulator-pool.js';
