import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  type CompiledQuery,
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
} from 'kysely';
import type { Db } from '../../src/db/client.ts';
import { type EnvQueryable, scopeFor } from '../../src/db/environment-scope.ts';
import { preparedShape } from '../../src/db/query/prepared.ts';

/** A database that answers nothing, and the statements it was sent. */
function recordingDb() {
  const sent: { name: string; text: string; parameters: readonly unknown[] }[] = [];
  const db = new Kysely({
    dialect: {
      createAdapter: () => new PostgresAdapter(),
      createDriver: () => new DummyDriver(),
      createIntrospector: (kysely) => new PostgresIntrospector(kysely),
      createQueryCompiler: () => new PostgresQueryCompiler(),
    },
    log: (event) => {
      const query = event.query as CompiledQuery & { sql: unknown };
      const named = query.sql as unknown as { name: string; text: string };
      sent.push({ name: named.name, text: named.text, parameters: query.parameters });
    },
  }) as unknown as Db;
  const environment = (number: number) =>
    scopeFor(db, { id: `env${number}`, number, schemaName: `env_${number}`, isPrimary: false }).db;
  return { sent, environment };
}

test('a shape is compiled once per schema, and each call runs it with its own arguments', async () => {
  const { sent, environment } = recordingDb();
  const fieldsAt = preparedShape((db: EnvQueryable, itemTypeId: string, position: number) =>
    db
      .selectFrom('fields')
      .select('id')
      .where('item_type_id', '=', itemTypeId)
      .where('localized', '=', false)
      .where('position', '=', position),
  );
  await fieldsAt(environment(1), 'a', 1);
  await fieldsAt(environment(2), 'b', 2);
  await fieldsAt(environment(1), 'c', 3);
  assert.deepEqual(
    sent.map((query) => query.parameters),
    [
      ['a', false, 1],
      ['b', false, 2],
      ['c', false, 3],
    ],
  );
  assert.match(sent[0]?.text ?? '', /"env_1"\."fields"/);
  assert.match(sent[1]?.text ?? '', /"env_2"\."fields"/);
  assert.equal(sent[2]?.text, sent[0]?.text);
  assert.equal(sent[2]?.name, sent[0]?.name);
  assert.notEqual(sent[1]?.name, sent[0]?.name);
});

test('an argument the statement does not take as a parameter is refused', async () => {
  const { sent, environment } = recordingDb();
  const misused = preparedShape((db: EnvQueryable, apiKey: string) =>
    db.selectFrom('fields').select('id').where('api_key', '=', `${apiKey}_copy`),
  );
  await assert.rejects(misused(environment(1), 'title'), /not a parameter/);
  assert.equal(sent.length, 0);
});
