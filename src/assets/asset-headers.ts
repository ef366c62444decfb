/**
 * Headers every asset answer carries, for safety: the browser must take the type as
 * given (nosniff), and a file that can run script when opened (SVG, HTML, XML) is opened
 * in a sandbox with nothing allowed to load, so an uploaded file can never act as this
 * origin. Assets are public and embedded from anywhere (CORS and CORP open).
 */

const ACTIVE_TYPES =
  /^(image\/svg\+xml|text\/html|text\/xml|application\/([a-z.+-]*\+)?xml|[a-z]+\/(x-)?(java|ecma)script)$/;

export const SANDBOX_POLICY = "default-src 'none'; style-src 'unsafe-inline'; sandbox";

export function safetyHeaders(contentType: string): Record<string, string> {
  const headers: Record<string, string> = {
    'x-content-type-options': 'nosniff',
    'access-control-allow-origin': '*',
    'cross-origin-resource-policy': 'cross-origin',
  };
  const type = contentType.split(';')[0]?.trim().toLowerCase() ?? '';
  if (ACTIVE_TYPES.test(type)) headers['content-security-policy'] = SANDBOX_POLICY;
  return headers;
}

/**
 * `dl=<name>` (imgix's download parameter): saved under that name instead of shown; an
 * empty `dl` keeps the file's own name.
 */
export function downloadHeader(dl: string | null, filename: string): Record<string, string> {
  if (dl === null) return {};
  const name = dl.trim() === '' ? filename : dl.trim();
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return {
    'content-disposition': `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`,
  };
}
