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

function ipv4(high: number, low: number): ipaddr.IPv4 {
  return new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
}

type Carried = { form: string; addresses: ipaddr.IPv4[] };

/**
 * The IPv4 addresses an IPv6 address hands traffic to, by the transition mechanism its
 * prefix names.
 * A host or network that implements the mechanism (a sit tunnel, a 6to4 or Teredo relay,
 * a NAT64 gateway) delivers to that IPv4 address, so `[::127.0.0.1]` would reach loopback.
 */
function carriedIPv4(address: ipaddr.IPv6): Carried | null {
  const [w0 = 0, w1 = 0, w2 = 0, w3 = 0, w4 = 0, w5 = 0, w6 = 0, w7 = 0] = address.parts;
  const last32 = ipv4(w6, w7);
  const upper64Zero = w0 === 0 && w1 === 0 && w2 === 0 && w3 === 0;
  // NAT64 well-known prefix 64:ff9b::/96 (RFC 6052): the IPv4 address is the last 32 bits.
  if (w0 === 0x64 && w1 === 0xff9b && w2 === 0 && w3 === 0 && w4 === 0 && w5 === 0) {
    return { form: 'a NAT64', addresses: [last32] };
  }
  // IPv4-mapped ::ffff:a.b.c.d (RFC 4291): the socket connects over IPv4.
  if (upper64Zero && w4 === 0 && w5 === 0xffff) {
    return { form: 'an IPv4-mapped', addresses: [last32] };
  }
  // IPv4-translated ::ffff:0:a.b.c.d (RFC 2765, SIIT).
  if (upper64Zero && w4 === 0xffff && w5 === 0) {
    return { form: 'an IPv4-translated', addresses: [last32] };
  }
  // IPv4-compatible ::a.b.c.d (deprecated by RFC 4291): all of ::/96 but :: and ::1,
  // which range() already names.
  if (upper64Zero && w4 === 0 && w5 === 0 && (w6 !== 0 || w7 > 1)) {
    return { form: 'an IPv4-compatible', addresses: [last32] };
  }
  // 6to4 2002:AABB:CCDD::/48 (RFC 3056): the relay tunnels to AA.BB.CC.DD.
  if (w0 === 0x2002) return { form: 'a 6to4', addresses: [ipv4(w1, w2)] };
  // Teredo 2001::/32 (RFC 4380): the server's IPv4 address is bits 32-63 and the client's
  // (NAT-mapped) IPv4 address is the last 32 bits, inverted.
  if (w0 === 0x2001 && w1 === 0) {
    return { form: 'a Teredo', addresses: [ipv4(w2, w3), ipv4(w6 ^ 0xffff, w7 ^ 0xffff)] };
  }
  return null;
}

/**
 * ipaddr.js reads `::a.b.c.d` as IPv4-mapped, yet it is IPv4-compatible (and libuv
 * prints IPv4-compatible DNS answers that way): the hex spelling is read as written.
 */
function hexTail(address: string): string {
  const dotted = /^::(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(address);
  if (!dotted) return address;
  const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
  if ([a, b, c, d].some((octet) => octet > 255)) return address;
  return `::${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
}

// Local-use NAT64 (RFC 8215) lets each network choose where the IPv4 address sits, so
// what it carries cannot be read: it is never globally reachable anyway.
const LOCAL_NAT64 = ipaddr.parseCIDR('64:ff9b:1::/48');
// Every globally routable IPv6 address is in 2000::/3; outside it, ipaddr.js calls much of
// the unassigned space "unicast" (e.g. ::1:7f00:1, 4000::1).
const GLOBAL_UNICAST = ipaddr.parseCIDR('2000::/3');

/**
 * Why a webhook may not connect to this IP address, or null when it may. Only public
 * (global unicast) addresses pass, unless the operator allowlisted the address.
 * An IPv6 address that embeds an IPv4 address (IPv4-mapped, IPv4-translated,
 * IPv4-compatible, NAT64, 6to4, Teredo) is judged as the IPv4 address(es) it carries:
 * it passes when they are public (DNS64 answers 64:ff9b::/96 addresses for public IPv4
 * hosts on IPv6-only networks, and those must keep working), and is refused when any is
 * refused, a 6to4 or Teredo address included.
 */
export function addressRefusal(address: string, allow: Allowlist): string | null {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.parse(hexTail(address));
  } catch {
    return `${address} is not an IP address`;
  }
  if (inAllowedRange(allow, parsed)) return null;
  if (parsed.kind() === 'ipv6') {
    const v6 = parsed as ipaddr.IPv6;
    if (v6.match(LOCAL_NAT64)) {
      return `${address} is a local-use NAT64 address, which may translate to any IPv4 address`;
    }
    const carried = carriedIPv4(v6);
    if (carried) {
      for (const v4 of carried.addresses) {
        const reason = addressRefusal(v4.toString(), allow);
        if (reason) return `${address} is ${carried.form} address carrying ${v4}, and ${reason}`;
      }
      return null;
    }
  }
  const range = parsed.range();
  if (range === 'unicast') {
    if (parsed.kind() === 'ipv4' || parsed.match(GLOBAL_UNICAST)) return null;
    return `${address} is a reserved address (outside 2000::/3)`;
  }
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
