import type { ApiTypes } from '@datocms/cma-client-browser';
import { useState } from 'preact/hooks';
import { useSession } from '../session.ts';
import { type Async, useAsync } from '../ui.tsx';

export type Stage = { id: string; name: string };

/** The stages of the model's workflow; none when it has no workflow. */
export function useWorkflowStages(model: ApiTypes.ItemType): Async<Stage[]> {
  const { client } = useSession();
  const workflowId = model.workflow?.id;
  return useAsync(
    async () => (workflowId ? (await client.workflows.find(workflowId)).stages : []),
    [client, workflowId],
  );
}

/**
 * A stage to choose and the button that moves there: the CMA's bulk move-to-stage call,
 * for the selected records or for one record (it has no single-record form).
 */
export function MoveToStage(props: {
  id: string;
  label: string;
  stages: Stage[];
  busy: boolean;
  onMove: (stage: string) => void;
}) {
  const [stage, setStage] = useState('');
  return (
    <form
      class="row"
      onSubmit={(event) => {
        event.preventDefault();
        if (stage) props.onMove(stage);
      }}
    >
      <label for={props.id}>{props.label}</label>
      <select id={props.id} value={stage} onChange={(event) => setStage(event.currentTarget.value)}>
        <option value="">Choose…</option>
        {props.stages.map((entry) => (
          <option key={entry.id} value={entry.id}>
            {entry.name}
          </option>
        ))}
      </select>
      <button type="submit" class="ghost" disabled={props.busy || !stage}>
        Move to stage
      </button>
    </form>
  );
}
