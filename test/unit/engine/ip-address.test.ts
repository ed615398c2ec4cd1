import { describe, expect, it } from 'vitest';
import { classifyAddress, inCidr } from '../../../src/engine/ip-address.js';

describe('classifyAddress', () => {
  it.each([
    ['8.8.8.8', 'public'],
    ['1.1.1.1', 'public'],
    ['127.0.0.1', 'loopback'],
    ['127.255.1.2', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['172.32.0.1', 'public'],
    ['192.168.1.1', 'private'],
    ['169.254.1.1', 'link-local'],
    ['169.254.169.254', 'metadata'],
    ['169.254.170.2', 'metadata'],
    ['100.100.100.200', 'metadata'],
    ['192.0.0.192', 'metadata'],
    ['100.64.0.1', 'cgnat'],
    ['100.127.255.255', 'cgnat'],
    ['100.128.0.1', 'public'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['240.0.0.1', 'reserved'],
    ['198.18.0.1', 'reserved'],
    ['192.0.2.1', 'documentation'],
    ['203.0.113.9', 'documentation'],
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['[::1]', 'loopback'],
    ['fc00::1', 'unique-local'],
    ['fd12:3456::1', 'unique-local'],
    ['fd00:ec2::254', 'metadata'],
    ['fe80::1', 'link-local'],
    ['fec0::1', 'reserved'],
    ['ff02::1', 'multicast'],
    ['2001:db8::1', 'documentation'],
    ['2606:4700:4700::1111', 'public'],
    ['4000::1', 'reserved'],
    ['100::1', 'reserved'],
  ])('%s is %s', (ip, category) => {
    expect(classifyAddress(ip)?.category).toBe(category);
  });

  it.each([
    ['::ffff:127.0.0.1', 'loopback', 'IPv4-mapped'],
    ['::ffff:7f00:1', 'loopback', 'IPv4-mapped'],
    ['::ffff:a9fe:a9fe', 'metadata', 'IPv4-mapped'],
    ['::127.0.0.1', 'loopback', 'IPv4-compatible'],
    ['::ffff:10.0.0.1', 'private', 'IPv4-mapped'],
    ['64:ff9b::a00:1', 'private', 'NAT64'],
    ['64:ff9b::127.0.0.1', 'loopback', 'NAT64'],
    ['2002:7f00:1::', 'loopback', '6to4'],
    ['2002:c0a8:101::1', 'private', '6to4'],
    ['2001:0:4136:e378:8000:63bf:80ff:fffe', 'loopback', 'Teredo'],
  ])('%s embeds a %s IPv4 address (%s)', (ip, category, label) => {
    const verdict = classifyAddress(ip);
    expect(verdict?.category).toBe(category);
    expect(verdict?.description).toContain(label);
  });

  it('lets IPv6 forms of public IPv4 addresses through', () => {
    expect(classifyAddress('::ffff:8.8.8.8')?.category).toBe('public');
    expect(classifyAddress('64:ff9b::808:808')?.category).toBe('public');
    expect(classifyAddress('2002:808:808::1')?.category).toBe('public');
  });

  it('describes the embedded address', () => {
    expect(classifyAddress('::ffff:7f00:1')?.description).toBe(
      '::ffff:7f00:1 (IPv4-mapped) embeds 127.0.0.1 (loopback)',
    );
  });

  it('returns null for non-addresses, including non-canonical IPv4 spellings', () => {
    for (const text of ['example.com', '0x7f.1', '2130706433', '127.1', '']) expect(classifyAddress(text)).toBeNull();
  });
});

describe('inCidr', () => {
  it('matches IPv4 and IPv6 ranges and single addresses', () => {
    expect(inCidr('10.2.3.4', '10.0.0.0/8')).toBe(true);
    expect(inCidr('11.2.3.4', '10.0.0.0/8')).toBe(false);
    expect(inCidr('127.0.0.1', '127.0.0.1')).toBe(true);
    expect(inCidr('fd00::5', 'fd00::/8')).toBe(true);
    expect(inCidr('fe80::5', 'fd00::/8')).toBe(false);
    expect(inCidr('10.0.0.1', 'fd00::/8')).toBe(false);
  });
});
