// The file names of upload paths (`/<site id>/<timestamp>-<file name>`): read by the
// uploads, and by the field validators that judge a record's files, so they sit below both.

/** The file name a path ends with, without the timestamp prefix. */
export function filenameOf(path: string): string {
  const last = path.slice(path.lastIndexOf('/') + 1);
  return last.replace(/^\d+-/, '');
}

/** The file name without its extension. */
export function basenameOf(filename: string): string {
  const dot = filename.lastIndexOf('.');
  return dot > 0 ? filename.slice(0, dot) : filename;
}

/** The lower-cased extension, without the dot; null when there is none. */
export function extensionOf(filename: string): string | null {
  const dot = filename.lastIndexOf('.');
  return dot > 0 && dot < filename.length - 1 ? filename.slice(dot + 1).toLowerCase() : null;
}
