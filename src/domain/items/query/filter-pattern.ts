import { RE2JS } from 're2js';
import { MAX_FILTER_PATTERN_LENGTH, MAX_FILTER_PATTERN_SIZE } from '../../limits.ts';

/**
 * Which `matches` patterns may reach PostgreSQL's regular expression engine. Without
 * backreferences and lookaround it matches with automata, in time linear in the text; with
 * them it backtracks, and one pattern over one short value runs for minutes (on the
 * embedded engine, in the server's own thread, where no timeout can stop it). A pattern is
 * run only when RE2, whose syntax has neither, also parses it, and when it stays small once
 * its counted repetitions are written out, which bounds the cost of compiling it. A literal
 * (`regexp: false`) is bounded by its length alone.
 */
export function filterPatternProblem(pattern: string, options: { regexp: boolean }): string | null {
  if (pattern.length > MAX_FILTER_PATTERN_LENGTH)
    return `is longer than ${MAX_FILTER_PATTERN_LENGTH} characters`;
  if (!options.regexp) return null;
  // RE2 reads `\12` as an octal escape; PostgreSQL may read it as a backreference.
  if (/\\[1-9]/.test(withoutEscapedBackslashes(pattern)))
    return 'uses a backreference, which this server does not run';
  try {
    RE2JS.compile(pattern);
  } catch (error) {
    return `is not a valid regular expression for this server (${(error as Error).message}; backreferences, lookahead and lookbehind are not supported)`;
  }
  const size = expandedSize(pattern);
  if (size > MAX_FILTER_PATTERN_SIZE)
    return `is too large: its size with counted repetitions written out is ${size}, at most ${MAX_FILTER_PATTERN_SIZE}`;
  return null;
}

function withoutEscapedBackslashes(pattern: string): string {
  return pattern.replaceAll('\\\\', '');
}

/** Where the bracket expression opening at `start` ends (just past its `]`). */
function bracketEnd(pattern: string, start: number): number {
  let at = start + 1;
  if (pattern[at] === '^') at += 1;
  if (pattern[at] === ']') at += 1;
  while (at < pattern.length && pattern[at] !== ']') {
    if (pattern[at] === '\\') at += 2;
    else if (pattern.startsWith('[:', at)) {
      const close = pattern.indexOf(':]', at + 2);
      at = close === -1 ? at + 1 : close + 2;
    } else at += 1;
  }
  return at + 1;
}

/** Where the escape at `start` ends: `\x{…}` and `\p{…}` run to their brace. */
function escapeEnd(pattern: string, start: number): number {
  if (pattern[start + 2] === '{' && 'xpP'.includes(pattern[start + 1] ?? '')) {
    const close = pattern.indexOf('}', start + 2);
    if (close !== -1) return close + 1;
  }
  return start + 2;
}

const COUNTED = /\{(\d+)(,(\d*))?\}/y;

/**
 * The pattern's size with every counted repetition written out: `(?:ab){3}c` counts as
 * `(?:ab)(?:ab)(?:ab)c`, 19; a bracket expression or an escape counts 1. Read after RE2
 * accepted the pattern, so its syntax is RE2's.
 */
export function expandedSize(pattern: string): number {
  const groups: number[] = [0];
  let last = 0; // the size of what a repetition that follows would repeat
  let at = 0;
  const add = (size: number) => {
    groups[groups.length - 1] = (groups.at(-1) ?? 0) + size;
  };
  while (at < pattern.length) {
    const char = pattern[at];
    COUNTED.lastIndex = at;
    const counted = char === '{' ? COUNTED.exec(pattern) : null;
    if (counted) {
      const least = Number(counted[1]);
      const most = counted[2] === undefined ? least : counted[3] ? Number(counted[3]) : least + 1;
      add(last * (Math.max(most, 1) - 1));
      last *= Math.max(most, 1);
      at += counted[0].length;
    } else if (char === '(') {
      groups.push(1);
      at += 1;
    } else if (char === ')' && groups.length > 1) {
      last = (groups.pop() ?? 0) + 1;
      add(last);
      at += 1;
    } else {
      // A bracket expression or an escape is one state to PostgreSQL, however long.
      last = 1;
      add(last);
      at = char === '[' ? bracketEnd(pattern, at) : char === '\\' ? escapeEnd(pattern, at) : at + 1;
    }
  }
  return groups.reduce((sum, size) => sum + size, 0);
}
