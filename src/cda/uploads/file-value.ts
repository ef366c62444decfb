import type { Upload } from '../../domain/uploads/upload.ts';

/** A file or gallery value's own metadata, as records store it. */
export type FileMetadata = Readonly<{
  alt?: string | null;
  title?: string | null;
  focal_point?: Readonly<{ x: number; y: number }> | null;
  custom_data?: Readonly<Record<string, unknown>> | null;
}>;

/**
 * What a `FileField` resolves from: the upload, the metadata the record's value sets
 * (null for `allUploads` / `upload`), and the locale it is read in.
 */
export type FileValue = Readonly<{
  upload: Upload;
  metadata: FileMetadata | null;
  locale: string;
  fallbackLocales: readonly string[];
}>;

export type ResolvedMetadata = Readonly<{
  alt: string | null;
  title: string | null;
  customData: Readonly<Record<string, unknown>>;
  focalPoint: Readonly<{ x: number; y: number }> | null;
}>;

const blank = (value: unknown) =>
  value === null ||
  value === undefined ||
  value === '' ||
  (typeof value === 'object' && Object.keys(value as object).length === 0);

/** The first of the locales whose value is not blank. */
function firstPresent<T>(byLocale: Readonly<Record<string, T>>, locales: readonly string[]) {
  for (const locale of locales) {
    const value = byLocale?.[locale];
    if (!blank(value)) return value as T;
  }
  return null;
}

/**
 * alt, title, custom data and focal point: when the record's value sets any of the four,
 * all four come from it (those it leaves unset stay empty); otherwise from the upload's
 * default metadata in the locale asked for, then its fallback locales.
 */
export function resolvedMetadata(
  value: FileValue,
  locale: string,
  fallbackLocales: readonly string[],
): ResolvedMetadata {
  const own = value.metadata;
  if (own && [own.alt, own.title, own.focal_point, own.custom_data].some((part) => !blank(part))) {
    return {
      alt: own.alt ?? null,
      title: own.title ?? null,
      customData: own.custom_data ?? {},
      focalPoint: own.focal_point ?? null,
    };
  }
  const defaults = value.upload.defaultFieldMetadata;
  const locales = [locale, ...fallbackLocales];
  return {
    alt: firstPresent(defaults.alt ?? {}, locales),
    title: firstPresent(defaults.title ?? {}, locales),
    customData: firstPresent(defaults.custom_data ?? {}, locales) ?? {},
    focalPoint: defaults.focal_point ?? null,
  };
}
