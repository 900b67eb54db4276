// A JSON-RPC proxy of our own on 127.0.0.1 in front of a chain node: it forwards every request,
// and while a hold is set it keeps the requests of the held methods (not yet forwarded) until
// release(), so a test decides what the chain has become by the time the node answers them.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RpcHoldProxy {
  url: string;
  /** From now on, requests calling one of `methods` wait (not forwarded) until release(). */
  hold(...methods: string[]): void;
  /** How many requests are waiting. */
  readonly held: number;
  /** Forwards the waiting requests and holds no more. */
  release(): void;
  close(): Promise<void>;
}

/** The JSON-RPC methods a request body calls (one call or a batch); [] when it is not JSON-RPC. */
function methodsOf(body: string): string[] {
  try {
    const j: unknown = JSON.parse(body);
    return (Array.isArray(j) ? j : [j]).flatMap((c: unknown) =>
      typeof c === 'object' && c !== null && 'method' in c && typeof c.method === 'string' ? [c.method] : [],
    );
  } catch {
    return [];
  }
}

export async function rpcHoldProxy(upstream: string): Promise<RpcHoldProxy> {
  let holding = new Set<string>();
  let waiting: (() => void)[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const forward = (): void => {
        fetch(upstream, { method: 'POST', headers: { 'content-type': 'application/json' }, body }).then(
          async (r) => res.writeHead(r.status, { 'content-type': 'application/json' }).end(await r.text()),
          () => res.destroy(),
        );
      };
      if (methodsOf(body).some((m) => holding.has(m))) waiting.push(forward);
      else forward();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    hold: (...methods) => {
      holding = new Set(methods);
    },
    get held() {
      return waiting.length;
    },
    release: () => {
      holding = new Set();
      const go = waiting;
      waiting = [];
      for (const f of go) f();
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
