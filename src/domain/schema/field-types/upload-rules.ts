import { extensionOf, filenameOf } from '../../upload-file-names.ts';
import type { Upload } from '../../uploads/upload.ts';
import type { UploadMention } from './block-refs.ts';
import type { UploadValidatorName } from './record-value-rules.ts';

type Params = Readonly<Record<string, unknown>>;

/** What the upload validators read of an upload: its stored metadata. */
export type UploadFacts = Pick<
  Upload,
  'id' | 'path' | 'size' | 'mimeType' | 'format' | 'isImage' | 'width' | 'height'
> & { defaultFieldMetadata: Pick<Upload['defaultFieldMetadata'], 'alt' | 'title'> };

const UNIT_BYTES: Readonly<Record<string, number>> = { B: 1, KB: 1024, MB: 1024 * 1024 };

/** Formats the image renderer transforms. */
const TRANSFORMABLE = new Set(['jpg', 'jpeg', 'png', 'gif', 'webp', 'avif', 'tiff']);

/** Office, OpenDocument and plain-text document extensions (PROPOSAL: DatoCMS lists none). */
const DOCUMENTS = new Set([
  'pdf',
  'doc',
  'docx',
  'xls',
  'xlsx',
  'ppt',
  'pptx',
  'odt',
  'ods',
  'odp',
  'rtf',
  'txt',
  'csv',
]);

/** Two aspect ratios are equal within 0.5 %: pixel sizes rarely divide exactly. */
const EQUAL_RATIO_TOLERANCE = 0.005;

const num = (params: Params, key: string) =>
  typeof params[key] === 'number' ? (params[key] as number) : undefined;

function fileSizeProblem(upload: UploadFacts, params: Params): string | null {
  const limit = (side: 'min' | 'max') => {
    const value = num(params, `${side}_value`);
    const unit = UNIT_BYTES[String(params[`${side}_unit`])];
    return value === undefined || unit === undefined
      ? undefined
      : { bytes: value * unit, text: `${value} ${params[`${side}_unit`]}` };
  };
  const min = limit('min');
  const max = limit('max');
  if (min && upload.size < min.bytes) return `must be at least ${min.text} (is ${upload.size} B)`;
  if (max && upload.size > max.bytes) return `must be at most ${max.text} (is ${upload.size} B)`;
  return null;
}

function imageSize(upload: UploadFacts): { width: number; height: number } | null {
  return upload.isImage && upload.width !== null && upload.height !== null
    ? { width: upload.width, height: upload.height }
    : null;
}

function dimensionsProblem(upload: UploadFacts, params: Params): string | null {
  const size = imageSize(upload);
  if (!size) return 'must be an image';
  for (const side of ['width', 'height'] as const) {
    const min = num(params, `${side}_min_value`);
    const max = num(params, `${side}_max_value`);
    if (min !== undefined && size[side] < min)
      return `must be at least ${min} px in ${side} (is ${size[side]})`;
    if (max !== undefined && size[side] > max)
      return `must be at most ${max} px in ${side} (is ${size[side]})`;
  }
  return null;
}

function ratio(params: Params, side: 'min' | 'eq' | 'max') {
  const numerator = num(params, `${side}_ar_numerator`);
  const denominator = num(params, `${side}_ar_denominator`);
  return numerator === undefined || denominator === undefined
    ? undefined
    : { value: numerator / denominator, text: `${numerator}:${denominator}` };
}

function aspectRatioProblem(upload: UploadFacts, params: Params): string | null {
  const size = imageSize(upload);
  if (!size || size.height === 0) return 'must be an image';
  const actual = size.width / size.height;
  const shown = `${size.width}×${size.height}`;
  const eq = ratio(params, 'eq');
  if (eq && Math.abs(actual - eq.value) > eq.value * EQUAL_RATIO_TOLERANCE)
    return `must have an aspect ratio of ${eq.text} (is ${shown})`;
  const min = ratio(params, 'min');
  if (min && actual < min.value)
    return `must have an aspect ratio of at least ${min.text} (is ${shown})`;
  const max = ratio(params, 'max');
  if (max && actual > max.value)
    return `must have an aspect ratio of at most ${max.text} (is ${shown})`;
  return null;
}

function extensionProblem(upload: UploadFacts, params: Params): string | null {
  const filename = filenameOf(upload.path);
  const extension = extensionOf(filename);
  switch (params.predefined_list) {
    case 'image':
      return upload.isImage ? null : 'must be an image';
    case 'transformable_image':
      return upload.isImage && TRANSFORMABLE.has(upload.format ?? '')
        ? null
        : 'must be an image in a format that can be transformed (jpg, png, gif, webp, avif, tiff)';
    case 'video':
      return upload.mimeType.startsWith('video/') ? null : 'must be a video';
    case 'document':
      return extension !== null && DOCUMENTS.has(extension) ? null : 'must be a document';
  }
  const allowed = Array.isArray(params.extensions)
    ? params.extensions.map((e) => String(e).replace(/^\./, '').toLowerCase())
    : [];
  return extension !== null && allowed.includes(extension)
    ? null
    : `must have one of the extensions ${allowed.join(', ')} (${filename} has ${extension ?? 'none'})`;
}

const isBlankText = (text: unknown) => typeof text !== 'string' || text.trim() === '';

/** Alt and title: the value's own, else the upload's default in the locale. */
function altTitleProblem(
  upload: UploadFacts,
  mention: UploadMention,
  params: Params,
  locale: string,
): string | null {
  const missing = (['alt', 'title'] as const).filter(
    (key) =>
      params[key] === true &&
      isBlankText(mention[key]) &&
      isBlankText(upload.defaultFieldMetadata[key]?.[locale]),
  );
  return missing.length > 0
    ? `needs ${missing.join(' and ')} (on the value or as the upload's default)`
    : null;
}

/**
 * What is wrong with one upload a value names under one validator, or null. `locale`: the
 * value's locale (the main one for a field that is not localized), for default alt/title.
 */
export function uploadProblem(
  validator: UploadValidatorName,
  params: Params,
  mention: UploadMention,
  upload: UploadFacts,
  locale: string,
): string | null {
  switch (validator) {
    case 'file_size':
      return fileSizeProblem(upload, params);
    case 'image_dimensions':
      return dimensionsProblem(upload, params);
    case 'image_aspect_ratio':
      return aspectRatioProblem(upload, params);
    case 'extension':
      return extensionProblem(upload, params);
    case 'required_alt_title':
      return altTitleProblem(upload, mention, params, locale);
  }
}
