// Runs in a child process: creates a new embedded data directory and exits,
// taking initdb's memory with it.
import { createPGlite } from './embedded.ts';

const dataDir = process.argv[2];
if (!dataDir) throw new Error('usage: embedded-init <data dir>');
const pglite = await createPGlite(dataDir);
await pglite.close();
