import type { DocumentNode, GraphQLSchema } from 'graphql';

/** Query text kept in all, in characters: a front-end's few dozen queries fit many times over. */
export const DOCUMENT_CACHE_CHARS = 256_000;

/**
 * Documents already parsed and validated against a schema, by schema and query text: a
 * front-end sends the same few queries again and again, and parsing and validating one
 * cost more than running it. Least recently used out once the texts kept pass
 * `maxChars`; a text longer than a sixteenth of that is not kept. A schema's entries
 * name it by a number of this cache's, so a dropped schema is not held; they age out.
 */
export class DocumentCache {
  private readonly schemaIds = new WeakMap<GraphQLSchema, number>();
  private nextSchemaId = 0;
  private readonly kept = new Map<string, { document: DocumentNode; chars: number }>();
  private chars = 0;

  constructor(private readonly maxChars = DOCUMENT_CACHE_CHARS) {}

  get(schema: GraphQLSchema, query: string): DocumentNode | undefined {
    const key = this.keyOf(schema, query);
    const entry = this.kept.get(key);
    if (!entry) return undefined;
    // Re-inserted: the map's first key is the least recently used.
    this.kept.delete(key);
    this.kept.set(key, entry);
    return entry.document;
  }

  /** Keeps a document that passed validation against `schema`. */
  set(schema: GraphQLSchema, query: string, document: DocumentNode): void {
    if (query.length > this.maxChars / 16) return;
    const key = this.keyOf(schema, query);
    if (this.kept.has(key)) return;
    this.kept.set(key, { document, chars: query.length });
    this.chars += query.length;
    for (const [oldest, entry] of this.kept) {
      if (this.chars <= this.maxChars) break;
      this.kept.delete(oldest);
      this.chars -= entry.chars;
    }
  }

  private keyOf(schema: GraphQLSchema, query: string): string {
    let id = this.schemaIds.get(schema);
    if (id === undefined) {
      id = this.nextSchemaId++;
      this.schemaIds.set(schema, id);
    }
    return `${id}\n${query}`;
  }
}
