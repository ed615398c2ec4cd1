import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOutboundGuard } from '../../../src/engine/outbound-guard.js';
import { parseTargetUrl } from '../../../src/engine/target-url.js';
import { AppError } from '../../../src/errors.js';
import { createTestResolver, expectFailure } from '../../contract/engine.contract.js';

const dns = createTestResolver({
  'public.test': [['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946']],
  'loopback.test': [['127.0.0.1']],
  'v6-private.test': [['fd00::1']],
  'metadata.test': [['169.254.169.254']],
});
const strict = createOutboundGuard({ allowPrivate: false, denyDomains: ['Denied.Example'] }, { resolve: dns });
const permissive = createOutboundGuard({ allowPrivate: true, denyDomains: [] }, { resolve: dns });

function sync(fn: () => unknown): AppError {
  try {
    fn();
  } catch (err) {
    if (err instanceof AppError) return err;
    throw err;
  }
  throw new Error('expected an AppError');
}

describe('parseTargetUrl', () => {
  it('accepts absolute http and https URLs', () => {
    expect(parseTargetUrl(' https://example.com/a?b=1 ', 'url').href).toBe('https://example.com/a?b=1');
    expect(parseTargetUrl('http://127.1/', 'url').hostname).toBe('127.0.0.1');
  });

  it.each([
    ['/relative/path', /not an absolute URL/],
    ['example.com', /not an absolute URL/],
    ['file:///etc/passwd', /scheme "file" is not allowed/],
    ['javascript:alert(1)', /scheme "javascript" is not allowed/],
    ['ftp://example.com/x', /scheme "ftp" is not allowed/],
    ['', /must be an absolute http\(s\) URL string/],
    [42, /must be an absolute http\(s\) URL string/],
    [`https://example.com/${'a'.repeat(9000)}`, /longer than 8192/],
  ])('refuses %s with a 400 naming the field', (input, detail) => {
    const err = sync(() => parseTargetUrl(input, 'items[3].url'));
    expect(err).toMatchObject({ status: 400, code: 'validation_error' });
    expect(err.detail).toMatch(/^items\[3\]\.url: /);
    expect(err.detail).toMatch(detail);
  });
});

describe('checkUrl (no DNS)', () => {
  it.each([
    ['http://[::1]/', /::1 \(loopback\)/],
    ['http://169.254.169.254/latest/meta-data/', /cloud metadata/],
    ['http://[fd00:ec2::254]/', /cloud metadata/],
    ['http://100.100.100.200/', /cloud metadata/],
    ['http://metadata.google.internal/computeMetadata/v1/', /cloud metadata host name/],
    ['http://2130706433/', /127\.0\.0\.1 \(loopback\)/],
    ['http://0177.0.0.1/', /127\.0\.0\.1 \(loopback\)/],
    ['http://0x7f.1/', /127\.0\.0\.1 \(loopback\)/],
    ['http://127.1/', /127\.0\.0\.1 \(loopback\)/],
    ['http://[::ffff:127.0.0.1]/', /embeds 127\.0\.0\.1 \(loopback\)/],
    ['http://[::ffff:169.254.169.254]/', /metadata/],
    ['http://10.0.0.1/', /private/],
    ['http://100.64.1.1/', /carrier-grade NAT/],
    ['http://0.0.0.0/', /unspecified/],
    ['http://224.0.0.1/', /multicast/],
    ['http://255.255.255.255/', /broadcast/],
    ['http://[fe80::1]/', /link-local/],
    ['http://[64:ff9b::7f00:1]/', /NAT64\) embeds 127\.0\.0\.1/],
    ['http://denied.example/', /deny list/],
    ['http://a.b.DENIED.example./', /deny list/],
    ['ftp://example.com/', /only http and https/],
  ])('refuses %s with 403 blacklisted_domain', (url, detail) => {
    const err = sync(() => strict.checkUrl(url));
    expect(err).toMatchObject({ status: 403, code: 'blacklisted_domain' });
    expect(err.detail).toMatch(detail);
  });

  it('allows public addresses and names, and does not treat lookalike domains as denied', () => {
    expect(strict.checkUrl('https://8.8.8.8/').hostname).toBe('8.8.8.8');
    expect(strict.checkUrl('https://notdenied.example/').hostname).toBe('notdenied.example');
  });

  it('with allowPrivate, allows private addresses but still refuses metadata and denied domains', () => {
    const open = createOutboundGuard({ allowPrivate: true, denyDomains: ['denied.example'] });
    expect(open.checkUrl('http://127.0.0.1:8080/').port).toBe('8080');
    expect(open.checkUrl('http://[::1]/').hostname).toBe('[::1]');
    expect(sync(() => open.checkUrl('http://169.254.169.254/')).status).toBe(403);
    expect(sync(() => open.checkUrl('http://metadata.google.internal/')).status).toBe(403);
    expect(sync(() => open.checkUrl('http://x.denied.example/')).status).toBe(403);
  });

  it('allowAddresses opens exactly the listed address, range or port', () => {
    const guard = createOutboundGuard({
      allowPrivate: false,
      denyDomains: [],
      allowAddresses: ['127.0.0.1:8080', '10.0.0.0/8', '[::1]:9000', '169.254.169.254'],
    });
    expect(() => guard.checkUrl('http://127.0.0.1:8080/')).not.toThrow();
    expect(() => guard.checkUrl('http://10.9.8.7/')).not.toThrow();
    expect(() => guard.checkUrl('http://[::1]:9000/')).not.toThrow();
    expect(() => guard.checkUrl('http://169.254.169.254/')).not.toThrow();
    expect(sync(() => guard.checkUrl('http://127.0.0.1:8081/')).status).toBe(403);
    expect(sync(() => guard.checkUrl('http://127.0.0.2:8080/')).status).toBe(403);
    expect(sync(() => guard.checkUrl('http://[::1]:9001/')).status).toBe(403);
  });

  it('rejects malformed allowAddresses entries at creation', () => {
    expect(() => createOutboundGuard({ allowPrivate: false, denyDomains: [], allowAddresses: ['intranet'] })).toThrow(
      /not an IP, CIDR or IP:port/,
    );
  });
});

