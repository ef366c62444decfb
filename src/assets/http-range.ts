/**
 * The part of a file a GET asks for: the whole of it, one byte range (`Range: bytes=…`,
 * honoured unless `If-Range` names another version), or nothing satisfiable (416). Several
 * ranges in one request are answered with the whole file, which HTTP allows.
 */
export type RangeDecision =
  | Readonly<{ kind: 'whole' }>
  | Readonly<{ kind: 'part'; start: number; end: number }>
  | Readonly<{ kind: 'unsatisfiable' }>;

export function decideRange(
  header: string | undefined,
  ifRange: string | undefined,
  size: number,
  etag: string,
): RangeDecision {
  if (!header || (ifRange !== undefined && ifRange !== etag)) return { kind: 'whole' };
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === '' && match[2] === '')) return { kind: 'whole' };
  if (match[1] === '') {
    // A suffix: the last N bytes.
    const length = Number(match[2]);
    if (length === 0 || size === 0) return { kind: 'unsatisfiable' };
    return { kind: 'part', start: Math.max(0, size - length), end: size - 1 };
  }
  const start = Number(match[1]);
  const end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  if (start >= size || end < start) return { kind: 'unsatisfiable' };
  return { kind: 'part', start, end };
}

/** Whether a conditional GET may be answered 304: the client's copy is current. */
export function notModified(
  ifNoneMatch: string | undefined,
  ifModifiedSince: string | undefined,
  etag: string,
  lastModified: Date,
): boolean {
  if (ifNoneMatch !== undefined) {
    return ifNoneMatch
      .split(',')
      .map((tag) => tag.trim().replace(/^W\//, ''))
      .some((tag) => tag === '*' || tag === etag);
  }
  if (ifModifiedSince === undefined) return false;
  const since = Date.parse(ifModifiedSince);
  // HTTP dates have whole seconds.
  return Number.isFinite(since) && Math.floor(lastModified.getTime() / 1000) * 1000 <= since;
}
