import type { Db } from './client.ts';

/**
 * An in-process gate per environment that writes pass through and a fork of that
 * environment can close. The embedded engine copies a fork in many short transactions
 * (its one connection must serve other requests in between); closing the source's gate
 * for the copy keeps the copy one snapshot: a write to the source waits until the copy
 * ends, while reads, and writes to other environments, go on. The embedded database is
 * one process by construction (its data directory is locked), so an in-process gate
 * sees every write. PostgreSQL forks copy in one REPEATABLE READ transaction and never
 * close a gate.
 *
 * Writers hold the gate open for their whole transaction: closing waits for writers
 * already inside, and they enter before taking a connection, so a waiting writer never
 * holds the connection a copy step needs.
 */
type Gate = {
  /** Writers inside. */
  writers: number;
  /** Settles when the writers inside are gone; set while a closer waits for them. */
  drained: (() => void) | null;
  /** Settles when the gate opens again; set while closed (or closing). */
  reopened: Promise<void> | null;
};

const gates = new WeakMap<Db, Map<number, Gate>>();

function gateOf(db: Db, environmentNumber: number): Gate {
  let byNumber = gates.get(db);
  if (!byNumber) {
    byNumber = new Map();
    gates.set(db, byNumber);
  }
  let gate = byNumber.get(environmentNumber);
  if (!gate) {
    gate = { writers: 0, drained: null, reopened: null };
    byNumber.set(environmentNumber, gate);
  }
  return gate;
}

/** Runs `fn` as a writer of the environment: waits while a fork holds the gate closed. */
export async function throughWriteGate<T>(
  db: Db,
  environmentNumber: number,
  fn: () => Promise<T>,
): Promise<T> {
  const gate = gateOf(db, environmentNumber);
  while (gate.reopened) await gate.reopened;
  gate.writers += 1;
  try {
    return await fn();
  } finally {
    gate.writers -= 1;
    if (gate.writers === 0) gate.drained?.();
  }
}

/**
 * Closes the environment's gate once the writers inside have finished; new writers wait
 * until the returned function opens it again. Two closers of one gate take turns.
 */
export async function closeWriteGate(db: Db, environmentNumber: number): Promise<() => void> {
  const gate = gateOf(db, environmentNumber);
  while (gate.reopened) await gate.reopened;
  let open = (): void => {};
  gate.reopened = new Promise<void>((resolve) => {
    open = resolve;
  });
  if (gate.writers > 0) {
    await new Promise<void>((resolve) => {
      gate.drained = resolve;
    });
    gate.drained = null;
  }
  return () => {
    gate.reopened = null;
    open();
  };
}
