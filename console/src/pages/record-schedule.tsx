import type { ApiTypes } from '@datocms/cma-client-browser';
import { useState } from 'preact/hooks';
import { toLocalInput } from '../fields/field-input.tsx';
import { useSession } from '../session.ts';
import { ErrorNote, Field, useAction } from '../ui.tsx';

type Kind = 'publish' | 'unpublish';

/**
 * A record's scheduled publication and unpublishing: each shown when set, set to a date,
 * or cancelled (the CMA's scheduled-publication and scheduled-unpublishing resources).
 */
export function RecordSchedule(props: { record: ApiTypes.Item; onChanged: () => void }) {
  return (
    <section>
      <h2>Schedule</h2>
      <ScheduleRow kind="publish" {...props} />
      <ScheduleRow kind="unpublish" {...props} />
    </section>
  );
}

function ScheduleRow(props: { kind: Kind; record: ApiTypes.Item; onChanged: () => void }) {
  const { client } = useSession();
  const { kind, record } = props;
  const current =
    kind === 'publish'
      ? record.meta.publication_scheduled_at
      : record.meta.unpublishing_scheduled_at;
  const [at, setAt] = useState(current ? toLocalInput(current) : '');
  const action = useAction(props.onChanged);
  const run = action.run;
  const schedule = () => {
    const when = new Date(at).toISOString();
    return kind === 'publish'
      ? client.scheduledPublication.create(record.id, { publication_scheduled_at: when })
      : client.scheduledUnpublishing.create(record.id, { unpublishing_scheduled_at: when });
  };
  const cancel = () =>
    kind === 'publish'
      ? client.scheduledPublication.destroy(record.id)
      : client.scheduledUnpublishing.destroy(record.id);
  const label = kind === 'publish' ? 'Publish at' : 'Unpublish at';
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        if (at) run(schedule);
      }}
    >
      <Field label={label}>
        {(id) => (
          <input
            id={id}
            type="datetime-local"
            value={at}
            onInput={(event) => setAt(event.currentTarget.value)}
          />
        )}
      </Field>
      {current ? (
        <p class="muted" data-testid={`scheduled-${kind}`}>
          Scheduled for {new Date(current).toLocaleString()}
        </p>
      ) : null}
      <div class="row">
        <button type="submit" class="ghost" disabled={action.busy || !at}>
          Schedule {kind === 'publish' ? 'publication' : 'unpublishing'}
        </button>
        {current ? (
          <button type="button" class="ghost" disabled={action.busy} onClick={() => run(cancel)}>
            Cancel scheduled {kind === 'publish' ? 'publication' : 'unpublishing'}
          </button>
        ) : null}
      </div>
      <ErrorNote error={action.error} />
    </form>
  );
}
