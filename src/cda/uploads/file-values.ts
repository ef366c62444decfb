import type { DeliveryContext, DeliveryRecord } from '../resolvers/context.ts';
import type { FileMetadata, FileValue } from './file-value.ts';

type StoredFile = FileMetadata & Readonly<{ upload_id?: unknown }>;

const isStoredFile = (value: unknown): value is StoredFile =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as StoredFile).upload_id === 'string';

/**
 * File values (`{upload_id, alt, title, focal_point, custom_data}`) as `FileField`s read
 * in the record's locale, their uploads loaded in one batch; a value whose upload is gone
 * or unreadable drops out.
 */
export async function fileValues(
  stored: readonly unknown[],
  record: Pick<DeliveryRecord, 'locale' | 'fallbackLocales'>,
  context: DeliveryContext,
): Promise<FileValue[]> {
  const files = stored.filter(isStoredFile);
  const uploads = await context.uploads.loadMany(files.map((file) => file.upload_id as string));
  return files.flatMap((file, index) => {
    const upload = uploads[index];
    if (!upload || upload instanceof Error) return [];
    return [
      { upload, metadata: file, locale: record.locale, fallbackLocales: record.fallbackLocales },
    ];
  });
}

/** An upload named by id (an SEO image) as a `FileField` with the upload's own metadata. */
export async function uploadValue(
  id: unknown,
  record: Pick<DeliveryRecord, 'locale' | 'fallbackLocales'>,
  context: DeliveryContext,
): Promise<FileValue | null> {
  if (typeof id !== 'string') return null;
  const upload = await context.uploads.load(id);
  if (!upload) return null;
  return { upload, metadata: null, locale: record.locale, fallbackLocales: record.fallbackLocales };
}
