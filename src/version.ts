import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { INSTALL_ROOT } from './paths.ts';

/** Fieldhouse's own version, from package.json: one source for logs and the OpenAPI document. */
export const VERSION: string = JSON.parse(
  readFileSync(join(INSTALL_ROOT, 'package.json'), 'utf8'),
).version;
