import type { ComponentType } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { ErrorNote, Loading } from './ui.tsx';

/**
 * A page whose code loads on first visit (its own chunk), so the first page a user sees
 * carries only the shell.
 */
export function lazyPage<P extends object>(
  load: () => Promise<ComponentType<P>>,
): ComponentType<P> {
  let loaded: ComponentType<P> | null = null;
  return function LazyPage(props: P) {
    const [component, setComponent] = useState<ComponentType<P> | null>(() => loaded);
    const [error, setError] = useState<unknown>(null);
    useEffect(() => {
      if (component) return;
      load().then((value) => {
        loaded = value;
        setComponent(() => value);
      }, setError);
    }, [component]);
    if (error) return <ErrorNote error={error} />;
    const Component = component;
    return Component ? <Component {...props} /> : <Loading />;
  };
}
