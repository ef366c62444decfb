import assert from 'node:assert/strict';
import { test } from 'node:test';
import { addressRefusal } from '../../src/delivery/address-guard.ts';
import { allowEntryProblem, isAllowedHost, parseAllowlist } from '../../src/delivery/allowlist.ts';

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
    ['64:ff9b::7f00:1', 'special-purpose'],
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
