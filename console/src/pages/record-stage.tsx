import type { ApiTypes } from '@datocms/cma-client-browser';
import { useState } from 'preact/hooks';
import { useSession } from '../session.ts';
import { ErrorNote, useAction, useAsync } from '../ui.tsx';

/**
 * The record's workflow stage, and a move to another (the bulk move-to-stage call with this
 * one record: the CMA has no single-record form).
 */
export function RecordStage(props: {
  model: ApiTypes.ItemType;
  record: ApiTypes.Item;
  onChanged: () => void;
}) {
  const { client } = useSession();
  const workflowId = props.model.workflow?.id;
  const workflow = useAsync(
    async () => (workflowId ? client.workflows.find(workflowId) : null),
    [client, workflowId],
  );
  const [stage, setStage] = useState('');
  const action = useAction();
  if (!workflowId) return null;
  const stages = workflow.data?.stages ?? [];
  const currentName = stages.find((entry) => entry.id === props.record.meta.stage)?.name;
  return (
    <section>
      <h2>Stage</h2>
      <p data-testid="record-stage">{currentName ?? props.record.meta.stage ?? 'none'}</p>
      <form
        class="row"
        onSubmit={(event) => {
          event.preventDefault();
          if (!stage) return;
          action.run(async () => {
            await client.items.bulkMoveToStage({
              stage,
              items: [{ type: 'item', id: props.record.id }],
            });
            props.onChanged();
          });
        }}
      >
        <label for="record-move-stage">Move to</label>
        <select
          id="record-move-stage"
          value={stage}
          onChange={(event) => setStage(event.currentTarget.value)}
        >
          <option value="">Choose…</option>
          {stages
            .filter((entry) => entry.id !== props.record.meta.stage)
            .map((entry) => (
              <option key={entry.id} value={entry.id}>
                {entry.name}
              </option>
            ))}
        </select>
        <button type="submit" class="ghost" disabled={action.busy || !stage}>
          Move to stage
        </button>
      </form>
      <ErrorNote error={action.error ?? workflow.error} />
    </section>
  );
}
