import { useState } from 'preact/hooks';
import { clientFor } from './api.ts';
import { ErrorNote, useAction } from './ui.tsx';

/** Signs in with an API token: it is checked against the API, then kept for this tab. */
export function SignIn(props: { onSignedIn: (token: string) => void }) {
  const [token, setToken] = useState('');
  const action = useAction();
  return (
    <main class="sign-in">
      <h1>Fieldhouse</h1>
      <form
        onSubmit={async (event) => {
          event.preventDefault();
          const value = token.trim();
          const ok = await action.run(() => clientFor(value).site.find());
          if (ok) props.onSignedIn(value);
        }}
      >
        <label for="token">API token</label>
        <input
          id="token"
          name="token"
          type="password"
          autocomplete="current-password"
          required
          value={token}
          onInput={(event) => setToken(event.currentTarget.value)}
        />
        <p class="muted">
          A token with access to the Content Management API. It stays in this browser tab only.
        </p>
        <ErrorNote error={action.error} />
        <button type="submit" disabled={action.busy}>
          {action.busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
    </main>
  );
}
