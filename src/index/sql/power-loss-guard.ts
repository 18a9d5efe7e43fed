/**
 * What lets the embedded index skip fsync (SQLite `synchronous = OFF`) without ever serving a
 * corrupt file.
 *
 * Without fsync, SQLite's own guarantee is: a crash of the process loses nothing (the data is in the
 * operating system's hands), a crash of the operating system or a power loss may corrupt the file.
 * The index is derived data (the chain's store holds every block, and the catch-up writes whatever
 * the index lacks), so the remedy for the second case is to rebuild it, and the only question is
 * knowing that it happened. The machine went down while the index was open exactly when a marker
 * written at open, and removed at a clean close, names another boot of the machine than the current
 * one. Linux names each boot (/proc/sys/kernel/random/boot_id); where that is not available the
 * index keeps fsync at its checkpoints (`synchronous = NORMAL`) and needs no guard.
 *
 * Measured at 1M transactions (bench:v3's store thread): fsync at each checkpoint took ~40 % of the
 * time spent writing a block.
 */
import { closeSync, existsSync, fsyncSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';

const BOOT_ID = '/proc/sys/kernel/random/boot_id';

export type Synchronous = 'off' | 'normal';

/** This boot of the machine, or undefined where the system does not name boots. */
export function currentBoot(): string | undefined {
  try {
    const id = readFileSync(BOOT_ID, 'utf8').trim();
    return id.length > 0 ? id : undefined;
  } catch {
    return undefined;
  }
}

/** Flushes a file (or a directory's entries) to the disk. */
function fsyncPath(path: string): void {
  const fd = openSync(path, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

export interface GuardedOpen {
  synchronous: Synchronous;
  /** True when the file was left open by an earlier boot and has been removed (to be rebuilt). */
  discarded: boolean;
  /** Flushes the file, then removes the marker: call after the last connection closed cleanly. */
  closed(): void;
}

/**
 * Before `file` is opened: removes it if a previous boot left it open (unsynced writes may have been
 * lost halfway), then marks it open in this boot. `readBoot` is injectable for tests.
 */
export function guardSqliteFile(file: string, readBoot: () => string | undefined = currentBoot): GuardedOpen {
  const boot = readBoot();
  if (boot === undefined) return { synchronous: 'normal', discarded: false, closed: () => {} };
  const marker = `${file}.open-in-boot`;
  let discarded = false;
  if (existsSync(marker) && readFileSync(marker, 'utf8').trim() !== boot) {
    for (const suffix of ['', '-wal', '-shm']) rmSync(`${file}${suffix}`, { force: true });
    discarded = true;
  }
  // The marker must be on the disk before the first unsynced write: a marker lost with the power would
  // leave a damaged file looking clean.
  const fd = openSync(marker, 'w');
  try {
    writeSync(fd, `${boot}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  fsyncPath(dirname(marker));
  return {
    synchronous: 'off',
    discarded,
    closed() {
      // What the OS still holds goes to the disk before the marker stops vouching for the file.
      for (const path of [file, `${file}-wal`]) if (existsSync(path)) fsyncPath(path);
      rmSync(marker, { force: true });
    },
  };
}
