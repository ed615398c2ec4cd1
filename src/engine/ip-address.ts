import { isIPv4, isIPv6 } from 'node:net';

/**
 * Classifies IP addresses for the outbound guard. Only `public` addresses are fetched by
 * default; every other category names why an address is refused.
 *
 * IPv6 addresses that carry an IPv4 address (mapped `::ffff:a.b.c.d`, compatible `::a.b.c.d`,
 * NAT64 `64:ff9b::/96`, 6to4 `2002::/16`, Teredo `2001::/32`) are judged by the IPv4 address
 * they lead to, because that is where the packets end up.
 */
export type AddressCategory =
  | 'public'
  | 'loopback'
  | 'private'
  | 'unique-local'
  | 'link-local'
  | 'cgnat'
  | 'multicast'
  | 'unspecified'
  | 'broadcast'
  | 'documentation'
  | 'reserved'
  | 'metadata';

export interface AddressVerdict {
  category: AddressCategory;
  /** Human-readable, e.g. `127.0.0.1 (loopback)` or `::ffff:7f00:1 embeds 127.0.0.1 (loopback)`. */
  description: string;
}

type V4Rule = readonly [base: number, bits: number, category: AddressCategory, label?: string];
type V6Rule = readonly [base: bigint, bits: number, category: AddressCategory | 'embedded-v4', label?: string];

// Most specific first: the first matching rule wins.
const V4_RULES: readonly V4Rule[] = [
  v4('169.254.169.254', 32, 'metadata', 'cloud metadata'),
  v4('169.254.170.2', 32, 'metadata', 'cloud metadata (ECS)'),
  v4('100.100.100.200', 32, 'metadata', 'cloud metadata (Alibaba)'),
  v4('192.0.0.192', 32, 'metadata', 'cloud metadata (Oracle)'),
  v4('255.255.255.255', 32, 'broadcast'),
  v4('0.0.0.0', 8, 'unspecified', 'this network / unspecified'),
  v4('10.0.0.0', 8, 'private'),
  v4('172.16.0.0', 12, 'private'),
  v4('192.168.0.0', 16, 'private'),
  v4('127.0.0.0', 8, 'loopback'),
  v4('169.254.0.0', 16, 'link-local'),
  v4('100.64.0.0', 10, 'cgnat', 'carrier-grade NAT'),
  v4('192.0.0.0', 24, 'reserved', 'IETF protocol assignments'),
  v4('192.0.2.0', 24, 'documentation'),
  v4('198.51.100.0', 24, 'documentation'),
  v4('203.0.113.0', 24, 'documentation'),
  v4('192.88.99.0', 24, 'reserved', '6to4 relay anycast'),
  v4('198.18.0.0', 15, 'reserved', 'benchmarking'),
  v4('224.0.0.0', 4, 'multicast'),
  v4('240.0.0.0', 4, 'reserved'),
];

const V6_RULES: readonly V6Rule[] = [
  v6('fd00:ec2::254', 128, 'metadata', 'cloud metadata (AWS)'),
  v6('::', 128, 'unspecified'),
  v6('::1', 128, 'loopback'),
  v6('::ffff:0:0', 96, 'embedded-v4', 'IPv4-mapped'),
  v6('::', 96, 'embedded-v4', 'IPv4-compatible'),
  v6('64:ff9b::', 96, 'embedded-v4', 'NAT64'),
  v6('64:ff9b:1::', 48, 'reserved', 'local-use NAT64'),
  v6('100::', 64, 'reserved', 'discard-only'),
  v6('2001::', 32, 'embedded-v4', 'Teredo'),
  v6('2001:2::', 48, 'reserved', 'benchmarking'),
  v6('2001:10::', 28, 'reserved', 'ORCHID'),
  v6('2001:20::', 28, 'reserved', 'ORCHIDv2'),
  v6('2001:db8::', 32, 'documentation'),
  v6('3fff::', 20, 'documentation'),
  v6('2002::', 16, 'embedded-v4', '6to4'),
  v6('fc00::', 7, 'unique-local'),
  v6('fe80::', 10, 'link-local'),
  v6('fec0::', 10, 'reserved', 'site-local'),
  v6('ff00::', 8, 'multicast'),
];

/** Global unicast space: IPv6 outside it is unallocated or special-purpose. */
const V6_GLOBAL = v6('2000::', 3, 'public');

