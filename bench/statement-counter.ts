// A TCP proxy in front of PostgreSQL that counts the statements its clients run: each
// simple query ('Q') and each extended-protocol Execute ('E') message is one. Fieldhouse
// and Directus both go through node-postgres, which sends one of these per statement.

import { once } from 'node:events';
import { connect, createServer, type Server, type Socket } from 'node:net';

export type StatementCounter = { url: string; count(): number; close(): Promise<void> };

/** Counts the frontend messages of one connection (after its untyped startup packets). */
function countingParser(onStatement: () => void) {
  let buffered = Buffer.alloc(0);
  let started = false;
  return (chunk: Buffer) => {
    buffered = Buffer.concat([buffered, chunk]);
    for (;;) {
      if (!started) {
        if (buffered.length < 8) return;
        const length = buffered.readInt32BE(0);
        if (buffered.length < length) return;
        const code = buffered.readInt32BE(4);
        // SSLRequest (80877103) and GSSENCRequest (80877104) precede the real startup packet.
        if (code !== 80877103 && code !== 80877104) started = true;
        buffered = buffered.subarray(length);
        continue;
      }
      if (buffered.length < 5) return;
      const length = buffered.readInt32BE(1);
      if (buffered.length < length + 1) return;
      const type = String.fromCharCode(buffered[0] ?? 0);
      if (type === 'Q' || type === 'E') onStatement();
      buffered = buffered.subarray(length + 1);
    }
  };
}

/** Listens on a free loopback port and forwards to `target` (a postgres:// URL). */
export async function startStatementCounter(target: string): Promise<StatementCounter> {
  const upstream = new URL(target);
  let statements = 0;
  const sockets = new Set<Socket>();
  // Without noDelay, Nagle's algorithm holds a reply's last small write until the
  // peer's delayed ACK (about 40 ms on Linux): it made a list page through the proxy
  // 56 ms where it takes under 10 without it.
  const server: Server = createServer({ noDelay: true }, (client) => {
    const backend = connect({
      port: Number(upstream.port || 5432),
      host: upstream.hostname,
      noDelay: true,
    });
    sockets.add(client).add(backend);
    const parse = countingParser(() => {
      statements += 1;
    });
    client.on('data', (chunk: Buffer) => {
      parse(chunk);
      backend.write(chunk);
    });
    backend.pipe(client);
    const end = () => {
      client.destroy();
      backend.destroy();
      sockets.delete(client);
      sockets.delete(backend);
    };
    client.on('close', end).on('error', end);
    backend.on('close', end).on('error', end);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  const url = new URL(target);
  url.hostname = '127.0.0.1';
  url.port = String(address.port);
  return {
    url: url.toString(),
    count: () => statements,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      server.close();
    },
  };
}
