import { instantOf } from './iso-dates.ts';
import { quoteList } from './problems.ts';
import { matchesUserPattern } from './user-pattern.ts';

type Params = Record<string, unknown>;

/** Checks one value against one validator's (already checked) parameters. */
export type ValueRule = (value: unknown, params: Params) => string | null;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function isUrl(value: string): boolean {
  try {
    return ['http:', 'https:'].includes(new URL(value).protocol);
  } catch {
    return false;
  }
}

function bounds(
  value: number,
  params: Params,
  describe: (bound: unknown) => string,
  noun: string,
): string | null {
  if (params.eq !== undefined && value !== params.eq)
    return `${noun} must be ${describe(params.eq)}`;
  if (params.min !== undefined && value < (params.min as number))
    return `${noun} must be at least ${describe(params.min)}`;
  if (params.max !== undefined && value > (params.max as number))
    return `${noun} must be at most ${describe(params.max)}`;
  return null;
}

function instantBounds(value: string, params: Params): string | null {
  const at = instantOf(value);
  if (params.min !== undefined && at < instantOf(params.min as string))
    return `must not be before ${params.min}`;
  if (params.max !== undefined && at > instantOf(params.max as string))
    return `must not be after ${params.max}`;
  return null;
}

/**
 * The validators that constrain a single value, applied to non-null defaults.
 * Values reaching here already fit the type's shape.
 */
export const VALUE_RULES: Record<string, ValueRule> = {
  enum: (value, params) =>
    (params.values as string[]).includes(value as string)
      ? null
      : `must be one of the enum values ${quoteList(params.values as string[])}`,
  length: (value, params) =>
    bounds([...(value as string)].length, params, (n) => `${n} characters`, 'length'),
  format: (value, params) => {
    const text = value as string;
    if (typeof params.custom_pattern === 'string')
      return matchesUserPattern(params.custom_pattern, text) === false
        ? `must match the pattern /${params.custom_pattern}/`
        : null;
    if (params.predefined_pattern === 'email')
      return EMAIL.test(text) ? null : 'must be an email address';
    return isUrl(text) ? null : 'must be an http(s) URL';
  },
  number_range: (value, params) => bounds(value as number, params, String, 'value'),
  date_range: (value, params) => instantBounds(value as string, params),
  date_time_range: (value, params) => instantBounds(value as string, params),
};

export function valueValidatorProblem(
  value: unknown,
  validators: Record<string, Params>,
): string | null {
  for (const [name, params] of Object.entries(validators)) {
    const rule = Object.hasOwn(VALUE_RULES, name) ? VALUE_RULES[name] : undefined;
    const problem = rule?.(value, params);
    if (problem) return `${problem} (validator "${name}")`;
  }
  return null;
}
