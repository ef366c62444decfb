import type { RawApiTypes } from '@datocms/cma-client-browser';
import { useState } from 'preact/hooks';
import { useSession } from '../session.ts';
import { Dialog, ErrorNote, Field, useAction } from '../ui.tsx';
import { parentOf, recordAndUnder, treeOrder } from './record-tree.ts';

type Row = RawApiTypes.Item;

const TOP_LEVEL = '';

/**
 * "Move under…" for a tree record: a dialog choosing its new parent among the records of
 * the page (or the top level). One record update of `parent_id`; the API puts it last
 * among its new siblings, closes the gap it left, and refuses a move under its own
 * descendant (not offered here, but another tab may have moved things meanwhile).
 */
export function ReparentButton(props: {
  record: Row;
  rows: readonly Row[];
  name: (record: Row) => string;
  onMoved: () => void;
}) {
  const [open, setOpen] = useState(false);
  const label = props.name(props.record);
  return (
    <>
      <button type="button" class="ghost" onClick={() => setOpen(true)}>
        Move under…<span class="sr-only"> ({label})</span>
      </button>
      {open ? (
        <Dialog title={`Move ${label} under…`} onClose={() => setOpen(false)}>
          <ReparentForm
            {...props}
            onMoved={() => {
              setOpen(false);
              props.onMoved();
            }}
          />
        </Dialog>
      ) : null}
    </>
  );
}

function ReparentForm(props: {
  record: Row;
  rows: readonly Row[];
  name: (record: Row) => string;
  onMoved: () => void;
}) {
  const { client } = useSession();
  const action = useAction();
  const current = parentOf(props.record) ?? TOP_LEVEL;
  const [parent, setParent] = useState(current);
  const excluded = recordAndUnder(props.rows, props.record.id);
  const choices = treeOrder(props.rows).filter(({ record }) => !excluded.includes(record.id));
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        action.run(async () => {
          await client.items.update(props.record.id, { parent_id: parent || null });
          props.onMoved();
        });
      }}
    >
      <Field label="New parent">
        {(id) => (
          <select id={id} value={parent} onChange={(e) => setParent(e.currentTarget.value)}>
            <option value={TOP_LEVEL}>Top level</option>
            {choices.map(({ record, depth }) => (
              <option key={record.id} value={record.id}>
                {`${'\u00a0\u00a0'.repeat(depth)}${props.name(record)}`}
              </option>
            ))}
          </select>
        )}
      </Field>
      <ErrorNote error={action.error} />
      <button type="submit" disabled={action.busy || parent === current}>
        Move
      </button>
    </form>
  );
}
