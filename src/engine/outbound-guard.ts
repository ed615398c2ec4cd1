import { promises as dns, type LookupAddress, type LookupOptions } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { isIP } from 'node:net';
import type { AppError } from '../errors.js';
import { errors } from '../errors.js';
import { classifyAddress, inCidr, type AddressVerdict } from './ip-address.js';

/**
 * The outbound network policy every request the service makes goes through: engines,
 * webhooks, schedules, monitors, browsers. Operators set it with OUTBOUND_ALLOW_PRIVATE and
 * OUTBOUND_DENY_DOMAINS (`AppConfig.outbound`).
 */
export interface OutboundPolicy {
  /** Allow loopback, private and other non-public addresses (development and tests). Metadata stays refused. */
  allowPrivate: boolean;
  /** Domains never fetched, subdomains included (`example.com` also refuses `a.example.com`). */
  denyDomains: string[];
  /**
   * Addresses reachable although non-public: `10.1.2.3`, `10.0.0.0/8`, `fd00::/8`, `127.0.0.1:8080`,
   * `[::1]:8080`. A port narrows the exemption to that port. Lets an operator (or a test) open
   * exactly one internal service instead of every private network.
   */
  allowAddresses?: string[];
}

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a hostname to every address it has. Injectable: DNS is the outer edge tests replace. */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export interface OutboundGuardOptions {
  /** Default: the operating system's resolver (`dns.lookup`, all addresses), like `net.connect`. */
  resolve?: Resolver;
}

/**
 * Checks targets by name and by address. The authoritative check is `lookupFor`/`lookup`: it
 * runs inside `net.connect`, so the address checked is the address connected to (no window for
 * DNS rebinding). `checkUrl` and `assertAllowed` are earlier checks for nicer errors and for
 * callers that cannot hook the connection (a browser's request interception, a proxy).
 *
 * @example
 * const guard = createOutboundGuard(config.outbound);
 * await guard.assertAllowed('http://example.com/'); // throws AppError 403 blacklisted_domain when refused
 * http.get(url, { lookup: guard.lookup });            // the connect-time check
 */
export interface OutboundGuard {
  readonly policy: Readonly<OutboundPolicy>;
  /** Sync checks needing no DNS: scheme, deny list, metadata host names, IP-literal hosts. Returns the parsed URL. */
  checkUrl(url: string | URL): URL;
  /** Throws 403 `blacklisted_domain` when `address` (an IP) may not be connected to on `port`. */
  checkAddress(address: string, port: number | null, host?: string): void;
  /** `checkUrl`, then resolves the host and checks every address. Returns the addresses. */
  assertAllowed(url: string | URL): Promise<ResolvedAddress[]>;
  /** A `net.connect`-compatible lookup that refuses forbidden addresses (port exemptions not applied). */
  readonly lookup: LookupFunction;
  /** Same as `lookup`, with port-narrowed exemptions applied for a connection to `port`. */
  lookupFor(port: number | null): LookupFunction;
}

/** Host names of cloud metadata services, refused whatever they resolve to. */
const METADATA_HOSTS = new Set([
  'metadata',
  'metadata.google.internal',
  'metadata.goog',
  'instance-data',
  'instance-data.ec2.internal',
  'metadata.tencentyun.com',
]);

interface Exemption {
  cidr: string;
  port: number | null;
}

