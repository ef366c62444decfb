import type { ApiTypes } from '@datocms/cma-client-browser';
import { useState } from 'preact/hooks';
import { useSession } from '../session.ts';
import { ErrorNote, useAction, useAsync } from '../ui.tsx';

type Stage = { id: string; name: string };

/**
 * What can be done to the selected records at once, through the CMA's bulk endpoints (one
 * job each, all or nothing, as the API runs them): publish, unpublish, delete, and move to
 * a stage when the model has a workflow.
 */
export function BulkActions(props: {
  model: ApiTypes.ItemType;
  selected: string[];
  onDone: () => void;
}) {
  const { client } = useSession();
  const workflowId = props.model.workflow?.id;
  const stages = useAsync(
    async (): Promise<Stage[]> =>
      workflowId ? (await client.workflows.find(workflowId)).stages : [],
    [client, workflowId],
  );
  const [stage, setStage] = useState('');
  const action = useAction();
  const items = props.selected.map((id) => ({ type: 'item' as const, id }));
  const run = (call: () => Promise<unknown>) =>
    action.run(async () => {
      await call();
      props.onDone();
    });
  const count = props.selected.length;
  return (
    <section class="bulk row" aria-label="Bulk actions">
      <span>{count} selected</span>
      <button
        type="button"
        disabled={action.busy}
        onClick={() => run(() => client.items.bulkPublish({ items }))}
      >
        Publish selected
      </button>
      <button
        type="button"
        class="ghost"
        disabled={action.busy}
        onClick={() => run(() => client.items.bulkUnpublish({ items }))}
      >
        Unpublish selected
      </button>
      <button
        type="button"
        class="danger"
        disabled={action.busy}
        onClick={() => {
          if (window.confirm(`Delete ${count} record${count === 1 ? '' : 's'}?`)) {
            run(() => client.items.bulkDestroy({ items }));
          }
        }}
      >
        Delete selected
      </button>
      {(stages.data ?? []).length > 0 ? (
        <form
          class="row"
          onSubmit={(event) => {
            event.preventDefault();
            if (stage) run(() => client.items.bulkMoveToStage({ stage, items }));
          }}
        >
          <label for="bulk-stage">Stage</label>
          <select
            id="bulk-stage"
            value={stage}
            onChange={(event) => setStage(event.currentTarget.value)}
          >
            <option value="">Choose…</option>
            {(stages.data ?? []).map((entry) => (
              <option key={entry.id} value={entry.id}>
                {entry.name}
              </option>
            ))}
          </select>
          <button type="submit" class="ghost" disabled={action.busy || !stage}>
            Move to stage
          </button>
        </form>
      ) : null}
      <ErrorNote error={action.error ?? stages.error} />
    </section>
  );
}
