import { randomBytes } from 'node:crypto';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { openStorage } from '../../storage/open-storage.ts';
import type { Storage } from '../../storage/storage.ts';

/** What upload operations need beyond a request's scope, made once per process. */
export type UploadSettings = Readonly<{
  storage: Storage;
  maxBytes: number;
  urlTtlSeconds: number;
  /** The base of every upload's `url` (the path follows it). */
  assetsBase(): string;
  /** The project's id (the first segment of every path) and the key of upload URLs. */
  projectKeys(): Promise<ProjectKeys>;
}>;

export type ProjectKeys = Readonly<{ siteId: string; signingSecret: string }>;

/** `listeningOrigin`: where this process is reached when FIELDHOUSE_PUBLIC_URL is unset. */
export function uploadSettings(
  db: Db,
  config: Config,
  listeningOrigin: () => string,
): UploadSettings {
  let keys: Promise<ProjectKeys> | undefined;
  return {
    storage: openStorage(config.storage),
    assetsBase: () => config.assetsUrl ?? `${config.publicUrl ?? listeningOrigin()}/assets`,
    maxBytes: config.uploadMaxBytes,
    urlTtlSeconds: config.uploadUrlTtlSeconds,
    projectKeys: () => {
      keys ??= readProjectKeys(db, config.signingSecret).catch((error) => {
        keys = undefined;
        throw error;
      });
      return keys;
    },
  };
}

/**
 * The site's id and the signing secret: FIELDHOUSE_SIGNING_SECRET, else the one kept in
 * the database, made by whichever process asks first (the update keeps an existing one),
 * so every process of the project signs and verifies with the same key.
 */
async function readProjectKeys(db: Db, configured: string | null): Promise<ProjectKeys> {
  const row = await db
    .updateTable('site')
    .set((eb) => ({
      upload_signing_secret: eb.fn.coalesce(
        'upload_signing_secret',
        eb.val(randomBytes(32).toString('base64url')),
      ),
    }))
    .returning(['id', 'upload_signing_secret'])
    .executeTakeFirstOrThrow();
  return {
    siteId: String(row.id),
    signingSecret: configured ?? (row.upload_signing_secret as string),
  };
}
