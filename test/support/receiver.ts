import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before } from 'node:test';

export type ReceivedRequest = {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  receivedAt: number;
};

export type Reply = {
  status: number;
  body?: string;
  headers?: Record<string, string>;
  /** Milliseconds to wait before answering; Infinity never answers (no timer is left). */
  delayMs?: number;
};

export type Receiver = {
  /** http://127.0.0.1:<port> */
  url: string;
  port: number;
  requests: ReceivedRequest[];
  /** How the receiver answers each request; 200 "ok" unless a test says otherwise. */
  reply: (request: ReceivedRequest) => Reply;
  waitForRequests(count: number, timeoutMs?: number): Promise<ReceivedRequest[]>;
  close(): Promise<void>;
};

/** A local webhook target whose answers the test controls, recording every request. */
export async function startReceiver(): Promise<Receiver> {
  const receiver: Receiver = {
    url: '',
    port: 0,
    requests: [],
    reply: () => ({ status: 200, body: 'ok' }),
    async waitForRequests(count, timeoutMs = 60_000) {
      const deadline = Date.now() + timeoutMs;
      while (receiver.requests.length < count) {
        if (Date.now() > deadline) {
          throw new Error(`receiver got ${receiver.requests.length} of ${count} requests`);
        }
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      return receiver.requests.slice(0, count);
    },
    async close() {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request: ReceivedRequest = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        receivedAt: Date.now(),
      };
      receiver.requests.push(request);
      const reply = receiver.reply(request);
      const answer = () => {
        if (res.destroyed) return;
        res.writeHead(reply.status, reply.headers ?? {});
        res.end(reply.body ?? '');
      };
      if (reply.delayMs === Number.POSITIVE_INFINITY) return;
      if (reply.delayMs) setTimeout(answer, reply.delayMs);
      else answer();
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  receiver.port = (server.address() as AddressInfo).port;
  receiver.url = `http://127.0.0.1:${receiver.port}`;
  return receiver;
}

/** A suite's receiver: `useReceiver` starts and closes it, so it has no `close`. */
export type SuiteReceiver = Omit<Receiver, 'close'>;

/**
 * One receiver for the enclosing suite (the file at top level, or a `describe`): registers
 * the `before` that starts it and the `after` that closes it, as `useTestServer` does for
 * its server. Its fields throw until the `before` has run.
 */
export function useReceiver(): SuiteReceiver {
  let running: Receiver | undefined;
  before(async () => {
    running = await startReceiver();
  });
  after(async () => {
    await running?.close();
    running = undefined;
  });
  const started = (): Receiver => {
    if (!running)
      throw new Error('the suite receiver starts in its before hook: use it from there on');
    return running;
  };
  return {
    get url() {
      return started().url;
    },
    get port() {
      return started().port;
    },
    get requests() {
      return started().requests;
    },
    get reply() {
      return started().reply;
    },
    set reply(reply) {
      started().reply = reply;
    },
    waitForRequests: (count, timeoutMs) => started().waitForRequests(count, timeoutMs),
  };
}
