import { BoundedWriter, RenderLimitExceeded } from './bounded-writer.ts';
import { jsonStringContent } from './json-escape.ts';

function urlComponent(value: unknown): string {
  return encodeURIComponent(typeof value === 'string' ? value : JSON.stringify(value));
}

/**
 * A Writer per render: Mustache's shared cache would keep every template it ever saw, and
 * the counts are the render's own. Throws RenderLimitExceeded when the render costs too much.
 */
function render(
  what: string,
  template: string,
  context: object,
  escapeValue: (value: unknown) => string,
): string {
  try {
    return new BoundedWriter().render(template, context, {}, { escape: escapeValue });
  } catch (error) {
    if (error instanceof RenderLimitExceeded)
      throw new RenderLimitExceeded(`${what}: ${error.message}`);
    throw error;
  }
}

/** A custom payload: `{{x}}` is JSON-string-escaped, `{{{x}}}` and `{{& x}}` are raw. */
export function renderPayloadTemplate(template: string, context: object): string {
  return render('the custom payload', template, context, jsonStringContent);
}

/**
 * A webhook URL: `{{x}}` is percent-encoded so any value keeps the URL valid,
 * `{{{x}}}` is raw. The result must be an absolute http(s) URL.
 */
export function renderUrlTemplate(template: string, context: object): string {
  const rendered = render('the url', template, context, urlComponent);
  let url: URL;
  try {
    url = new URL(rendered);
  } catch {
    throw new Error(`the url renders to "${rendered}", which is not an absolute URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new Error(`the url renders to "${rendered}", which is not an http or https URL`);
  }
  return rendered;
}
