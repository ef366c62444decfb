import { useEffect, useState } from 'preact/hooks';

/** Where the console is mounted (`/` unless configured), from the page's meta tag. */
export const BASE =
  document.querySelector('meta[name="fieldhouse-console-base"]')?.getAttribute('content') ?? '/';

const listeners = new Set<() => void>();

/** The path below BASE, without a leading slash. */
export function currentPath(): string {
  const path = window.location.pathname;
  return path.startsWith(BASE) ? path.slice(BASE.length) : '';
}

export function href(path: string): string {
  return `${BASE}${path.replace(/^\//, '')}`;
}

export function navigate(path: string, replace = false): void {
  const url = href(path);
  if (replace) history.replaceState(null, '', url);
  else history.pushState(null, '', url);
  for (const listener of listeners) listener();
}

window.addEventListener('popstate', () => {
  for (const listener of listeners) listener();
});

/** The current path below BASE and its query, re-rendering on every navigation. */
export function useLocation(): { path: string; search: URLSearchParams } {
  const [, setTick] = useState(0);
  useEffect(() => {
    const listener = () => setTick((tick) => tick + 1);
    listeners.add(listener);
    return () => listeners.delete(listener);
  }, []);
  return { path: currentPath(), search: new URLSearchParams(window.location.search) };
}

/** Matches `pattern` (segments, `:name` captures) against `path`. */
export function match(pattern: string, path: string): Record<string, string> | null {
  const want = pattern.split('/').filter(Boolean);
  const have = path.split('/').filter(Boolean);
  if (want.length !== have.length) return null;
  const params: Record<string, string> = {};
  for (const [index, segment] of want.entries()) {
    const actual = have[index] as string;
    if (segment.startsWith(':')) params[segment.slice(1)] = decodeURIComponent(actual);
    else if (segment !== actual) return null;
  }
  return params;
}

/**
 * The console path of an editing link in DatoCMS's form, which the delivery API's
 * `_editingUrl` writes: `environments/<env>/editor/item_types/<model>/items/<id>/edit` for a
 * sandbox; `editor/item_types/<model>/items/<id>/edit` for the primary environment, whose
 * id only the API knows (`environment` null: the caller looks it up).
 */
export function editingLinkTarget(
  path: string,
): { environment: string | null; rest: string } | null {
  const sandbox = match('environments/:environment/editor/item_types/:model/items/:id/edit', path);
  if (sandbox)
    return {
      environment: sandbox.environment as string,
      rest: `item_types/${sandbox.model}/items/${sandbox.id}/edit`,
    };
  const primary = match('editor/item_types/:model/items/:id/edit', path);
  if (primary)
    return { environment: null, rest: `item_types/${primary.model}/items/${primary.id}/edit` };
  return null;
}
