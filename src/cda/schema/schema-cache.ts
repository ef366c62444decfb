import type { GraphQLSchema } from 'graphql';
import type { Db } from '../../db/client.ts';

/** Schemas kept per process (environments × schema versions × role permissions). */
export const SCHEMA_CACHE_SIZE = 64;
/** Schemas built at once: a burst of new keys queues instead of taking every core. */
export const CONCURRENT_BUILDS = 2;

/** What a schema is built for; see README.md for why these parts. */
export type SchemaKey = Readonly<{
  environmentNumber: number;
  schemaVersion: string;
  /** The role's read permissions, as a stable fingerprint. */
  permissions: string;
  /** `X-Exclude-Invalid: true`: the strict schema's types differ. */
  strict: boolean;
}>;

const keyText = (key: SchemaKey) =>
  `${key.environmentNumber}/${key.schemaVersion}/${key.permissions}/${key.strict ? 'strict' : 'lax'}`;

/**
 * Built delivery schemas: least recently used out past `size`; one build per key however
 * many requests ask at once (they share its promise); at most `concurrency` builds at
 * a time; a newer schema version of an environment drops the older ones at once.
 */
export class DeliverySchemaCache {
  private readonly built = new Map<string, { key: SchemaKey; schema: GraphQLSchema }>();
  private readonly building = new Map<string, Promise<GraphQLSchema>>();
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    private readonly size = SCHEMA_CACHE_SIZE,
    private readonly concurrency = CONCURRENT_BUILDS,
  ) {}

  get(key: SchemaKey, build: () => Promise<GraphQLSchema>): Promise<GraphQLSchema> {
    const text = keyText(key);
    const kept = this.built.get(text);
    if (kept) {
      // Re-inserted: the map's first key is the least recently used.
      this.built.delete(text);
      this.built.set(text, kept);
      return Promise.resolve(kept.schema);
    }
    const pending = this.building.get(text);
    if (pending) return pending;
    const started = this.throttled(build).then(
      (schema) => {
        this.building.delete(text);
        this.keep(text, key, schema);
        return schema;
      },
      (error: unknown) => {
        this.building.delete(text);
        throw error;
      },
    );
    this.building.set(text, started);
    return started;
  }

  private keep(text: string, key: SchemaKey, schema: GraphQLSchema): void {
    for (const [other, entry] of this.built) {
      const sameEnvironment = entry.key.environmentNumber === key.environmentNumber;
      if (sameEnvironment && BigInt(entry.key.schemaVersion) > BigInt(key.schemaVersion)) return;
      if (sameEnvironment && entry.key.schemaVersion !== key.schemaVersion)
        this.built.delete(other);
    }
    this.built.set(text, { key, schema });
    if (this.built.size > this.size) {
      const oldest = this.built.keys().next().value as string;
      this.built.delete(oldest);
    }
  }

  private async throttled(build: () => Promise<GraphQLSchema>): Promise<GraphQLSchema> {
    if (this.running >= this.concurrency)
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.running += 1;
    try {
      return await build();
    } finally {
      this.running -= 1;
      this.waiting.shift()?.();
    }
  }
}

// One per database pool, as the other caches (a test process serves several databases).
const byDatabase = new WeakMap<Db, DeliverySchemaCache>();

export function deliverySchemaCacheOf(db: Db): DeliverySchemaCache {
  let cache = byDatabase.get(db);
  if (!cache) {
    cache = new DeliverySchemaCache();
    byDatabase.set(db, cache);
  }
  return cache;
}
