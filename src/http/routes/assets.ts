import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { AssetService } from '../../assets/assets-service.ts';
import { DomainError } from '../../domain/errors.ts';

/** imgix parameters the renderer reads (src/assets/README.md); unknown ones are ignored. */
const PARAMS: Readonly<Record<string, string>> = {
  w: 'width in px, or a fraction (0–1) of the source',
  h: 'height in px, or a fraction (0–1) of the source',
  fit: 'clip (default), crop, fill, fillmax, max, min, scale, clamp, facearea',
  crop: 'with fit=crop: focalpoint, entropy, edges, faces, or top/bottom/left/right',
  'fp-x': 'focal point, 0–1 from the left',
  'fp-y': 'focal point, 0–1 from the top',
  'fp-z': 'zoom around the focal point, ≥ 1',
  fm: 'jpg, pjpg, png, png8, png32, webp, avif, gif',
  auto: 'format (AVIF or WebP as Accept allows), compress',
  q: 'quality 1–100 (default 75)',
  dpr: 'device pixel ratio multiplying w and h, up to 5',
  ar: 'aspect ratio W:H, with fit=crop',
  rect: 'x,y,w,h source region cut before resizing',
  'max-w': 'largest output width',
  'max-h': 'largest output height',
  'min-w': 'smallest output width',
  'min-h': 'smallest output height',
  bg: 'background colour (hex RGB, ARGB, RRGGBB, AARRGGBB)',
  blur: 'Gaussian blur, 0–2000',
  dl: 'download under this file name (Content-Disposition: attachment)',
};

const Querystring = Type.Object(
  Object.fromEntries(
    Object.entries(PARAMS).map(([name, description]) => [
      name,
      Type.Optional(Type.String({ description })),
    ]),
  ),
  { additionalProperties: true },
);

const Bytes = { description: 'the file, or its rendition', type: 'string', format: 'binary' };

/**
 * `GET|HEAD /assets/<path>`: every upload's `url`. Public, like DatoCMS's asset CDN (the
 * URL carries no token) and outside the CMA protocol (any Accept). The query is read from
 * the raw URL, so imgix parameters keep their exact names and values.
 */
export async function assetRoutes(app: FastifyInstance, assets: AssetService): Promise<void> {
  // GET and HEAD declared together: Fastify's own HEAD route would answer Content-Length 0.
  app.route<{ Params: { '*': string } }>({
    method: ['GET', 'HEAD'],
    url: '/assets/*',
    config: { public: true },
    schema: {
      summary: 'An upload’s bytes, or an image rendition of them (imgix parameters)',
      security: [],
      params: Type.Object({ '*': Type.String() }),
      querystring: Querystring,
      response: { 200: Bytes, 206: Bytes },
    },
    handler: async (request, reply) => {
      const url = request.raw.url ?? '';
      const at = url.indexOf('?');
      const query = new URLSearchParams(at === -1 ? '' : url.slice(at + 1));
      try {
        const answer = await assets.serve(`/${request.params['*']}`, query, {
          method: request.method,
          headers: request.headers,
        });
        reply.status(answer.status).headers(answer.headers);
        return reply.send(answer.body ?? undefined);
      } catch (error) {
        const retryAfter = error instanceof DomainError ? error.details.retry_after : undefined;
        if (retryAfter !== undefined) reply.header('retry-after', String(retryAfter));
        throw error;
      }
    },
  });
}
