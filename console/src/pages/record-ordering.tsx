import type { RawApiTypes } from '@datocms/cma-client-browser';
import { useState } from 'preact/hooks';
import { useSession } from '../session.ts';
import { useAction } from '../ui.tsx';

type Row = RawApiTypes.Item;

/** A sortable or tree model's record's place: its position among its siblings. */
function position(record: Row): number {
  return Number(record.attributes.position ?? 0);
}

function siblings(a: Row, b: Row): boolean {
  return (a.attributes.parent_id ?? null) === (b.attributes.parent_id ?? null);
}

/**
 * Hand ordering of a sortable or tree model's records (shown in position order): each row
 * moves by drag and drop onto another row, or by its Move up / Move down buttons (the
 * keyboard's way). A move is one record update of `position`; the API shifts the
 * siblings between. A tree record moves among the records under the same parent.
 */
export function useOrdering(rows: Row[], onMoved: () => void) {
  const { client } = useSession();
  const action = useAction();
  const [dragged, setDragged] = useState<string | null>(null);
  const move = (record: Row, to: number) =>
    action.run(async () => {
      await client.items.update(record.id, { position: to });
      onMoved();
    });
  // The nearest sibling that way: in a tree, a record's children may sit between the two.
  const neighbour = (index: number, step: -1 | 1) => {
    const record = rows[index];
    if (!record) return null;
    for (let at = index + step; at >= 0 && at < rows.length; at += step) {
      const other = rows[at] as Row;
      if (siblings(record, other)) return other;
    }
    return null;
  };
  return {
    action,
    moveUp: (index: number) => {
      const [record, other] = [rows[index], neighbour(index, -1)];
      if (record && other) move(record, position(other));
    },
    moveDown: (index: number) => {
      const [record, other] = [rows[index], neighbour(index, 1)];
      if (record && other) move(record, position(other));
    },
    canMove: (index: number, step: -1 | 1) => neighbour(index, step) !== null,
    /** Props for a row: it can be dragged, and another row dropped on it takes its place. */
    rowProps: (record: Row) => ({
      draggable: true,
      class: dragged === record.id ? 'dragging' : undefined,
      onDragStart: (event: DragEvent) => {
        event.dataTransfer?.setData('text/plain', record.id);
        setDragged(record.id);
      },
      onDragEnd: () => setDragged(null),
      onDragOver: (event: DragEvent) => event.preventDefault(),
      onDrop: (event: DragEvent) => {
        event.preventDefault();
        const moved = rows.find((row) => row.id === dragged);
        setDragged(null);
        if (moved && moved.id !== record.id && siblings(moved, record)) {
          move(moved, position(record));
        }
      },
    }),
  };
}
