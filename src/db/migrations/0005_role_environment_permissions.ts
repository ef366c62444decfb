import { type Kysely, sql } from 'kysely';

// The role permission lists whose entries name one environment each (as of this migration).
const ENVIRONMENT_LISTS = [
  'positive_item_type_permissions',
  'negative_item_type_permissions',
  'positive_upload_permissions',
  'negative_upload_permissions',
];

type Entry = Record<string, unknown>;

/**
 * Record routes now enforce item-type permissions, per environment, and a fork gives every
 * role its source's entries for the new environment. Environments forked before that
 * have no entries of their own (the bootstrap roles name only `main`), so a promoted
 * sandbox would lock its Admin out: each role gets, for every environment it names in no
 * entry, the entries of the environment it was forked from, else those of `main`.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const { rows: environments } = await sql<{ id: string; forked_from: string | null }>`
    SELECT id, forked_from FROM environments
  `.execute(db);
  const { rows: roles } = await sql<{ id: string; attributes: Record<string, Entry[]> }>`
    SELECT id, attributes FROM roles
  `.execute(db);
  for (const role of roles) {
    const attributes = { ...role.attributes };
    const named = new Set(
      ENVIRONMENT_LISTS.flatMap((list) => (attributes[list] ?? []).map((e) => e.environment)),
    );
    let changed = false;
    for (const environment of environments) {
      if (named.has(environment.id)) continue;
      const source =
        environment.forked_from !== null && named.has(environment.forked_from)
          ? environment.forked_from
          : 'main';
      for (const list of ENVIRONMENT_LISTS) {
        const entries = attributes[list] ?? [];
        const copies = entries
          .filter((entry) => entry.environment === source)
          .map((entry) => ({ ...entry, environment: environment.id }));
        if (copies.length === 0) continue;
        attributes[list] = [...entries, ...copies];
        changed = true;
      }
    }
    if (changed)
      await sql`UPDATE roles SET attributes = ${JSON.stringify(attributes)}::jsonb WHERE id = ${role.id}`.execute(
        db,
      );
  }
}