/**
 * Classifies an IP literal (IPv4 dotted quad or IPv6, brackets allowed).
 * Returns `null` when `ip` is not an IP address.
 *
 * @example
 * classifyAddress('::ffff:127.0.0.1') // { category: 'loopback', description: '::ffff:127.0.0.1 embeds 127.0.0.1 (loopback)' }
 */
export function classifyAddress(ip: string): AddressVerdict | null {
  const bare = ip.startsWith('[') && ip.endsWith(']') ? ip.slice(1, -1) : ip;
  if (isIPv4(bare)) return classifyV4(parseV4(bare), bare);
  if (isIPv6(bare)) return classifyV6(parseV6(bare), bare);
  return null;
}

function classifyV4(value: number, text: string): AddressVerdict {
  for (const [base, bits, category, label] of V4_RULES) {
    if (matchesV4(value, base, bits)) return { category, description: `${text} (${label ?? category})` };
  }
  return { category: 'public', description: `${text} (public)` };
}

function classifyV6(value: bigint, text: string): AddressVerdict {
  for (const [base, bits, category, label] of V6_RULES) {
    if (!matchesV6(value, base, bits)) continue;
    if (category !== 'embedded-v4') return { category, description: `${text} (${label ?? category})` };
    const embedded = embeddedV4(value, label ?? '');
    const inner = classifyV4(embedded, formatV4(embedded));
    if (inner.category === 'public') return { category: 'public', description: `${text} (${label}, public)` };
    return { category: inner.category, description: `${text} (${label}) embeds ${inner.description}` };
  }
  if (!matchesV6(value, V6_GLOBAL[0], V6_GLOBAL[1])) return { category: 'reserved', description: `${text} (reserved)` };
  return { category: 'public', description: `${text} (public)` };
}

/** The IPv4 address packets to an embedding IPv6 address end up at. */
function embeddedV4(value: bigint, kind: string): number {
  if (kind === '6to4') return Number((value >> 80n) & 0xffffffffn);
  // Teredo stores the client address inverted in the low 32 bits.
  if (kind === 'Teredo') return Number(~value & 0xffffffffn) >>> 0;
  return Number(value & 0xffffffffn);
}

function v4(text: string, bits: number, category: AddressCategory, label?: string): V4Rule {
  return [parseV4(text), bits, category, label];
}

function v6(text: string, bits: number, category: AddressCategory | 'embedded-v4', label?: string): V6Rule {
  return [parseV6(text), bits, category, label];
}

function matchesV4(value: number, base: number, bits: number): boolean {
  if (bits === 0) return true;
  const shift = 32 - bits;
  return value >>> shift === base >>> shift;
}

function matchesV6(value: bigint, base: bigint, bits: number): boolean {
  const shift = BigInt(128 - bits);
  return value >> shift === base >> shift;
}

/** Dotted quad to an unsigned 32-bit number (input already validated by `isIPv4`). */
export function parseV4(text: string): number {
  return text.split('.').reduce((acc, part) => acc * 256 + Number(part), 0) >>> 0;
}

function formatV4(value: number): string {
  return [value >>> 24, (value >>> 16) & 255, (value >>> 8) & 255, value & 255].join('.');
}

/** IPv6 text (validated by `isIPv6`; `::` compression and a trailing dotted quad allowed) to 128 bits. */
export function parseV6(text: string): bigint {
  let groups = text.split('%')[0] ?? '';
  const quad = /(\d+\.\d+\.\d+\.\d+)$/.exec(groups);
  if (quad?.[1]) {
    const n = parseV4(quad[1]);
    groups = `${groups.slice(0, -quad[1].length)}${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`;
  }
  const [head = '', tail] = groups.split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === undefined || tail === '' ? [] : tail.split(':');
  const fill = tail === undefined ? [] : new Array<string>(8 - left.length - right.length).fill('0');
  return [...left, ...fill, ...right].reduce((acc, g) => (acc << 16n) | BigInt(parseInt(g, 16)), 0n);
}

/** True when `ip` (IPv4 or IPv6) lies in `cidr` (`10.0.0.0/8`, `fd00::/8`, or a bare address). */
export function inCidr(ip: string, cidr: string): boolean {
  const [range = '', bitsText] = cidr.split('/');
  if (isIPv4(ip) && isIPv4(range)) return matchesV4(parseV4(ip), parseV4(range), Number(bitsText ?? 32));
  if (isIPv6(ip) && isIPv6(range)) return matchesV6(parseV6(ip), parseV6(range), Number(bitsText ?? 128));
  return false;
}
