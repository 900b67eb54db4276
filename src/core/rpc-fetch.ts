// The chain's JSON-RPC through HTTPS_PROXY / HTTP_PROXY / NO_PROXY, as REST and the stream go:
// viem's http transport and doctor's RPC check send with global fetch, which reads no proxy
// variable on Node 20 (and on 22 and 24 only with NODE_USE_ENV_PROXY). When a proxy applies to
// the RPC URL, this fetch sends the request with node:http(s) and the same proxy agents
// (src/core/proxy-agent.ts: a forwarded request for http://, a CONNECT tunnel for https://) and
// hands the answer back as a fetch Response. Without a proxy it is global fetch, untouched.
import type http from 'node:http';
import { NetworkError } from './errors.js';
import { proxyAuthError, proxyFor, proxyHint } from './proxy.js';
import type { ProxyRoute, ProxySettings } from './proxy.js';

export type FetchFn = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** Codes of a connection to the proxy that never got through (nothing reached the RPC). */
const UNREACHED = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

/**
 * The fetch that reaches `rpcUrl`, and the proxy it goes through (undefined: global fetch, direct).
 * @example const { fetchFn } = rpcFetch('https://mainnet.base.org', { httpsProxy: 'http://proxy:3128' });
 */
export function rpcFetch(rpcUrl: string, proxy: ProxySettings | undefined): { fetchFn: FetchFn; route: ProxyRoute | undefined } {
  const route = proxyFor(rpcUrl, proxy);
  if (route === undefined) return { fetchFn: (input, init) => fetch(input, init), route };
  const tunnel = new URL(rpcUrl).protocol === 'https:';
  let agent: Promise<http.Agent> | undefined;
  const fetchFn: FetchFn = async (input, init) => {
    agent ??= import('./proxy-agent.js').then((m) => m.proxyAgent(route.url, tunnel));
    return viaProxy(route, tunnel, await agent, input, init);
  };
  return { fetchFn, route };
}

function headersOf(init: RequestInit | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  new Headers(init?.headers).forEach((value, key) => {
    out[key] = value;
  });
  return out;
}

function bodyOf(init: RequestInit | undefined): string | Uint8Array | undefined {
  const b = init?.body;
  if (b === undefined || b === null) return undefined;
  if (typeof b === 'string' || b instanceof Uint8Array) return b;
  throw new TypeError('rpcFetch sends a string or bytes body only');
}

function viaProxy(
  route: ProxyRoute,
  tunnel: boolean,
  agent: http.Agent,
  input: string | URL | Request,
  init?: RequestInit,
): Promise<Response> {
  const url = new URL(input instanceof Request ? input.url : input);
  const mod = process.getBuiltinModule(tunnel ? 'node:https' : 'node:http') as typeof http;
  const body = bodyOf(init);
  return new Promise((resolve, reject) => {
    const req = mod.request(
      url,
      { method: init?.method ?? 'GET', headers: headersOf(init), agent, ...(init?.signal ? { signal: init.signal } : {}) },
      (res) => {
        if (res.statusCode === 407) {
          res.resume();
          reject(proxyAuthError(route));
          return;
        }
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', reject);
        res.on('end', () => {
          const headers = new Headers();
          for (const [k, v] of Object.entries(res.headers)) {
            if (typeof v === 'string') headers.set(k, v);
            else if (Array.isArray(v)) for (const x of v) headers.append(k, x);
          }
          const status = res.statusCode ?? 502;
          const empty = status === 204 || status === 304;
          resolve(new Response(empty ? null : Buffer.concat(chunks), { status, statusText: res.statusMessage ?? '', headers }));
        });
      },
    );
    req.on('error', (e: NodeJS.ErrnoException) => {
      if (e.code !== undefined && UNREACHED.has(e.code)) {
        // Every connection goes to the proxy: this one never reached it, so nothing reached the RPC.
        const ne = new NetworkError(`cannot reach the proxy ${route.shown} (${e.code}) for ${url.origin}`, {
          cause: e,
          hint: proxyHint(route, url.origin),
        });
        ne.ambiguous = false;
        reject(ne);
        return;
      }
      reject(e);
    });
    req.end(body);
  });
}
