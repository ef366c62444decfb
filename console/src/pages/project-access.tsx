import { useState } from 'preact/hooks';
import { useSession } from '../session.ts';
import { ErrorNote, Field, Loaded, TextField, useAction, useAsync } from '../ui.tsx';

/** API tokens: list, create on a role, and the new token shown once. */
export function TokensSection() {
  const { client } = useSession();
  const state = useAsync(async () => {
    const [tokens, roles] = await Promise.all([client.accessTokens.list(), client.roles.list()]);
    return { tokens, roles };
  }, [client]);
  const [name, setName] = useState('');
  const [role, setRole] = useState('');
  const [created, setCreated] = useState<string | null>(null);
  const action = useAction();
  return (
    <Loaded state={state}>
      {({ tokens, roles }) => (
        <>
          <div class="table-wrap">
            <table>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Role</th>
                  <th scope="col">CMA / CDA</th>
                </tr>
              </thead>
              <tbody>
                {tokens.map((token) => (
                  <tr key={token.id}>
                    <td>{token.name}</td>
                    <td>{roles.find((entry) => entry.id === token.role?.id)?.name ?? '—'}</td>
                    <td>
                      {token.can_access_cma ? 'CMA' : ''} {token.can_access_cda ? 'CDA' : ''}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <h2>New token</h2>
          <form
            onSubmit={(event) => {
              event.preventDefault();
              action.run(async () => {
                const token = await client.accessTokens.create({
                  name,
                  role: { type: 'role', id: role || (roles[0]?.id ?? '') },
                  can_access_cma: true,
                  can_access_cda: true,
                  can_access_cda_preview: true,
                });
                setCreated(token.token ?? null);
                setName('');
                state.reload();
              });
            }}
          >
            <TextField label="Name" required value={name} onInput={setName} />
            <Field label="Role">
              {(id) => (
                <select
                  id={id}
                  value={role || roles[0]?.id}
                  onChange={(e) => setRole(e.currentTarget.value)}
                >
                  {roles.map((entry) => (
                    <option key={entry.id} value={entry.id}>
                      {entry.name}
                    </option>
                  ))}
                </select>
              )}
            </Field>
            <ErrorNote error={action.error} />
            <button type="submit" disabled={action.busy}>
              Create token
            </button>
          </form>
          {created ? (
            <p role="status">
              New token (copy it now, it is not shown again): <code>{created}</code>
            </p>
          ) : null}
        </>
      )}
    </Loaded>
  );
}

const ROLE_FLAGS = [
  ['can_edit_schema', 'Edit the schema'],
  ['can_manage_webhooks', 'Manage webhooks'],
  ['can_manage_environments', 'Manage environments'],
  ['can_promote_environments', 'Promote environments'],
  ['can_manage_access_tokens', 'Manage API tokens'],
  ['can_manage_users', 'Manage roles'],
  ['can_edit_site', 'Edit project settings'],
] as const;

/** Roles: what each may do, and new roles with their flags. */
export function RolesSection() {
  const { client } = useSession();
  const roles = useAsync(() => client.roles.list(), [client]);
  const [name, setName] = useState('');
  const [flags, setFlags] = useState<Record<string, boolean>>({});
  const action = useAction();
  return (
    <Loaded state={roles}>
      {(list) => (
        <>
          <div class="table-wrap">
            <table>
              <thead>
                <tr>
                  <th scope="col">Role</th>
                  <th scope="col">May</th>
                </tr>
              </thead>
              <tbody>
                {list.map((role) => (
                  <tr key={role.id}>
                    <td>{role.name}</td>
                    <td>
                      {ROLE_FLAGS.filter(
                        ([flag]) => (role as Record<string, unknown>)[flag] === true,
                      )
                        .map(([, label]) => label)
                        .join(', ') || '—'}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <h2>New role</h2>
          <form
            onSubmit={(event) => {
              event.preventDefault();
              action.run(async () => {
                await client.roles.create({ name, ...flags });
                setName('');
                setFlags({});
                roles.reload();
              });
            }}
          >
            <TextField label="Name" required value={name} onInput={setName} />
            <fieldset>
              <legend>May</legend>
              {ROLE_FLAGS.map(([flag, label]) => (
                <label class="row" key={flag}>
                  <input
                    type="checkbox"
                    checked={flags[flag] === true}
                    onChange={(e) => setFlags({ ...flags, [flag]: e.currentTarget.checked })}
                  />
                  {label}
                </label>
              ))}
            </fieldset>
            <ErrorNote error={action.error} />
            <button type="submit" disabled={action.busy}>
              Create role
            </button>
          </form>
        </>
      )}
    </Loaded>
  );
}

/** The site's locales, in order; the first is the default. */
export function LocalesSection() {
  const { client } = useSession();
  const site = useAsync(() => client.site.find(), [client]);
  const [draft, setDraft] = useState<string | null>(null);
  const action = useAction();
  return (
    <Loaded state={site}>
      {(found) => (
        <form
          onSubmit={(event) => {
            event.preventDefault();
            action.run(async () => {
              const locales = (draft ?? found.locales.join(', '))
                .split(',')
                .map((code) => code.trim())
                .filter(Boolean);
              const [first, ...rest] = locales;
              if (!first) throw new Error('at least one locale is needed');
              await client.site.update({ locales: [first, ...rest] });
              setDraft(null);
              site.reload();
            });
          }}
        >
          <Field
            label="Locales"
            hint="Comma-separated codes, the first is the default (e.g. en, it, fr)"
          >
            {(id) => (
              <input
                id={id}
                value={draft ?? found.locales.join(', ')}
                onInput={(e) => setDraft(e.currentTarget.value)}
              />
            )}
          </Field>
          <ErrorNote error={action.error} />
          <button type="submit" disabled={action.busy}>
            Save locales
          </button>
        </form>
      )}
    </Loaded>
  );
}
