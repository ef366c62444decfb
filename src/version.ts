import { readFileSync } from 'node:fs';

/** Fieldhouse's own version, from package.json: one source for logs and the OpenAPI document. */
export const VERSION: string = JSON.parse(
  readFileSync(new URL('../package.json', import.meta.url), 'utf8'),
).version;
