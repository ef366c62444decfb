import type { Readable } from 'node:stream';
import { decideRange, notModified } from './http-range.ts';

/**
 * An asset's answer, before any framework sees it: the status, the headers and the
 * streamed body (null for HEAD, 304 and 416).
 */
export type AssetResponse = Readonly<{
  status: number;
  headers: Readonly<Record<string, string>>;
  body: Readable | null;
}>;

/** Bytes that can be served: an original in storage or a cached rendition on disk. */
export type Servable = Readonly<{
  etag: string;
  lastModified: Date;
  size: number;
  contentType: string;
  /** Headers beyond the HTTP caching ones (Vary, security, Content-Disposition). */
  headers: Readonly<Record<string, string>>;
  open(range?: { start: number; end: number }): Promise<Readable>;
}>;

export type AssetRequest = Readonly<{
  method: string;
  headers: Readonly<Record<string, string | string[] | undefined>>;
}>;

/**
 * A path names its bytes for good (new bytes get a new path; renditions are keyed by the
 * bytes' md5 and their parameters), so every answer may be cached for a year, unrevalidated.
 */
export const IMMUTABLE = 'public, max-age=31536000, immutable';

function header(request: AssetRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** The answer to a GET or HEAD of `servable`: 304, 206, 416 or 200, HTTP caching headers set. */
export async function fileResponse(
  servable: Servable,
  request: AssetRequest,
): Promise<AssetResponse> {
  const base = {
    ...servable.headers,
    etag: servable.etag,
    'last-modified': servable.lastModified.toUTCString(),
    'cache-control': IMMUTABLE,
    'accept-ranges': 'bytes',
  };
  const fresh = notModified(
    header(request, 'if-none-match'),
    header(request, 'if-modified-since'),
    servable.etag,
    servable.lastModified,
  );
  if (fresh) return { status: 304, headers: base, body: null };
  const range = decideRange(
    header(request, 'range'),
    header(request, 'if-range'),
    servable.size,
    servable.etag,
  );
  const typed = { ...base, 'content-type': servable.contentType };
  if (range.kind === 'unsatisfiable') {
    return {
      status: 416,
      headers: { ...typed, 'content-range': `bytes */${servable.size}`, 'content-length': '0' },
      body: null,
    };
  }
  const head = request.method === 'HEAD';
  if (range.kind === 'part') {
    const headers = {
      ...typed,
      'content-range': `bytes ${range.start}-${range.end}/${servable.size}`,
      'content-length': String(range.end - range.start + 1),
    };
    const body = head ? null : await servable.open({ start: range.start, end: range.end });
    return { status: 206, headers, body };
  }
  const headers = { ...typed, 'content-length': String(servable.size) };
  return { status: 200, headers, body: head ? null : await servable.open() };
}
