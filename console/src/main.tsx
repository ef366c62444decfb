import './styles.css';
import { render } from 'preact';
import { useMemo, useState } from 'preact/hooks';
import { clientFor, storedToken, storeToken } from './api.ts';
import { currentPath, editingLinkTarget, navigate, useLocation } from './router.ts';
import { SessionContext } from './session.ts';
import { Shell } from './shell.tsx';
import { SignIn } from './sign-in.tsx';
import { ErrorNote, Loading, useAsync } from './ui.tsx';

function App() {
  const [token, setToken] = useState(storedToken());
  const { path } = useLocation();
  const signOut = () => {
    storeToken(null);
    setToken(null);
  };
  if (!token) {
    return (
      <SignIn
        onSignedIn={(value) => {
          storeToken(value);
          setToken(value);
        }}
      />
    );
  }
  const link = editingLinkTarget(path);
  if (link?.environment) navigate(`editor/${link.environment}/${link.rest}`, true);
  if (link && !link.environment) return <PrimaryRedirect token={token} rest={link.rest} />;
  const [section, environment] = currentPathSegments();
  if (section !== 'editor' || !environment) return <PrimaryRedirect token={token} rest="" />;
  return <SignedIn token={token} environment={environment} signOut={signOut} />;
}

function SignedIn(props: { token: string; environment: string; signOut: () => void }) {
  const session = useMemo(
    () => ({ ...props, client: clientFor(props.token, props.environment) }),
    [props.token, props.environment, props.signOut],
  );
  return (
    <SessionContext.Provider value={session}>
      <Shell />
    </SessionContext.Provider>
  );
}

function currentPathSegments(): string[] {
  return currentPath().split('/');
}

/**
 * The console's root sends a signed-in user to the primary environment's content; an
 * editing link without an environment, to that page of the primary environment.
 */
function PrimaryRedirect(props: { token: string; rest: string }) {
  const state = useAsync(async () => {
    const environments = await clientFor(props.token).environments.list();
    const primary = environments.find((environment) => environment.meta.primary);
    navigate(`editor/${primary?.id ?? 'main'}/${props.rest}`, true);
    return true;
  }, [props.token, props.rest]);
  return state.error ? <ErrorNote error={state.error} /> : <Loading />;
}

render(<App />, document.getElementById('app') as HTMLElement);
