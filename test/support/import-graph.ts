import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

// A static reading of `import … from '…'` and `export … from '…'` statements: enough for
// this code base, whose imports are all static with relative paths. `import type` is
// erased when the code runs, so it makes no runtime dependency; with verbatimModuleSyntax
// an import whose names are all marked `type` stays, as an import of nothing.
const STATEMENT = /^(?:import|export)\s+(type\s+)?([^'";]*?)\s*from\s+'([^']+)'/gm;

function runtimeSpecifiers(source: string): string[] {
  const found: string[] = [];
  for (const [, typeOnly, , specifier = ''] of source.matchAll(STATEMENT))
    if (!typeOnly) found.push(specifier);
  return found;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((path) => path.endsWith('.ts'))
    .map((path) => join(dir, path));
}

/**
 * The runtime dependencies between the units of `root` (its folders, and each file
 * directly in it), from the relative imports of its files: unit → units it imports.
 */
export function unitGraph(root: string): Map<string, Set<string>> {
  const unitOf = (file: string) => relative(root, file).split('/')[0] ?? '';
  const graph = new Map<string, Set<string>>();
  for (const file of sourceFiles(root)) {
    const from = unitOf(file);
    const edges = graph.get(from) ?? new Set<string>();
    graph.set(from, edges);
    for (const specifier of runtimeSpecifiers(readFileSync(file, 'utf8'))) {
      if (!specifier.startsWith('.')) continue;
      const target = resolve(dirname(file), specifier);
      if (relative(root, target).startsWith('..')) continue;
      const to = unitOf(target);
      if (to !== from) edges.add(to);
    }
  }
  return graph;
}

/** The graph's cycles: each set of units that reach one another (Tarjan's components). */
export function cyclesOf(graph: ReadonlyMap<string, ReadonlySet<string>>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (unit: string) => {
    index.set(unit, next);
    low.set(unit, next);
    next++;
    stack.push(unit);
    onStack.add(unit);
    for (const to of graph.get(unit) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(unit, Math.min(low.get(unit) ?? 0, low.get(to) ?? 0));
      } else if (onStack.has(to)) low.set(unit, Math.min(low.get(unit) ?? 0, index.get(to) ?? 0));
    }
    if (low.get(unit) !== index.get(unit)) return;
    const component: string[] = [];
    let member: string | undefined;
    do {
      member = stack.pop();
      if (member === undefined) break;
      onStack.delete(member);
      component.push(member);
    } while (member !== unit);
    if (component.length > 1) cycles.push(component.sort());
  };
  for (const unit of graph.keys()) if (!index.has(unit)) visit(unit);
  return cycles;
}
