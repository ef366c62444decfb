import { GraphQLError } from 'graphql';

/** The wall-clock time one query may run (then its unfinished fields fail). */
export const EXECUTION_TIME_LIMIT_MS = 10_000;
/** SQL statements one query may send: roots and link levels each cost one. */
export const STATEMENT_LIMIT = 1_000;
/**
 * Characters of Markdown one query may render (`<text>(markdown: true)`): rendering runs on
 * the event loop at about 1.5 MB/s, so this holds it for about 0.2 s. It is DatoCMS's
 * largest record (300 KB): any one text a DatoCMS project can hold renders.
 */
export const MARKDOWN_CHARS_LIMIT = 300 * 1024;

/**
 * What one query may still spend. Every resolver asks before it sends a statement, so a
 * query past its time or its statement count stops loading instead of holding a
 * connection: the fields not yet resolved fail with a GraphQL error.
 */
export class ExecutionBudget {
  private statements = 0;
  private markdownChars = 0;

  constructor(
    private readonly deadline: number,
    private readonly statementLimit = STATEMENT_LIMIT,
    private readonly markdownLimit = MARKDOWN_CHARS_LIMIT,
  ) {}

  static startingNow(): ExecutionBudget {
    return new ExecutionBudget(Date.now() + EXECUTION_TIME_LIMIT_MS);
  }

  /** Counts one statement about to be sent, or refuses it. */
  spendStatement(): void {
    if (Date.now() > this.deadline)
      throw new GraphQLError(
        `Query execution exceeded the time limit of ${EXECUTION_TIME_LIMIT_MS / 1000} s`,
      );
    this.statements += 1;
    if (this.statements > this.statementLimit)
      throw new GraphQLError(
        `Query needs more than ${this.statementLimit} database statements; split it`,
      );
  }

  /** Counts the characters of a text about to be rendered as Markdown, or refuses them. */
  spendMarkdown(chars: number): void {
    this.markdownChars += chars;
    if (this.markdownChars > this.markdownLimit)
      throw new GraphQLError(
        `Query renders more than ${this.markdownLimit} characters of Markdown; ask for fewer records, or for the text without markdown`,
      );
  }
}
