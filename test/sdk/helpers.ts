// Shared set-up for the conformance tests that drive the sandbox with the official TS SDK
// (@limitless-exchange/sdk), the way a user's bot would.
//
// The SDK does not pace itself (wire-facts §5: "No SDK throttles requests"), while the exchange
// allows 2 requests in flight and one start per 300 ms per API token. A user's bot therefore
// wraps the SDK's transport with a pacer; `sdkClient` does the same through the SDK's own
// extension point (`Client.fromHttpClient`), so the requests, signatures and bodies stay exactly
// the SDK's. The pacer is the suite's one (test/helpers/pacer.ts): it spaces the starts the way
// the sandbox measures them and retries the SDK's RateLimitError after the wait it names.
import { Client, HttpClient, RateLimitError } from '@limitless-exchange/sdk';
import type { HttpClientConfig } from '@limitless-exchange/sdk';
import type { ReadyAccount, SandboxHandle } from '../../src/sandbox/index.js';
import { laneOf, paced, retryAfterBody } from '../helpers/pacer.js';
import type { Outcome } from '../helpers/pacer.js';

export { eventually } from '../helpers/eventually.js';

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

/**
 * The wait a RateLimitError names. The SDK keeps a 429's body (`data`) but drops its headers, so
 * Retry-After is out of reach; without `retryAfterSeconds` the per-token limit's 1 s is assumed.
 */
function sdkRetryAfter(o: Outcome<unknown>): number | undefined {
  if (o.ok || !(o.error instanceof RateLimitError)) return undefined;
  return retryAfterBody(o.error.data) ?? 1_000;
}

/** The SDK's HttpClient with every request method paced per credential (the HMAC is signed after the wait). */
export function pacedHttpClient(config: HttpClientConfig): HttpClient {
  const http = new HttpClient(config);
  const credential = config.hmacCredentials?.tokenId ?? config.apiKey;
  const lane = laneOf(config.baseURL ?? '', credential ?? 'public');
  const proto = HttpClient.prototype as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
  const self = http as unknown as Record<string, unknown>;
  for (const name of METHODS) {
    const original = proto[name];
    if (!original) continue;
    self[name] = (...args: unknown[]) =>
      paced(lane, () => original.apply(http, args), sdkRetryAfter, { arrival: config.hmacCredentials === undefined });
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
