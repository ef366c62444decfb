import { useState } from 'preact/hooks';
import { clientFor } from '../api.ts';
import { navigate } from '../router.ts';
import { useSession } from '../session.ts';
import { ErrorNote, Field, Loaded, useAction, useAsync } from '../ui.tsx';

/** Environments: list, fork (the list shows the fork's progress), promote, destroy. */
export function EnvironmentsSection() {
  const { token } = useSession();
  const client = clientFor(token);
  const environments = useAsync(() => client.environments.list(), [client]);
  const [source, setSource] = useState('');
  const [name, setName] = useState('');
  const [forking, setForking] = useState<string | null>(null);
  const action = useAction();
  const list = environments.data ?? [];
  const primary = list.find((entry) => entry.meta.primary)?.id ?? '';
  return (
    <>
      <ErrorNote error={action.error} />
      <Loaded state={environments}>
        {(entries) => (
          <div class="table-wrap">
            <table>
              <thead>
                <tr>
                  <th scope="col">Environment</th>
                  <th scope="col">Status</th>
                  <th scope="col">Actions</th>
                </tr>
              </thead>
              <tbody>
                {entries.map((entry) => (
                  <tr key={entry.id}>
                    <td>
                      {entry.id}
                      {entry.meta.primary ? ' (primary)' : ''}
                    </td>
                    <td>{entry.meta.status}</td>
                    <td class="row">
                      <button
                        type="button"
                        class="ghost"
                        onClick={() => navigate(`editor/${entry.id}/`)}
                      >
                        Open {entry.id}
                      </button>
                      {entry.meta.primary ? null : (
                        <>
                          <button
                            type="button"
                            class="ghost"
                            disabled={action.busy}
                            onClick={() =>
                              confirm(`Make ${entry.id} the primary environment?`) &&
                              action.run(async () => {
                                await client.environments.promote(entry.id);
                                environments.reload();
                              })
                            }
                          >
                            Promote {entry.id}
                          </button>
                          <button
                            type="button"
                            class="ghost"
                            disabled={action.busy}
                            onClick={() =>
                              confirm(`Destroy ${entry.id} and everything in it?`) &&
                              action.run(async () => {
                                await client.environments.destroy(entry.id);
                                environments.reload();
                              })
                            }
                          >
                            Destroy {entry.id}
                          </button>
                        </>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Loaded>
      <h2>Fork an environment</h2>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          const from = source || primary;
          setForking(`Forking ${from} into ${name}…`);
          action
            .run(async () => {
              // The fork runs as a job; the client waits for it to finish.
              await client.environments.fork(from, { id: name });
              environments.reload();
              setName('');
            })
            .then((ok) => setForking(ok ? `Forked ${from} into ${name}.` : null));
        }}
      >
        <Field label="Source">
          {(id) => (
            <select
              id={id}
              value={source || primary}
              onChange={(e) => setSource(e.currentTarget.value)}
            >
              {list.map((entry) => (
                <option key={entry.id} value={entry.id}>
                  {entry.id}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="New environment's ID" hint="Lower-case letters, digits and dashes">
          {(id) => (
            <input
              id={id}
              required
              pattern="[a-z0-9-]+"
              value={name}
              onInput={(e) => setName(e.currentTarget.value)}
            />
          )}
        </Field>
        <button type="submit" disabled={action.busy}>
          Fork
        </button>
        {forking ? (
          <p role="status">
            {forking} {action.busy ? <progress aria-label="Fork progress" /> : null}
          </p>
        ) : null}
      </form>
    </>
  );
}

export function MaintenanceSection() {
  const { token } = useSession();
  const client = clientFor(token);
  const state = useAsync(() => client.maintenanceMode.find(), [client]);
  const action = useAction();
  return (
    <Loaded state={state}>
      {(mode) => (
        <>
          <p>
            Maintenance mode is <strong>{mode.active ? 'on' : 'off'}</strong>: while on, the primary
            environment's content cannot be changed.
          </p>
          <ErrorNote error={action.error} />
          <button
            type="button"
            disabled={action.busy}
            onClick={() =>
              action.run(async () => {
                if (mode.active) await client.maintenanceMode.deactivate();
                else await client.maintenanceMode.activate();
                state.reload();
              })
            }
          >
            {mode.active ? 'Turn maintenance mode off' : 'Turn maintenance mode on'}
          </button>
        </>
      )}
    </Loaded>
  );
}