describe('assertAllowed (resolves)', () => {
  it('returns every address of an allowed name', async () => {
    await expect(strict.assertAllowed('https://public.test/')).resolves.toHaveLength(2);
  });

  it.each([
    ['http://loopback.test/', /loopback\.test resolves to 127\.0\.0\.1 \(loopback\)/],
    ['http://v6-private.test/', /v6-private\.test resolves to fd00::1 \(unique-local\)/],
    ['http://metadata.test/', /metadata\.test resolves to 169\.254\.169\.254 \(cloud metadata\)/],
  ])('refuses %s', async (url, detail) => {
    const err = await expectFailure(strict.assertAllowed(url));
    expect(err).toMatchObject({ status: 403, code: 'blacklisted_domain' });
    expect(err.detail).toMatch(detail);
  });

  it('still refuses metadata names with allowPrivate', async () => {
    await expect(permissive.assertAllowed('http://loopback.test/')).resolves.toHaveLength(1);
    await expect(expectFailure(permissive.assertAllowed('http://metadata.test/'))).resolves.toMatchObject({
      status: 403,
    });
  });

  it('passes resolver failures through', async () => {
    await expect(strict.assertAllowed('http://nxdomain.test/')).rejects.toMatchObject({ code: 'ENOTFOUND' });
  });
});

describe('lookup (connect time, with net.connect)', () => {
  let server: net.Server;
  let port: number;
  let connections = 0;

  beforeAll(async () => {
    server = net.createServer((socket) => {
      connections++;
      socket.end('hello');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as net.AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const connect = (host: string, lookup: net.LookupFunction, family?: number) =>
    new Promise<string>((resolve, reject) => {
      const socket = net.connect({ host, port, lookup, ...(family ? { family } : {}) });
      let data = '';
      socket.on('data', (chunk) => (data += chunk.toString()));
      socket.on('end', () => resolve(data));
      socket.on('error', reject);
    });

  it('refuses before any packet is sent', async () => {
    const before = connections;
    const err = await connect('loopback.test', strict.lookup).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).detail).toMatch(/loopback\.test resolves to 127\.0\.0\.1/);
    expect(connections).toBe(before);
  });

  it('connects to the address it checked (single-address and all-addresses forms)', async () => {
    const guard = createOutboundGuard(
      { allowPrivate: false, denyDomains: [], allowAddresses: [`127.0.0.1:${port}`] },
      { resolve: dns },
    );
    await expect(connect('loopback.test', guard.lookupFor(port))).resolves.toBe('hello');
    await expect(connect('loopback.test', guard.lookupFor(port), 4)).resolves.toBe('hello');
    // A port-narrowed exemption does not apply when the port is unknown.
    await expect(connect('loopback.test', guard.lookup)).rejects.toBeInstanceOf(AppError);
  });
});
