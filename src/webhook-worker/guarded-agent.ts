import { lookup } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { Agent, buildConnector } from 'undici';
import { addressRefusal, RefusedTarget } from './address-guard.ts';
import { type Allowlist, isAllowedHost } from './allowlist.ts';

/**
 * Resolves like dns.lookup, but fails when any address the name resolves to is refused:
 * the check runs on the very addresses the socket then connects to, so a DNS answer
 * that changes between a check and the connect (rebinding) cannot slip through.
 */
function guardedLookup(allow: Allowlist): LookupFunction {
  return (hostname, options, callback) => {
    lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, '');
      for (const { address } of addresses) {
        const reason = addressRefusal(address, allow);
        if (reason) return callback(new RefusedTarget(hostname, reason), '');
      }
      const first = addresses[0];
      if (options.all) return callback(null, addresses);
      if (!first) return callback(new Error(`${hostname} resolved to no address`), '');
      callback(null, first.address, first.family);
    });
  };
}

/**
 * The HTTP agent deliveries go through: every new connection is checked at connect
 * time (IP literals here, names through the lookup above), and must be established
 * within the connect timeout (DNS, TCP and TLS together).
 */
export function createGuardedAgent(allow: Allowlist, connectTimeoutMs: number): Agent {
  const guarded = buildConnector({ timeout: connectTimeoutMs, lookup: guardedLookup(allow) });
  const allowed = buildConnector({ timeout: connectTimeoutMs });
  return new Agent({
    connect: (options, callback) => {
      const host = options.hostname.replace(/^\[(.*)\]$/, '$1');
      if (isAllowedHost(allow, host)) return allowed(options, callback);
      if (isIP(host)) {
        const reason = addressRefusal(host, allow);
        if (reason) return callback(new RefusedTarget(host, reason), null);
      }
      guarded(options, callback);
    },
  });
}
