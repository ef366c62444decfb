// The compatibility corpus (issue 9): migration scripts in the shapes `datocms
// migrations:new --autogenerate` writes, each run through the official client and
// followed by its own assertions on the resulting schema. One server serves the whole
// file (an embedded server takes many seconds to start on a loaded machine); before
// each script the project is reset to its fresh state, and that state is checked.
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { before, describe, test } from 'node:test';
import type { Client } from '@datocms/cma-client-node';
import { samplesFor } from '../support/field-type-samples.ts';
import { type ProjectSnapshot, resetProject, snapshotProject } from '../support/project-reset.ts';
import { useTestServer } from '../support/server.ts';

type MigrationScript = {
  /** The migration, as the CLI runs it. */
  default: (client: Client) => Promise<void>;
  /** Reads the schema back through the client and asserts what the migration made. */
  expect: (client: Client) => Promise<void>;
};

const SCRIPTS_DIR = new URL('./scripts/', import.meta.url);
const scripts = readdirSync(SCRIPTS_DIR)
  .filter((file) => /^\d{2}-[a-z0-9-]+\.ts$/.test(file))
  .sort();

const server = useTestServer();
const client = server.client();
let fresh: ProjectSnapshot;
/** `field_type editor` and `field_type validator` pairs the scripts left in a schema. */
const covered = new Set<string>();

async function recordCoverage(): Promise<void> {
  for (const itemType of await client.itemTypes.list()) {
    for (const field of await client.fields.list(itemType.id)) {
      covered.add(`${field.field_type} editor ${field.appearance.editor}`);
      for (const validator of Object.keys(field.validators))
        covered.add(`${field.field_type} validator ${validator}`);
    }
  }
}

before(async () => {
  fresh = await snapshotProject(client);
});

describe('compatibility corpus: migration scripts', () => {
  test('holds at least 20 scripts', () => {
    assert.ok(scripts.length >= 20, `only ${scripts.length} scripts in ${SCRIPTS_DIR.pathname}`);
  });

  for (const file of scripts) {
    test(file, async () => {
      const script = (await import(new URL(file, SCRIPTS_DIR).href)) as MigrationScript;
      await resetProject(client, fresh);
      await script.default(client);
      await script.expect(client);
      await recordCoverage();
    });
  }

  test('the scripts cover every field type with each of its editors and validators', () => {
    const matrix = samplesFor({ model: 'model', block: 'block', titleField: 'field' });
    const missing = Object.entries(matrix).flatMap(([fieldType, sample]) => [
      ...Object.keys(sample.appearances).map((editor) => `${fieldType} editor ${editor}`),
      ...Object.keys(sample.validators).map((validator) => `${fieldType} validator ${validator}`),
    ]);
    assert.deepEqual(
      missing.filter((pair) => !covered.has(pair)),
      [],
    );
  });
});
