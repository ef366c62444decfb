import type { Db } from '../../src/db/client.ts';
import { loadScope } from '../../src/db/environment-scope.ts';
import { generateId } from '../../src/domain/ids.ts';

/**
 * Inserts a field row directly into the primary environment: for tests of model rules that need fields to point
 * at, independent of the fields API.
 */
export async function insertField(
  db: Db,
  itemTypeId: string,
  field: {
    api_key: string;
    field_type: string;
    validators?: Record<string, unknown>;
    localized?: boolean;
    default_value?: unknown;
  },
): Promise<string> {
  const id = generateId();
  const scoped = (await loadScope(db)).db;
  const position = await scoped
    .selectFrom('fields')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .where('item_type_id', '=', itemTypeId)
    .executeTakeFirstOrThrow();
  await scoped
    .insertInto('fields')
    .values({
      id,
      item_type_id: itemTypeId,
      fieldset_id: null,
      label: field.api_key,
      api_key: field.api_key,
      field_type: field.field_type,
      localized: field.localized ?? false,
      validators: JSON.stringify(field.validators ?? {}),
      appearance: JSON.stringify({ editor: 'default', parameters: {}, addons: [] }),
      position: Number(position.count) + 1,
      hint: null,
      default_value: JSON.stringify(field.default_value ?? null),
      deep_filtering_enabled: false,
      content_link_enabled: true,
    })
    .execute();
  return id;
}

/** The outbox events written for one model, oldest first. */
export async function eventsOf(db: Db, itemTypeId: string) {
  return db
    .selectFrom('events')
    .selectAll()
    .where('entity_id', '=', itemTypeId)
    .orderBy('id')
    .execute();
}

/**
 * How many outbox events there are for records (of one event type, if given): a refused
 * write must add none.
 */
export async function recordEventCount(db: Db, eventType?: string): Promise<number> {
  let query = db
    .selectFrom('events')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('entity_type', '=', 'item');
  if (eventType) query = query.where('event_type', '=', eventType);
  return Number((await query.executeTakeFirstOrThrow()).n);
}

/** How many rows a project table holds: what a change added to the outbox, say. */
export async function countRows(db: Db, table: 'events' | 'webhook_calls'): Promise<number> {
  const row = await db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
