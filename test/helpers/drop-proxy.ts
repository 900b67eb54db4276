// A proxy on 127.0.0.1 in front of a sandbox that forwards every request and, for the requests
// `drop` picks, lets the upstream act and then closes the client's connection without an answer
// (the "answer lost after commit" fault, for any route).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll } from 'vitest';
import type { SandboxHandle } from '../../src/sandbox/index.js';

export interface DropProxy {
  baseUrl: string;
  /** How many answers were dropped so far. */
  dropped: number;
  close(): Promise<void>;
}

export async function dropProxy(upstream: string, drop: (method: string, path: string) => boolean): Promise<DropProxy> {
  const target = new URL(upstream);
  const state = { dropped: 0 };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const up = http.request(
        { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: { ...req.headers, host: target.host } },
        (ur) => {
          const body: Buffer[] = [];
          ur.on('data', (c: Buffer) => body.push(c));
          ur.on('end', () => {
            if (drop(req.method ?? 'GET', (req.url ?? '/').split('?')[0] ?? '/')) {
              state.dropped++;
              req.socket.destroy();
              return;
            }
            res.writeHead(ur.statusCode ?? 502, ur.headers);
            res.end(Buffer.concat(body));
          });
        },
      );
      up.on('error', () => req.socket.destroy());
      up.end(Buffer.concat(chunks));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    get dropped() {
      return state.dropped;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * A proxy in front of the file's sandbox (useSandbox), started before the file's tests and closed
 * after, that drops the answers of the next `drops` `method path` requests (a test may set it).
 * Read `.current` inside tests.
 */
export function useDropProxy(
  sb: { current: SandboxHandle },
  method: string,
  path: string,
  drops = 0,
): { current: DropProxy; drops: number } {
  const ref = { drops } as { current: DropProxy; drops: number };
  beforeAll(async () => {
    ref.current = await dropProxy(sb.current.baseUrl, (m, p) => m === method && p === path && ref.drops-- > 0);
  });
  afterAll(async () => {
    await ref.current?.close();
  });
  return ref;
}
