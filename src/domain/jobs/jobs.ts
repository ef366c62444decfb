import type { Db } from '../../db/client.ts';
import { NotFound } from '../errors.ts';

// Job results stay readable this long; older ones are swept when new ones are stored.
const RETENTION_HOURS = 24;

/** Stores a finished job's outcome: the status and document the sync endpoint would send. */
export async function storeJobResult(
  db: Db,
  tokenId: string,
  status: number,
  payload: unknown,
): Promise<string> {
  const job = await db
    .insertInto('jobs')
    .values({ access_token_id: tokenId, status, payload: JSON.stringify(payload) })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .deleteFrom('jobs')
    .where('created_at', '<', new Date(Date.now() - RETENTION_HOURS * 3_600_000))
    .execute();
  return job.id;
}

/** A job's result, visible only to the token that started it. */
export async function findJobResult(
  db: Db,
  tokenId: string,
  jobId: string,
): Promise<{ status: number; payload: unknown }> {
  const job = /^\d{1,18}$/.test(jobId)
    ? await db
        .selectFrom('jobs')
        .select(['status', 'payload'])
        .where('id', '=', jobId)
        .where('access_token_id', '=', tokenId)
        .executeTakeFirst()
    : undefined;
  if (!job) throw new NotFound('Job', jobId);
  return job;
}
