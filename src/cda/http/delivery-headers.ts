import type { FastifyRequest } from 'fastify';
import { DomainError } from '../../domain/errors.ts';

/** What a delivery request's path and headers ask for. */
export type DeliveryOptions = Readonly<{
  token: string | null;
  environmentId: string | null;
  drafts: boolean;
  strict: boolean;
  /** `X-Base-Editing-Url`: enables `_editingUrl`. */
  baseEditingUrl: string | null;
  /** `X-Cache-Tags: true`: the response names its cache tags. */
  cacheTags: boolean;
}>;

/** The `X-Visual-Editing` values `@datocms/cda-client`'s `contentLink` sends. */
const VISUAL_EDITING_VERSIONS: readonly string[] = ['v1', 'vercel-v1'];

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return typeof value === 'string' ? value : undefined;
}

/** `Bearer <token>`, or the bare token (DatoCMS's cache-tags docs send it so). */
function tokenOf(request: FastifyRequest): string | null {
  const value = header(request, 'authorization')?.trim();
  if (!value) return null;
  const match = /^Bearer\s+(\S+)$/i.exec(value);
  if (match?.[1]) return match[1];
  return /^\S+$/.test(value) ? value : null;
}

/**
 * The deprecated path forms (`/graphql/preview`, `/graphql/environments/:env[/preview]`)
 * win over the headers they stand for.
 */
export function deliveryOptions(request: FastifyRequest): DeliveryOptions {
  const params = (request.params ?? {}) as { environment?: string };
  const previewPath = request.url.split('?')[0]?.replace(/\/$/, '').endsWith('/preview') ?? false;
  const includeDrafts = header(request, 'x-include-drafts');
  if (!previewPath && includeDrafts !== undefined && includeDrafts !== 'true')
    throw new DomainError(
      'INVALID_X_INCLUDE_DRAFTS_HEADER',
      'X-Include-Drafts header can only be set to `true`',
    );
  const visualEditing = header(request, 'x-visual-editing');
  // Content Link's versions: accepted, though no string carries stega-encoded edit links.
  if (visualEditing !== undefined && !VISUAL_EDITING_VERSIONS.includes(visualEditing))
    throw new DomainError(
      'INVALID_X_VISUAL_EDITING_HEADER',
      'X-Visual-Editing header can only be set to `v1` or `vercel-v1`',
    );
  const environment = params.environment ?? header(request, 'x-environment');
  return {
    token: tokenOf(request),
    environmentId: environment === undefined || environment === '' ? null : environment,
    drafts: previewPath || includeDrafts === 'true',
    strict: header(request, 'x-exclude-invalid') === 'true',
    baseEditingUrl: header(request, 'x-base-editing-url') || null,
    cacheTags: header(request, 'x-cache-tags') === 'true',
  };
}
