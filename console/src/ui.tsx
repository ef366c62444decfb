import type { ComponentChildren } from 'preact';
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { errorMessage } from './api.ts';
import { href, navigate } from './router.ts';

/** An in-console link: a real `<a href>` (open in a new tab works), routed without a reload. */
export function Link(props: {
  to: string;
  children: ComponentChildren;
  class?: string;
  'aria-current'?: 'page' | undefined;
}) {
  const { to, children, ...rest } = props;
  return (
    <a
      {...rest}
      href={href(to)}
      onClick={(event) => {
        if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey) return;
        event.preventDefault();
        navigate(to);
      }}
    >
      {children}
    </a>
  );
}

export type Async<T> = {
  data: T | undefined;
  error: unknown;
  loading: boolean;
  reload: () => void;
};

/** Runs `load` when `deps` change; the last call wins (an older answer is dropped). */
export function useAsync<T>(load: () => Promise<T>, deps: unknown[]): Async<T> {
  const [state, setState] = useState<{ data: T | undefined; error: unknown; loading: boolean }>({
    data: undefined,
    error: null,
    loading: true,
  });
  const [tick, setTick] = useState(0);
  const call = useRef(0);
  useEffect(() => {
    const id = ++call.current;
    setState((previous) => ({ ...previous, loading: true }));
    load().then(
      (data) => id === call.current && setState({ data, error: null, loading: false }),
      (error) => id === call.current && setState({ data: undefined, error, loading: false }),
    );
  }, [...deps, tick]);
  const reload = useCallback(() => setTick((value) => value + 1), []);
  return { ...state, reload };
}

export function ErrorNote(props: { error: unknown }) {
  if (!props.error) return null;
  return (
    <p class="error" role="alert">
      {errorMessage(props.error)}
    </p>
  );
}

export function Loading() {
  return (
    <p class="muted" aria-live="polite">
      Loading…
    </p>
  );
}

/** Shows what an async load gives, or its progress, or its error. */
export function Loaded<T>(props: { state: Async<T>; children: (data: T) => ComponentChildren }) {
  if (props.state.error) return <ErrorNote error={props.state.error} />;
  if (props.state.data === undefined) return <Loading />;
  return <>{props.children(props.state.data)}</>;
}

/** A modal on the native `<dialog>`: focus moves in and is trapped; Escape closes it. */
export function Dialog(props: { title: string; onClose: () => void; children: ComponentChildren }) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
  }, []);
  return (
    <dialog ref={ref} class="dialog" aria-label={props.title} onClose={props.onClose}>
      <header class="row">
        <h2>{props.title}</h2>
        <button type="button" class="ghost" onClick={() => ref.current?.close()}>
          Close
        </button>
      </header>
      {props.children}
    </dialog>
  );
}

/** Runs an action with a busy flag and its error kept for display. */
/** An action's busy and error state; `afterSuccess` runs once an action succeeded (a reload). */
export function useAction(afterSuccess?: () => void): {
  busy: boolean;
  error: unknown;
  run: (action: () => Promise<unknown>) => Promise<boolean>;
  setError: (error: unknown) => void;
} {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const run = useCallback(
    async (action: () => Promise<unknown>) => {
      setBusy(true);
      setError(null);
      try {
        await action();
        afterSuccess?.();
        return true;
      } catch (caught) {
        setError(caught);
        return false;
      } finally {
        setBusy(false);
      }
    },
    [afterSuccess],
  );
  return { busy, error, run, setError };
}

export function Field(props: {
  label: string;
  hint?: string;
  error?: string | null;
  children: (id: string) => ComponentChildren;
}) {
  const id = useRef(`f-${Math.random().toString(36).slice(2, 9)}`).current;
  return (
    <div class={props.error ? 'field invalid' : 'field'}>
      <label for={id}>{props.label}</label>
      {props.children(id)}
      {props.hint ? <small class="muted">{props.hint}</small> : null}
      {props.error ? (
        <small class="error" role="alert" id={`${id}-error`}>
          {props.error}
        </small>
      ) : null}
    </div>
  );
}

/** A labelled one-line text input bound to a string: the console's most common field. */
export function TextField(props: {
  label: string;
  hint?: string;
  required?: boolean;
  value: string;
  onInput: (value: string) => void;
}) {
  return (
    <Field label={props.label} hint={props.hint}>
      {(id) => (
        <input
          id={id}
          required={props.required}
          value={props.value}
          onInput={(e) => props.onInput(e.currentTarget.value)}
        />
      )}
    </Field>
  );
}
