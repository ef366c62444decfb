import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The installation's root directory (where package.json is): the nearest one above this
 * module, which runs from `src/` under tsx and from a build folder in `.cache/` (the entry
 * or one of its chunks) under bin/fieldhouse.js.
 */
export const INSTALL_ROOT = nearestPackageRoot(dirname(fileURLToPath(import.meta.url)));

function nearestPackageRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) throw new Error(`no package.json above ${from}`);
  }
}
