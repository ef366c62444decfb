import type { Db, Engine } from '../client.ts';

// Filled by the engines' openers: code holding only a Kysely instance (a scope's
// `project`) asks it here instead of carrying the handle down.
const engines = new WeakMap<Db, Engine>();

/** Records which engine an opened database runs on (open-postgres.ts, open-embedded.ts). */
export function registerEngine(db: Db, engine: Engine): void {
  engines.set(db, engine);
}

/**
 * The engine `db` was opened on. An instance made elsewhere (tools, tests building their
 * own Kysely) reads as embedded: what differs per engine then takes the way that works
 * on both.
 */
export function engineOf(db: Db): Engine {
  return engines.get(db) ?? 'embedded';
}
