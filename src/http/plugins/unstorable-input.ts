import type { FastifyInstance } from 'fastify';
import { DomainError } from '../../domain/errors.ts';
import { findUnstorableText } from '../unstorable-text.ts';

/**
 * Path ids and query parameters carrying text no column can hold (see
 * unstorable-text.ts) are refused before any handler queries with them. Bodies are
 * checked as they are parsed (body-parser.ts). A path id like that names nothing: 404.
 */
export function registerUnstorableInputGuard(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    const param = findUnstorableText(request.params, 'bracketed');
    if (param) {
      throw new DomainError('NOT_FOUND', `Path parameter ${param.path} ${param.problem}`);
    }
    const query = findUnstorableText(request.query, 'bracketed');
    if (query) {
      throw new DomainError('INVALID_PARAMS', `${query.path} ${query.problem}`, {
        field: query.path,
      });
    }
  });
}
