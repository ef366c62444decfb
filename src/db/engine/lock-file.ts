import { closeSync, openSync, readFileSync, renameSync, unlinkSync, writeSync } from 'node:fs';

import { processIsAlive } from './process-alive.ts';

export class DataDirLockedError extends Error {}

/**
 * Takes an exclusive lock on the embedded data directory: PGlite does not stop a
 * second process from opening the same files, and two writers corrupt them.
 * The lock names its owner's pid, so a lock left by a crashed process is taken over.
 */
export function acquireLockFile(path: string): () => void {
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(path, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => {
        try {
          if (readFileSync(path, 'utf8') === String(process.pid)) unlinkSync(path);
        } catch {
          // already gone: nothing to release
        }
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    let owner: number;
    try {
      owner = Number.parseInt(readFileSync(path, 'utf8'), 10);
    } catch {
      continue; // released between our open and read: try again
    }
    if (Number.isInteger(owner) && owner !== process.pid && processIsAlive(owner)) {
      throw new DataDirLockedError(
        `The data directory is in use by process ${owner} (lock file ${path}). ` +
          'Stop that process, or point FIELDHOUSE_DATA_DIR elsewhere.',
      );
    }
    // Stale lock from a dead process: move it aside atomically so only one taker wins.
    try {
      renameSync(path, `${path}.stale-${process.pid}`);
      unlinkSync(`${path}.stale-${process.pid}`);
    } catch {
      // another process took it over first; loop and look again
    }
  }
  throw new DataDirLockedError(`Could not take the lock file ${path}`);
}
