import assert from 'node:assert/strict';
import { test } from 'node:test';
import { addressRefusal } from '../../src/webhook-worker/address-guard.ts';
import {
  allowEntryProblem,
  isAllowedHost,
  parseAllowlist,
} from '../../src/webhook-worker/allowlist.ts';

const none = parseAllowlist([]);

test('only public unicast addresses pass by default', () => {
  const refused: [string, string][] = [
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['::1', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.16.5.4', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'link-local'],
    ['fe80::1', 'link-local'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['100.127.255.254', 'carrier-grade NAT'],
    ['fc00::1', 'unique-local'],
    ['fd00:ec2::254', 'unique-local'],
    ['0.0.0.0', 'unspecified'],
    ['::', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['ff02::1', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['240.0.0.1', 'reserved'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:169.254.169.254', 'link-local'],
    ['::ffff:10.0.0.1', 'private'],
    ['2001:db8::1', 'reserved'],
    ['4000::1', 'reserved'],
  ];
  for (const [address, kind] of refused) {
    assert.match(addressRefusal(address, none) ?? '', new RegExp(kind), address);
  }
  for (const address of [
    '93.184.216.34',
    '8.8.8.8',
    '100.63.255.255',
    '2606:4700::1111',
    '::ffff:8.8.8.8',
  ]) {
    assert.equal(addressRefusal(address, none), null, address);
  }
});

// Every IPv6 spelling of a refused IPv4 address, as `new URL()` leaves it in the hostname
// (it writes the embedded IPv4 part in hex: [::127.0.0.1] becomes [::7f00:1]).
const IPV6_FORMS_OF_REFUSED_IPV4: [string, string][] = [
  // IPv4-compatible ::a.b.c.d (any ::/96 but :: and ::1)
  ['::7f00:1', 'IPv4-compatible address carrying 127.0.0.1, and 127.0.0.1 is a loopback'],
  ['::127.0.0.1', 'IPv4-compatible address carrying 127.0.0.1, and 127.0.0.1 is a loopback'],
  ['::a9fe:a9fe', 'carrying 169.254.169.254, and 169.254.169.254 is a link-local'],
  ['::a00:1', '10.0.0.1 is a private'],
  ['::c0a8:101', '192.168.1.1 is a private'],
  ['::6440:1', '100.64.0.1 is a carrier-grade NAT'],
  ['::2', '0.0.0.2 is an unspecified'],
  ['::e000:1', '224.0.0.1 is a multicast'],
  // IPv4-mapped ::ffff:a.b.c.d
  ['::ffff:7f00:1', '127.0.0.1 is a loopback'],
  ['::ffff:a9fe:a9fe', '169.254.169.254 is a link-local'],
  // IPv4-translated ::ffff:0:a.b.c.d
  ['::ffff:0:7f00:1', 'IPv4-translated address carrying 127.0.0.1, and 127.0.0.1 is a loopback'],
  ['::ffff:0:a9fe:a9fe', '169.254.169.254 is a link-local'],
  // NAT64 well-known prefix 64:ff9b::/96
  ['64:ff9b::7f00:1', 'NAT64 address carrying 127.0.0.1, and 127.0.0.1 is a loopback'],
  ['64:ff9b::a9fe:a9fe', '169.254.169.254 is a link-local'],
  ['64:ff9b::ac10:1', '172.16.0.1 is a private'],
  // NAT64 local-use prefix 64:ff9b:1::/48, whatever it carries
  ['64:ff9b:1::7f00:1', 'local-use NAT64'],
  ['64:ff9b:1:7f00:0:1::', 'local-use NAT64'],
  ['64:ff9b:1::808:808', 'local-use NAT64'],
  // 6to4 2002:AABB:CCDD::/48
  ['2002:7f00:1::1', '6to4 address carrying 127.0.0.1, and 127.0.0.1 is a loopback'],
  ['2002:a9fe:a9fe::', '169.254.169.254 is a link-local'],
  ['2002:c0a8:101:1::5', '192.168.1.1 is a private'],
  // Teredo 2001::/32: server IPv4 in bits 32-63, client IPv4 inverted in the last 32 bits
  ['2001:0:7f00:1::f7f7:f7f7', 'Teredo address carrying 127.0.0.1, and 127.0.0.1 is a loopback'],
  ['2001:0:808:808::80ff:fffe', 'carrying 127.0.0.1, and 127.0.0.1 is a loopback'],
  ['2001:0:808:808:8000:63bf:5601:5601', '169.254.169.254 is a link-local'],
  ['2001:0:a00:1::f7f7:f7f7', '10.0.0.1 is a private'],
  // other unassigned IPv6 space ipaddr.js calls "unicast"
  ['::1:7f00:1', 'reserved'],
  ['1::7f00:1', 'reserved'],
];

test('IPv6 forms that embed a refused IPv4 address are refused', () => {
  for (const [address, reason] of IPV6_FORMS_OF_REFUSED_IPV4) {
    const refusal = addressRefusal(address, none);
    assert.ok(refusal?.includes(reason), `${address}: ${refusal}`);
    // The spelling with a dotted tail, where there is one, is refused the same way.
    const dotted = address.replace(
      /:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/,
      (_, high, low) => `:${ipv4Of(Number.parseInt(high, 16), Number.parseInt(low, 16))}`,
    );
    assert.notEqual(addressRefusal(dotted, none), null, dotted);
  }
});

function ipv4Of(high: number, low: number): string {
  return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
}

test('IPv6 forms that embed only public IPv4 addresses pass', () => {
  for (const address of [
    '::808:808', // IPv4-compatible 8.8.8.8
    '::ffff:0:808:808', // IPv4-translated
    '64:ff9b::808:808', // NAT64, as DNS64 answers on an IPv6-only network
    '64:ff9b::1.1.1.1',
    '2002:808:808::1', // 6to4
    '2001:0:808:808::f7f7:f7f7', // Teredo: server 8.8.8.8, client 8.8.8.8
  ]) {
    assert.equal(addressRefusal(address, none), null, address);
  }
  // Teredo with a public server but a loopback client, and the other way round.
  assert.match(addressRefusal('2001:0:808:808::80ff:fffe', none) ?? '', /loopback/);
  assert.match(addressRefusal('2001:0:7f00:1::f7f7:f7f7', none) ?? '', /loopback/);
});

test('an embedded IPv4 address that is allowlisted passes', () => {
  const allow = parseAllowlist(['127.0.0.0/8']);
  for (const address of ['::7f00:1', '64:ff9b::7f00:1', '2002:7f00:1::1', '::ffff:0:7f00:1'])
    assert.equal(addressRefusal(address, allow), null, address);
  assert.match(addressRefusal('::a9fe:a9fe', allow) ?? '', /link-local/);
});

test('allowlisted ranges and addresses pass, mapped IPv6 included', () => {
  const allow = parseAllowlist(['127.0.0.0/8', '::1', '10.1.0.0/16', 'hooks.internal']);
  assert.equal(addressRefusal('127.0.0.1', allow), null);
  assert.equal(addressRefusal('::ffff:127.0.0.1', allow), null);
  assert.equal(addressRefusal('::1', allow), null);
  assert.equal(addressRefusal('10.1.200.3', allow), null);
  assert.match(addressRefusal('10.2.0.1', allow) ?? '', /private/);
  assert.match(addressRefusal('169.254.169.254', allow) ?? '', /link-local/);
  assert.ok(isAllowedHost(allow, 'HOOKS.internal.'));
  assert.ok(!isAllowedHost(allow, 'other.internal'));
});

test('allowlist entries are hostnames, IPs or CIDRs', () => {
  for (const entry of [
    '127.0.0.0/8',
    '::1',
    'fd00::/8',
    '10.0.0.1',
    'localhost',
    'hooks.example.com',
  ])
    assert.equal(allowEntryProblem(entry), null, entry);
  for (const entry of ['127.0.0.0/33', '::1/129', 'not a host', 'http://x', '127.1/8', '-bad.com'])
    assert.notEqual(allowEntryProblem(entry), null, entry);
});