export function createOutboundGuard(policy: OutboundPolicy, options: OutboundGuardOptions = {}): OutboundGuard {
  const resolve = options.resolve ?? systemResolver;
  const deny = policy.denyDomains.map(normalizeHost).filter(Boolean);
  const exemptions = (policy.allowAddresses ?? []).map(parseExemption);

  const checkAddress = (address: string, port: number | null, host?: string): void => {
    const verdict = classifyAddress(address);
    if (verdict === null) throw errors.blocked(`${address} is not an IP address`);
    if (verdict.category === 'public') return;
    if (exemptions.some((e) => (e.port === null || e.port === port) && inCidr(address, e.cidr))) return;
    if (policy.allowPrivate && verdict.category !== 'metadata') return;
    throw refusal(host, address, verdict);
  };

  const checkUrl = (input: string | URL): URL => {
    const url = typeof input === 'string' ? safeUrl(input) : input;
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw errors.blocked(`${url.protocol.slice(0, -1)}: URLs are not fetched (only http and https): ${url.href}`);
    }
    const host = normalizeHost(url.hostname);
    const denied = deny.find((d) => host === d || host.endsWith(`.${d}`));
    if (denied) throw errors.blocked(`${host} is on the operator's deny list (${denied})`);
    if (METADATA_HOSTS.has(host)) throw errors.blocked(`${host} is a cloud metadata host name`);
    if (isIP(host)) checkAddress(host, portOf(url), url.hostname);
    return url;
  };

  const lookupFor = (port: number | null): LookupFunction =>
    function guardedLookup(hostname, lookupOptions, callback) {
      const opts: LookupOptions = typeof lookupOptions === 'object' && lookupOptions !== null ? lookupOptions : {};
      resolveChecked(hostname, port, opts.family).then(
        (addresses) => {
          const first = addresses[0]!;
          if (opts.all) callback(null, addresses as LookupAddress[]);
          else callback(null, first.address, first.family);
        },
        (err: unknown) => callback(err as NodeJS.ErrnoException, ''),
      );
    };

  async function resolveChecked(hostname: string, port: number | null, family?: unknown): Promise<ResolvedAddress[]> {
    const host = normalizeHost(hostname);
    const literal = isIP(host);
    let addresses = literal ? [{ address: host, family: literal as 4 | 6 }] : await resolve(host);
    if (family === 4 || family === 6 || family === 'IPv4' || family === 'IPv6') {
      const want = family === 4 || family === 'IPv4' ? 4 : 6;
      addresses = addresses.filter((a) => a.family === want);
    }
    if (addresses.length === 0) throw notFound(hostname);
    // Every address must pass: the connection may use any of them (happy eyeballs).
    for (const a of addresses) checkAddress(a.address, port, hostname);
    return addresses;
  }

  return {
    policy: Object.freeze({ ...policy }),
    checkUrl,
    checkAddress,
    async assertAllowed(input) {
      const url = checkUrl(input);
      return resolveChecked(url.hostname, portOf(url));
    },
    lookup: lookupFor(null),
    lookupFor,
  };
}

/** The system resolver, returning every address (IPv4 and IPv6) in the resolver's order. */
export const systemResolver: Resolver = async (hostname) => {
  const found = await dns.lookup(hostname, { all: true, verbatim: true });
  return found.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
};

function refusal(host: string | undefined, address: string, verdict: AddressVerdict): AppError {
  // The operator's way out, named where a developer trying a local page first meets the refusal.
  const why =
    verdict.category === 'metadata'
      ? 'cloud metadata endpoints are never fetched'
      : `${verdict.category} addresses are not fetched (the operator can allow them with OUTBOUND_ALLOW_PRIVATE=true ` +
        'in development, or one internal service with OUTBOUND_ALLOW_ADDRESSES)';
  const subject =
    host && normalizeHost(host) !== address ? `${host} resolves to ${verdict.description}` : verdict.description;
  return errors.blocked(`${subject}: ${why}`);
}

function notFound(hostname: string): NodeJS.ErrnoException {
  const err: NodeJS.ErrnoException = new Error(`getaddrinfo ENOTFOUND ${hostname}`);
  err.code = 'ENOTFOUND';
  return err;
}

function safeUrl(text: string): URL {
  try {
    return new URL(text);
  } catch {
    throw errors.blocked(`${JSON.stringify(text.slice(0, 200))} is not an absolute URL`);
  }
}

/** Lower-case host without brackets or trailing dot, so `Example.COM.` and `example.com` match. */
export function normalizeHost(host: string): string {
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  return bare.toLowerCase().replace(/\.+$/, '');
}

function portOf(url: URL): number {
  if (url.port !== '') return Number(url.port);
  return url.protocol === 'https:' ? 443 : 80;
}

function parseExemption(entry: string): Exemption {
  const text = entry.trim();
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(text);
  const v4Port = /^(\d+\.\d+\.\d+\.\d+):(\d+)$/.exec(text);
  const [cidr, port] = bracketed ? [bracketed[1], bracketed[2]] : v4Port ? [v4Port[1], v4Port[2]] : [text, undefined];
  const address = cidr?.split('/')[0] ?? '';
  if (!isIP(address))
    throw new Error(`outbound allowAddresses: ${JSON.stringify(entry)} is not an IP, CIDR or IP:port`);
  return { cidr: cidr!, port: port === undefined ? null : Number(port) };
}
