import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

type Range = [ipaddr.IPv4 | ipaddr.IPv6, number];

/** Targets an operator lets webhooks reach although the address guard would refuse them. */
export type Allowlist = { hosts: ReadonlySet<string>; ranges: readonly Range[] };

const HOSTNAME = /^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/;

function normalizeHost(host: string): string {
  return host.toLowerCase().replace(/\.$/, '');
}

function rangeOf(entry: string): Range | null {
  if (entry.includes('/')) {
    const [address] = entry.split('/');
    // ipaddr.js also takes "127.1" or "0x7f.0.0.1"; only the usual notations are meant.
    return address && isIP(address) ? ipaddr.parseCIDR(entry) : null;
  }
  if (!isIP(entry)) return null;
  const address = ipaddr.parse(entry);
  return [address, address.kind() === 'ipv4' ? 32 : 128];
}

/** Why an allowlist entry is unusable, or null when it is a hostname, an IP or a CIDR. */
export function allowEntryProblem(entry: string): string | null {
  if (entry.includes('/') || isIP(entry)) {
    try {
      if (rangeOf(entry)) return null;
    } catch {
      // falls through to the message below
    }
    return 'entries must be hostnames, IP addresses or CIDR ranges such as 127.0.0.0/8';
  }
  return HOSTNAME.test(normalizeHost(entry))
    ? null
    : 'entries must be hostnames, IP addresses or CIDR ranges such as 127.0.0.0/8';
}

/** Builds the allowlist from entries already checked by allowEntryProblem (the config does). */
export function parseAllowlist(entries: readonly string[]): Allowlist {
  const hosts = new Set<string>();
  const ranges: Range[] = [];
  for (const entry of entries) {
    const range = rangeOf(entry);
    if (range) ranges.push(range);
    else hosts.add(normalizeHost(entry));
  }
  return { hosts, ranges };
}

export function isAllowedHost(allow: Allowlist, host: string): boolean {
  return allow.hosts.has(normalizeHost(host));
}
