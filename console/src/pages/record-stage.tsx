import type { ApiTypes } from '@datocms/cma-client-browser';
import { useSession } from '../session.ts';
import { ErrorNote, useAction } from '../ui.tsx';
import { MoveToStage, useWorkflowStages } from './move-to-stage.tsx';

/** The record's workflow stage, and a move to another, where the model has a workflow. */
export function RecordStage(props: {
  model: ApiTypes.ItemType;
  record: ApiTypes.Item;
  onChanged: () => void;
}) {
  const { client } = useSession();
  const stages = useWorkflowStages(props.model);
  const action = useAction();
  if (!props.model.workflow) return null;
  const current = props.record.meta.stage;
  const list = stages.data ?? [];
  return (
    <section>
      <h2>Stage</h2>
      <p data-testid="record-stage">
        {list.find((entry) => entry.id === current)?.name ?? current ?? 'none'}
      </p>
      <MoveToStage
        id="record-move-stage"
        label="Move to"
        stages={list.filter((entry) => entry.id !== current)}
        busy={action.busy}
        onMove={(stage) =>
          action.run(async () => {
            await client.items.bulkMoveToStage({
              stage,
              items: [{ type: 'item', id: props.record.id }],
            });
            props.onChanged();
          })
        }
      />
      <ErrorNote error={action.error ?? stages.error} />
    </section>
  );
}
