import { ApiError, buildClient, type Client } from '@datocms/cma-client-browser';

/**
 * The signed-in session: the API token lives in sessionStorage only (gone when the tab
 * closes, never in a URL), and every call goes through the official browser client
 * against this server's public CMA, so the console can do what the token may, no more.
 */
const TOKEN_KEY = 'fieldhouse-console-token';

export function storedToken(): string | null {
  return sessionStorage.getItem(TOKEN_KEY);
}

export function storeToken(token: string | null): void {
  if (token === null) sessionStorage.removeItem(TOKEN_KEY);
  else sessionStorage.setItem(TOKEN_KEY, token);
}

const clients = new Map<string, Client>();

/** One client per token and environment (clients are cheap, but keep their caches). */
export function clientFor(token: string, environment?: string): Client {
  const key = `${token}\n${environment ?? ''}`;
  let client = clients.get(key);
  if (!client) {
    client = buildClient({
      apiToken: token,
      baseUrl: window.location.origin,
      ...(environment ? { environment } : {}),
      autoRetry: true,
    });
    clients.set(key, client);
  }
  return client;
}

export type FieldError = { field: string; locale: string | null; message: string };

/** A readable sentence for any failure, from the API's error document when there is one. */
export function errorMessage(error: unknown): string {
  if (error instanceof ApiError) {
    return error.errors
      .map((entry) => {
        const details = entry.attributes.details as Record<string, unknown> | undefined;
        const detail = details && typeof details.message === 'string' ? `: ${details.message}` : '';
        return `${entry.attributes.code}${detail}`;
      })
      .join('; ');
  }
  return error instanceof Error ? error.message : String(error);
}

/** The errors the API tied to a field (INVALID_FIELD and friends), by field api_key. */
export function fieldErrors(error: unknown): FieldError[] {
  if (!(error instanceof ApiError)) return [];
  const found: FieldError[] = [];
  for (const entry of error.errors) {
    const details = (entry.attributes.details ?? {}) as Record<string, unknown>;
    if (typeof details.field !== 'string') continue;
    const code = typeof details.code === 'string' ? details.code : entry.attributes.code;
    const message = typeof details.message === 'string' ? details.message : code;
    const locale = typeof details.locale === 'string' ? details.locale : null;
    found.push({ field: details.field, locale, message });
  }
  return found;
}
