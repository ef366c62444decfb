import type { Client } from '@datocms/cma-client-browser';
import type { JSX } from 'preact';
import { useEffect, useMemo } from 'preact/hooks';
import { lazyPage } from './lazy.tsx';
import { preloadRecordList } from './pages/record-list-data.ts';
import { preloadRoute } from './preload.ts';
import { match, navigate, useLocation } from './router.ts';
import { useSession } from './session.ts';
import { Link, useAsync } from './ui.tsx';

const ContentHome = lazyPage(() => import('./pages/content-home.tsx').then((m) => m.ContentHome));
const RecordList = lazyPage(() => import('./pages/record-list.tsx').then((m) => m.RecordList));
const RecordEditor = lazyPage(() =>
  import('./pages/record-editor.tsx').then((m) => m.RecordEditor),
);
const SchemaPage = lazyPage(() => import('./pages/schema.tsx').then((m) => m.SchemaPage));
const MediaPage = lazyPage(() => import('./pages/media.tsx').then((m) => m.MediaPage));
const ProjectPage = lazyPage(() => import('./pages/project.tsx').then((m) => m.ProjectPage));

type Params = Record<string, string>;
type Route = {
  pattern: string;
  title: string;
  page: (params: Params) => JSX.Element;
  /** Starts the page's API reads while its chunk loads (see preload.ts). */
  preload?: (client: Client, params: Params, search: URLSearchParams) => void;
};

/** The console's pages, below `editor/<environment>/`. */
const ROUTES: Route[] = [
  { pattern: '', title: 'Content', page: () => <ContentHome /> },
  {
    pattern: 'item_types/:modelId/items',
    title: 'Records',
    page: (p) => <RecordList modelId={p.modelId ?? ''} />,
    preload: (client, p, search) => preloadRecordList(client, p.modelId ?? '', search),
  },
  {
    pattern: 'item_types/:modelId/items/new',
    title: 'New record',
    page: (p) => <RecordEditor modelId={p.modelId ?? ''} recordId={null} />,
  },
  {
    // The delivery API's _editingUrl points here: keep this path.
    pattern: 'item_types/:modelId/items/:recordId/edit',
    title: 'Edit record',
    page: (p) => <RecordEditor modelId={p.modelId ?? ''} recordId={p.recordId ?? null} />,
  },
  { pattern: 'schema', title: 'Schema', page: () => <SchemaPage modelId={null} /> },
  {
    pattern: 'schema/:modelId',
    title: 'Schema',
    page: (p) => <SchemaPage modelId={p.modelId ?? null} />,
  },
  { pattern: 'media', title: 'Media', page: () => <MediaPage /> },
  { pattern: 'project', title: 'Project', page: () => <ProjectPage section="environments" /> },
  {
    pattern: 'project/:section',
    title: 'Project',
    page: (p) => <ProjectPage section={p.section ?? 'environments'} />,
  },
];

const SECTIONS = [
  {
    path: '',
    label: 'Content',
    active: (rest: string) => rest === '' || rest.startsWith('item_types'),
  },
  { path: 'schema', label: 'Schema', active: (rest: string) => rest.startsWith('schema') },
  { path: 'media', label: 'Media', active: (rest: string) => rest.startsWith('media') },
  { path: 'project', label: 'Project', active: (rest: string) => rest.startsWith('project') },
];

export function Shell() {
  const { client, environment, signOut } = useSession();
  const { path, search } = useLocation();
  const rest = path.split('/').slice(2).join('/').replace(/\/$/, '');
  const environments = useAsync(() => client.environments.list(), [client]);
  const found = ROUTES.map((route) => ({ route, params: match(route.pattern, rest) })).find(
    (candidate) => candidate.params,
  );
  // Once per page visit (the page is keyed by `rest` below, with the query it opened
  // with), before the page renders.
  useMemo(() => {
    if (found?.route.preload && found.params) found.route.preload(client, found.params, search);
    else preloadRoute({});
  }, [client, rest]);
  const title = found?.route.title ?? 'Not found';
  useEffect(() => {
    document.title = `${title} · ${environment} · Fieldhouse`;
  }, [title, environment]);
  const page = found?.params ? found.route.page(found.params) : null;
  return (
    <>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header class="topbar">
        <span class="brand">Fieldhouse</span>
        <nav aria-label="Sections">
          <ul>
            {SECTIONS.map((section) => (
              <li key={section.label}>
                <Link
                  to={`editor/${environment}/${section.path}`}
                  aria-current={section.active(rest) ? 'page' : undefined}
                >
                  {section.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <label class="env">
          <span>Environment</span>
          <select
            value={environment}
            onChange={(event) => navigate(`editor/${event.currentTarget.value}/`)}
          >
            {(environments.data ?? []).map((entry) => (
              <option key={entry.id} value={entry.id}>
                {entry.id}
                {entry.meta.primary ? ' (primary)' : ''}
              </option>
            ))}
            {environments.data ? null : <option value={environment}>{environment}</option>}
          </select>
        </label>
        <button type="button" class="ghost" onClick={signOut}>
          Sign out
        </button>
      </header>
      <main id="main" tabIndex={-1}>
        {page ? (
          <div key={rest}>{page}</div>
        ) : (
          <>
            <h1>Not found</h1>
            <p>
              <Link to={`editor/${environment}/`}>Back to content</Link>
            </p>
          </>
        )}
      </main>
    </>
  );
}
