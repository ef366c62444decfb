import exifr from 'exifr';

/** EXIF tags the API shows, under its snake_case names; GPS is never read. */
const SHOWN: Record<string, string> = {
  Make: 'make',
  Model: 'model',
  LensModel: 'lens_model',
  ISO: 'iso',
  ExposureTime: 'exposure_time',
  FNumber: 'f_number',
  FocalLength: 'focal_length',
  Flash: 'flash_mode',
  DateTimeOriginal: 'date_time_original',
};

/** The shown EXIF tags of an image file; `{}` when it has none or they cannot be read. */
export async function readExif(file: string): Promise<Record<string, unknown>> {
  let tags: Record<string, unknown> | undefined;
  try {
    tags = await exifr.parse(file, { gps: false, pick: Object.keys(SHOWN) });
  } catch {
    return {};
  }
  const shown: Record<string, unknown> = {};
  for (const [tag, name] of Object.entries(SHOWN)) {
    const value = tags?.[tag];
    if (value === undefined || value === null) continue;
    shown[name] = value instanceof Date ? value.toISOString() : value;
  }
  return shown;
}
