// Shared set-up for the conformance tests that drive the sandbox with the official TS SDK
// (@limitless-exchange/sdk), the way a user's bot would.
//
// The SDK does not pace itself (wire-facts §5: "No SDK throttles requests"), while the exchange
// allows one request per 300 ms per API token. A user's bot therefore wraps the SDK's transport
// with a pacer; `sdkClient` does the same through the SDK's own extension point
// (`Client.fromHttpClient`), so the requests, signatures and bodies stay exactly the SDK's.
import { Client, HttpClient } from '@limitless-exchange/sdk';
import type { HttpClientConfig } from '@limitless-exchange/sdk';
import type { ReadyAccount, SandboxHandle } from '../../src/sandbox/index.js';

/** Gap between two requests on one credential: the exchange's 300 ms plus a margin. */
const GAP_MS = 330;
const nextStart = new Map<string, number>();

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Waits for this credential's turn (requests on one credential start ≥ GAP_MS apart). */
async function turn(key: string): Promise<void> {
  const now = Date.now();
  const at = Math.max(now, nextStart.get(key) ?? 0);
  nextStart.set(key, at + GAP_MS);
  if (at > now) await sleep(at - now);
}

const METHODS = [
  'get',
  'getWithIdentity',
  'getRaw',
  'post',
  'postWithIdentity',
  'postWithHeaders',
  'patch',
  'delete',
  'deleteWithIdentity',
] as const;

/** The SDK's HttpClient with every request method paced per credential (the HMAC is signed after the wait). */
export function pacedHttpClient(config: HttpClientConfig): HttpClient {
  const http = new HttpClient(config);
  const key = config.hmacCredentials?.tokenId ?? config.apiKey ?? 'public';
  const proto = HttpClient.prototype as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
  const self = http as unknown as Record<string, unknown>;
  for (const name of METHODS) {
    const original = proto[name];
    if (!original) continue;
    self[name] = async (...args: unknown[]) => {
      await turn(key);
      return original.apply(http, args);
    };
  }
  return http;
}

export function account(sb: SandboxHandle, name: string): ReadyAccount {
  const a = sb.info.accounts.find((x) => x.name === name);
  if (!a) throw new Error(`no seeded account ${name}`);
  return a;
}

/** A root SDK client for a seeded account: HMAC (default) or the legacy X-API-Key. */
export function sdkClient(sb: SandboxHandle, name: string, auth: 'hmac' | 'apiKey' = 'hmac'): Client {
  const a = account(sb, name);
  const creds: HttpClientConfig =
    auth === 'hmac' ? { hmacCredentials: { tokenId: a.token.tokenId, secret: a.token.secret } } : { apiKey: a.apiKey };
  return Client.fromHttpClient(pacedHttpClient({ baseURL: sb.baseUrl, timeout: 10_000, ...creds }));
}

/** A client with no credentials (public market data). */
export function publicClient(sb: SandboxHandle): Client {
  return new Client({ baseURL: sb.baseUrl, timeout: 10_000 });
}

/** Calls `fn` expecting the SDK to throw; returns the error (fails the test when nothing is thrown). */
export async function rejection(fn: () => Promise<unknown>): Promise<Error & { status?: number; data?: unknown }> {
  try {
    await fn();
  } catch (e) {
    return e as Error & { status?: number; data?: unknown };
  }
  throw new Error('expected the SDK call to throw, and it returned');
}

/** Polls `fn` (sync or async) until it gives a truthy value (or times out). */
export async function eventually<T>(fn: () => T | undefined | null | false | Promise<T | undefined | null | false>, ms = 3000): Promise<T> {
  const t0 = Date.now();
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() - t0 > ms) throw new Error('timed out waiting for a condition');
    await sleep(10);
  }
}
