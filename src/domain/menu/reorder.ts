import type { EnvTrx } from '../../db/environment-scope.ts';
import { DomainError, Issues, NotFound, type RecordType } from '../errors.ts';
import { checkParents, checkPosition } from './tree-rules.ts';
import { loadTree, type MenuTable, relayout } from './tree-store.ts';

export type ReorderEntry = { type: string; id: string; position: number; parentId: string | null };

export type MenuKind = { table: MenuTable; type: string; recordType: RecordType; label: string };

/**
 * Moves every listed item to its parent and position at once. An id that does not
 * exist is a 404 NOT_FOUND, as it would be in a path; two entries claiming the same
 * slot under the same parent are DUPLICATE_POSITIONS_FOUND.
 */
export async function reorderMenu(
  trx: EnvTrx,
  kind: MenuKind,
  entries: ReorderEntry[],
): Promise<void> {
  for (const entry of entries) {
    if (entry.type !== kind.type) {
      throw new DomainError('INVALID_TYPE', `data[].type must be "${kind.type}"`, {
        expected: kind.type,
        actual: entry.type,
      });
    }
  }
  const nodes = await loadTree(trx, kind.table);
  const known = new Set(nodes.map((node) => node.id));
  const listed = new Set<string>();
  entries.forEach((entry, index) => {
    if (!known.has(entry.id)) throw new NotFound(kind.label, entry.id);
    if (listed.has(entry.id)) {
      const message = `/data/${index}/id: ${entry.id} is listed twice`;
      throw new DomainError('INVALID_FORMAT', message, { messages: [message] });
    }
    listed.add(entry.id);
  });

  const issues = new Issues(kind.recordType);
  for (const entry of entries) checkPosition(issues, entry.position);
  checkParents(
    issues,
    nodes,
    entries.map((entry) => ({ id: entry.id, parentId: entry.parentId, field: 'parent' })),
  );
  issues.throwIfAny();

  const slots = new Set(entries.map((entry) => JSON.stringify([entry.parentId, entry.position])));
  if (slots.size < entries.length) {
    throw new DomainError(
      'DUPLICATE_POSITIONS_FOUND',
      'two items were given the same position under the same parent',
    );
  }
  const placements = new Map(
    entries.map((entry) => [entry.id, { parentId: entry.parentId, position: entry.position }]),
  );
  await relayout(trx, kind.table, nodes, placements);
}
