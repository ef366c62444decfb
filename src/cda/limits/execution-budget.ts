import { GraphQLError } from 'graphql';

/** The wall-clock time one query may run (then its unfinished fields fail). */
export const EXECUTION_TIME_LIMIT_MS = 10_000;
/** SQL statements one query may send: roots and link levels each cost one. */
export const STATEMENT_LIMIT = 1_000;
/**
 * Characters of one text that render as Markdown (`<text>(markdown: true)`): DatoCMS's
 * largest record (300 KB), so any one text a DatoCMS project can hold renders. Rendering
 * runs on the event loop, one text at once, at 2–4 MB/s (bench/stall-inputs.ts): at most
 * about 0.15 s.
 */
export const MARKDOWN_TEXT_LIMIT = 300 * 1024;
/**
 * Characters of Markdown one query may render, all its texts together: the largest page
 * (`first: 500`) of texts of about 6 KB each, about 1 s of rendering.
 */
export const MARKDOWN_CHARS_LIMIT = 3 * 1024 * 1024;
/**
 * Characters a query renders between two turns of the event loop (20–30 ms): a page
 * of many texts does not hold other requests for all of its rendering.
 */
export const MARKDOWN_SLICE = 64 * 1024;

/**
 * What one query may still spend. Every resolver asks before it sends a statement, so a
 * query past its time or its statement count stops loading instead of holding a
 * connection: the fields not yet resolved fail with a GraphQL error.
 */
export class ExecutionBudget {
  private statements = 0;
  private markdownChars = 0;
  private markdownSinceTurn = 0;
  private markdownQueue: Promise<unknown> = Promise.resolve();

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
    this.checkTime();
    this.statements += 1;
    if (this.statements > this.statementLimit)
      throw new GraphQLError(
        `Query needs more than ${this.statementLimit} database statements; split it`,
      );
  }

  /**
   * Renders a text as Markdown with `render`, or refuses it: past one text's bound, the
   * query's bound or its time. A query's texts render one after another, in the order
   * they are asked for, with a turn of the event loop before a text once the query has
   * rendered a slice (MARKDOWN_SLICE) since its last turn: GraphQL resolves a page's
   * fields together, and rendering them in one go would hold every other request.
   */
  renderMarkdown(text: string, render: (text: string) => string): Promise<string> {
    const rendered = this.markdownQueue.then(async () => {
      if (text.length > MARKDOWN_TEXT_LIMIT)
        throw new GraphQLError(
          `A text of ${text.length} characters is longer than the ${MARKDOWN_TEXT_LIMIT} that render as Markdown; ask for it without markdown`,
        );
      this.markdownChars += text.length;
      if (this.markdownChars > this.markdownLimit)
        throw new GraphQLError(
          `Query renders more than ${this.markdownLimit} characters of Markdown; ask for fewer records, or for the text without markdown`,
        );
      if (this.markdownSinceTurn >= MARKDOWN_SLICE) {
        this.markdownSinceTurn = 0;
        await new Promise((resolve) => setImmediate(resolve));
        this.checkTime();
      }
      this.markdownSinceTurn += text.length;
      return render(text);
    });
    // The next text waits for this one, whether it rendered or was refused.
    this.markdownQueue = rendered.catch(() => undefined);
    return rendered;
  }

  private checkTime(): void {
    if (Date.now() > this.deadline)
      throw new GraphQLError(
        `Query execution exceeded the time limit of ${EXECUTION_TIME_LIMIT_MS / 1000} s`,
      );
  }
}
