import type { ApiTypes } from '@datocms/cma-client-browser';
import { useSession } from '../session.ts';
import { ErrorNote, useAction } from '../ui.tsx';
import { MoveToStage, useWorkflowStages } from './move-to-stage.tsx';

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
  const stages = useWorkflowStages(props.model);
  const action = useAction(props.onDone);
  const items = props.selected.map((id) => ({ type: 'item' as const, id }));
  const run = action.run;
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
        <MoveToStage
          id="bulk-stage"
          label="Stage"
          stages={stages.data ?? []}
          busy={action.busy}
          onMove={(stage) => run(() => client.items.bulkMoveToStage({ stage, items }))}
        />
      ) : null}
      <ErrorNote error={action.error ?? stages.error} />
    </section>
  );
}
