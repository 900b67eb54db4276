// The "answer lost after commit" fault for any route, as a thin wrapper of the fault proxy
// (fault-proxy.ts): every request is forwarded, and for the requests `drop` picks the upstream
// acts and the client's connection is closed without an answer.
import { afterAll, beforeAll } from 'vitest';
import type { SandboxHandle } from '../../src/sandbox/index.js';
import { faultProxy } from './fault-proxy.js';

export interface DropProxy {
  baseUrl: string;
  /** How many answers were dropped so far. */
  dropped: number;
  close(): Promise<void>;
}

export async function dropProxy(upstream: string, drop: (method: string, path: string) => boolean): Promise<DropProxy> {
  const p = await faultProxy(upstream, ({ method, path }) => (drop(method, path) ? { kind: 'drop' } : undefined));
  return {
    baseUrl: p.baseUrl,
    get dropped() {
      return p.faulted;
    },
    close: () => p.close(),
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
