import { fileURLToPath } from 'node:url';

/**
 * The installation's root directory (where package.json is). This file is one level
 * below it, and so is the bundle bin/fieldhouse.js runs (`.cache/`): the same relative
 * URL finds the root from the sources and from the bundle.
 */
export const INSTALL_ROOT = fileURLToPath(new URL('..', import.meta.url));
