import net from 'node:net';

export interface TcpProxy {
  port: number;
  /** Drops every connection and refuses new ones for `ms` (a database outage, as its clients see it). */
  outage(ms: number): Promise<void>;
  /** New connections go to `target` from now on (a server replaced by another on a new port). */
  retarget(target: { host: string; port: number }): void;
  close(): Promise<void>;
}

/** A TCP forwarder to `target`, so a test can take a server away from some clients only. */
export async function startTcpProxy(initial: { host: string; port: number }): Promise<TcpProxy> {
  let target = initial;
  const sockets = new Set<net.Socket>();
  let down = false;
  const server = net.createServer((client) => {
    if (down) {
      client.destroy();
      return;
    }
    const upstream = net.connect(target.port, target.host);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => undefined);
    }
    client.pipe(upstream).pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    async outage(ms) {
      down = true;
      for (const s of sockets) s.destroy();
      await new Promise((r) => setTimeout(r, ms));
      down = false;
    },
    retarget(next) {
      target = next;
    },
    close: () =>
      new Promise((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
