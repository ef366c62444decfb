import Mustache from 'mustache';

/**
 * What one render may cost. A section nested in repeated sections renders its content
 * once per combination: `{{#related_entities}}` nested 48 times over two entities is 2^48
 * renders from a 2 KB template, so the work and the output are counted, not the template.
 */
export const RENDER_LIMITS = {
  /**
   * Token visits plus section renders, each weighed by its context depth (a name is looked
   * up through every enclosing section): a fraction of a second of CPU.
   */
  steps: 1_000_000,
  /** Characters of output (a custom payload's JSON, a URL). */
  characters: 4 * 1024 * 1024,
};

/** How many contexts a lookup may walk through: the sections enclosing this one, and the view. */
function depthOf(context: Mustache.Context): number {
  let depth = 0;
  for (let at: Mustache.Context | undefined = context; at; at = at.parent) depth += 1;
  return depth;
}

/** A render stopped at a limit: the same template and values would stop there again. */
export class RenderLimitExceeded extends Error {}

/**
 * Mustache 4.2's own writer (its semantics unchanged) that counts as it renders and
 * throws RenderLimitExceeded past either limit. One per render: the counts are its own.
 */
export class BoundedWriter extends Mustache.Writer {
  #steps = 0;
  #characters = 0;

  override renderTokens(
    tokens: string[][],
    context: Mustache.Context,
    partials?: Mustache.PartialsOrLookupFn,
    originalTemplate?: string,
    config?: Mustache.RenderOptions,
  ): string {
    // Each call is a section (or item) rendered, even an empty one.
    this.#steps += (1 + tokens.length) * depthOf(context);
    if (this.#steps > RENDER_LIMITS.steps) {
      throw new RenderLimitExceeded(
        `rendering takes more than ${RENDER_LIMITS.steps.toLocaleString('en')} steps (sections nested in repeated sections render once per combination)`,
      );
    }
    return super.renderTokens(tokens, context, partials, originalTemplate, config);
  }

  override unescapedValue(token: string[], context: Mustache.Context): string {
    const value: unknown = super.unescapedValue(token, context);
    // What the writer's own concatenation would make of it.
    return this.#emitted(value == null ? value : String(value)) as string;
  }

  override escapedValue(
    token: string[],
    context: Mustache.Context,
    config?: Mustache.RenderOptions,
  ): string {
    return this.#emitted(super.escapedValue(token, context, config));
  }

  override rawValue(token: string[]): string {
    return this.#emitted(super.rawValue(token));
  }

  // Every character of the output comes from one of the three above: sections only join them.
  #emitted<T extends string | null | undefined>(text: T): T {
    this.#characters += text?.length ?? 0;
    if (this.#characters > RENDER_LIMITS.characters) {
      throw new RenderLimitExceeded(
        `the output is longer than ${RENDER_LIMITS.characters.toLocaleString('en')} characters`,
      );
    }
    return text;
  }
}
