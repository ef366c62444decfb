import type { FastifyRequest } from 'fastify';
import { DomainError } from '../../domain/errors.ts';
import type { GraphQLRequest } from '../run-query.ts';

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function invalid(message: string): DomainError {
  return new DomainError('INVALID_REQUEST', message);
}

function jsonText(text: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw invalid(`${what} is not valid JSON`);
  }
}

function fromParts(parts: Record<string, unknown>, variables: unknown): GraphQLRequest {
  const { query, operationName } = parts;
  if (typeof query !== 'string' || query.trim() === '')
    throw invalid('Send a GraphQL query in "query"');
  if (variables !== undefined && variables !== null && !isObject(variables))
    throw invalid('"variables" must be an object');
  if (operationName !== undefined && operationName !== null && typeof operationName !== 'string')
    throw invalid('"operationName" must be a string');
  return {
    query,
    variables: (variables as Record<string, unknown> | undefined) ?? null,
    operationName: (operationName as string | undefined) ?? null,
  };
}

/**
 * The GraphQL request of a POST body (JSON whatever its Content-Type: the official client
 * sends none) or of GET parameters (`variables` as JSON text).
 */
export function graphqlRequestOf(request: FastifyRequest): GraphQLRequest {
  if (request.method === 'GET') {
    const parameters = (request.query ?? {}) as Record<string, unknown>;
    const variables =
      typeof parameters.variables === 'string' && parameters.variables !== ''
        ? jsonText(parameters.variables, 'variables')
        : undefined;
    return fromParts(parameters, variables);
  }
  const body = typeof request.body === 'string' ? jsonText(request.body, 'The body') : undefined;
  if (!isObject(body))
    throw invalid('The body must be a JSON object {query, variables?, operationName?}');
  return fromParts(body, body.variables);
}
