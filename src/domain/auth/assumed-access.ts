import type { Db } from '../../db/client.ts';
import { listenToSchemaVersionsLeft } from '../../db/schema-version-left.ts';
import type { Kept } from './tokens.ts';

// On PostgreSQL every request reads its token (tokens.ts `authenticate`), so that a token
// deleted or a role changed in any process takes effect on the very next request. A
// write (a record's, or a field's or model's create or update) need not wait for that
// read before it starts: it takes the last answer this process read for the same token
// and environment, and its transaction checks, after its entry, that the access version
// read with that answer is still the database's (db/environment-entry.ts
// `holdAccessCheck`, project migration 0019). Until that check has passed and the change
// has committed, nothing of the request is answered on the assumed token: the route runs
// again on a token read afresh (http/plugins/assumed-token.ts). A schema change committed
// through this process moves the answers' schema version to the one it left, so the next
// change here does not find its environment moved (README.md).

// Tokens × environments remembered at once: past it the map is emptied (a flood of tokens
// costs reads, never memory).
const MOST_REMEMBERED = 1_000;

const answersByDatabase = new WeakMap<Db, Map<string, Kept>>();

function answersOf(db: Db): Map<string, Kept> {
  let answers = answersByDatabase.get(db);
  if (!answers) {
    const made = new Map<string, Kept>();
    answersByDatabase.set(db, made);
    listenToSchemaVersionsLeft(db, (number, version) => moveSchemaVersion(made, number, version));
    answers = made;
  }
  return answers;
}

/** The answers for environment `number` at an older schema version move to `version`. */
function moveSchemaVersion(answers: Map<string, Kept>, number: number, version: string): void {
  for (const kept of answers.values()) {
    const environment = kept.found.environment;
    if (environment?.number !== number) continue;
    if (BigInt(environment.schema_version) >= BigInt(version)) continue;
    kept.found = { ...kept.found, environment: { ...environment, schema_version: version } };
  }
}

/** Remembers the answer read for `key` (api, token hash, environment). */
export function rememberAnswer(db: Db, key: string, answer: Kept): void {
  const answers = answersOf(db);
  if (answers.size >= MOST_REMEMBERED && !answers.has(key)) answers.clear();
  answers.set(key, answer);
}

/** Forgets `key`: its token no longer authenticates. */
export function forgetAnswer(db: Db, key: string): void {
  answersByDatabase.get(db)?.delete(key);
}

/** The last answer read for `key` in this process, if any. */
export function rememberedAnswer(db: Db, key: string): Kept | undefined {
  return answersByDatabase.get(db)?.get(key);
}
