// Runs in a child process: creates a new embedded data directory and exits,
// taking initdb's memory with it. It builds the database in its own directory
// (initDirFor), which the parent renames into place once this process exits 0.
import { rmSync } from 'node:fs';
import { createPGlite, initDirFor } from './embedded.ts';

const dataDir = process.argv[2];
if (!dataDir) throw new Error('usage: embedded-init <data dir>');
const initDir = initDirFor(dataDir, process.pid);

// A parent killed with SIGKILL cannot stop this process, and a restarted parent starts
// an init of its own: this one gives up as soon as its parent is gone, removing what it
// wrote. The IPC channel closes when the parent dies; the parent pid check also covers
// a channel that could not be watched. Both run between the steps of PGlite's start.
const parentPid = process.ppid;
function abandonIfOrphaned(): void {
  if (process.connected && process.ppid === parentPid) return;
  rmSync(initDir, { recursive: true, force: true });
  process.exit(1);
}
process.on('disconnect', abandonIfOrphaned);
setInterval(abandonIfOrphaned, 250).unref();

rmSync(initDir, { recursive: true, force: true });
const pglite = await createPGlite(initDir);
await pglite.close();
abandonIfOrphaned();
// The watched IPC channel would keep this process alive.
process.exit(0);
