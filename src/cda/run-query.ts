import {
  type DocumentNode,
  type ExecutionResult,
  execute,
  type FragmentDefinitionNode,
  GraphQLError,
  type GraphQLSchema,
  getOperationAST,
  getVariableValues,
  Kind,
  parse,
  validate,
} from 'graphql';
import { DocumentCache } from './document-cache.ts';
import { MAX_COMPLEXITY, QueryTooComplex, queryComplexity } from './limits/complexity.ts';
import { EXECUTION_TIME_LIMIT_MS } from './limits/execution-budget.ts';
import type { DeliveryContext } from './resolvers/context.ts';

/** What a delivery request asks: the GraphQL request's three parts. */
export type GraphQLRequest = Readonly<{
  query: string;
  variables: Record<string, unknown> | null;
  operationName: string | null;
}>;

export type QueryOutcome = Readonly<{ result: ExecutionResult; complexity: number | null }>;

/** Tokens one document may hold: bounds parsing and validation work (a 1 MiB body could hold far more). */
export const MAX_TOKENS = 15_000;

const failed = (
  errors: readonly GraphQLError[],
  complexity: number | null = null,
): QueryOutcome => ({
  result: { errors },
  complexity,
});

function parsed(query: string): DocumentNode | GraphQLError {
  try {
    return parse(query, { maxTokens: MAX_TOKENS, noLocation: false });
  } catch (error) {
    if (error instanceof GraphQLError) return error;
    // A document nested past the parser's stack.
    return new GraphQLError('Query is nested too deeply to be parsed');
  }
}

// One per process: entries are keyed by the schema object, whichever database it serves.
const documents = new DocumentCache();

/** The query parsed and validated against the schema (once per schema and text), or its errors. */
function validDocument(
  schema: GraphQLSchema,
  query: string,
): DocumentNode | readonly GraphQLError[] {
  const kept = documents.get(schema, query);
  if (kept) return kept;
  const document = parsed(query);
  if (document instanceof GraphQLError) return [document];
  const invalid = validate(schema, document, undefined, { maxErrors: 20 });
  if (invalid.length > 0) return invalid;
  documents.set(schema, query, document);
  return document;
}

function fragmentsOf(document: DocumentNode): Map<string, FragmentDefinitionNode> {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION)
      fragments.set(definition.name.value, definition);
  }
  return fragments;
}

/** The result, or a GraphQL error once the time limit passes (the budget stops loading). */
async function withinTimeLimit(run: Promise<ExecutionResult>): Promise<ExecutionResult> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<ExecutionResult>((resolve) => {
    timer = setTimeout(
      () =>
        resolve({
          errors: [
            new GraphQLError(
              `Query execution exceeded the time limit of ${EXECUTION_TIME_LIMIT_MS / 1000} s`,
            ),
          ],
        }),
      EXECUTION_TIME_LIMIT_MS,
    );
  });
  try {
    return await Promise.race([run, late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Parses and validates (once per schema and query text: document-cache.ts), costs and runs
 * one query. Every failure before execution is a GraphQL error without `data`; execution
 * errors come with partial data.
 */
export async function runQuery(
  schema: GraphQLSchema,
  request: GraphQLRequest,
  context: DeliveryContext,
): Promise<QueryOutcome> {
  const document = validDocument(schema, request.query);
  if (!('kind' in document)) return failed(document);
  const operation = getOperationAST(document, request.operationName);
  if (!operation)
    return failed([
      new GraphQLError('Name the operation to run: the document holds several, or none'),
    ]);
  const coerced = getVariableValues(
    schema,
    operation.variableDefinitions ?? [],
    request.variables ?? {},
  );
  if (coerced.errors) return failed(coerced.errors);
  let complexity: number;
  try {
    complexity = queryComplexity(schema, operation, fragmentsOf(document), coerced.coerced);
  } catch (error) {
    if (error instanceof QueryTooComplex) return failed([new GraphQLError(error.message)]);
    throw error;
  }
  if (complexity > MAX_COMPLEXITY)
    return failed(
      [
        new GraphQLError(
          `Query has complexity of ${complexity}, which exceeds max complexity of ${MAX_COMPLEXITY}`,
        ),
      ],
      complexity,
    );
  const result = await withinTimeLimit(
    Promise.resolve(
      execute({
        schema,
        document,
        operationName: request.operationName,
        variableValues: request.variables,
        contextValue: context,
      }),
    ),
  );
  return { result, complexity };
}
