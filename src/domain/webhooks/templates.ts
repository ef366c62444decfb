import Mustache from 'mustache';

// A Writer per check: Mustache's shared cache would otherwise keep every template ever
// validated for the life of the process.
function freshWriter(): Mustache.Writer {
  return new Mustache.Writer();
}

/** Null when the Mustache template parses, else the parser's complaint. */
export function templateProblem(template: string): string | null {
  try {
    freshWriter().parse(template);
    return null;
  } catch (error) {
    return (error as Error).message;
  }
}

/**
 * The URL a webhook would call with nothing to interpolate: the literal part must
 * already be an absolute http(s) URL, whatever the tags render to later.
 */
export function urlProblem(url: string): string | null {
  let rendered: string;
  try {
    rendered = freshWriter().render(url, {}, {}, { escape: (value) => String(value) });
  } catch (error) {
    return `is not a valid Mustache template: ${(error as Error).message}`;
  }
  let parsed: URL;
  try {
    parsed = new URL(rendered);
  } catch {
    return 'must be an absolute http or https URL';
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    return 'must be an absolute http or https URL';
  if (parsed.hostname === '') return 'must name a host';
  return null;
}
