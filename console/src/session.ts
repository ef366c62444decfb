import type { Client } from '@datocms/cma-client-browser';
import { createContext } from 'preact';
import { useContext } from 'preact/hooks';

/** What every page needs: the signed-in client for the environment in the URL. */
export type Session = {
  token: string;
  environment: string;
  client: Client;
  signOut: () => void;
};

export const SessionContext = createContext<Session | null>(null);

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession outside a signed-in page');
  return session;
}
