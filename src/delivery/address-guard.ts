import ipaddr from 'ipaddr.js';
import type { Allowlist } from './allowlist.ts';

const RANGE_NAMES: Record<string, string> = {
  unspecified: 'an unspecified',
  broadcast: 'a broadcast',
  multicast: 'a multicast',
  linkLocal: 'a link-local (cloud metadata)',
  loopback: 'a loopback',
  carrierGradeNat: 'a carrier-grade NAT',
  private: 'a private',
  uniqueLocal: 'a unique-local (private)',
  reserved: 'a reserved',
};

function inAllowedRange(allow: Allowlist, address: ipaddr.IPv4 | ipaddr.IPv6): boolean {
  return allow.ranges.some(
    ([base, bits]) => base.kind() === address.kind() && address.match(base, bits),
  );
}

/**
 * Why a webhook may not connect to this IP address, or null when it may. Only public
 * (global unicast) addresses pass, unless the operator allowlisted the address; an
 * IPv4-mapped IPv6 address is judged as the IPv4 address it carries.
 */
export function addressRefusal(address: string, allow: Allowlist): string | null {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.process(address);
  } catch {
    return `${address} is not an IP address`;
  }
  if (inAllowedRange(allow, parsed)) return null;
  const range = parsed.range();
  if (range === 'unicast') return null;
  const kind = RANGE_NAMES[range] ?? `a special-purpose (${range})`;
  return `${address} is ${kind} address`;
}

/** What a refused delivery records: the reason and how an operator would allow it. */
export class RefusedTarget extends Error {
  readonly code = 'FIELDHOUSE_REFUSED_TARGET';
  constructor(host: string, reason: string) {
    super(
      `refused to connect to ${host}: ${reason}; an operator can allow it with FIELDHOUSE_WEBHOOK_ALLOW`,
    );
  }
}
