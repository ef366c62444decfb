import { RE2JS } from 're2js';
import { BoundedMemo } from '../../../bounded-memo.ts';

// Every record value of a field goes through its pattern: each pattern is compiled once.
const compiled = new BoundedMemo<string, RE2JS | null>(1000);

function linearPattern(source: string): RE2JS | null {
  return compiled.get(source, () => {
    try {
      return RE2JS.compile(RE2JS.translateRegExp(source), RE2JS.LOOKBEHINDS);
    } catch {
      return null;
    }
  });
}

/**
 * Whether `text` contains a match of a `format` or `slug_format` validator's `custom_pattern`
 * (a JavaScript regular expression's source, without flags), as `new RegExp(source).test`
 * says, but run by RE2: in time linear in the text, whatever the pattern. V8's own engine
 * backtracks, and `^(a+)+$` over 30 characters holds the event loop for seconds. The source
 * is translated first (`(?<name>…)`, `\uXXXX`, `\cX`); captureless lookbehinds are run too.
 * Null when the pattern needs what only a backtracking engine runs (backreferences,
 * lookahead): such a pattern is kept but not enforced (docs/compatibility.md).
 */
export function matchesUserPattern(source: string, text: string): boolean | null {
  return linearPattern(source)?.test(text) ?? null;
}
