/**
 * One tongate per data directory: `tongate start` holds `<dataDir>/tongate.lock` for its whole life, so a second
 * start on the same directory is refused at once instead of sealing blocks over the first one's chain.
 *
 * The lock is an OS lock, not a file that says "taken": SQLite's own POSIX (fcntl) lock on a small database, held
 * in `locking_mode = EXCLUSIVE` from the first write until the connection closes. The kernel drops fcntl locks
 * when their process ends however it ends, so a `kill -9` or a crash leaves nothing stale to clean up. The holder's
 * pid is written into the same file's header (`user_version`, bytes 60-63), which the refused process reads as
 * plain bytes: SQLite's locks cover a byte range past the first gigabyte of the file, never its header, and they
 * are advisory, so reading the header needs no lock. (README.md: why not a lock-file package.)
 */
import { closeSync, mkdirSync, openSync, readSync } from 'node:fs';
import { join, resolve } from 'node:path';
import Database from 'better-sqlite3';

export const LOCK_FILE_NAME = 'tongate.lock';
/** How long a start waits for the lock before it is refused. */
const LOCK_WAIT_MS = 1000;

/** Another live process holds the directory. */
export class DataDirInUse extends Error {
  override name = 'DataDirInUse';
  constructor(
    readonly dir: string,
    /** The holder's pid, when its header could be read. */
    readonly pid: number | undefined,
  ) {
    super(
      `${dir} is in use by another tongate (${pid === undefined ? 'pid unknown' : `pid ${pid}`}); stop it, or give this one another --data-dir`,
    );
  }
}

export interface DataDirLock {
  readonly dir: string;
  /** Lets the directory go (the process's end does the same). */
  release(): void;
}

/** Takes `dir` for this process, or throws DataDirInUse naming the process that has it. */
export function lockDataDir(dir: string): DataDirLock {
  const absolute = resolve(dir);
  mkdirSync(absolute, { recursive: true });
  const file = join(absolute, LOCK_FILE_NAME);
  // A held lock is answered within the busy timeout. Not 0: two starts at the same moment may both take SQLite's
  // shared lock on the way; the loser gets SQLITE_BUSY at once (SQLite does not wait where waiting would deadlock)
  // and closes, and the winner's wait for that shared lock to go is what the timeout is for.
  const db = new Database(file, { timeout: LOCK_WAIT_MS });
  try {
    db.pragma('locking_mode = EXCLUSIVE');
    // BEGIN EXCLUSIVE takes SQLite's exclusive lock; in this locking mode it is kept after COMMIT, until close.
    db.exec(`BEGIN EXCLUSIVE; PRAGMA user_version = ${process.pid}; COMMIT`);
  } catch (err) {
    db.close();
    if ((err as { code?: string }).code === 'SQLITE_BUSY') throw new DataDirInUse(absolute, awaitHolderPid(file));
    throw err;
  }
  let released = false;
  return {
    dir: absolute,
    release() {
      if (released) return;
      released = true;
      db.close();
    },
  };
}

/** The holder's pid; a brand-new file's winner may not have written it yet: asked again for up to ~250 ms. */
function awaitHolderPid(file: string): number | undefined {
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (let attempt = 0; ; attempt++) {
    const pid = holderPid(file);
    if (pid !== undefined || attempt === 5) return pid;
    Atomics.wait(pause, 0, 0, 50);
  }
}

/** The pid in the lock file's header (SQLite's user_version, big-endian at byte 60). */
function holderPid(file: string): number | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(file, 'r');
    const header = Buffer.alloc(100);
    if (readSync(fd, header, 0, 100, 0) < 64) return undefined;
    const pid = header.readUInt32BE(60);
    return pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
