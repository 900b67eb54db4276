// A real HTTP proxy on 127.0.0.1 (the `proxy` package: forward requests and CONNECT tunnels), with
// what it was asked to carry: the absolute URLs of forwarded requests and the targets of CONNECTs.
import { createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { createProxy } from 'proxy';

export interface TestProxy {
  url: string;
  /** Requests forwarded (absolute URLs) and CONNECT targets (host:port), refused ones included. */
  requests: string[];
  connects: string[];
  close(): Promise<void>;
}

/** Starts a proxy; with `credentials` ("user:password") it answers 407 to anything without them, with `refuse` to everything. */
export async function startProxy(o: { credentials?: string; refuse?: boolean } = {}): Promise<TestProxy> {
  const server = createProxy(createServer());
  const requests: string[] = [];
  const connects: string[] = [];
  const sockets = new Set<Socket>();
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  server.on('request', (req: { url?: string }) => requests.push(req.url ?? ''));
  server.on('connect', (req: { url?: string }) => connects.push(req.url ?? ''));
  if (o.refuse) server.authenticate = () => false;
  else if (o.credentials !== undefined) {
    const expected = `Basic ${Buffer.from(o.credentials).toString('base64')}`;
    server.authenticate = (req) => req.headers['proxy-authorization'] === expected;
  }
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    connects,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/**
 * A port on 127.0.0.1 where nothing listens: free when checked (bound, then closed), and below the
 * ephemeral range (Linux 32768-60999, macOS 49152-65535), so that no server another test file
 * starts on port 0 meanwhile can be given it (one did: the "refused" proxy answered as a node).
 */
export async function closedPort(): Promise<number> {
  for (let tries = 0; tries < 100; tries++) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    const s = createServer();
    const free = await new Promise<boolean>((resolve) => {
      s.once('error', () => resolve(false));
      s.listen(port, '127.0.0.1', () => resolve(true));
    });
    if (free) {
      await new Promise((resolve) => s.close(resolve));
      return port;
    }
  }
  throw new Error('closedPort: no free port in 20000-31999');
}
