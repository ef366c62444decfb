import type { Issues, ValidationCode } from '../../errors.ts';

/**
 * The problems found in one attribute. Issues keeps one entry per attribute, so they are
 * reported together: the first problem's code, every message joined.
 */
export class Problems {
  private readonly found: { code: ValidationCode; message: string }[] = [];

  invalid(message: string): void {
    this.found.push({ code: 'VALIDATION_INVALID', message });
  }

  required(message: string): void {
    this.found.push({ code: 'VALIDATION_REQUIRED', message });
  }

  reportTo(issues: Issues, field: string): void {
    const first = this.found[0];
    if (first) issues.add(field, first.code, this.found.map((p) => p.message).join('; '));
  }
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Own keys only: names like "constructor" must not find Object.prototype members. */
export function ownValue<T>(record: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

/** `"a", "b"` — or `none` — for messages. */
export function quoteList(values: readonly unknown[]): string {
  return values.length === 0 ? 'none' : values.map((v) => JSON.stringify(v)).join(', ');
}
