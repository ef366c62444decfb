import Mustache from 'mustache';
import { jsonStringContent } from './json-escape.ts';

function urlComponent(value: unknown): string {
  return encodeURIComponent(typeof value === 'string' ? value : JSON.stringify(value));
}

// A Writer per render: Mustache's shared cache would keep every template it ever saw.
function render(
  template: string,
  context: object,
  escapeValue: (value: unknown) => string,
): string {
  return new Mustache.Writer().render(template, context, {}, { escape: escapeValue });
}

/** A custom payload: `{{x}}` is JSON-string-escaped, `{{{x}}}` and `{{& x}}` are raw. */
export function renderPayloadTemplate(template: string, context: object): string {
  return render(template, context, jsonStringContent);
}

/**
 * A webhook URL: `{{x}}` is percent-encoded so any value keeps the URL valid,
 * `{{{x}}}` is raw. The result must be an absolute http(s) URL.
 */
export function renderUrlTemplate(template: string, context: object): string {
  const rendered = render(template, context, urlComponent);
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
