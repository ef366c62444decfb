// Upload paths as DatoCMS makes them: `/<site id>/<timestamp>-<file name>`.

const MAX_NAME_BYTES = 200;

/**
 * A file name safe in a URL and a storage key: letters, digits, `.`, `_` and `-` kept
 * (case and extension too), every other run turned into one `-`, at most 200 bytes
 * with the extension kept; `file` when nothing is left.
 */
export function safeFileName(filename: string | undefined): string {
  const cleaned = (filename ?? '')
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/^[.-]+/, '')
    .replace(/-+$/, '');
  if (cleaned === '') return 'file';
  if (cleaned.length <= MAX_NAME_BYTES) return cleaned;
  const extension = /\.[A-Za-z0-9]{1,10}$/.exec(cleaned)?.[0] ?? '';
  return cleaned.slice(0, MAX_NAME_BYTES - extension.length) + extension;
}

export function uploadPath(siteId: string, timestampMs: number, safeName: string): string {
  return `/${siteId}/${timestampMs}-${safeName}`;
}

/** The storage key of a path: the path without its leading `/`. */
export function storageKey(path: string): string {
  return path.slice(1);
}
