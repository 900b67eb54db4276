// Starts a real sandbox on port 0 for a test file (ephemeral unless a dataDir is given).
import { afterAll, beforeAll } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import type { SandboxHandle, SandboxOptions } from '../../src/sandbox/index.js';

/** Starts a sandbox before the file's tests and stops it after; read `.current` inside tests. */
export function useSandbox(opts: SandboxOptions = {}): { current: SandboxHandle } {
  const ref = {} as { current: SandboxHandle };
  beforeAll(async () => {
    ref.current = await startSandbox({ port: 0, dataDir: null, ...opts });
  });
  afterAll(async () => {
    await ref.current?.close();
  });
  return ref;
}

/** POSTs a JSON body to one of the sandbox's admin routes (/__sandbox/<path>); resolves with the HTTP status. */
export async function postAdmin(sb: SandboxHandle, path: string, body: unknown): Promise<number> {
  const r = await fetch(`${sb.baseUrl}/__sandbox/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  await r.arrayBuffer();
  return r.status;
}
